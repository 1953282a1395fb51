import FlowDemo
import FlowKit
import FlowKitTesting
import Testing

/// The demo's flows driven through FlowKitTesting's harness: every change, event delivery
/// and lifecycle step of login → list → detail → back → detail → logout is accounted for,
/// and the leak tracker proves the main flow's nodes and session are released.
@MainActor
@Suite("Demo through the harness")
struct DemoHarnessTests {
    @Test("Login, list, detail, back, detail and logout: every step accounted for")
    func loginListDetailLogout() async throws {
        let app = try makeApp()
        _ = await app.start()
        // The app root enters alone; its task then shows the login flow and awaits it. (The
        // demo's window connects at the start, so its runtime exists from then on: the
        // harness watches it from there.)
        #expect(
            app.runtime.trace.lines == [
                "enter app", "change start +app", "activate app", "enter app/login",
                "enter app/login/form", "change switch app +app/login", "activate app/login",
                "activate app/login/form",
            ])
        let harness = FlowTestHarness(runtime: app.runtime)

        await harness.perform { _ = await app.run("login alice wonderland") }
        harness.expect(signInRecords)
        harness.expectTree(
            """
            * app
              * main
                * tabs
                  * catalog
                    * books
                      * list
                      book
                    favourites
                      list
                    profile
            """)
        trackMainFlow(harness)

        await harness.perform { _ = await app.run("select 1") }
        harness.expect(openDetailRecords(covering: "app/main/tabs/catalog/books/list"))
        harness.leaks.track(harness.node("app/main/tabs/catalog/book/detail"))

        await harness.perform { _ = await app.run("back") }  // the platform's back button
        harness.expect([
            .exit("app/main/tabs/catalog/book/detail"),
            .change(
                .platformPop, "app/main/tabs/catalog", exited: ["app/main/tabs/catalog/book/detail"]
            ),
            .deactivate("app/main/tabs/catalog/book"),
            .activate("app/main/tabs/catalog/books"),
            .activate("app/main/tabs/catalog/books/list"),
        ])
        harness.leaks.expectReleased(under: "app/main/tabs/catalog/book/detail")

        await harness.perform { _ = await app.run("select 6") }
        harness.expect(openDetailRecords(covering: "app/main/tabs/catalog/books/list"))
        harness.leaks.track(harness.node("app/main/tabs/catalog/book/detail"))

