import FlowKit
import FlowKitStore
import Foundation

/// The tree sizes (nodes) the store cases run at.
let storeSizes = [500, 10_000]

/// The snapshot store's atomic save (`FlowSnapshotStore.save(_:for:)`: JSON encoding, the
/// temporary file written and flushed with `fsync`, renamed over the previous snapshot, the
/// folder flushed), beside the JSON encoding alone, for the restorable stack of
/// RestorationBenchmarks. The difference is the cost of the file: the write, the two flushes
/// and the rename. The files go to a temporary folder, removed at the end.
@MainActor
func runStoreBenchmarks(_ harness: Harness) throws {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("flowkit-bench-store-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = FlowSnapshotStore(directory: folder)
    for size in storeSizes {
        let encodeName = "Store.encode/nodes=\(size)"
        let saveName = "Store.save/nodes=\(size)"
        guard harness.selects(encodeName) || harness.selects(saveName) else { continue }
        let snapshot = try makeRestorableTree(nodes: size).snapshot()
        let repetitions = size >= 10_000 ? 5 : nil
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try harness.measure(
            encodeName, operations: 1, perUnit: ("node", size), repetitions: repetitions,
            setup: {},
            run: { UInt(try encoder.encode(snapshot).count) })
        try harness.measure(
            saveName, operations: 1, perUnit: ("node", size), repetitions: repetitions,
            setup: {},
            run: {
                try store.save(snapshot, for: "bench")
                return UInt(size)
            })
        let saved = try store.load(for: "bench")
        precondition(saved == nil || saved == snapshot, "the saved snapshot differs")
    }
}
