import Testing

@testable import FlowKit

@MainActor
@Suite("Scene app")
struct SceneAppTests {
    @Test("Every scene's tree sees the app's values; a scene's own nodes override them")
    func appScope() throws {
        let (app, _) = try makeSceneApp()
        app.dependencies[SceneAccountKey.self] = "ada"
        let w1 = try app.connect("w1", value: FlowRoute(TestWindow.main))
        let w2 = try app.connect("w2", value: FlowRoute(TestWindow.book(id: 3)))
        let list = w1.runtime!.node(at: "main/list")!
        let detail = w2.runtime!.node(at: "book/detail")!
        #expect(list.dependencies[SceneAccountKey.self] == "ada")
        #expect(detail.dependencies[SceneAccountKey.self] == "ada")
        // A scene's root overrides it for its own tree only.
        w2.runtime!.root!.dependencies[SceneAccountKey.self] = "guest"
        #expect(detail.dependencies[SceneAccountKey.self] == "guest")
        #expect(list.dependencies[SceneAccountKey.self] == "ada")
        // A change of the app's value reaches every running tree.
        app.dependencies[SceneAccountKey.self] = "bob"
        #expect(list.dependencies[SceneAccountKey.self] == "bob")
        #expect(detail.dependencies[SceneAccountKey.self] == "guest")
        app.dependencies.removeValue(for: SceneAccountKey.self)
        #expect(list.dependencies[SceneAccountKey.self] == nil)
        #expect(app.dependencies.value(for: SceneAccountKey.self) == nil)
    }

    @Test("A factory and an entry guard see the app's values before the scene's tree enters")
    func appScopeBeforeEntry() throws {
        let app = FlowApp()
        app.dependencies[SceneAccountKey.self] = "ada"
        var seen: [String?] = []
        try app.register(String.self) { _, _ in
            let root = FlowController(name: "root")
            root.entryGuard = { [unowned root] in
                seen.append(root.dependencies[SceneAccountKey.self])
                return .allow
            }
            return root
        }
        try app.connect("w1", value: "main")
        #expect(seen == ["ada"])
    }

    @Test("An event no node of a scene handles reaches the app's handler with its scene, once")
    func appHandlers() throws {
        let (app, _) = try makeSceneApp()
        var calls: [String] = []
        app.on(SceneSignOut.self) { _, scene in calls.append("sign out from \(scene.id)") }
        let w1 = try app.connect("w1", value: FlowRoute(TestWindow.main))
        w1.runtime!.node(at: "main/list")!.send(SceneSignOut())
        #expect(calls == ["sign out from w1"])
        #expect(w1.runtime!.trace.lines.suffix(1) == ["send SceneSignOut from main/list"])
        #expect(app.trace.lines.last == "handled SceneSignOut at app (from scene w1)")
        // Without a handler it is unhandled, as in a lone runtime.
        app.removeHandler(for: SceneSignOut.self)
        var unhandled: [String] = []
        w1.runtime!.onUnhandledEvent = { event, _ in unhandled.append(event.traceName) }
        w1.runtime!.send(SceneSignOut())
        #expect(unhandled == ["SceneSignOut"])
        #expect(w1.runtime!.trace.lines.last == "unhandled SceneSignOut from main/list")
    }

