import FlowKit

/// The column sizes (entries in the content column) and the sizes of the rest of the tree
/// (entries of a stack in another tab) the collapse-and-expand cases run at.
let splitColumnEntries = [10, 100, 1_000]
let splitOtherEntries = [0, 10_000]

/// `app` → `split` (sidebar [sections], content [list], detail [first screen]), trace off, no
/// host: the detail screen is at the depth of ``Depth3Tree``'s pushed screen (the split takes
/// the place of `main`).
@MainActor
struct SplitSelectionTree {
    let runtime: FlowRuntime
    let split: FlowSplit
    let detail: FlowStack

    init() throws {
        detail = FlowStack(name: "detail", root: FlowController(name: "first"))
        split = FlowSplit(
            name: "split",
            sidebar: FlowStack(name: "sidebar", root: FlowController(name: "sections")),
            content: FlowStack(name: "content", root: FlowController(name: "list")), detail: detail)
        let app = FlowController(name: "app")
        try app.embed(split)
        runtime = try BenchTrace.off.runtime(root: app)
        try runtime.start()
        precondition(runtime.activeNodes.count == 8)
    }

    /// Shows `screen` in the detail column: the screen shown before exits and is released.
    @inline(__always)
    func select(_ screen: FlowController) throws {
        try split.show(screen, in: .detail)
    }
}

/// `tabs` → [split (sidebar [sections], content [list + `entries` - 1 entries], detail
/// [item]), other (a stack of `others` entries)]: collapsing and expanding the split, with
/// the compact stack read each time (what a host shows), per collapse + expand.
@MainActor
struct SplitCollapseTree {
    let runtime: FlowRuntime
    let split: FlowSplit

    init(entries: Int, others: Int) throws {
        let content = FlowStack(name: "content", root: FlowController(name: "list"))
        for _ in 1..<entries { try content.push(FlowController(name: "entry")) }
        split = FlowSplit(
            name: "split",
            sidebar: FlowStack(name: "sidebar", root: FlowController(name: "sections")),
            content: content, detail: FlowStack(name: "detail", root: FlowController(name: "item")))
        let other = FlowStack(name: "other", root: FlowController(name: "root"))
        for _ in 0..<others { try other.push(FlowController(name: "entry")) }
        let tabs = FlowTabs(name: "tabs", tabs: [split, other])
        runtime = try BenchTrace.off.runtime(root: tabs)
        try runtime.start()
    }
}

/// Split views: a selection in the detail column (one change: the old screen exits and is
/// released, the new one enters; activation takes the general path of trees with a
/// parallel container), against `Stack.pushPop/depth=3` (two changes on the fast path);
/// and collapse + expand (activation only, plus reading the compact stack), by the content
/// column's entries (linear expected: reading the compact stack) and by the size of the
/// rest of the tree (flat expected: only the split's active nodes are walked).
@MainActor
func runSplitBenchmarks(_ harness: Harness) throws {
    let selections = 20_000
    if harness.selects("Splits.selection/depth=3") {
        let tree = try SplitSelectionTree()
        try harness.measure(
            "Splits.selection/depth=3", operations: selections,
            setup: { (0..<selections).map { _ in FlowController(name: "screen") } },
            run: { screens in
                for screen in screens { try tree.select(screen) }
                precondition(tree.detail.entries.count == 1 && tree.detail.top === screens.last)
                return UInt(tree.detail.entries.count + screens.count)
            })
    }
    for entries in splitColumnEntries {
        for others in splitOtherEntries {
            let name = "Splits.collapseExpand/entries=\(entries),others=\(others)"
            guard harness.selects(name) else { continue }
            let tree = try SplitCollapseTree(entries: entries, others: others)
            let rounds = 2_000
            harness.measure(name, operations: rounds, perUnit: ("entry", entries)) {
                var shown = 0
                for _ in 0..<rounds {
                    try! tree.split.platformDidCollapse()
                    shown &+= tree.split.compactStack.count
                    try! tree.split.platformDidExpand()
                }
                precondition(shown == rounds * (entries + 2), "\(name): the compact stack is wrong")
                return UInt(shown)
            }
        }
    }
}
