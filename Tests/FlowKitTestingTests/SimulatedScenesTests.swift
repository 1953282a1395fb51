import FlowKit
import FlowKitTesting
import Testing

enum SimWindow: Codable, Hashable, Sendable {
    case main
    case book(id: Int)
}

@MainActor
func makeSimApp() throws -> (FlowApp, SimulatedPlatform.SceneManager) {
    let app = FlowApp()
    try app.register(SimWindow.self, uniqueValues: true) { window, _ in
        let stack = FlowStack(name: "stack", route: "stack")
        stack.register(Int.self) { id, _ in FlowController(name: "book-\(id)") }
        stack.register("shelf") { FlowController(name: "shelf", route: "shelf") }
        switch window {
        case .main: stack.initialRoute = "shelf"
        case .book(let id): stack.initialRoute = FlowRoute(id)
        }
        return stack
    }
    return (app, SimulatedPlatform.SceneManager(app: app))
}

func simLink(_ id: Int) -> FlowLink {
    FlowLink([.child("shelf"), .push(id)], sceneValue: FlowRoute(SimWindow.book(id: id)))
}

@MainActor
@Suite("Simulated scenes")
struct SimulatedScenesTests {
    @Test("A launched window connects, comes to the foreground and is focused")
    func launch() throws {
        let (app, windows) = try makeSimApp()
        try windows.launch(FlowRoute(SimWindow.main))
        #expect(app.focusedScene?.id == "scene-1")
        #expect(
            app.trace.lines == [
                "scene scene-1 connected (main, fresh)", "scene scene-1 inactive",
                "scene scene-1 active",
            ])
    }

    @Test("The app's request for a window is carried out later, and the link runs there")
    func openRequestIsAsynchronous() throws {
        let (app, windows) = try makeSimApp()
        try windows.launch(FlowRoute(SimWindow.main))
        try windows.userCloses("scene-1")
        try app.open(simLink(12))
        #expect(windows.requests == ["open book(id: 12)"])
        #expect(app.scenes.isEmpty)
        windows.runUntilIdle()
        let book = try #require(app.scene("scene-2"))
        #expect(book.runtime?.treeDescription() == "* stack\n  * book-12")
        #expect(book.phase == .active)
        #expect(windows.illegalCalls.isEmpty)
    }

    @Test("The user's close reports what UIKit reports, in its order; the snapshot is gone")
    func userCloseSequence() throws {
        let (app, windows) = try makeSimApp()
        try windows.launch(FlowRoute(SimWindow.main))
        app.trace.removeAll()
        try windows.userCloses("scene-1")
        #expect(
            app.trace.lines == [
                "scene scene-1 inactive", "scene scene-1 background (snapshot saved)",
                "scene scene-1 disconnected (snapshot saved, tree stopped)",
                "scene scene-1 discarded (snapshot deleted)",
            ])
        #expect(try app.store.snapshot(of: "scene-1") == nil)
    }

    @Test("The system reclaims only background windows, and brings them back with their screens")
    func reclaimAndReconnect() throws {
        let (app, windows) = try makeSimApp()
        let scene = try windows.launch(FlowRoute(SimWindow.main))
        try scene.runtime!.navigate(to: simLink(7).path)
        #expect(throws: SimulatedPlatform.SceneManager.Refusal.self) {
            try windows.reclaim("scene-1")
        }
        try windows.sendToBackground("scene-1")
        try windows.reclaim("scene-1")
        #expect(scene.runtime == nil)
        try windows.reconnect("scene-1")
        #expect(scene.runtime?.treeDescription() == "* stack\n    shelf\n  * book-7")
        try windows.sendToBackground("scene-1")
        try windows.reclaim("scene-1")
        let moved = try windows.reconnect("scene-1", newIdentity: "scene-9")
        #expect(moved.runtime?.treeDescription() == "* stack\n    shelf\n  * book-7")
        #expect(app.scenes.map(\.id) == ["scene-9"])
    }

    @Test("Late data: a reconnected window waits for unlock; a link for it waits too")
    func lateDataAfterUnlock() throws {
        let (app, windows) = try makeSimApp()
        let scene = try windows.launch(FlowRoute(SimWindow.main))
        try scene.runtime!.navigate(to: simLink(7).path)
        try windows.sendToBackground("scene-1")
        try windows.reclaim("scene-1")
        try windows.reconnect("scene-1", lateData: true)
        #expect(scene.isRestoring)
        #expect(try app.open(simLink(7)).rule == .waitsForRestoration)
        try windows.unlock()
        #expect(!scene.isRestoring)
        #expect(scene.runtime?.treeDescription() == "* stack\n    shelf\n  * book-7")
        #expect(app.trace.lines.last == "route link 7: showsTarget scene scene-1: it shows 7")
        windows.runUntilIdle()
        #expect(windows.requests == ["activate scene-1"])
        #expect(scene.phase == .active)
    }

    @Test("Asking for a session that is gone is an illegal call, as UIKit's error handler says")
    func unknownSessions() throws {
        let (app, windows) = try makeSimApp()
        windows.activateScene("scene-5")
        windows.closeScene("scene-6")
        windows.runUntilIdle()
        #expect(
            windows.illegalCalls == [
                "activate scene-5: no such session", "close scene-6: no such session",
            ])
        #expect(app.scenes.isEmpty)
    }
}

