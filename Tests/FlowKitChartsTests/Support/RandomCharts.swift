@testable import FlowKitCharts

/// A small deterministic generator (SplitMix64), so a failing seed can be replayed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random charts in the format, valid by construction (deep-history targets from inside
/// their parent are avoided), with small event alphabets so that transitions fire often.
/// With `parallel`, a format-2 chart: about a third of the states with children are
/// parallel states (the root too), whose regions are never final or parallel.
enum RandomCharts {
    static let alphabet = ["a", "b", "c", "d"]

    static func make(
        seed: UInt64, parallel: Bool = false, nestedParallel: Bool = false
    ) -> FlowChart {
        var rng = SplitMix64(seed: seed)
        var counter = 0
        var ids: [String] = []
        var compound: [String] = []
        var parents: [String: String] = [:]
        var historyIDs: [(id: String, parent: String, deep: Bool)] = []

        func node(depth: Int, isRoot: Bool, isRegion: Bool = false) -> FlowChart.Node {
            counter += 1
            let id = "S\(counter)"
            ids.append(id)
            if !isRoot, !isRegion, Int.random(in: 0..<100, using: &rng) < 15 {
                return .final(id)
            }
            let childCount =
                depth >= 3 || counter > 14
                ? 0 : Int.random(in: isRoot ? 2...3 : 0...3, using: &rng)
            guard childCount > 0 else { return FlowChart.Node(id: id) }
            let isParallel =
                parallel && (!isRegion || nestedParallel)
                && Int.random(in: 0..<100, using: &rng) < 35
            var children = (0..<childCount).map { _ in
                node(depth: depth + 1, isRoot: false, isRegion: isParallel)
            }
            for child in children { parents[child.id] = id }
            let states = children.map(\.id)
            compound.append(id)
            if Int.random(in: 0..<100, using: &rng) < 45 {
                counter += 1
                let deep = Bool.random(using: &rng)
                let history = FlowChart.Node.history(
                    "H\(counter)", deep ? .deep : .shallow,
                    default: states.randomElement(using: &rng)!)
                historyIDs.append((history.id, id, deep))
                parents[history.id] = id
                children.insert(history, at: Int.random(in: 0...children.count, using: &rng))
            }
            if isParallel { return .parallel(id, children) }
            return FlowChart.Node(
                id: id, initial: states.randomElement(using: &rng)!, children: children)
        }

        let root = node(depth: 0, isRoot: true)
        var finals: Set<String> = []
        func collectFinals(_ node: FlowChart.Node) {
            if node.kind == .final { finals.insert(node.id) }
            node.children.forEach(collectFinals)
        }
        collectFinals(root)
        func isInside(_ node: String, _ ancestor: String) -> Bool {
            var current = parents[node]
            while let id = current {
                if id == ancestor { return true }
                current = parents[id]
            }
            return false
        }
        let sources = ids.filter { !finals.contains($0) }
        let targets = ids + historyIDs.map(\.id)
        let events = alphabet + compound.map { "done.state.\($0)" }
        var transitions: [FlowChart.Transition] = []
        for _ in 0..<Int.random(in: 4...16, using: &rng) {
            let source = sources.randomElement(using: &rng)!
            var target: String? =
                Int.random(in: 0..<100, using: &rng) < 10
                ? nil : targets.randomElement(using: &rng)!
            if let chosen = target,
                let history = historyIDs.first(where: { $0.id == chosen }),
                history.deep, isInside(source, history.parent)
            {
                target = history.parent
            }
            let raise =
                Int.random(in: 0..<100, using: &rng) < 20
                ? (0..<Int.random(in: 1...2, using: &rng)).map { _ in
                    alphabet.randomElement(using: &rng)!
                } : []
            transitions.append(
                FlowChart.Transition(
                    source: source, event: events.randomElement(using: &rng)!, target: target,
                    isInternal: Int.random(in: 0..<100, using: &rng) < 30,
                    guard: Int.random(in: 0..<100, using: &rng) >= 10, raise: raise))
        }
        let feed = (0..<Int.random(in: 8...24, using: &rng)).map { _ in
            alphabet.randomElement(using: &rng)!
        }
        return FlowChart(
            format: parallel ? FlowChart.parallelFormatIdentifier : FlowChart.formatIdentifier,
            name: "random\(seed)", root: root, transitions: transitions, events: feed)
    }
}
