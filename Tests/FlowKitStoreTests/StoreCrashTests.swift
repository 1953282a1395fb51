import FlowKit
import Foundation
import Testing

@testable import FlowKitStore

/// The store across crashes: each test kills a child process (an exit test) in the middle of
/// a save or a restoration, the way the system kills an app, then launches again in this
/// process and checks what the store documents.
@MainActor
@Suite("Snapshot store: crashes")
struct StoreCrashTests {
    @Test(
        "A process killed mid-save leaves the previous snapshot readable, and the next launch restores it",
        arguments: [_SaveCrashPoint.midWrite, .beforeRename])
    func killedMidSave(point: _SaveCrashPoint) async throws {
        let directory = try temporaryStoreDirectory()
        let store = FlowSnapshotStore(directory: directory)
        try store.save(try StoreApp.snapshot([.item(1)]), for: "main")
        let previous = try store.load(for: "main")
        let path = directory.path
        await #expect(processExitsWith: .failure) {
            [path = path as String, point = point as _SaveCrashPoint] in
            try await MainActor.run {
                var store = FlowSnapshotStore(directory: URL(fileURLWithPath: path))
                store._crashPoint = point
                try store.save(try StoreApp.snapshot([.item(2), .item(3)]), for: "main")
            }
        }
        // The killed save left its temporary file, and the previous snapshot, whole.
        #expect(fileNames(in: directory).count == 2)
        #expect(fileNames(in: directory).contains { $0.hasPrefix(".main.snapshot.json.") })
        #expect(try store.load(for: "main") == previous)
        let runtime = try FlowRuntime(root: StoreApp.makeRoot())
        #expect(
            try store.start(runtime, for: "main")
                == .restored(FlowRestoreReport(skipped: [], restoredCount: 3)))
        #expect(StoreApp.pages(of: runtime) == [.home, .item(1)])
        #expect(fileNames(in: directory) == ["main.restoring", "main.snapshot.json"])
    }

    @Test("A process killed mid-restore: the next launch sets the snapshot aside and starts fresh")
    func killedMidRestore() async throws {
        let directory = try temporaryStoreDirectory()
        let store = FlowSnapshotStore(directory: directory)
        try store.save(try StoreApp.snapshot([.item(1), .crash]), for: "main")
        let saved = try Data(contentsOf: try store.snapshotURL(for: "main"))
        let path = directory.path
        await #expect(processExitsWith: .failure) { [path = path as String] in
            try await MainActor.run {
                StoreApp.crashes = true
                let store = FlowSnapshotStore(directory: URL(fileURLWithPath: path))
                _ = try store.start(try FlowRuntime(root: StoreApp.makeRoot()), for: "main")
            }
        }
        #expect(store.isRestoring("main"))
        let runtime = try FlowRuntime(root: StoreApp.makeRoot())
        let launch = try store.start(runtime, for: "main")
        let file = store.quarantineURL.appendingPathComponent("main.1.snapshot.json")
        #expect(
            launch
                == .quarantined(
                    FlowStoreQuarantine(file: file, reason: FlowSnapshotStore.unsettledReason)))
        #expect(runtime.isRunning && StoreApp.pages(of: runtime) == [.home])
        #expect(try Data(contentsOf: file) == saved)
        #expect(!store.isRestoring("main"))
        #expect(try store.load(for: "main") == nil)
        // The launch after that is an ordinary fresh start: no crash loop.
        #expect(try store.start(try FlowRuntime(root: StoreApp.makeRoot()), for: "main") == .fresh)
    }

    @Test("A process killed after restoring, before it settled: the next launch sets it aside")
    func killedBeforeSettled() async throws {
        let directory = try temporaryStoreDirectory()
        let store = FlowSnapshotStore(directory: directory)
        try store.save(try StoreApp.snapshot([.item(4)]), for: "main")
        let path = directory.path
        await #expect(processExitsWith: .failure) { [path = path as String] in
            try await MainActor.run {
                let store = FlowSnapshotStore(directory: URL(fileURLWithPath: path))
                let runtime = try FlowRuntime(root: StoreApp.makeRoot())
                guard case .restored = try store.start(runtime, for: "main") else { return }
                kill(getpid(), SIGKILL)
            }
        }
        let launch = try store.start(try FlowRuntime(root: StoreApp.makeRoot()), for: "main")
        guard case .quarantined(let quarantine) = launch else {
            Issue.record("not quarantined: \(launch)")
            return
        }
        #expect(quarantine.reason == FlowSnapshotStore.unsettledReason)
    }

    @Test("Control: a restoration that settled before the process was killed restores again")
    func killedAfterSettled() async throws {
        let directory = try temporaryStoreDirectory()
        let store = FlowSnapshotStore(directory: directory)
        try store.save(try StoreApp.snapshot([.item(4)]), for: "main")
        let path = directory.path
        await #expect(processExitsWith: .failure) { [path = path as String] in
            try await MainActor.run {
                let store = FlowSnapshotStore(directory: URL(fileURLWithPath: path))
                let runtime = try FlowRuntime(root: StoreApp.makeRoot())
                guard case .restored = try store.start(runtime, for: "main") else { return }
                try store.markSettled(for: "main")
                kill(getpid(), SIGKILL)
            }
        }
        let runtime = try FlowRuntime(root: StoreApp.makeRoot())
        #expect(try store.start(runtime, for: "main") != .fresh)
        #expect(StoreApp.pages(of: runtime) == [.home, .item(4)])
        #expect(store.quarantined(for: "main").isEmpty)
    }
}
