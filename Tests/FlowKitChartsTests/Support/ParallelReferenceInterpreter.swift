@testable import FlowKitCharts

/// A direct, data-only reading of the format-2 and format-3 semantics (SCXML 1.0 Appendix D,
/// as Docs/ChartFormat.md states them: selection, conflicts, exit and entry sets, history,
/// done events; in format 3 also eventless transitions, event descriptors, `In()`
/// conditions, target lists, deep and history initials, deep history defaults and `raise`
/// on entry and exit), written independently of the FlowKit runner: the oracle the random
/// format-2 and format-3 charts are checked against. It never touches a FlowController nor
/// the runner's compiled program; it keeps the configuration as a set of ids and follows the
/// algorithm's own procedures (`selectTransitions`, `removeConflictingTransitions`,
/// `computeEntrySet`, the main event loop's macrostep, …).
struct ParallelReferenceInterpreter {
    struct Info {
        var kind: FlowChart.Node.Kind
        var parent: String?
        var children: [String] = []  // non-history
        var histories: [String] = []
        var initial: [String] = []
        var depth: FlowChart.Node.HistoryDepth?
        var fallback: [String] = []
        var onEntry: [String] = []
        var onExit: [String] = []
        var position = 0
    }

    let chart: FlowChart
    let limit: Int
    /// Eventless microsteps in a row after which running stops (format 3).
    let eventlessLimit: Int
    /// Whether the chart is in format 3.
    let structured: Bool
    var info: [String: Info] = [:]
    var config: Set<String> = []
    /// History values, by history node.
    var records: [String: [String]] = [:]
    var queue: [String] = []
    var lines: [String] = []
    var taken = 0

    init(chart: FlowChart, limit: Int, eventlessLimit: Int = 100) {
        self.chart = chart
        self.limit = limit
        self.eventlessLimit = eventlessLimit
        structured = chart.format == "flowkit-hsm-case/3"
        var position = 0
        func words(_ text: String?) -> [String] {
            (text ?? "").split(separator: " ").map(String.init)
        }
        func visit(_ node: FlowChart.Node, parent: String?) {
            info[node.id] = Info(
                kind: node.kind, parent: parent,
                children: node.children.filter { $0.kind != .history }.map(\.id),
                histories: node.children.filter { $0.kind == .history }.map(\.id),
                initial: words(node.initial), depth: node.history, fallback: words(node.default),
                onEntry: node.onEntry, onExit: node.onExit, position: position)
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

    /// The main event loop's inner loop (a macrostep's rest): eventless transitions first
    /// (format 3), as long as some are enabled, then the next internal event, until the
    /// queue is empty. `false` when a limit stopped it.
    mutating func drain() -> Bool {
        while true {
            if structured {
                var steps = 0
                while true {
                    let enabled = removeConflictingTransitions(selectTransitions(nil))
                    if enabled.isEmpty { break }
                    steps += 1
                    if steps > eventlessLimit { return false }
                    taken += enabled.count
                    if taken > limit { return false }
                    microstep(enabled)
                }
            }
            if queue.isEmpty { break }
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

    /// SCXML 5.9.3, read directly: the descriptor's tokens (a final `*` or empty token
    /// dropped) are the first tokens of the event's name; `*` alone matches everything.
    static func descriptorMatches(_ descriptor: String, _ event: String) -> Bool {
        if descriptor == "*" { return true }
        var tokens = descriptor.split(separator: ".", omittingEmptySubsequences: false)
        if tokens.last == "*" || tokens.last == "" { tokens.removeLast() }
        let names = event.split(separator: ".", omittingEmptySubsequences: false)
        return tokens.count <= names.count && zip(tokens, names).allSatisfy { $0 == $1 }
    }

    /// Whether `transition` reacts to `event` (`nil`: whether it is eventless).
    func reacts(_ transition: FlowChart.Transition, to event: String?) -> Bool {
        guard structured else { return transition.event == event }
        guard let event else { return transition.event == nil }
        guard let descriptors = transition.event else { return false }
        return descriptors.split(separator: " ").contains {
            Self.descriptorMatches(String($0), event)
        }
    }

    /// The condition, evaluated against the configuration as it is.
    func holds(_ cond: String?) -> Bool {
        guard let cond else { return true }
        guard let parsed = try? FlowChart.Condition(parsing: cond) else { return false }
        func value(_ condition: FlowChart.Condition) -> Bool {
            switch condition {
            case .constant(let constant): return constant
            case .inState(let id): return config.contains(id)
            case .not(let inner): return !value(inner)
            case .all(let parts):
                for part in parts where !value(part) { return false }
                return true
            case .any(let parts):
                for part in parts where value(part) { return true }
                return false
            }
        }
        return value(parsed)
    }

    /// Each active atomic state in document order, then its ancestors: the first enabled
    /// transition (document order) at the innermost state that has one.
    func selectTransitions(_ event: String?) -> [Int] {
        var enabled: [Int] = []
        for atom in documentOrder(config) where isAtomic(atom) {
            search: for state in [atom] + properAncestors(atom) {
                for (index, transition) in chart.transitions.enumerated()
                where transition.source == state && reacts(transition, to: event)
                    && transition.guard && holds(transition.cond)
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

    /// The transition's target ids (several in format 3).
    func targets(_ index: Int) -> [String] {
        let target = chart.transitions[index].target
        guard structured else { return target.map { [$0] } ?? [] }
        return (target ?? "").split(separator: " ").map(String.init)
    }

    /// `nil` is the container above the root.
    func domain(_ index: Int) -> String? {
        let transition = chart.transitions[index]
        let anchors = targets(index).map(anchor)
        func containsTargets(_ state: String) -> Bool {
            anchors.allSatisfy { anchor, exclusive in
                exclusive
                    ? anchor == state || isDescendant(anchor, state)
                    : isDescendant(anchor, state)
            }
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
            queue.append(contentsOf: info[state]!.onExit)
            lines.append("exit \(state)")
            config.remove(state)
        }
        for index in enabled { queue.append(contentsOf: chart.transitions[index].raise) }
        var entry = Set<String>()
        for index in enabled {
            let targets = targets(index)
            for target in targets { addDescendantStatesToEnter(target, into: &entry) }
            let domain = domain(index)
            for target in targets {
                for state in effectiveTargets(target) {
                    addAncestorStatesToEnter(state, upTo: domain, into: &entry)
                }
            }
        }
        enter(entry)
    }

    func effectiveTargets(_ target: String) -> [String] {
        guard info[target]!.kind == .history else { return [target] }
        return records[target] ?? info[target]!.fallback
    }

    mutating func enter(_ entry: Set<String>) {
        for state in documentOrder(entry) {
            config.insert(state)
            lines.append("enter \(state)")
            queue.append(contentsOf: info[state]!.onEntry)
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
            for initial in info[state]!.initial {
                addDescendantStatesToEnter(initial, into: &entry)
            }
            for initial in info[state]!.initial {
                addAncestorStatesToEnter(initial, upTo: state, into: &entry)
            }
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
