import FlowKit

/// How many changes the coalescing cases make while one transition runs.
let coalescingCounts = [10, 100, 1_000, 10_000]

/// A platform whose steps run until the benchmark finishes them: each step's completion is
/// kept until ``finishAll()``.
@MainActor
final class HeldPlatform: FlowTransitionHost {
    let transitionRules = FlowTransitionRules.uiKit
    private var pending: [FlowTransitionCompletion] = []
    private(set) var steps = 0

    func perform(
        _ step: FlowTransitionStep, in runtime: FlowRuntime, completion: FlowTransitionCompletion
    ) {
        steps += 1
        pending.append(completion)
    }

    /// Finishes every running step, and those their completions start.
    func finishAll() {
        while !pending.isEmpty { pending.removeFirst().done() }
    }
}

/// A running stack on a ``HeldPlatform`` with a push in flight, and `count` screens to push
/// while it runs.
@MainActor
struct CoalescingInput {
    let runtime: FlowRuntime
    let stack: FlowStack
    let platform: HeldPlatform
    let transitions: FlowTransitions
    let screens: [FlowController]

    init(count: Int) throws {
        platform = HeldPlatform()
        transitions = FlowTransitions(host: platform)
        stack = FlowStack(name: "stack", root: FlowController(name: "root"))
        runtime = try FlowRuntime(
            root: stack, host: transitions, trace: FlowTrace(isEnabled: false))
        try runtime.start()
        platform.finishAll()
        try stack.push(FlowController(name: "first"))  // a transition runs from here on
        screens = (0..<count).map { _ in FlowController(name: "screen") }
    }
}

/// Changes asked for while one transition runs, per change: `count` pushes during a running
/// push, then the transition ends and one step shows them all. Linear expected (a change in
/// a container whose transition runs is only noted; one catch-up pass follows the end), and
/// nothing is kept per change (what is shown is kept per node, not per request).
@MainActor
func runTransitionBenchmarks(_ harness: Harness) throws {
    for count in coalescingCounts {
        let name = "Transitions.coalesce/requests=\(count)"
        guard harness.selects(name) else { continue }
        try harness.measure(
            name, operations: count, repetitions: count >= 10_000 ? 3 : nil,
            setup: { try CoalescingInput(count: count) }
        ) { input in
            for screen in input.screens { try input.stack.push(screen) }
            input.platform.finishAll()
            precondition(input.platform.steps == 3, "\(name): not one step for all the pushes")
            precondition(input.transitions.isShowingTree, "\(name): the platform lags")
            return UInt(input.platform.steps)
        }
    }
}
