@testable import FlowKitCharts

/// A direct, data-only reading of the format-2 semantics (SCXML 1.0 Appendix D, as
/// Docs/ChartFormat.md states them: selection, conflicts, exit and entry sets, history,
/// done events), written independently of the FlowKit runner: the oracle the random
/// format-2 charts are checked against. It never touches a FlowController; it keeps the
/// configuration as a set of ids and follows the algorithm's own procedures
/// (`selectTransitions`, `removeConflictingTransitions`, `computeEntrySet`, …).
struct ParallelReferenceInterpreter {
    struct Info {
        var kind: FlowChart.Node.Kind
        var parent: String?
        var children: [String] = []  // non-history
        var histories: [String] = []
        var initial: String?
        var depth: FlowChart.Node.HistoryDepth?
        var fallback: String?
        var position = 0
    }

    let chart: FlowChart
    let limit: Int
    var info: [String: Info] = [:]
    var config: Set<String> = []
    /// History values, by history node.
    var records: [String: [String]] = [:]
    var queue: [String] = []
    var lines: [String] = []
    var taken = 0

    init(chart: FlowChart, limit: Int) {
        self.chart = chart
        self.limit = limit
        var position = 0
        func visit(_ node: FlowChart.Node, parent: String?) {
            info[node.id] = Info(
                kind: node.kind, parent: parent,
                children: node.children.filter { $0.kind != .history }.map(\.id),
                histories: node.children.filter { $0.kind == .history }.map(\.id),
                initial: node.initial, depth: node.history, fallback: node.default,
                position: position)
            position += 1
            for child in node.children { visit(child, parent: node.id) }
        }
        visit(chart.root, parent: nil)
    }

    // MARK: The tree

    func isAtomic(_ id: String) -> Bool { info[id]!.children.isEmpty }
    func isParallel(_ id: String) -> Bool { info[id]!.kind == .parallel }
    func isCompound(_ id: String) -> Bool { info[id]!.kind == .state && !isAtomic(id) }

    /// Proper ancestors of `id`, innermost first, stopping below `stop` (`nil`: all).
    func properAncestors(_ id: String, upTo stop: String? = nil) -> [String] {
        var result: [String] = []
        var current = info[id]!.parent
        while let node = current, node != stop {
            result.append(node)
            current = info[node]!.parent
        }
        return result
    }

    /// Whether `node` lies strictly inside `ancestor`.
    func isDescendant(_ node: String, _ ancestor: String) -> Bool {
        properAncestors(node).contains(ancestor)
    }

    func documentOrder(_ ids: some Sequence<String>) -> [String] {
        ids.sorted { info[$0]!.position < info[$1]!.position }
    }

    // MARK: Running

    mutating func run() -> ReferenceInterpreter.Outcome {
        lines.append("start")
        // The initial transition: from outside the root into it.
        var entry = Set<String>()
        addDescendantStatesToEnter(chart.root.id, into: &entry)
        enter(entry)
        if !drain() { return .runaway(afterEvent: -1) }
        logConfiguration()
        for (index, event) in chart.events.enumerated() {
            lines.append("event \(event)")
            taken = 0
            process(event)
            if !drain() { return .runaway(afterEvent: index) }
            logConfiguration()
        }
        return .trace(lines.map { $0 + "\n" }.joined())
    }

    mutating func logConfiguration() {
        lines.append((["config"] + documentOrder(config)).joined(separator: " "))
    }

    mutating func drain() -> Bool {
        while !queue.isEmpty {
            if taken > limit { return false }
            process(queue.removeFirst())
        }
        return taken <= limit
    }

    mutating func process(_ event: String) {
        let enabled = removeConflictingTransitions(selectTransitions(event))
        guard !enabled.isEmpty else { return }
        taken += enabled.count
        if taken > limit { return }
        microstep(enabled)
    }

    /// Each active atomic state in document order, then its ancestors: the first enabled
    /// transition (document order) at the innermost state that has one.
    func selectTransitions(_ event: String) -> [Int] {
        var enabled: [Int] = []
        for atom in documentOrder(config) where isAtomic(atom) {
            search: for state in [atom] + properAncestors(atom) {
                for (index, transition) in chart.transitions.enumerated()
                where transition.source == state && transition.event == event
                    && transition.guard
                {
                    if !enabled.contains(index) { enabled.append(index) }
                    break search
                }
            }
        }
        return enabled
    }

