import FlowKit
import FlowKitRecorder
import Foundation

// `flowkit-bench --instructions CASE ITERATIONS` runs one case's operation ITERATIONS times,
// with no harness, for `scripts/callgrind.sh`: it runs the program under
// `valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*instructionStep*'`, so
// that only the instructions inside ``instructionStep(_:)`` are counted, twice with different
// iteration counts, and divides the difference of the totals by the difference of the counts.
// One-time costs (lazy metadata, first-use allocations) cancel out; per-iteration setup (the
// screen to push, the entry to pop) runs outside the counted function.

/// One counted operation: callgrind collects only while this function runs (it is never
/// inlined, so its symbol exists; specialisations keep the name in theirs).
@MainActor @inline(never)
func instructionStep(_ body: () throws -> Void) rethrows {
    try body()
}

/// The cases `--instructions` knows, with what each counts.
let instructionCaseDescriptions: KeyValuePairs<String, String> = [
    "pushPop": "push + pop of a prebuilt screen at depth 3 (no host, trace off)",
    "pushPopDefaultTrace": "the same with the runtime's default trace",
    "pushPopUnobserved": "the same (trace off) on a runtime nobody read an observable property of",
    "pushPopRecordedFile":
        "push + pop at depth 3, default trace, recorded to a file (the recorder's user-space cost; the system's writes are not counted)",
    "event1": "an event handled 1 hop up (no host, trace off)",
    "event10": "an event handled 10 hops up (no host, trace off)",
    "event10DefaultTrace": "the same with the runtime's default trace",
    "splitSelection":
        "a selection in a split's detail column at depth 3: the old screen exits and is released (trace off)",
    "popOne": "pop of a one-node subtree at depth 3, its release included (trace off)",
    "composeOffline": "pushing a screen on a stack that is not in a running tree (structure only)",
    "plainNode": "allocating and freeing one plain tree node (the baseline)",
    "lookup": "a dependency lookup of an object provided 10 hops up",
    "teardown100": "popping a 100-node subtree with exit hooks, its release included (per pop)",
    "lifecycle85":
        "building a complete 4-ary tree of 85 nodes offline, pushing it on a running stack and popping it (per tree)",
    "empty": "nothing: what counting one step costs, subtracted from the others",
]

/// Runs `body` on inputs from `prepare`: `warmups` times uncounted, then `iterations` times
/// inside ``instructionStep(_:)``. `prepare` always runs outside it.
@MainActor
private func repeatCounted<Input>(
    iterations: Int, warmups: Int = 1_000, prepare: () throws -> Input,
    body: (Input) throws -> Void
) throws {
    for _ in 0..<warmups { try body(try prepare()) }
    for _ in 0..<iterations {
        let input = try prepare()
        try instructionStep { try body(input) }
    }
}

/// Runs the case `name` `iterations` times (after 1,000 uncounted warm-up runs) and checks its
/// result. Returns `false` if there is no such case.
@MainActor
func runInstructionCase(_ name: String, iterations: Int) throws -> Bool {
    let total = 1_000 + iterations
    switch name {
    case "pushPop", "pushPopDefaultTrace", "pushPopUnobserved":
        let tree = try Depth3Tree(
            trace: name == "pushPopDefaultTrace" ? .defaultTrace : .off,
            observed: name != "pushPopUnobserved")
        // The screen is released after the counted step, as the timed case keeps it alive.
        try repeatCounted(iterations: iterations, prepare: { FlowController(name: "screen") }) {
            try tree.cycle($0)
        }
        precondition(tree.stack.entries.count == 1)
        blackHole(tree.stack.entries.count)

    case "pushPopRecordedFile":
        let tree = try Depth3Tree(trace: .defaultTrace)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "flowkit-bench-instructions.jsonl"
        ).path
        let recorder = try FlowRecorder(writingTo: path)
        recorder.attach(tree.runtime)
        try repeatCounted(iterations: iterations, prepare: { FlowController(name: "screen") }) {
            try tree.cycle($0)
        }
        recorder.finish()
        precondition(tree.stack.entries.count == 1)
        // Two steps a cycle, each a line of its own.
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        precondition(lines.count > 2 * total, "\(name): steps missing from the file")
        try? FileManager.default.removeItem(atPath: path)
        blackHole(lines.count)

    case "event1", "event10", "event10DefaultTrace":
        let chain = try FlowKitChain(
            depth: name == "event1" ? 1 : 10,
            trace: name == "event10DefaultTrace" ? .defaultTrace : .off)
        let leaf = chain.leaf
        try repeatCounted(iterations: iterations, prepare: {}) { leaf.send(Ping(value: 1)) }
        precondition(chain.counter.value == total, "\(name): events were lost")
        blackHole(chain.counter.value)

    case "splitSelection":
        let tree = try SplitSelectionTree()
        // The screen shown before is released in the step, as a pop releases its entry.
        try repeatCounted(iterations: iterations, prepare: { FlowController(name: "screen") }) {
            try tree.select($0)
        }
        precondition(tree.detail.entries.count == 1)
        blackHole(tree.detail.entries.count)

    case "popOne":
        let tree = try Depth3Tree(trace: .off)
        try repeatCounted(
            iterations: iterations, prepare: { try tree.stack.push(FlowController(name: "node")) }
        ) {
            // The popped node is not kept: its release is counted.
            try tree.stack.pop()
        }
        precondition(tree.stack.entries.count == 1)
        blackHole(tree.stack.entries.count)

    case "teardown100":
        let tree = try Depth3Tree(trace: .off)
        let exits = Counter()
        let deinits = AtomicCounter()
        try repeatCounted(
            iterations: iterations,
            prepare: {
                try tree.stack.push(makeHookedSubtree(size: 100, exits: exits, deinits: deinits))
            }
        ) {
            try tree.stack.pop()
        }
        precondition(exits.value == total * 100, "teardown100: an exit hook did not run")
        blackHole(exits.value)

    case "lifecycle85":
        let tree = try PushPopTree(recording: false)
        try repeatCounted(iterations: iterations, prepare: {}) {
            // Counted whole: the tree is built, entered, torn down and released in the step.
            let root = try makeFlowTree(size: 85)
            try tree.stack.push(root)
            try tree.stack.pop()
        }
        precondition(tree.stack.entries.count == 1)
        blackHole(tree.stack.entries.count)

    case "lookup":
        let scopes = try FlowKitScopes(depth: 10, provider: .root)
        let leaf = scopes.leaf
        var sum = 0
        try repeatCounted(iterations: iterations, prepare: {}) {
            sum &+= leaf.dependencies[BenchServiceKey.self].id
        }
        precondition(sum == total, "lookup: wrong value")
        blackHole(sum)

    case "composeOffline":
        var pushed = 0
        try repeatCounted(
            iterations: iterations,
            prepare: { (FlowStack(name: "stack"), FlowController(name: "screen")) }
        ) { stack, screen in
            try stack.push(screen)  // neither is in a running tree: structure only
            pushed &+= screen.parent === stack ? 1 : 0
        }
        precondition(pushed == total, "composeOffline: a push was lost")
        blackHole(pushed)

    case "plainNode":
        var sum: UInt = 0
        try repeatCounted(iterations: iterations, prepare: {}) {
            let node = makePlainNode(name: "node")
            sum &+= UInt(bitPattern: ObjectIdentifier(node))
        }
        blackHole(sum)

    case "empty":
        var steps = 0
        try repeatCounted(iterations: iterations, prepare: {}) { steps &+= 1 }
        precondition(steps == total)
        blackHole(steps)

    default:
        return false
    }
    return true
}
