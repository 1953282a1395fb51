import FlowKit

/// The tree sizes (nodes) the restoration cases run at.
let restorationSizes = [100, 1_000, 10_000]

/// A stack whose entries are built from `Int` routes, as restoration rebuilds them.
@MainActor
func makeRestorableStack() -> FlowStack {
    let stack = FlowStack(name: "stack", route: "stack")
    stack.register(Int.self) { id, _ in FlowController(name: "entry") }
    return stack
}

/// A running tree of `nodes` nodes: a stack of `nodes - 1` entries, each built from its
/// route (trace off, no host).
@MainActor
func makeRestorableTree(nodes: Int) throws -> FlowRuntime {
    let stack = makeRestorableStack()
    for id in 1..<nodes {
        try stack.push(FlowController(name: "entry", route: FlowRoute(id)))
    }
    let runtime = try BenchTrace.off.runtime(root: stack)
    try runtime.start()
    return runtime
}

/// Snapshot and restore, per node: `snapshot()` of a running tree; `start(restoring:)` of
/// that snapshot into a new runtime with a fresh root (every entry rebuilt by its factory,
/// its guard asked, and the tree entered). The restored tree is checked and released
/// outside the timed region.
@MainActor
func runRestorationBenchmarks(_ harness: Harness) throws {
    for size in restorationSizes {
        let snapshotName = "Restoration.snapshot/nodes=\(size)"
        let restoreName = "Restoration.restore/nodes=\(size)"
        guard harness.selects(snapshotName) || harness.selects(restoreName) else { continue }
        let runtime = try makeRestorableTree(nodes: size)
        let repetitions = size >= 10_000 ? 3 : nil
        try harness.measure(
            snapshotName, operations: 1, perUnit: ("node", size), repetitions: repetitions,
            setup: {},
            run: {
                let snapshot = try runtime.snapshot()
                precondition(snapshot.root.children.count == size - 1, "lost entries")
                return UInt(snapshot.root.children.count)
            })
        let snapshot = try runtime.snapshot()
        try harness.measure(
            restoreName, operations: 1, perUnit: ("node", size), repetitions: repetitions,
            // The new runtime is the input: it (and the restored tree) is released only after
            // the clock stopped.
            setup: { try BenchTrace.off.runtime(root: makeRestorableStack()) },
            run: { restored in
                let report = try restored.start(restoring: snapshot)
                let entries = (restored.root as? FlowStack)?.entries.count
                precondition(report.isComplete && entries == size - 1, "lost entries")
                return UInt(report.restoredCount)
            })
    }
}