        await harness.perform { _ = await app.run("logout") }
        harness.expect([
            .send(event: "LogoutRequested", from: "app/main/tabs/catalog/book/detail"),
            .finished(flow: "app/main", awaitedAt: "app"),
            .handled(event: "LogoutRequested", at: "app/main"),
            .exit("app/main/tabs/profile"),
            .exit("app/main/tabs/favourites/list"),
            .exit("app/main/tabs/favourites"),
            .exit("app/main/tabs/catalog/book/detail"),
            .exit("app/main/tabs/catalog/book"),
            .exit("app/main/tabs/catalog/books/list"),
            .exit("app/main/tabs/catalog/books"),
            .exit("app/main/tabs/catalog"),
            .exit("app/main/tabs"),
            .exit("app/main"),
            .enter("app/login"),
            .enter("app/login/form"),
            .change(.switch, "app", exited: ["app/main"], entered: ["app/login"]),
            .activate("app/login"),
            .activate("app/login/form"),
        ])
        harness.expectTree(
            """
            * app
              * login
                * form
            """)
        harness.leaks.expectReleased(under: "app/main")
        harness.finish()
        #expect(harness.leaks.trackedCount == 12)  // the main flow's 9 nodes, 2 details, session
        #expect(harness.leaks.aliveObjects.isEmpty)
    }

    @Test("A wrong password sends nothing and changes nothing")
    func wrongPasswordChangesNothing() async throws {
        let app = try makeApp()
        _ = await app.start()
        let harness = FlowTestHarness(runtime: app.runtime)
        await harness.perform { _ = await app.run("login alice secret") }
        harness.expectNothingReceived()
        harness.expectTree(
            """
            * app
              * login
                * form
            """)
        harness.finish()
    }

    @Test("The lockout refuses even the right password until the clock moves on")
    func lockoutThenSignIn() async throws {
        let clock = ManualDemoClock()
        let app = try makeApp(clock: clock)
        _ = await app.start()
        let harness = FlowTestHarness(runtime: app.runtime)
        for _ in 0..<3 { await harness.perform { _ = await app.run("login bob wrong") } }
        await harness.perform { _ = await app.run("login bob builder") }
        harness.expectNothingReceived()
        clock.advance(by: .seconds(10))
        await harness.perform { _ = await app.run("login bob builder") }
        harness.expect(signInRecords)
        harness.finish()
    }

    @Test("Ten sign-in and sign-out rounds release every main flow, stack, screen and session")
    func repeatedRoundsLeakNothing() async throws {
        let app = try makeApp()
        _ = await app.start()
        // Coarse: this test is about memory, so only the changes are checked.
        let harness = FlowTestHarness(runtime: app.runtime, exhaustivity: .off)
        for round in 1...10 {
            await harness.perform { _ = await app.run("login alice wonderland") }
            trackMainFlow(harness)
            await harness.perform { _ = await app.run("select \(round)") }
            harness.leaks.track(harness.node("app/main/tabs/catalog/book/detail"))
            await harness.perform { _ = await app.run("logout") }
            harness.expect([
                .change(.switch, "app", exited: ["app/login"], entered: ["app/main"]),
                .change(.platformCollapse, "app/main/tabs/catalog"),
                .change(
                    .show, "app/main/tabs/catalog", entered: ["app/main/tabs/catalog/book/detail"]),
                .change(.switch, "app", exited: ["app/main"], entered: ["app/login"]),
            ])
            harness.leaks.expectReleased(under: "app/main")
        }
        harness.finish()
        #expect(harness.leaks.trackedCount == 110)
        #expect(harness.leaks.aliveObjects.isEmpty)
        // The demo's own count agrees: app, login flow and form are all that is left.
        #expect(app.liveNodes.alive == 3)
    }

    @Test("Quitting exits the whole tree innermost first and releases every node")
    func quitReleasesEverything() async throws {
        let app = try makeApp()
        _ = await app.start()
        let harness = FlowTestHarness(runtime: app.runtime)
        await harness.perform { _ = await app.run("login alice wonderland") }
        harness.skipReceived()
        harness.leaks.trackSubtree(harness.node("app"))
        await harness.perform { _ = await app.quit() }
        harness.expect([
            .exit("app/main/tabs/profile"),
            .exit("app/main/tabs/favourites/list"),
            .exit("app/main/tabs/favourites"),
            .exit("app/main/tabs/catalog/book"),
            .exit("app/main/tabs/catalog/books/list"),
            .exit("app/main/tabs/catalog/books"),
            .exit("app/main/tabs/catalog"),
            .exit("app/main/tabs"),
            .exit("app/main"),
            .cancelled(
                flow: "app/main", awaitedAt: "app", reason: "it left without finishing"),
            .exit("app"),
            .change(.stop, "", exited: ["app"]),
        ])
        harness.expectTree("")
        harness.finish()
        harness.leaks.expectAllReleased()
        #expect(app.liveNodes.alive == 0)
    }

    /// What signing in does: the form's event makes the login flow finish, its result goes
    /// to the app root's `run`, and the app root switches from the login flow to a new main
    /// flow.
    private var signInRecords: [FlowTraceRecord] {
        [
            .send(event: "CredentialsAccepted", from: "app/login/form"),
            .finished(flow: "app/login", awaitedAt: "app"),
            .handled(event: "CredentialsAccepted", at: "app/login"),
            .exit("app/login/form"),
            .exit("app/login"),
            .enter("app/main"),
            .enter("app/main/tabs"),
            .enter("app/main/tabs/catalog"),
            .enter("app/main/tabs/catalog/books"),
            .enter("app/main/tabs/catalog/books/list"),
            .enter("app/main/tabs/catalog/book"),
            .enter("app/main/tabs/favourites"),
            .enter("app/main/tabs/favourites/list"),
            .enter("app/main/tabs/profile"),
            .change(.switch, "app", exited: ["app/login"], entered: ["app/main"]),
            .activate("app/main"),
            .activate("app/main/tabs"),
            .activate("app/main/tabs/catalog"),
            .activate("app/main/tabs/catalog/books"),
            .activate("app/main/tabs/catalog/books/list"),
            .activate("app/main/tabs/catalog/book"),
            // The split reads the layout as it enters: 80 columns, so the platform collapses
            // it into one stack, and the empty book column resigns.
            .change(.platformCollapse, "app/main/tabs/catalog"),
            .deactivate("app/main/tabs/catalog/book"),
        ]
    }

    /// What selecting a book does: the list's event reaches the catalog's split, which shows
    /// a detail screen in its book column; collapsed, that column comes on top of `below`.
    private func openDetailRecords(covering below: String) -> [FlowTraceRecord] {
        [
            .send(event: "BookSelected", from: "app/main/tabs/catalog/books/list"),
            .enter("app/main/tabs/catalog/book/detail"),
            .change(.show, "app/main/tabs/catalog", entered: ["app/main/tabs/catalog/book/detail"]),
            .deactivate(below),
            .deactivate("app/main/tabs/catalog/books"),
            .activate("app/main/tabs/catalog/book"),
            .activate("app/main/tabs/catalog/book/detail"),
            .handled(event: "BookSelected", at: "app/main/tabs/catalog"),
        ]
    }

    /// Tracks the main flow, its tabs with their stacks and screens, and the session in the
    /// main flow's scope, without keeping a reference in the test.
    private func trackMainFlow(_ harness: FlowTestHarness) {
        harness.leaks.trackSubtree(harness.node("app/main"))
        let main = harness.node("app/main")
        if let session = try? main.dependencies.require(SessionKey.self) {
            harness.leaks.track(session, ownedBy: main)
        } else {
            Issue.record("The main flow has no session")
        }
    }
}
