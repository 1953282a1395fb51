import Testing

@testable import FlowKit

@MainActor
@Suite("Scene lifecycle")
struct SceneLifecycleTests {
    @Test("A connected scene runs the tree its factory built for its value")
    func connectBuildsTheTree() throws {
        let (app, _) = try makeSceneApp()
        let scene = try app.connect("w1", value: FlowRoute(TestWindow.main), restoration: .none)
        #expect(scene.phase == .connected)
        #expect(scene.runtime?.treeDescription() == "* main\n  * list")
        #expect(app.scenes.map(\.id) == ["w1"])
        #expect(app.trace.lines == ["scene w1 connected (main, fresh)"])
    }

    @Test("The platform's facts move a scene through its phases, as the rules table says")
    func factsFollowTheTable() throws {
        let (app, _) = try makeSceneApp()
        try app.connect("w1", value: FlowRoute(TestWindow.main))
        try app.report(.enterForeground, for: "w1")
        try app.report(.activate, for: "w1")
        #expect(app.focusedScene?.id == "w1")
        try app.report(.deactivate, for: "w1")
        #expect(app.focusedScene == nil)
        try app.report(.enterBackground, for: "w1")
        try app.report(.disconnect, for: "w1")
        try app.report(.discard, for: "w1")
        #expect(
            app.trace.lines == [
                "scene w1 connected (main, fresh)",
                "scene w1 inactive",
                "scene w1 active",
                "scene w1 inactive",
                "scene w1 background (snapshot saved)",
                "scene w1 disconnected (snapshot saved, tree stopped)",
                "scene w1 discarded (snapshot deleted)",
            ])
        #expect(app.scenes.isEmpty)
    }

    @Test(
        "A fact the platform never reports in a phase throws and changes nothing",
        arguments: [
            (FlowSceneFact.activate, FlowScenePhase.connected),
            (.discard, .connected),
            (.deactivate, .connected),
        ])
    func illegalFactThrows(fact: FlowSceneFact, phase: FlowScenePhase) throws {
        let (app, _) = try makeSceneApp()
        try app.connect("w1", value: FlowRoute(TestWindow.main))
        let before = app.trace.lines
        #expect(throws: FlowSceneError.illegalFact(scene: "w1", phase: phase, fact: fact)) {
            try app.report(fact, for: "w1")
        }
        #expect(app.scene("w1")?.phase == phase)
        #expect(app.trace.lines == before)
        #expect(throws: FlowSceneError.noSuchScene("w9")) { try app.report(.activate, for: "w9") }
    }

    @Test(
        "Every phase and fact pair of the table: a phase, or nil where the platform never reports it"
    )
    func tableIsComplete() {
        var rows: [String] = []
        for phase in [FlowScenePhase.connected, .inactive, .active, .background, .disconnected] {
            let cells = FlowSceneFact.allCases.map { fact in
                fact.phase(from: phase).map(\.rawValue) ?? "-"
            }
            rows.append("\(phase): " + cells.joined(separator: " "))
        }
        // enterForeground activate deactivate enterBackground disconnect discard close
        #expect(
            rows == [
                "connected: inactive - - background disconnected - closed",
                "inactive: - active - background disconnected - closed",
                "active: - - inactive - - - closed",
                "background: inactive - - - disconnected - closed",
                "disconnected: - - - - - discarded -",
            ])
        for fact in FlowSceneFact.allCases {
            #expect(fact.phase(from: .discarded) == nil)
            #expect(fact.phase(from: .closed) == nil)
        }
    }

    @Test("Disconnect then reconnect restores the same tree, and the disconnected tree is released")
    func disconnectThenReconnect() throws {
        let bag = WeakBag()
        let (app, _) = try makeSceneApp(bag: bag)
        let scene = try app.connect("w1", value: FlowRoute(TestWindow.main))
        try scene.runtime!.navigate(to: [.child(TestScreen.list), .push(TestScreen.detail(id: 7))])
        let before = scene.runtime!.treeDescription()
        SceneScreen.exits = []
        try app.report(.disconnect, for: "w1")  // saves the snapshot itself
        #expect(scene.runtime == nil)
        #expect(scene.phase == .disconnected)
        #expect(SceneScreen.exits == ["detail", "list"])  // exit hooks ran, innermost first
        #expect(bag.alive.isEmpty)
        #expect(app.scenes.map(\.id) == ["w1"])  // kept: it may come back

        let back = try app.connect("w1")
        #expect(back === scene)
        #expect(back.runtime?.treeDescription() == before)
        #expect(
            app.trace.lines.suffix(2) == [
                "scene w1 disconnected (snapshot saved, tree stopped)",
                "scene w1 connected (main, restored)",
            ])
    }

    @Test(
        "A scene the system brings back under a new identity restores, and the old identity is gone"
    )
    func reconnectUnderNewIdentity() throws {
        let store = FlowInMemorySceneStore()
        let (app, _) = try makeSceneApp(store: store)
        let scene = try app.connect("w1", value: FlowRoute(TestWindow.main))
        try scene.runtime!.navigate(to: [.child(TestScreen.list), .push(TestScreen.detail(id: 7))])
        try app.report(.disconnect, for: "w1")
        let back = try app.connect("w2", restoration: .storedUnder("w1"))
        #expect(back.runtime?.treeDescription() == "* main\n    list\n  * detail")
        #expect(app.scenes.map(\.id) == ["w2"])
        #expect(store.scenes.keys.sorted() == ["w2"])
    }

    @Test("A discarded scene leaves no snapshot; a scene it was never saved for restores fresh")
    func discardDeletesTheSnapshot() throws {
        let store = FlowInMemorySceneStore()
        let (app, _) = try makeSceneApp(store: store)
        let scene = try app.connect("w1", value: FlowRoute(TestWindow.main))
        try scene.runtime!.navigate(to: [.child(TestScreen.list), .push(TestScreen.detail(id: 7))])
        try app.report(.disconnect, for: "w1")
        #expect(store.scenes["w1"] != nil)
        try app.report(.discard, for: "w1")
        #expect(store.scenes["w1"] == nil)
        #expect(app.scene("w1") == nil)
        #expect(store.app?.scenes.map(\.id) == [])
        let again = try app.connect("w1", value: FlowRoute(TestWindow.main))
        #expect(again !== scene)
        #expect(again.runtime?.treeDescription() == "* main\n  * list")
    }

    @Test("A user close stops the tree without saving and deletes the snapshot; a reclaim keeps it")
    func userCloseDiffersFromReclaim() throws {
        let store = FlowInMemorySceneStore()
        let bag = WeakBag()
        let (app, _) = try makeSceneApp(store: store, bag: bag)
        try app.connect("w1", value: FlowRoute(TestWindow.main))
        try app.connect("w2", value: FlowRoute(TestWindow.main))
        try app.report(.enterBackground, for: "w1")
        try app.report(.enterBackground, for: "w2")
        try app.report(.disconnect, for: "w1")  // the system reclaims w1
        try app.report(.close, for: "w2")  // the user closes w2
        #expect(store.scenes.keys.sorted() == ["w1"])
        #expect(app.scenes.map(\.id) == ["w1"])
        #expect(app.scene("w1")?.phase == .disconnected)
        #expect(bag.alive.isEmpty)
        #expect(
            app.trace.lines.suffix(2) == [
                "scene w1 disconnected (snapshot saved, tree stopped)",
                "scene w2 closed (tree stopped, snapshot deleted)",
            ])
        #expect(throws: FlowSceneError.noSuchScene("w2")) {
            try app.report(.enterForeground, for: "w2")
        }
    }

    @Test(
        "Late restoration data: the scene shows its placeholder, then restores when the data arrives"
    )
    func lateRestorationData() throws {
        let store = FlowInMemorySceneStore()
        let (app, _) = try makeSceneApp(store: store, placeholder: true)
        let scene = try app.connect("w1", value: FlowRoute(TestWindow.main))
        try scene.runtime!.navigate(to: [.child(TestScreen.list), .push(TestScreen.detail(id: 7))])
        try app.report(.disconnect, for: "w1")
        let saved = try #require(store.scenes["w1"])

        let late = try app.connect("w1", restoration: .later)
        #expect(late.isRestoring)
        #expect(late.runtime?.treeDescription() == "* placeholder")
        #expect(throws: FlowSceneError.noSuchScene("w2")) {
            try app.restorationDidArrive(for: "w2", snapshot: saved)
        }
        try app.restorationDidArrive(for: "w1", snapshot: saved)
        #expect(!late.isRestoring)
        #expect(late.runtime?.treeDescription() == "* main\n    list\n  * detail")
        #expect(
            app.trace.lines.suffix(2) == [
                "scene w1 connected (main, waiting for restoration data)",
                "scene w1 connected (restored from late data)",
            ])
        #expect(throws: FlowSceneError.notRestoring("w1")) {
            try app.restorationDidArrive(for: "w1", snapshot: saved)
        }
    }

    @Test("A snapshot that does not restore throws a typed error and changes nothing")
    func failedRestorationChangesNothing() throws {
        let store = FlowInMemorySceneStore()
        let (app, _) = try makeSceneApp(store: store, placeholder: true)
        let scene = try app.connect("w1", value: FlowRoute(TestWindow.main))
        try app.report(.disconnect, for: "w1")
        var damaged = try #require(store.scenes["w1"])
        damaged.tree.version = 99
        let lines = app.trace.lines
        #expect(throws: FlowSceneError.self) {
            try app.connect("w1", restoration: .snapshot(damaged))
        }
        #expect(scene.phase == .disconnected)
        #expect(scene.runtime == nil)
        #expect(app.trace.lines == lines)

        try app.connect("w1", restoration: .later)
        #expect(throws: FlowSceneError.self) {
            try app.restorationDidArrive(for: "w1", snapshot: damaged)
        }
        #expect(scene.isRestoring)
        #expect(scene.runtime?.treeDescription() == "* placeholder")
        try app.restorationDidArrive(for: "w1", snapshot: nil)  // start fresh instead
        #expect(scene.runtime?.treeDescription() == "* main\n  * list")
    }

    @Test("Connecting twice, an unknown value and a missing factory are typed errors")
    func badConnects() throws {
        let (app, _) = try makeSceneApp()
        try app.connect("w1", value: FlowRoute(TestWindow.main))
        #expect(throws: FlowSceneError.alreadyConnected("w1")) {
            try app.connect("w1", value: FlowRoute(TestWindow.main))
        }
        #expect(throws: FlowSceneError.unknownSceneValue("w2")) { try app.connect("w2") }
        #expect(throws: FlowSceneError.noSceneFactory(value: "42")) {
            try app.connect("w2", value: FlowRoute(42))
        }
        #expect(throws: FlowSceneError.sceneFactoryExists(type: "FlowKitTests.TestWindow")) {
            try app.register(TestWindow.self) { _, _ in FlowController(name: "x") }
        }
        #expect(app.scenes.map(\.id) == ["w1"])
    }

    @Test("The app's own snapshot lists its scenes with their values and phases")
    func appSnapshotListsScenes() throws {
        let (app, _) = try makeSceneApp()
        try app.connect("w1", value: FlowRoute(TestWindow.main))
        try app.connect("w2", value: FlowRoute(TestWindow.book(id: 3)))
        try app.report(.disconnect, for: "w2")
        let saved = try app.savedScenes()
        #expect(saved.map(\.id) == ["w1", "w2"])
        #expect(saved.map(\.phase) == [.connected, .disconnected])
        #expect(saved.map(\.value.type) == ["FlowKitTests.TestWindow", "FlowKitTests.TestWindow"])
    }
}

