import FlowKit
import Testing

@testable import FlowDemo

@MainActor
@Suite("Teardown")
struct TeardownTests {
    @Test(
        "Quitting after a flow finished but before the app root's task resumes: no crash, no leak",
        arguments: [
            ["logout"],  // the main flow finishes: the root's task would show a login flow
            [],  // the login flow finishes: the root's task would show the main flow
        ])
    func quitBeforeTheRootResumes(commandsFirst: [String]) async throws {
        // The root awaits each flow in a task. A flow that finishes resumes that task, which
        // runs on a later main-actor turn; if the runtime stops first (end of input right
        // after the command, on a busy machine), the task resumes with its node exited. It
        // must end there, not go on to use the exited root's dependencies (it used to
        // stop the binary with a fatal error; seen as a flaky transcript test).
        let app = try makeApp()
        _ = await app.start()
        let signingIn = commandsFirst.isEmpty
        if !signingIn { _ = await app.run("login alice wonderland") }
        // (In a block: the test's own references are gone before the count at quit.)
        if signingIn {
            let login = try #require(app.runtime.node(at: "app/login") as? LoginFlow)
            login.finish(with: try #require(Account.shipped.first))
        } else {
            try #require(app.runtime.focusedNode).send(LogoutRequested())
        }
        // No main-actor turn in between: the root's task has its result but has not run.
        let quit = await app.quitStep()

        #expect(app.runtime.isRunning == false)
        #expect(app.liveNodes.alive == 0)
        #expect(!quit.lines.contains { $0.text.contains("Error") })
    }

    @Test("Logging out from a detail screen deallocates every tab, stack, screen and the session")
    func logoutFromDetailReleasesMainSubtree() async throws {
        let app = try makeApp()
        _ = await app.start()
        _ = await app.run("login alice wonderland")
        _ = await app.run("select 5")
        _ = await app.run("fav")
        _ = await app.run("tab favourites")
        _ = await app.run("select 1")  // a detail on the favourites stack too
        weak let main = app.runtime.node(at: "app/main")
        weak let tabs = app.runtime.node(at: "app/main/tabs")
        weak let stack = app.runtime.node(at: "app/main/tabs/catalog")
        weak let list = app.runtime.node(at: "app/main/tabs/catalog/books/list")
        weak let detail = app.runtime.node(at: "app/main/tabs/catalog/book/detail")
        weak let favourites = app.runtime.node(at: "app/main/tabs/favourites")
        weak let favouritesList = app.runtime.node(at: "app/main/tabs/favourites/list")
        weak let favouriteDetail = app.runtime.node(at: "app/main/tabs/favourites/detail")
        weak let profile = app.runtime.node(at: "app/main/tabs/profile")
        weak let session = try app.runtime.node(at: "app/main")?.dependencies.require(
            SessionKey.self)
        #expect(main != nil && tabs != nil && stack != nil && list != nil && detail != nil)
        #expect(favourites != nil && favouritesList != nil && favouriteDetail != nil)
        #expect(profile != nil)
        #expect(session?.account.username == "alice")
        #expect(session?.viewedBookIDs == [5])
        #expect(session?.favouriteBookIDs == [5])
        // app, main, tabs, a split, its 2 columns, a stack, 2 lists, 2 details, profile
        #expect(app.liveNodes.alive == 12)

        let output = await app.echoAndRun("logout")

        #expect(
            output
                == [
                    "> logout",
                    "Alice signed out: the app root tore the main flow down and shows a new login flow.",
                    "The session is gone (checked with a weak reference).",
                ] + lines(loginPanel))
        #expect(main == nil)
        #expect(tabs == nil)
        #expect(stack == nil)
        #expect(list == nil)
        #expect(detail == nil)
        #expect(favourites == nil)
        #expect(favouritesList == nil)
        #expect(favouriteDetail == nil)
        #expect(profile == nil)
        #expect(session == nil)
        #expect(app.liveNodes.alive == 3)
        #expect(app.runtime.treeDescription() == "* app\n  * login\n    * form")
    }

    @Test("Back pops the detail through the platform's entry point and deallocates it")
    func backReleasesDetail() async throws {
        let app = try makeApp()
        _ = await app.start()
        _ = await app.run("login alice wonderland")
        _ = await app.run("select 1")
        weak let detail = app.runtime.node(at: "app/main/tabs/catalog/book/detail")
        #expect(detail != nil)
        app.runtime.trace.removeAll()

        _ = await app.run("back")

        #expect(detail == nil)
        #expect(
            app.runtime.trace.lines == [
                "exit app/main/tabs/catalog/book/detail",
                "change platformPop app/main/tabs/catalog -app/main/tabs/catalog/book/detail",
                "deactivate app/main/tabs/catalog/book",
                "activate app/main/tabs/catalog/books",
                "activate app/main/tabs/catalog/books/list",
            ])
        #expect(app.liveNodes.alive == 10)
    }

    @Test("The session is visible inside the main flow's subtree only")
    func sessionIsScopedToMainFlow() async throws {
        let app = try makeApp()
        _ = await app.start()
        _ = await app.run("login bob builder")
        let root = try #require(app.runtime.node(at: "app"))
        let list = try #require(app.runtime.node(at: "app/main/tabs/catalog/books/list"))

        #expect(root.dependencies.value(for: SessionKey.self) == nil)
        #expect(try list.dependencies.require(SessionKey.self).account.username == "bob")
        #expect(throws: FlowError.self) {
            try root.dependencies.require(SessionKey.self)
        }
    }

    @Test("Quitting stops the runtime and leaves no demo FlowController alive")
    func quitLeavesNothingAlive() async throws {
        let app = try makeApp()
        _ = await app.start()
        _ = await app.run("login alice wonderland")
        _ = await app.run("select 2")
        weak let root = app.runtime.node(at: "app")

        let output = await app.echoAndRun("quit")

        #expect(
            output == [
                "> quit",
                "Quitting: the runtime stops and every node exits, innermost first.",
                "FlowController instances still alive: 0 (13 created in this run).",
            ])
        #expect(root == nil)
        #expect(app.liveNodes.alive == 0)
        #expect(await app.run("tree") == ["The demo has quit."])
    }

    @Test("Signing in and out many times leaves only the login subtree alive")
    func repeatedSessionsDoNotAccumulate() async throws {
        let app = try makeApp()
        _ = await app.start()
        for round in 0..<20 {
            _ = await app.run(
                "login \(round.isMultiple(of: 2) ? "alice wonderland" : "bob builder")")
            _ = await app.run("select \(round + 1)")
            _ = await app.run(round.isMultiple(of: 3) ? "back" : "logout")
            if round.isMultiple(of: 3) { _ = await app.run("logout") }
        }

        #expect(app.liveNodes.alive == 3)
        // Each round: the main flow's 9 nodes (main, tabs, the catalog's split, a
        // and its 2 column stacks, a stack, 2 lists, profile), a detail, a new login flow and its form.
        #expect(app.liveNodes.created == 3 + 20 * 12)
    }
}
