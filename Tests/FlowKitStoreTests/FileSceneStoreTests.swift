import FlowKit
import Foundation
import Testing

@testable import FlowKitStore

/// The windows and screens of a small app whose scenes are kept in files.
private enum Window: Codable, Hashable, Sendable { case main }
private enum Screen: Codable, Hashable, Sendable { case list, detail(id: Int) }

/// One launch of the app: a new `FlowApp` on a new `FlowFileSceneStore` over `directory`.
@MainActor
private func launch(_ directory: URL) throws -> (FlowApp, FlowFileSceneStore) {
    let store = FlowFileSceneStore(directory: directory)
    let app = FlowApp(store: store)
    app.routeTypes = [Screen.self]
    try app.register(Window.self) { _, _ in
        let stack = FlowStack(name: "main", route: "main")
        stack.register(Screen.self) { screen, _ in
            switch screen {
            case .list: FlowController(name: "list")
            case .detail(let id): FlowController(name: "detail-\(id)")
            }
        }
        stack.initialRoute = FlowRoute(Screen.list)
        return stack
    }
    return (app, store)
}

@MainActor
@Suite("FlowFileSceneStore: scenes in files, the crash-loop guard per scene")
struct FileSceneStoreTests {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("flowkit-scenes-\(UUID().uuidString)")

    /// Launch 1: two windows, each shows a book, then the system reclaims both (snapshots
    /// saved to files).
    private func firstLaunch() throws {
        let (app, _) = try launch(directory)
        for (id, book) in [("w1", 1), ("w2", 2)] {
            let scene = try app.connect(FlowSceneID(id), value: FlowRoute(Window.main))
            try scene.runtime!.navigate(to: [.child(Screen.list), .push(Screen.detail(id: book))])
            try app.report(.enterForeground, for: FlowSceneID(id))
            try app.report(.enterBackground, for: FlowSceneID(id))
            try app.report(.disconnect, for: FlowSceneID(id))
        }
    }

    @Test("A scene reclaimed in one launch comes back with its screens in the next")
    func reclaimedSceneRestoresFromFiles() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try firstLaunch()
        let (app, store) = try launch(directory)
        let scene = try app.connect("w1", value: FlowRoute(Window.main))
        #expect(scene.runtime?.treeDescription() == "* main\n    list\n  * detail-1")
        #expect(store.isRestoring("w1"))
        try store.markSettled("w1")
        #expect(!store.isRestoring("w1"))
    }

    @Test(
        "A launch after one that crashed while restoring a scene sets that scene's snapshot aside and starts it fresh; the other scene restores"
    )
    func crashWhileRestoringQuarantinesThatScene() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try firstLaunch()
        do {  // Launch 2 restores w1 and "crashes" before settling: the mark stays.
            let (app, _) = try launch(directory)
            try app.connect("w1", value: FlowRoute(Window.main))
        }
        let (app, store) = try launch(directory)  // launch 3
        let w1 = try app.connect("w1", value: FlowRoute(Window.main))
        let w2 = try app.connect("w2", value: FlowRoute(Window.main))
        #expect(w1.runtime?.treeDescription() == "* main\n  * list")
        #expect(w2.runtime?.treeDescription() == "* main\n    list\n  * detail-2")
        let quarantine = try #require(store.quarantined["w1"])
        #expect(quarantine.reason == FlowSnapshotStore.unsettledReason)
        #expect(FileManager.default.fileExists(atPath: quarantine.file.path))
        #expect(store.quarantined["w2"] == nil)
    }

    @Test("A snapshot file that does not decode is set aside and the scene starts fresh")
    func corruptFileIsSetAside() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try firstLaunch()
        let url = try FlowSnapshotStore(directory: directory).snapshotURL(
            for: FlowFileSceneStore.key(of: "w1"))
        try Data("{\"scene\":".utf8).write(to: url)
        let (app, store) = try launch(directory)
        let scene = try app.connect("w1", value: FlowRoute(Window.main))
        #expect(scene.runtime?.treeDescription() == "* main\n  * list")
        #expect(store.quarantined["w1"]?.reason.hasPrefix("it does not decode") == true)
    }

    @Test("A discarded scene's file is deleted; the app's own snapshot lists what is left")
    func discardDeletesTheFile() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try firstLaunch()
        let (app, store) = try launch(directory)
        let url = try store.files.snapshotURL(for: FlowFileSceneStore.key(of: "w2"))
        #expect(FileManager.default.fileExists(atPath: url.path))
        #expect(try app.savedScenes().map(\.id) == ["w1", "w2"])
        // UIKit's didDiscardSceneSessions for a session of an earlier launch.
        try app.connect("w2", value: FlowRoute(Window.main))
        try app.report(.enterForeground, for: "w2")
        try app.report(.enterBackground, for: "w2")
        try app.report(.disconnect, for: "w2")
        try app.report(.discard, for: "w2")
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(try store.snapshot(of: "w2") == nil)
    }
}
