import FlowKit

/// The tab counts and stack depths the tab-switch cases run at.
let tabCounts = [3, 30, 300]
let tabStackDepths = [1, 10, 100]

/// A running `FlowTabs` (trace off, no host) with `tabs` tabs, each a stack of `depth`
/// entries.
@MainActor
struct TabsTree {
    let runtime: FlowRuntime
    let tabs: FlowTabs

    init(tabs count: Int, depth: Int) throws {
        var stacks: [FlowStack] = []
        for index in 0..<count {
            let stack = FlowStack(name: "tab\(index)", root: FlowController(name: "root"))
            for _ in 1..<depth { try stack.push(FlowController(name: "entry")) }
            stacks.append(stack)
        }
        tabs = FlowTabs(name: "tabs", tabs: stacks)
        runtime = try BenchTrace.off.runtime(root: tabs)
        try runtime.start()
    }
}

/// Selecting a tab, per selection: alternately the first and the last tab, so every
/// selection moves the focus (the old tab's path resigns, the new one's becomes active).
/// Reported by the number of tabs (flat expected: nothing else is touched) and by the depth
/// of each tab's stack (linear expected: activation walks the focused path).
@MainActor
func runTabBenchmarks(_ harness: Harness) throws {
    let selections = 20_000
    var cases: [(tabs: Int, depth: Int)] = tabCounts.map { ($0, 4) }
    cases += tabStackDepths.map { (3, $0) }
    for (count, depth) in cases {
        let name = "Tabs.select/tabs=\(count),depth=\(depth)"
        guard harness.selects(name) else { continue }
        let tree = try TabsTree(tabs: count, depth: depth)
        let first = tree.tabs.tabs[0]
        let last = tree.tabs.tabs[count - 1]
        harness.measure(name, operations: selections) {
            for index in 0..<selections {
                try! tree.tabs.select(index % 2 == 0 ? last : first)
            }
            precondition(tree.tabs.selectedTab === first, "\(name): a selection was lost")
            return UInt(tree.tabs.selectedIndex)
        }
    }
}
