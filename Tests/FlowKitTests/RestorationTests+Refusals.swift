import FlowKit
import Foundation
import Testing

@MainActor
@Suite("Restoration: what guards refuse is left out, or the restoration fails whole")
struct RestorationRefusalTests {
    @Test("A stack entry whose guard refuses is not restored, nor the entries above it")
    func refusedStackEntry() throws {
        let snapshot = try makeSavedApp(world: RestoreWorld()).snapshot()
        let world = RestoreWorld()
        world.refused = ["detail(id: 2)"]
        let runtime = try FlowRuntime(root: world.makeApp())
        let report = try runtime.start(restoring: snapshot, routeTypes: [LoginStep.self])
        #expect(
            report.skipped == [
                .init(path: "app/main/tabs/catalog/detail", reason: "detail(id: 2) is refused"),
                .init(
                    path: "app/main/tabs/catalog/review",
                    reason: "an entry below it was not restored"),
            ])
        let catalog = try #require(runtime.node(at: "app/main/tabs/catalog") as? FlowStack)
        #expect(
            catalog.entries.map(\.route) == [FlowRoute(Shelf.list), FlowRoute(Shelf.detail(id: 1))])
        #expect(runtime.node(at: "app/main/tabs/search")?.state == .entered)
        #expect(world.guardCalls["detail(id: 2)"] == 1)
        #expect(world.guardCalls["review(id: 2, stars: 5)"] == nil)
        #expect(world.guardCalls.values.allSatisfy { $0 == 1 })
        #expect(
            runtime.trace.records.contains(
                .notRestored(
                    node: "app/main/tabs/catalog/detail", reason: "detail(id: 2) is refused")))
        // The refused node and everything built for it are released.
        #expect(!world.bag.alive.contains { $0.contains("detail(id: 2)") || $0.contains("review") })
    }

    @Test("A bottom entry refused leaves the stack to its defaults (its initial route)")
    func refusedBottomEntry() throws {
        let snapshot = try makeSavedApp(world: RestoreWorld()).snapshot()
        let world = RestoreWorld()
        world.refused = ["list"]
        let main = world.makeMain(session: nil)
        let catalog = main.children[0].children[0] as! FlowStack
        catalog.initialRoute = FlowRoute(Shelf.detail(id: 9))
        let runtime = try FlowRuntime(root: world.makeApp(initial: main))
        let report = try runtime.start(restoring: snapshot, routeTypes: [LoginStep.self])
        #expect(report.skipped.map(\.path).first == "app/main/tabs/catalog/list")
        #expect(report.skipped.count == 4)
        #expect(catalog.entries.map(\.route) == [FlowRoute(Shelf.detail(id: 9))])
        #expect(world.guardCalls["detail(id: 9)"] == 1)
        #expect(world.guardCalls["list"] == 1)
    }

    @Test("A presented node whose guard refuses is not presented; the rest is restored")
    func refusedPresentedNode() throws {
        let snapshot = try makeSavedApp(world: RestoreWorld()).snapshot()
        let world = RestoreWorld()
        world.refused = ["share(id: 2)"]
        let runtime = try FlowRuntime(root: world.makeApp())
        let report = try runtime.start(restoring: snapshot, routeTypes: [LoginStep.self])
        #expect(
            report.skipped == [
                .init(
                    path: "app/main/tabs/catalog/review/share", reason: "share(id: 2) is refused")
            ])
        let review = try #require(runtime.node(at: "app/main/tabs/catalog/review"))
        #expect(review.presentedChild == nil)
        #expect(review.state == .entered)
        #expect(world.guardCalls["share(id: 2)"] == 1)
        #expect(!world.bag.alive.contains { $0.hasPrefix("share") })
    }

    @Test("A presented node without a route is left out and reported; the rest is restored")
    func routelessPresentedNode() throws {
        let world = RestoreWorld()
        let live = try makeSavedApp(world: world)
        let review = try #require(live.node(at: "app/main/tabs/catalog/review"))
        try review.dismiss()
        try review.present(FlowController(name: "note"))  // by instance: no route
        let snapshot = try live.snapshot()
        let runtime = try FlowRuntime(root: RestoreWorld().makeApp())
        let report = try runtime.start(restoring: snapshot, routeTypes: [LoginStep.self])
        #expect(
            report.skipped == [
                .init(
                    path: "app/main/tabs/catalog/review/note",
                    reason: "it has no route and the app composes no node at its place")
            ])
        let restored = try #require(runtime.node(at: "app/main/tabs/catalog/review"))
        #expect(restored.presentedChild == nil)
        #expect(restored.state == .entered)
    }

    @Test("An embedded child whose guard refuses is dropped; its parent gets its defaults")
    func refusedEmbeddedChild() throws {
        let snapshot = try makeSavedApp(world: RestoreWorld()).snapshot()
        let world = RestoreWorld()
        world.refused = ["main"]
        let runtime = try FlowRuntime(root: world.makeApp())
        let report = try runtime.start(restoring: snapshot, routeTypes: [LoginStep.self])
        #expect(report.skipped == [.init(path: "app/main", reason: "main is refused")])
        #expect(report.restoredCount == 1)
        // The app's initial route: login, with its own defaults, each guard asked once.
        #expect(runtime.focusedNode?.path == "app/login/steps/welcome")
        #expect(world.guardCalls == ["app": 1, "main": 1, "login": 1, "steps": 1, "welcome": 1])
        #expect(!world.bag.alive.contains { $0.hasPrefix("main") || $0.hasPrefix("tabs") })
    }

    @Test("A redirecting guard is a refusal for restoration (nothing is kept to replay)")
    func redirectingGuard() throws {
        let snapshot = try makeSavedApp(world: RestoreWorld()).snapshot()
        let world = RestoreWorld()
        let main = world.makeMain(session: nil)
        main.entryGuard = { .redirect(to: [.child("login")]) }
        let runtime = try FlowRuntime(root: world.makeApp(initial: main))
        // main's state is restored, but the guard above replaced the counting one.
        let report = try runtime.start(restoring: snapshot, routeTypes: [LoginStep.self])
        #expect(report.skipped == [.init(path: "app/main", reason: "redirected to login")])
        #expect(main.state == .exited)
        #expect(runtime.focusedNode?.path == "app/login/steps/welcome")
    }

    @Test("A tab's guard cannot leave the tab out: the restoration fails and changes nothing")
    func refusedTab() throws {
        let snapshot = try makeSavedApp(world: RestoreWorld()).snapshot()
        let world = RestoreWorld()
        world.refused = ["search"]
        let app = world.makeApp()
        let runtime = try FlowRuntime(root: app)
        let before = composition(of: app)
        #expect(
            throws: FlowError.entryRefused(
                node: "app/main/tabs/search", reason: "search is refused")
        ) {
            try runtime.start(restoring: snapshot, routeTypes: [LoginStep.self])
        }
        #expect(!runtime.isRunning)
        #expect(composition(of: app) == before)
        #expect(world.bag.alive == ["app app"])
        world.refused = []
        try runtime.start()
        #expect(runtime.focusedNode?.path == "app/login/steps/welcome")
    }

    @Test("A guard of a default built below a restored node refuses: nothing changes")
    func refusedDefault() throws {
        let snapshot = try makeSavedApp(world: RestoreWorld()).snapshot()
        let world = RestoreWorld()
        world.refused = ["main", "login"]
        let app = world.makeApp()
        let runtime = try FlowRuntime(root: app)
        #expect(throws: FlowError.entryRefused(node: "app/login", reason: "login is refused")) {
            try runtime.start(restoring: snapshot, routeTypes: [LoginStep.self])
        }
        #expect(!runtime.isRunning)
        #expect(app.children.isEmpty)
        #expect(runtime.recordedHistory(at: "app/login") == nil)
        #expect(world.bag.alive == ["app app"])
    }
}