    @Test("A handler that throws reports to the app's error sink and trace")
    func throwingHandler() throws {
        let (app, _) = try makeSceneApp()
        var failures: [String] = []
        app.onError = { failures.append("\($0)") }
        app.on(SceneSignOut.self) { _, _ in throw FlowError.runtimeNotStarted }
        let w1 = try app.connect("w1", value: FlowRoute(TestWindow.main))
        w1.runtime!.send(SceneSignOut())
        #expect(
            failures == [
                "handler SceneSignOut at scene w1 failed: the runtime has not been started; call start() first"
            ])
        #expect(
            app.trace.lines.last
                == "failed handler SceneSignOut in scene w1: the runtime has not been started; "
                + "call start() first")
    }

    @Test("Sign-out reaches every scene as one traced operation; secondary scenes close")
    func signOutEverywhere() throws {
        let (app, host) = try makeSceneApp()
        app.on(SceneSignOut.self) { _, scene in
            if scene.value != FlowRoute(TestWindow.main) { try scene.requestClose() }
        }
        app.dependencies[SceneAccountKey.self] = "ada"
        try app.connect("w1", value: FlowRoute(TestWindow.main))
        try app.connect("b3", value: FlowRoute(TestWindow.book(id: 3)))
        try app.connect("b4", value: FlowRoute(TestWindow.book(id: 4)))
        app.trace.removeAll()
        app.dependencies.removeValue(for: SceneAccountKey.self)
        let reached = app.broadcast(SceneSignOut())
        #expect(reached == ["w1", "b3", "b4"])
        #expect(host.calls == ["close b3", "close b4"])
        #expect(
            app.trace.lines == [
                "broadcast SceneSignOut to scenes [w1, b3, b4]",
                "handled SceneSignOut at app (from scene w1)",
                "handled SceneSignOut at app (from scene b3)",
                "handled SceneSignOut at app (from scene b4)",
            ])
    }

    @Test("Open in a new scene moves a route: the new scene builds it, the old one pops it")
    func openInNewScene() throws {
        let bag = WeakBag()
        let (app, host) = try makeSceneApp(bag: bag)
        let w1 = try app.connect("w1", value: FlowRoute(TestWindow.main))
        try w1.runtime!.navigate(to: bookLink(4).path)
        let movedID = w1.runtime!.node(at: "main/detail")!.id
        try app.openInNewScene(bookLink(4), from: "w1", removingFromSource: true)
        #expect(w1.runtime!.treeDescription() == "* main\n  * list")
        #expect(host.calls == ["open book(id: 4)"])
        let b4 = try app.connect("b4", value: FlowRoute(TestWindow.book(id: 4)), restoration: .none)
        let built = b4.runtime!.node(at: "book/detail")!
        #expect(built.id != movedID)  // nodes never move: the new scene built its own
        #expect(bag.alive.contains("detail 4") == false)
        #expect(
            app.trace.lines.contains(
                "move detail(id: 4) from scene w1 to a new scene (removed there)"))
        #expect(throws: FlowSceneError.routeNotFound(route: "detail(id: 4)", scene: "w1")) {
            try app.openInNewScene(bookLink(4), from: "w1", removingFromSource: true)
        }
    }

    @Test("Two apps in one process share nothing: scenes, values, handlers, deliveries, stores")
    func twoAppsAreIndependent() throws {
        let (first, firstHost) = try makeSceneApp()
        let (second, secondHost) = try makeSceneApp()
        first.dependencies[SceneAccountKey.self] = "ada"
        var firstCalls = 0
        first.on(SceneSignOut.self) { _, _ in firstCalls += 1 }
        let a = try first.connect("w1", value: FlowRoute(TestWindow.main))
        let b = try second.connect("w1", value: FlowRoute(TestWindow.main))  // the same identity
        try first.report(.enterForeground, for: "w1")
        try first.report(.activate, for: "w1")
        #expect(b.runtime!.node(at: "main/list")!.dependencies[SceneAccountKey.self] == nil)
        #expect(a.runtime!.node(at: "main/list")!.dependencies[SceneAccountKey.self] == "ada")
        b.runtime!.send(SceneSignOut())
        #expect(firstCalls == 0)
        #expect(second.focusedScene == nil)
        let delivery = FlowDeliveryID(source: "url", token: "1")
        try first.open(bookLink(4), delivery: delivery)
        #expect(try second.open(bookLink(4), delivery: delivery).rule != .duplicate)
        try first.report(.deactivate, for: "w1")
        try first.report(.enterBackground, for: "w1")
        try first.report(.disconnect, for: "w1")
        #expect((second.store as! FlowInMemorySceneStore).scenes.isEmpty)
        #expect(b.phase == .connected)
        #expect(firstHost.calls != secondHost.calls || firstHost.calls.isEmpty)
    }

    @Test("A closed scene, its tree and its nodes are released; so is an app with its scenes")
    func nothingLeaks() throws {
        let bag = WeakBag()
        do {
            let (app, _) = try makeSceneApp(bag: bag)
            let scene = try app.connect("w1", value: FlowRoute(TestWindow.main))
            try scene.runtime!.navigate(to: bookLink(4).path)
            bag.track(scene, "scene")
            bag.track(scene.runtime!, "runtime")
            try app.report(.close, for: "w1")
        }
        #expect(bag.alive.isEmpty)
        do {
            let (app, _) = try makeSceneApp(bag: bag)
            app.on(SceneSignOut.self) { _, scene in try scene.requestClose() }
            let scene = try app.connect("w1", value: FlowRoute(TestWindow.main))
            bag.track(app, "app")
            bag.track(scene, "scene 2")
            bag.track(scene.runtime!, "runtime 2")
        }
        #expect(bag.alive.isEmpty)
    }
}
