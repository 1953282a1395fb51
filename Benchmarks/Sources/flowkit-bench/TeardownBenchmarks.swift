import FlowKit

/// The subtree sizes teardown runs at.
let teardownSizes = [10, 100, 1_000, 10_000]

/// About this many nodes are torn down per timed repetition (several subtrees for the small
/// sizes, so that one repetition is long enough to time).
let teardownNodesPerRepetition = 20_000

/// A node with an exit hook: counts its exit. A stack, so that it can hold children.
final class HookedNode: FlowStack {
    let exits: Counter
    let deinits: AtomicCounter

    init(exits: Counter, deinits: AtomicCounter) {
        self.exits = exits
        self.deinits = deinits
        super.init(name: "n")
    }

    deinit {
        deinits.value.add(1, ordering: .relaxed)
    }

    override func willExit() {
        exits.value &+= 1
    }
}

/// A subtree of exactly `size` ``HookedNode``s, ten children per node (breadth-first), built
/// before it is attached. Returns its root; the nodes are owned by the tree only.
@MainActor
func makeHookedSubtree(
    size: Int, exits: Counter, deinits: AtomicCounter
) throws -> FlowController {
    var nodes: [HookedNode] = [HookedNode(exits: exits, deinits: deinits)]
    nodes.reserveCapacity(size)
    for index in 1..<size {
        let node = HookedNode(exits: exits, deinits: deinits)
        try nodes[(index - 1) / 10].push(node)
        nodes.append(node)
    }
    return nodes[0]
}

/// A running tree with `count` host stacks, each `[base, subtree]`, ready to be popped.
/// Hosts sit side by side under one root stack, so each pop happens in a two-entry stack.
@MainActor
struct TeardownInput {
    let runtime: FlowRuntime
    let hosts: [FlowStack]
    let exits: Counter
    /// Counts the subtrees' nodes that were deallocated (none before the pops).
    let deinits: AtomicCounter

    init(subtrees count: Int, size: Int) throws {
        let exits = Counter()
        let deinits = AtomicCounter()
        var hosts: [FlowStack] = []
        for _ in 0..<count {
            let host = FlowStack(name: "host", root: FlowController(name: "base"))
            let subtree = try makeHookedSubtree(size: size, exits: exits, deinits: deinits)
            try host.push(subtree)
            hosts.append(host)
        }
        let root = FlowStack(name: "root")
        try root.setStack(hosts)
        runtime = try FlowRuntime(root: root, host: nil, trace: FlowTrace(isEnabled: false))
        try runtime.start()
        self.hosts = hosts
        self.exits = exits
        self.deinits = deinits
    }
}

/// The coordinator pattern's bookkeeping: a `childCoordinators` array kept by hand.
final class Coordinator {
    var childCoordinators: [Coordinator] = []

    func addChild(_ child: Coordinator) {
        childCoordinators.append(child)
    }

    func removeChild(_ child: Coordinator) {
        childCoordinators.removeAll { $0 === child }
    }
}

/// Teardown of subtrees of 10 to 10,000 nodes with exit hooks, per node; beside it the
/// coordinator bookkeeping for as many children.
@MainActor
func runTeardownBenchmarks(_ harness: Harness) throws {
    for size in teardownSizes {
        let subtrees = max(1, teardownNodesPerRepetition / size)
        let nodes = subtrees * size
        let name = "Teardown.flowkitPop/nodes=\(size)"
        try harness.measure(
            name, operations: subtrees, perUnit: (label: "node", count: size),
            setup: { try TeardownInput(subtrees: subtrees, size: size) },
            run: { input in
                precondition(input.deinits.value.load(ordering: .relaxed) == 0)
                for host in input.hosts { try host.pop() }
                precondition(input.exits.value == nodes, "\(name): exit hooks did not all run")
                precondition(
                    input.deinits.value.load(ordering: .relaxed) == nodes,
                    "\(name): popped nodes were not all released")
                return UInt(input.exits.value)
            })
    }

    for size in teardownSizes {
        // Quadratic: fewer children per repetition and fewer repetitions for the large sizes.
        let parents = max(1, teardownNodesPerRepetition / 2 / size)
        let name = "Teardown.coordinators/children=\(size)"
        harness.measure(
            name, operations: parents, perUnit: (label: "child", count: size),
            repetitions: size >= 1_000 ? 3 : nil,
            setup: {
                (0..<parents).map { _ in
                    (Coordinator(), (0..<size).map { _ in Coordinator() })
                }
            },
            run: { families in
                var removed = 0
                for (parent, children) in families {
                    for child in children { parent.addChild(child) }
                    precondition(parent.childCoordinators.count == size)
                    for child in children {
                        parent.removeChild(child)
                        removed += 1
                    }
                    precondition(parent.childCoordinators.isEmpty, "\(name): a child was left")
                }
                return UInt(removed)
            })
    }
}
