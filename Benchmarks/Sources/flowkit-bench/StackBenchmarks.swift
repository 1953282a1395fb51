import FlowKit

/// A running tree for push/pop cycles: a root stack with one base entry, a bounded recording
/// host (unless `recording` is off) and the trace off.
@MainActor
struct PushPopTree {
    let runtime: FlowRuntime
    let host: RecordingFlowHost?
    let stack: FlowStack

    init(recording: Bool = true) throws {
        let host = recording ? RecordingFlowHost(limit: 1000) : nil
        self.host = host
        stack = FlowStack(name: "stack", root: FlowController(name: "base"))
        runtime = try FlowRuntime(root: stack, host: host, trace: FlowTrace(isEnabled: false))
        try runtime.start()
    }

    /// Pushes `screen` and pops it again: one cycle.
    @inline(__always)
    func cycle(_ screen: FlowController) throws {
        try stack.push(screen)
        try stack.pop()
    }
}

/// A running tree whose stack sits at depth 2, so that a pushed screen is at depth 3:
/// `app` → `main` → `stack` → [`base`, screen]. No host; traced as asked.
@MainActor
struct Depth3Tree {
    let runtime: FlowRuntime
    let stack: FlowStack

    /// - Parameter observed: Whether the check after the start reads `focusedNode`, which
    ///   makes the runtime's observation registrar (as any app that reads an observable
    ///   property once): its focus updates then notify it. `false` checks through
    ///   properties that are not observable, so the runtime keeps none.
    init(trace: BenchTrace, observed: Bool = true) throws {
        let app = FlowController(name: "app")
        let main = FlowController(name: "main")
        let base = FlowController(name: "base")
        stack = FlowStack(name: "stack", root: base)
        try main.embed(stack)
        try app.embed(main)
        runtime = try trace.runtime(root: app)
        try runtime.start()
        if observed {
            precondition(runtime.focusedNode?.path == "app/main/stack/base")
        } else {
            precondition(base.isActive && base.path == "app/main/stack/base")
        }
    }

    /// Pushes `screen` and pops it again: one cycle.
    @inline(__always)
    func cycle(_ screen: FlowController) throws {
        try stack.push(screen)
        try stack.pop()
    }
}

/// The stack sizes push/pop-N runs at.
let stackSizes = [10, 100, 1_000]

/// About this many children are pushed and popped per timed repetition of push/pop-N.
let stackChildrenPerRepetition = 2_000

/// A screen that counts its deallocation.
final class CountedScreen: FlowController {
    let deinits: AtomicCounter

    init(deinits: AtomicCounter) {
        self.deinits = deinits
        super.init(name: "screen")
    }

    deinit {
        deinits.value.add(1, ordering: .relaxed)
    }
}

/// Push + pop of one screen with a recording host, per cycle: with the screens built outside
/// the timed region, and with each screen created (and released) inside it. Push + pop at
/// depth 3 without a host, the trace off and in its default state. Push/pop-N: N screens
/// pushed one at a time, then popped one at a time, beside a coordinator's `childCoordinators`
/// bookkeeping for N children.
@MainActor
func runStackBenchmarks(_ harness: Harness) throws {
    try runPushPopBenchmarks(harness)
    try runPushPopNBenchmarks(harness)
}

/// Push + pop of one prebuilt screen per cycle: with a recording host; at depth 3 without a
/// host, the trace off and default; and with each screen created inside the timed region.
@MainActor
private func runPushPopBenchmarks(_ harness: Harness) throws {
    let cycles = 2_000
    let tree = try PushPopTree()
    try harness.measure(
        "Stack.pushPop/prebuilt", operations: cycles,
        setup: { (0..<cycles).map { _ in FlowController(name: "screen") } },
        run: { screens in
            for screen in screens { try tree.cycle(screen) }
            precondition(
                screens.allSatisfy { $0.state == .exited } && tree.stack.entries.count == 1)
            return UInt(tree.host!.changes.count)
        })

    try harness.measure("Stack.pushPop/create", operations: cycles) {
        weak var last: FlowController?
        for _ in 0..<cycles {
            let screen = FlowController(name: "screen")
            last = screen
            try tree.cycle(screen)
        }
        precondition(last == nil && tree.stack.entries.count == 1, "a popped screen is alive")
        return UInt(tree.host!.changes.count)
    }

    try runDepth3PushPopBenchmarks(harness)
}

/// The cases for one cycle at depth 3 (no host): the trace off, then in its default state.
/// The screens are built outside the timed region and kept alive by it, so neither their
/// allocation nor their deallocation is timed (as in `Stack.pushPop/prebuilt`).
@MainActor
private func runDepth3PushPopBenchmarks(_ harness: Harness) throws {
    let cycles = 2_000
    for (suffix, trace) in [("", BenchTrace.off), (",defaultTrace", .defaultTrace)] {
        let tree = try Depth3Tree(trace: trace)
        try harness.measure(
            "Stack.pushPop/depth=3\(suffix)", operations: cycles,
            setup: { (0..<cycles).map { _ in FlowController(name: "screen") } },
            run: { screens in
                for screen in screens { try tree.cycle(screen) }
                precondition(
                    screens.allSatisfy { $0.state == .exited } && tree.stack.entries.count == 1)
                return UInt(tree.stack.entries.count + screens.count)
            })
    }
}

/// Push/pop-N: a running stack (trace off, no host) gets N prebuilt screens pushed one at a
/// time, then popped one at a time with `pop()`; per child. Beside it, a coordinator that
/// appends N children to `childCoordinators`, then removes each with
/// `removeAll { $0 === child }`, the last added first (as children finish in a stack).
@MainActor
private func runPushPopNBenchmarks(_ harness: Harness) throws {
    let tree = try PushPopTree(recording: false)
    for size in stackSizes {
        let rounds = max(1, stackChildrenPerRepetition / size)
        let name = "Stack.pushPopN/children=\(size)"
        try harness.measure(
            name, operations: rounds, perUnit: (label: "child", count: size),
            setup: {
                (0..<rounds).map { _ in (0..<size).map { _ in FlowController(name: "screen") } }
            },
            run: { rounds in
                var popped = 0
                for screens in rounds {
                    for screen in screens { try tree.stack.push(screen) }
                    precondition(tree.stack.entries.count == size + 1, "\(name): lost a push")
                    for _ in 0..<size {
                        try tree.stack.pop()
                        popped += 1
                    }
                    precondition(tree.stack.entries.count == 1, "\(name): an entry was left")
                }
                precondition(rounds.allSatisfy { $0.allSatisfy { $0.state == .exited } })
                return UInt(popped)
            })
    }

    for size in stackSizes {
        let rounds = max(1, stackChildrenPerRepetition / size)
        let name = "Stack.coordinators/children=\(size)"
        harness.measure(
            name, operations: rounds, perUnit: (label: "child", count: size),
            setup: {
                (0..<rounds).map { _ in (Coordinator(), (0..<size).map { _ in Coordinator() }) }
            },
            run: { families in
                var removed = 0
                for (parent, children) in families {
                    for child in children { parent.addChild(child) }
                    precondition(parent.childCoordinators.count == size, "\(name): lost a child")
                    for child in children.reversed() {
                        parent.removeChild(child)
                        removed += 1
                    }
                    precondition(parent.childCoordinators.isEmpty, "\(name): a child was left")
                }
                return UInt(removed)
            })
    }
}
