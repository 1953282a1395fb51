@testable import FlowKitCharts

/// Random format-3 charts: a random format-2 chart whose regions may be parallel states,
/// reworked with format 3's constructs, valid by construction: eventless transitions
/// (most with an `In()` condition, so that fewer loop), conditions on events, event
/// descriptors (prefixes, `.*`, several, now and then `*` and `done.state`), several targets in different regions of a
/// parallel state, initials naming deeper descendants (history nodes included, and two
/// states in different regions), history defaults deeper than a child, and `onentry` and
/// `onexit` raises.
enum RandomStructuredCharts {
    static let alphabet = ["a", "b", "c", "a.x", "b.y"]
    static let descriptors = [
        "a", "b", "c", "a.x", "b.y", "a.*", "a b", "b.y c", "a.x.", "a", "b", "c", "a.x",
        "b.y", "c", "n", "n.x",
    ]
    /// What `onentry` and `onexit` raise: events only a few descriptors take, so that fewer
    /// charts loop.
    static let raised = ["n", "n.x", "n.y"]

    static func make(seed: UInt64) -> FlowChart {
        var chart = RandomCharts.make(seed: seed, parallel: true, nestedParallel: true)
        var rng = SplitMix64(seed: seed &* 0x9E37_79B9 &+ 0x5EED)
        chart.format = FlowChart.structureFormatIdentifier
        // The tree, read once.
        var parent: [String: String] = [:]
        var kind: [String: FlowChart.Node.Kind] = [:]
        var depth: [String: FlowChart.Node.HistoryDepth] = [:]
        var children: [String: [String]] = [:]
        var order: [String] = []
        func read(_ node: FlowChart.Node) {
            order.append(node.id)
            kind[node.id] = node.kind
            depth[node.id] = node.history
            children[node.id] = node.children.filter { $0.kind != .history }.map(\.id)
            for child in node.children {
                parent[child.id] = node.id
                read(child)
            }
        }
        read(chart.root)
        func isInside(_ id: String, _ ancestor: String) -> Bool {
            var current = parent[id]
            while let node = current {
                if node == ancestor { return true }
                current = parent[node]
            }
            return false
        }
        func descendants(_ id: String, histories: Bool) -> [String] {
            order.filter { isInside($0, id) && (histories || kind[$0] != .history) }
        }
        func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &rng) < percent }
        func pick<T>(_ items: [T]) -> T { items.randomElement(using: &rng)! }
        /// Two ids in different regions of a parallel state inside `id` (or `id` itself), if
        /// there is one.
        func pair(inside id: String, histories: Bool) -> [String]? {
            let parallels = ([id] + descendants(id, histories: false)).filter {
                kind[$0] == .parallel && children[$0]!.count > 1
            }
            guard !parallels.isEmpty else { return nil }
            let regions = children[pick(parallels)]!.shuffled(using: &rng).prefix(2)
            return regions.map { pick([$0] + descendants($0, histories: histories)) }
        }
        // Initials, history defaults, onentry and onexit.
        func rework(_ node: FlowChart.Node) -> FlowChart.Node {
            var node = node
            node.children = node.children.map(rework)
            if node.kind == .state, !node.children.isEmpty, chance(40) {
                if chance(50), let ids = pair(inside: node.id, histories: true) {
                    node.initial = ids.joined(separator: " ")
                } else {
                    node.initial = pick(descendants(node.id, histories: true))
                }
            }
            if node.kind == .history, chance(40), let parentID = parent[node.id] {
                if chance(25), let ids = pair(inside: parentID, histories: false) {
                    node.default = ids.joined(separator: " ")
                } else {
                    node.default = pick(descendants(parentID, histories: false))
                }
            }
            if node.kind != .history {
                if chance(8) { node.onEntry = [pick(raised)] }
                if chance(6) { node.onExit = [pick(raised)] }
            }
            return node
        }
        chart.root = rework(chart.root)
        let states = order.filter { kind[$0] != .history }
        func condition() -> String {
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: "not In('\(pick(states))')"
            case 1: "In('\(pick(states))') or In('\(pick(states))')"
            default: "In('\(pick(states))')"
            }
        }
        for index in chart.transitions.indices {
            var transition = chart.transitions[index]
            // Fewer raises than format 2's charts: descriptors match more events.
            if !transition.raise.isEmpty, chance(50) { transition.raise = [] }
            if chance(8) {
                transition.event = nil
                // Mostly "not In(target)": it is false once taken, so fewer chains loop.
                let target = transition.targets.first.flatMap { kind[$0] == .history ? nil : $0 }
                if let target, chance(80) {
                    transition.cond = "not In('\(target)')"
                } else {
                    transition.cond = condition()
                }
            } else {
                transition.event = chance(4) ? pick(["*", "done.state"]) : pick(descriptors)
                if chance(15) { transition.cond = condition() }
            }
            if chance(20), let ids = pair(inside: chart.root.id, histories: true) {
                // A deep history targeted from inside its parent is left out.
                let allowed = ids.filter { id in
                    guard kind[id] == .history, depth[id] == .deep, let owner = parent[id]
                    else { return true }
                    return !(transition.source == owner || isInside(transition.source, owner))
                }
                if !allowed.isEmpty { transition.target = allowed.joined(separator: " ") }
            }
            chart.transitions[index] = transition
        }
        chart.events = (0..<Int.random(in: 8...24, using: &rng)).map { _ in pick(alphabet) }
        return chart
    }
}
