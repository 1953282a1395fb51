import FlowKit
import Foundation
import Testing

@testable import FlowKitStore

/// The store in one process: saving and loading per key, the launch, the mark, quarantine.
@MainActor
@Suite("Snapshot store")
struct SnapshotStoreTests {
    @Test("A save and a launch restore the tree, per key; keys are independent")
    func roundTripPerKey() throws {
        let store = FlowSnapshotStore(directory: try temporaryStoreDirectory())
        try store.save(try StoreApp.snapshot([.item(1), .item(2)]), for: "scene-1")
        try store.save(try StoreApp.snapshot([.item(3)]), for: "scene/2 é")
        try store.save(try StoreApp.snapshot([]), for: "Scene-1")
        #expect(
            fileNames(in: store.directory) == [
                "%53cene-1.snapshot.json", "scene%2F2%20%C3%A9.snapshot.json",
                "scene-1.snapshot.json",
            ])

        let first = try FlowRuntime(root: StoreApp.makeRoot())
        let launch = try store.start(first, for: "scene-1")
        #expect(launch == .restored(FlowRestoreReport(skipped: [], restoredCount: 4)))
        #expect(StoreApp.pages(of: first) == [.home, .item(1), .item(2)])
        #expect(store.isRestoring("scene-1") && !store.isRestoring("scene/2 é"))
        try store.markSettled(for: "scene-1")
        #expect(!store.isRestoring("scene-1"))

        let second = try FlowRuntime(root: StoreApp.makeRoot())
        #expect(try store.start(second, for: "scene/2 é") != .fresh)
        #expect(StoreApp.pages(of: second) == [.home, .item(3)])

        let fresh = try FlowRuntime(root: StoreApp.makeRoot())
        #expect(try store.start(fresh, for: "scene-3") == .fresh)
        #expect(StoreApp.pages(of: fresh) == [.home] && fresh.isRunning)
        #expect(!store.isRestoring("scene-3"))
    }

    @Test("A saved runtime replaces the previous snapshot; load reads it; remove forgets it")
    func saveReplacesAndRemoveForgets() throws {
        let store = FlowSnapshotStore(directory: try temporaryStoreDirectory())
        let runtime = try FlowRuntime(root: StoreApp.makeRoot())
        try runtime.start()
        try store.save(runtime, for: "main")
        try runtime.navigate(to: [.child(StoreApp.Page.home), .push(StoreApp.Page.item(9))])
        try store.save(runtime, for: "main")
        #expect(try store.load(for: "main") == (try runtime.snapshot()))
        #expect(fileNames(in: store.directory) == ["main.snapshot.json"])
        try store.remove(for: "main")
        #expect(try store.load(for: "main") == nil)
        #expect(fileNames(in: store.directory).isEmpty)
    }

    @Test("An empty key, or one too long for a file name, is refused")
    func invalidKeys() throws {
        let store = FlowSnapshotStore(directory: try temporaryStoreDirectory())
        let snapshot = try StoreApp.snapshot([])
        #expect(throws: FlowSnapshotStoreError.invalidKey("")) {
            try store.save(snapshot, for: "")
        }
        let long = String(repeating: "é", count: 40)
        #expect(throws: FlowSnapshotStoreError.invalidKey(long)) {
            try store.save(snapshot, for: long)
        }
        #expect(fileNames(in: store.directory).isEmpty)
    }

    @Test("A launch that finds the mark still set sets the snapshot aside and starts fresh, once")
    func unsettledRestorationIsQuarantined() throws {
        let store = FlowSnapshotStore(directory: try temporaryStoreDirectory())
        try store.save(try StoreApp.snapshot([.item(1)]), for: "main")
        let saved = try Data(contentsOf: try store.snapshotURL(for: "main"))
        _ = try store.start(try FlowRuntime(root: StoreApp.makeRoot()), for: "main")
        // Never settled: the next launch sets the snapshot aside.
        let runtime = try FlowRuntime(root: StoreApp.makeRoot())
        let file = store.quarantineURL.appendingPathComponent("main.1.snapshot.json")
        #expect(
            try store.start(runtime, for: "main")
                == .quarantined(
                    FlowStoreQuarantine(file: file, reason: FlowSnapshotStore.unsettledReason)))
        #expect(StoreApp.pages(of: runtime) == [.home])
        #expect(!store.isRestoring("main"))
        #expect(store.quarantined(for: "main") == [file])
        #expect(try Data(contentsOf: file) == saved)
        #expect(
            try String(
                contentsOf: store.quarantineURL.appendingPathComponent("main.1.reason.txt"),
                encoding: .utf8) == FlowSnapshotStore.unsettledReason + "\n")
        // Not retried: the launch after starts fresh.
        #expect(try store.start(try FlowRuntime(root: StoreApp.makeRoot()), for: "main") == .fresh)
    }

    @Test(
        "A snapshot that does not decode or does not restore is set aside; the runtime starts fresh"
    )
    func unusableSnapshotsAreQuarantined() throws {
        let store = FlowSnapshotStore(directory: try temporaryStoreDirectory())
        try Data("{\"version\": 1".utf8).write(to: try store.snapshotURL(for: "main"))
        let first = try FlowRuntime(root: StoreApp.makeRoot())
        guard case .quarantined(let broken) = try store.start(first, for: "main") else {
            Issue.record("not quarantined")
            return
        }
        #expect(broken.reason.hasPrefix("it does not decode: "))
        #expect(first.isRunning && !store.isRestoring("main"))

        // A snapshot of another app: its root does not fit.
        let other = try FlowRuntime(root: FlowStack(name: "other", root: FlowController(name: "a")))
        try other.start()
        try store.save(other, for: "main")
        let second = try FlowRuntime(root: StoreApp.makeRoot())
        guard case .quarantined(let foreign) = try store.start(second, for: "main") else {
            Issue.record("not quarantined")
            return
        }
        #expect(foreign.reason.hasPrefix("it does not restore: the snapshot does not fit"))
        #expect(foreign.file.lastPathComponent == "main.2.snapshot.json")
        #expect(
            store.quarantined(for: "main").map(\.lastPathComponent) == [
                "main.1.snapshot.json", "main.2.snapshot.json",
            ])
        #expect(second.isRunning && StoreApp.pages(of: second) == [.home])
    }

    @Test("Starting a runtime that was started throws, and leaves the snapshot unmarked")
    func startedRuntimeThrows() throws {
        let store = FlowSnapshotStore(directory: try temporaryStoreDirectory())
        try store.save(try StoreApp.snapshot([.item(1)]), for: "main")
        let runtime = try FlowRuntime(root: StoreApp.makeRoot())
        try runtime.start()
        #expect(throws: FlowError.runtimeAlreadyStarted) {
            try store.start(runtime, for: "main")
        }
        #expect(!store.isRestoring("main") && store.quarantined(for: "main").isEmpty)
        #expect(try store.load(for: "main") != nil)
    }
}
