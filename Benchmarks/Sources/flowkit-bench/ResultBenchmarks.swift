import FlowKit

/// The depths (hops from the node that calls `run` up to the stack that shows the child)
/// the result cases run at.
let resultDepths = [1, 10, 100]

/// A flow that finishes with its value: as soon as it has entered (from `didEnter`), or from
/// a task it starts then, so that the `run` awaiting it really suspends and is resumed.
final class ResultScreen: FlowController, ResultFlow {
    typealias Result = Int

    let value: Int
    let finishesInTask: Bool

    init(value: Int, finishesInTask: Bool) {
        self.value = value
        self.finishesInTask = finishesInTask
        super.init(name: "result")
    }

    override func didEnter() {
        guard finishesInTask else {
            finish(with: value)
            return
        }
        let value = value
        task { [weak self] in self?.finish(with: value) }
    }
}

/// A running stack (trace off, no host) whose base entry embeds a chain of nodes, so that
/// `caller` is `depth` hops below the stack that `run(_:.push)` finds.
@MainActor
struct ResultTree {
    let runtime: FlowRuntime
    let stack: FlowStack
    let caller: FlowController

    init(depth: Int) throws {
        let base = FlowController(name: "base")
        var caller = base
        for _ in 1..<depth {
            let child = FlowController(name: "node")
            try caller.embed(child)
            caller = child
        }
        stack = FlowStack(name: "stack", root: base)
        runtime = try BenchTrace.off.runtime(root: stack)
        try runtime.start()
        precondition(caller.state == .entered)
        self.caller = caller
    }
}

/// Awaiting a child's result, per `run`: `try await caller.run(child, .push)` on the main
/// actor, the child (built outside the timed region) pushed, finishing with a value and
/// popped by `run`. The child finishes from `didEnter` (the result is there before `run`
/// waits) at depths 1, 10 and 100, and from a task of its own at depth 1 (`run` suspends, the
/// child's task runs, `run` is resumed).
@MainActor
func runResultBenchmarks(_ harness: Harness) async throws {
    let runs = 2_000
    let cases = resultDepths.map { ("finishOnEnter", $0, false) } + [("finishInTask", 1, true)]
    for (mode, depth, inTask) in cases {
        let name = "Results.run/\(mode),depth=\(depth)"
        guard harness.selects(name) else { continue }
        let tree = try ResultTree(depth: depth)
        try await harness.measureAsync(
            name, operations: runs,
            setup: { (0..<runs).map { _ in ResultScreen(value: 1, finishesInTask: inTask) } },
            run: { children in
                var total = 0
                for child in children { total &+= try await tree.caller.run(child, .push) }
                precondition(total == runs, "\(name): a run returned the wrong result")
                precondition(
                    tree.stack.entries.count == 1 && children.allSatisfy { $0.state == .exited },
                    "\(name): a finished child was not popped")
                return UInt(total)
            })
    }
}
