import FlowKit

/// The sizes of the 4-ary trees the lifecycle cases build: complete trees of 6 and 7 levels.
let lifecycleTreeSizes = [1_365, 5_461]

/// About this many nodes are built, entered and torn down per timed repetition.
let lifecycleNodesPerRepetition = 20_000

// MARK: - Plain baseline

/// The plainest tree node an app could write: a weak parent, an array of children and a name.
/// The baseline for what a FlowKit node's lifecycle costs.
final class PlainNode {
    weak var parent: PlainNode?
    var children: [PlainNode] = []
    let name: String

    init(name: String) {
        self.name = name
    }
}

/// Allocates one ``PlainNode`` where the caller cannot see it, so the allocation cannot be
/// promoted to the stack or dropped.
@inline(never)
func makePlainNode(name: String) -> PlainNode {
    PlainNode(name: name)
}

/// A complete 4-ary tree of exactly `size` ``PlainNode``s, built breadth-first (node `i`'s
/// parent is node `(i - 1) / 4`), each child linked both ways. Returns the root, which owns
/// every other node.
@inline(never)
func makePlainTree(size: Int) -> PlainNode {
    let internalCount = (size - 1) / 4
    var parents = [PlainNode(name: "n")]
    parents.reserveCapacity(internalCount)
    for index in 1..<size {
        let node = PlainNode(name: "n")
        let parent = parents[(index - 1) / 4]
        node.parent = parent
        parent.children.append(node)
        if index < internalCount { parents.append(node) }
    }
    return parents[0]
}

// MARK: - FlowKit

/// A complete 4-ary tree of exactly `size` FlowKit nodes, built breadth-first before it is
/// attached: each inner node is a ``FlowStack`` whose four entries are its children (a stack
/// is the container that holds several), each leaf a plain ``FlowController``. Returns the
/// root, which owns every other node.
@MainActor
func makeFlowTree(size: Int) throws -> FlowController {
    let internalCount = (size - 1) / 4
    var parents = [FlowStack(name: "n")]
    parents.reserveCapacity(internalCount)
    for index in 1..<size {
        let parent = parents[(index - 1) / 4]
        if index < internalCount {
            let node = FlowStack(name: "n")
            try parent.push(node)
            parents.append(node)
        } else {
            try parent.push(FlowController(name: "n"))
        }
    }
    return parents[0]
}

// MARK: - Cases

/// The plain baselines (one node allocated and freed; a 4-ary tree built and freed) and
/// FlowKit's tree lifecycle: the same 4-ary tree built, entered (pushed on a running stack,
/// trace off, no host) and torn down (popped, every node exited and released), per node.
@MainActor
func runLifecycleBenchmarks(_ harness: Harness) throws {
    let allocations = 100_000
    harness.measure("Lifecycle.plainNode/allocFree", operations: allocations) {
        var total: UInt = 0
        for _ in 0..<allocations {
            let node = makePlainNode(name: "node")
            total &+= UInt(bitPattern: ObjectIdentifier(node)) &+ UInt(node.children.count)
        }
        return total
    }

    for size in lifecycleTreeSizes {
        let trees = max(1, lifecycleNodesPerRepetition / size)
        let name = "Lifecycle.plainTree/nodes=\(size)"
        harness.measure(name, operations: trees, perUnit: (label: "node", count: size)) {
            var total = 0
            for _ in 0..<trees {
                weak var released: PlainNode?
                do {
                    let root = makePlainTree(size: size)
                    released = root
                    total &+= root.children.count
                }
                precondition(released == nil, "\(name): the tree was not freed")
            }
            precondition(total == 4 * trees)
            return UInt(total)
        }
    }

    let tree = try PushPopTree(recording: false)
    for size in lifecycleTreeSizes {
        let trees = max(1, lifecycleNodesPerRepetition / size)
        let name = "Lifecycle.flowkitTree/nodes=\(size)"
        try harness.measure(name, operations: trees, perUnit: (label: "node", count: size)) {
            var total = 0
            for _ in 0..<trees {
                weak var released: FlowController?
                do {
                    let root = try makeFlowTree(size: size)
                    released = root
                    try tree.stack.push(root)
                    precondition(root.state == .entered, "\(name): the tree did not enter")
                    total &+= root.children.count
                }
                try tree.stack.pop()
                precondition(released == nil, "\(name): the popped tree was not released")
            }
            precondition(total == 4 * trees && tree.stack.entries.count == 1)
            return UInt(total)
        }
    }
}
