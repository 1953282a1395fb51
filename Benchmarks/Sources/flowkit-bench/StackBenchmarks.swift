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
/// the timed region, and with each screen created (and released) inside it.
@MainActor
func runStackBenchmarks(_ harness: Harness) throws {
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
}
