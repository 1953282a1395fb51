import FlowKit
import FlowKitLinks

/// Routes of the routing benchmarks.
enum BenchScreen: Hashable, Sendable {
    case list
    case detail(id: Int)
}

/// A running tree for route-path navigation: `root` (a switch) → `area` → `stack` →
/// [`list`, `detail`], built by factories, with the trace off.
@MainActor
struct RoutedTree {
    let runtime: FlowRuntime
    let root = FlowSwitch(name: "root")

    init() throws {
        root.register("area") {
            let area = FlowController(name: "area", route: "area")
            let stack = FlowStack(name: "stack", route: "stack")
            stack.register(BenchScreen.self) { screen, _ in
                switch screen {
                case .list: return FlowController(name: "list")
                case .detail: return FlowController(name: "detail")
                }
            }
            try? area.embed(stack)
            return area
        }
        root.initialRoute = "area"
        runtime = try FlowRuntime(root: root, host: nil, trace: FlowTrace(isEnabled: false))
        try runtime.start()
    }

    /// A depth-5 path: area, stack, list, the detail pushed, a sheet presented over it.
    static func path(_ id: Int) -> [FlowStep] {
        path(id, depth: 5)
    }

    /// A path of `depth` steps (at least 5): area, stack, list, the detail `id` pushed, then
    /// `depth - 5` more details pushed above it, and a sheet presented over the top one. Two
    /// paths with different `id`s share only area, stack and list, so going from one to the
    /// other exits and enters `depth - 3` nodes.
    static func path(_ id: Int, depth: Int) -> [FlowStep] {
        precondition(depth >= 5)
        var steps: [FlowStep] = [
            .child("area"), .child("stack"), .child(BenchScreen.list),
            .push(BenchScreen.detail(id: id)),
        ]
        for level in 0..<(depth - 5) { steps.append(.push(BenchScreen.detail(id: 100 + level))) }
        steps.append(.present("sheet"))
        return steps
    }
}

/// The path depths route-path navigation runs at.
let navigationDepths = [5, 10, 20]

/// The URL patterns of the matching benchmark: `count` areas, each `/areaN/items/:id`.
func benchRouter(patterns count: Int) throws -> FlowURLRouter {
    var router = FlowURLRouter(scheme: "bench")
    for index in 0..<count {
        try router.add("/area\(index)/items/:id") { match in
            [.child("area"), .child(BenchScreen.detail(id: try match.int("id")))]
        }
    }
    return router
}

/// The pattern counts and path lengths URL matching runs at.
let urlPatternCounts = [10, 100, 1000]
let urlSegmentCounts = [2, 8, 32]

/// Route-path navigation of depth 5, 10 and 20 (each operation moves to the other of two
/// paths: the pushed details and the sheet exit, others are built by the factories, pushed
/// and presented, through the guards), and URL matching against 10, 100 and 1000 patterns
/// and over 2, 8 and 32 segments.
@MainActor
func runRoutingBenchmarks(_ harness: Harness) throws {
    let operations = 1_000
    for depth in navigationDepths {
        let tree = try RoutedTree()
        tree.root.registerGlobal("sheet") { FlowController(name: "sheet") }
        let paths = [RoutedTree.path(0, depth: depth), RoutedTree.path(1, depth: depth)]
        try harness.measure(
            "Routing.navigate/depth=\(depth)", operations: operations,
            perUnit: (label: "step", count: depth)
        ) {
            for index in 0..<operations { try tree.runtime.navigate(to: paths[index % 2]) }
            // The list and the pushed details are the stack's entries; the sheet is on top.
            let stack = tree.runtime.node(at: "root/area/stack") as? FlowStack
            precondition(
                tree.runtime.focusedNode?.name == "sheet" && stack?.entries.count == depth - 3,
                "navigation did not reach the sheet at depth \(depth)")
            return UInt(tree.runtime.focusedPath.count)
        }
    }

    for count in urlPatternCounts {
        let router = try benchRouter(patterns: count)
        let url = "bench://area\(count / 2)/items/42"
        try harness.measure("Routing.urlMatch/patterns=\(count)", operations: operations) {
            var total = 0
            for _ in 0..<operations { total &+= try router.steps(for: url).count }
            precondition(total == 2 * operations)
            return UInt(total)
        }
    }

    for segments in urlSegmentCounts {
        var router = FlowURLRouter(scheme: "bench")
        let pattern = (0..<segments - 1).map { "s\($0)" }.joined(separator: "/") + "/:id"
        try router.add("/" + pattern) { match in [.child(try match.int("id"))] }
        let url = "bench://" + (0..<segments - 1).map { "s\($0)" }.joined(separator: "/") + "/7"
        try harness.measure(
            "Routing.urlMatch/segments=\(segments)", operations: operations,
            perUnit: ("segment", segments)
        ) {
            var total = 0
            for _ in 0..<operations { total &+= try router.steps(for: url).count }
            precondition(total == operations)
            return UInt(total)
        }
    }
}