    func removeConflictingTransitions(_ enabled: [Int]) -> [Int] {
        var filtered: [Int] = []
        for t1 in enabled {
            var preempted = false
            var toRemove: [Int] = []
            for t2 in filtered where !exitSet(t1).isDisjoint(with: exitSet(t2)) {
                if isDescendant(chart.transitions[t1].source, chart.transitions[t2].source) {
                    toRemove.append(t2)
                } else {
                    preempted = true
                    break
                }
            }
            if !preempted {
                filtered.removeAll { toRemove.contains($0) }
                filtered.append(t1)
            }
        }
        return filtered
    }

    /// The state the effective targets lie inside: the history's parent for a history
    /// target (exclusive), else the target (inclusive).
    func anchor(_ target: String) -> (id: String, exclusive: Bool) {
        info[target]!.kind == .history ? (info[target]!.parent!, true) : (target, false)
    }

    /// `nil` is the container above the root.
    func domain(_ index: Int) -> String? {
        let transition = chart.transitions[index]
        let (anchor, exclusive) = anchor(transition.target!)
        func containsTargets(_ state: String) -> Bool {
            exclusive
                ? anchor == state || isDescendant(anchor, state) : isDescendant(anchor, state)
        }
        let source = transition.source
        if transition.isInternal, isCompound(source), containsTargets(source) { return source }
        for ancestor in properAncestors(source)
        where !isParallel(ancestor) && containsTargets(ancestor) {
            return ancestor
        }
        return nil
    }

    func exitSet(_ index: Int) -> Set<String> {
        guard chart.transitions[index].target != nil else { return [] }
        guard let domain = domain(index) else { return config }
        return config.filter { isDescendant($0, domain) }
    }

    mutating func microstep(_ enabled: [Int]) {
        let exits = enabled.reduce(into: Set<String>()) { $0.formUnion(exitSet($1)) }
        for state in exits {
            for history in info[state]!.histories {
                records[history] = documentOrder(
                    config.filter {
                        info[history]!.depth == .deep
                            ? isAtomic($0) && isDescendant($0, state)
                            : info[$0]!.parent == state
                    })
            }
        }
        for state in documentOrder(exits).reversed() {
            lines.append("exit \(state)")
            config.remove(state)
        }
        for index in enabled { queue.append(contentsOf: chart.transitions[index].raise) }
        var entry = Set<String>()
        for index in enabled {
            guard let target = chart.transitions[index].target else { continue }
            addDescendantStatesToEnter(target, into: &entry)
            let domain = domain(index)
            for state in effectiveTargets(target) {
                addAncestorStatesToEnter(state, upTo: domain, into: &entry)
            }
        }
        enter(entry)
    }

    func effectiveTargets(_ target: String) -> [String] {
        guard info[target]!.kind == .history else { return [target] }
        return records[target] ?? [info[target]!.fallback!]
    }

    mutating func enter(_ entry: Set<String>) {
        for state in documentOrder(entry) {
            config.insert(state)
            lines.append("enter \(state)")
            guard info[state]!.kind == .final, let parent = info[state]!.parent else { continue }
            queue.append("done.state.\(parent)")
            if let grandparent = info[parent]!.parent, isParallel(grandparent),
                info[grandparent]!.children.allSatisfy(isInFinalState)
            {
                queue.append("done.state.\(grandparent)")
            }
        }
    }

    func isInFinalState(_ state: String) -> Bool {
        if isCompound(state) {
            return info[state]!.children.contains {
                config.contains($0) && info[$0]!.kind == .final
            }
        }
        if isParallel(state) { return info[state]!.children.allSatisfy(isInFinalState) }
        return false
    }

    func addDescendantStatesToEnter(_ state: String, into entry: inout Set<String>) {
        if info[state]!.kind == .history {
            let parent = info[state]!.parent!
            for restored in effectiveTargets(state) {
                addDescendantStatesToEnter(restored, into: &entry)
                addAncestorStatesToEnter(restored, upTo: parent, into: &entry)
            }
            return
        }
        entry.insert(state)
        if isCompound(state) {
            let initial = info[state]!.initial!
            addDescendantStatesToEnter(initial, into: &entry)
            addAncestorStatesToEnter(initial, upTo: state, into: &entry)
        } else if isParallel(state) {
            for region in info[state]!.children
            where !entry.contains(where: { isDescendant($0, region) }) {
                addDescendantStatesToEnter(region, into: &entry)
            }
        }
    }

    func addAncestorStatesToEnter(
        _ state: String, upTo stop: String?, into entry: inout Set<String>
    ) {
        for ancestor in properAncestors(state, upTo: stop) {
            entry.insert(ancestor)
            guard isParallel(ancestor) else { continue }
            for region in info[ancestor]!.children
            where !entry.contains(where: { isDescendant($0, region) }) {
                addDescendantStatesToEnter(region, into: &entry)
            }
        }
    }
}
