@testable import FlowKitCharts

/// A direct, data-only reading of the format's semantics (Docs/ChartFormat.md), written independently of the
/// FlowKit runner: the oracle the random charts are checked against. It never touches a
/// FlowController; it keeps the configuration as a list of ids.
struct ReferenceInterpreter {
    struct Info {
        var kind: FlowChart.Node.Kind
        var parent: String?
        var children: [String] = []  // non-history
        var initial: String?
        var depth: FlowChart.Node.HistoryDepth?
        var fallback: String?
        var hasHistory = false
    }

    enum Outcome: Equatable {
        case trace(String)
        /// More than `limit` transitions after the event at this index (-1: start).
        case runaway(afterEvent: Int)
    }

    let chart: FlowChart
    let limit: Int
    var info: [String: Info] = [:]
    var config: [String] = []
    var records: [String: [String]] = [:]
    var queue: [String] = []
    var lines: [String] = []
    var taken = 0

    init(chart: FlowChart, limit: Int) {
        self.chart = chart
        self.limit = limit
        func visit(_ node: FlowChart.Node, parent: String?) {
            info[node.id] = Info(
                kind: node.kind, parent: parent,
                children: node.children.filter { $0.kind != .history }.map(\.id),
                initial: node.initial, depth: node.history, fallback: node.default)
            if node.kind == .history, let parent { info[parent]!.hasHistory = true }
            for child in node.children { visit(child, parent: node.id) }
        }
        visit(chart.root, parent: nil)
    }

    func ancestorsOrSelf(_ id: String) -> [String] {
        var result: [String] = []
        var current: String? = id
        while let node = current {
            result.append(node)
            current = info[node]!.parent
        }
        return result
    }

    func isProperDescendant(_ node: String, of ancestor: String) -> Bool {
        node != ancestor && ancestorsOrSelf(node).contains(ancestor)
    }

    /// Initial descent below `id` (excluding `id`).
    func defaults(below id: String) -> [String] {
        var result: [String] = []
        var current = id
        while let initial = info[current]!.initial {
            result.append(initial)
            current = initial
        }
        return result
    }

    mutating func run() -> Outcome {
        lines.append("start")
        enter(path: [chart.root.id] + defaults(below: chart.root.id))
        if !drain() { return .runaway(afterEvent: -1) }
        lines.append((["config"] + config).joined(separator: " "))
        for (index, event) in chart.events.enumerated() {
            lines.append("event \(event)")
            taken = 0
            process(event)
            if !drain() { return .runaway(afterEvent: index) }
            lines.append((["config"] + config).joined(separator: " "))
        }
        return .trace(lines.map { $0 + "\n" }.joined())
    }

    mutating func drain() -> Bool {
        while !queue.isEmpty {
            if taken > limit { return false }
            process(queue.removeFirst())
        }
        return taken <= limit
    }

    mutating func enter(path: [String]) {
        for id in path {
            config.append(id)
            lines.append("enter \(id)")
            if info[id]!.kind == .final, let parent = info[id]!.parent {
                queue.append("done.state.\(parent)")
            }
        }
    }

    mutating func process(_ event: String) {
        for state in config.reversed() {
            for transition in chart.transitions
            where transition.source == state && transition.event == event && transition.guard {
                taken += 1
                if taken > limit { return }
                take(transition)
                return
            }
        }
    }

    mutating func take(_ transition: FlowChart.Transition) {
        guard let target = transition.target else {
            queue.append(contentsOf: transition.raise)
            return
        }
        let source = transition.source
        let targetInfo = info[target]!
        // Effective targets: the target, or for a history node its parent's descendants.
        let isHistory = targetInfo.kind == .history
        let anchor = isHistory ? targetInfo.parent! : target
        func strictlyInside(_ state: String) -> Bool {
            isHistory
                ? ancestorsOrSelf(anchor).contains(state)
                : isProperDescendant(anchor, of: state)
        }
        var domain: String?
        if transition.isInternal, !info[source]!.children.isEmpty, strictlyInside(source) {
            domain = source
        } else {
            domain = info[source]!.parent
            while let candidate = domain, !strictlyInside(candidate) {
                domain = info[candidate]!.parent
            }
        }
        let keep = domain.map { config.firstIndex(of: $0)! + 1 } ?? 0
        // History first, then exits innermost first.
        for (index, state) in config.enumerated() where index >= keep {
            if info[state]!.hasHistory { records[state] = Array(config[(index + 1)...]) }
        }
        for state in config[keep...].reversed() { lines.append("exit \(state)") }
        config.removeSubrange(keep...)
        queue.append(contentsOf: transition.raise)
        var path = Array(ancestorsOrSelf(anchor).reversed())
        if let domain { path = Array(path[(path.firstIndex(of: domain)! + 1)...]) }
        if isHistory {
            if let record = records[anchor], !record.isEmpty {
                if targetInfo.depth == .deep {
                    path += record
                } else {
                    path += [record[0]] + defaults(below: record[0])
                }
            } else {
                path += [targetInfo.fallback!] + defaults(below: targetInfo.fallback!)
            }
        } else {
            path += defaults(below: target)
        }
        enter(path: path)
    }
}