/// A store that fails when told to.
@MainActor
final class FailingSceneStore: FlowSceneStore {
    struct Broken: Error, CustomStringConvertible {
        var description: String { "the disk is full" }
    }
    var fails = false
    let inner = FlowInMemorySceneStore()

    func snapshot(of scene: FlowSceneID) throws -> FlowSceneSnapshot? {
        if fails { throw Broken() }
        return inner.snapshot(of: scene)
    }
    func save(_ snapshot: FlowSceneSnapshot) throws {
        if fails { throw Broken() }
        inner.save(snapshot)
    }
    func deleteSnapshot(of scene: FlowSceneID) throws {
        if fails { throw Broken() }
        inner.deleteSnapshot(of: scene)
    }
    func appSnapshot() throws -> FlowAppSnapshot? {
        if fails { throw Broken() }
        return inner.appSnapshot()
    }
    func save(_ snapshot: FlowAppSnapshot) throws {
        if fails { throw Broken() }
        inner.save(snapshot)
    }
}

extension SceneLifecycleTests {
    @Test(
        "A store that fails: a restoring connect throws and changes nothing; a failed save is reported"
    )
    func failingStore() throws {
        let store = FailingSceneStore()
        let (app, _) = try makeSceneApp(store: store)
        var failures: [String] = []
        app.onError = { failures.append("\($0)") }
        try app.connect("w1", value: FlowRoute(TestWindow.main))
        store.fails = true
        #expect(
            throws: FlowSceneError.storeFailed(
                operation: "read scene w2", error: "the disk is full")
        ) {
            try app.connect("w2", value: FlowRoute(TestWindow.main))
        }
        #expect(app.scenes.map(\.id) == ["w1"])
        app.trace.removeAll()
        try app.report(.disconnect, for: "w1")  // the platform's fact happened anyway
        #expect(app.scene("w1")?.phase == .disconnected)
        #expect(
            failures == [
                "save snapshot at scene w1 failed: the disk is full",
                "save app snapshot at app failed: the disk is full",
            ])
        #expect(
            app.trace.lines == [
                "failed save snapshot in scene w1: the disk is full",
                "scene w1 disconnected (tree stopped)",
                "failed save app snapshot: the disk is full",
            ])
    }
}