extension SimulatedScenesTests {
    @Test("With transition rules, each window's tree is shown by a strict platform of its own")
    func windowsWithTransitions() throws {
        let app = FlowApp()
        try app.register(SimWindow.self, uniqueValues: true) { window, _ in
            let stack = FlowStack(name: "stack", route: "stack")
            stack.register(Int.self) { id, _ in FlowController(name: "book-\(id)") }
            stack.register("shelf") { FlowController(name: "shelf", route: "shelf") }
            stack.initialRoute = "shelf"
            return stack
        }
        let windows = SimulatedPlatform.SceneManager(app: app, transitionRules: .uiKit)
        let scene = try windows.launch(FlowRoute(SimWindow.main))
        try scene.runtime!.navigate(to: simLink(3).path)
        try scene.runtime!.navigate(to: simLink(4).path)  // during the first push
        windows.runUntilIdle()
        let platform = try #require(windows.platforms["scene-1"])
        #expect(platform.differences(from: scene.runtime!).isEmpty)
        try windows.sendToBackground("scene-1")
        try windows.reclaim("scene-1")
        try windows.reconnect("scene-1")
        windows.runUntilIdle()
        #expect(windows.platforms["scene-1"] !== platform)  // a new runtime, a new platform
        #expect(windows.platforms["scene-1"]!.differences(from: scene.runtime!).isEmpty)
        #expect(windows.windowIllegalCalls.isEmpty)
        #expect(windows.illegalCalls.isEmpty)
        #expect(windows.violations().isEmpty)
    }

    @Test(
        "violations() finds a node in two scenes, a reclaimed scene without a snapshot, a kept one")
    func violationsAreFound() throws {
        let (app, windows) = try makeSimApp()
        try windows.launch(FlowRoute(SimWindow.main))
        try windows.launch(FlowRoute(SimWindow.book(id: 2)))
        #expect(windows.violations().isEmpty)
        try windows.sendToBackground("scene-2")
        try windows.reclaim("scene-2")
        try windows.discard("scene-2")
        #expect(windows.violations().isEmpty)
        // A store that keeps what it was told to delete breaks the contract.
        let stale = FlowSceneSnapshot(
            scene: "scene-2", value: try FlowSnapshot.Route(FlowRoute(SimWindow.book(id: 2))),
            tree: try app.scene("scene-1")!.runtime!.snapshot())
        try app.store.save(stale)
        #expect(windows.violations() == ["scene scene-2 is gone but its snapshot is kept"])
    }
}
