import FlowKit

/// A validated chart, ready to run: every state with its parent and children, and every
/// transition with its domain and entry path worked out (rule 2, "Domain", in
/// Docs/ChartFormat.md; with parallel states, rule 4 of its format-2 section).
struct _ChartProgram: Sendable {
    struct State: Sendable {
        let id: String
        let kind: FlowChart.Node.Kind
        let parent: String?
        /// The non-history children, in document order.
        let children: [String]
        /// The child FlowKit's `initialRoute` names (format 3: the one on the way to the
        /// first of the state's initial targets).
        var initial: String?
        let depth: Int
        /// For a state: whether it has a history child (it then records its history).
        var hasHistory = false
        /// For a state: whether it has a deep history child and a parallel state at or
        /// below it. FlowKit records one focused route path per node, which is the whole
        /// deep history only without parallel regions below; such a state's deep history is
        /// recorded by the machine instead (its active atomic states, every region's).
        var recordsBranchingHistory = false
        /// For a history node.
        var historyDepth: FlowChart.Node.HistoryDepth?
        var historyDefault: String?
        /// Format 3: the ids of the state's default entry (its `initial` list), and for a
        /// history node those of its default (its `default` list).
        var initialTargets: [String] = []
        var defaultTargets: [String] = []
        /// Format 3: the state's history children.
        var histories: [String] = []
        /// Format 3: events raised on entry and on exit.
        var onEntry: [String] = []
        var onExit: [String] = []

        /// Whether the state is a parallel state.
        var isParallel: Bool { kind == .parallel }
    }

    /// A transition as the state that owns it runs it.
    struct Transition: Sendable {
        /// Its place in the chart's list (document order), which identifies it.
        let index: Int
        let source: String
        /// Formats 1 and 2: the event name, matched exactly.
        let event: String
        let isEnabled: Bool
        let raise: [String]
        /// `nil` for a targetless transition.
        let step: Step?
        /// Format 3: the event descriptors, without a trailing `.*` or `.` (`*` kept); empty
        /// for an eventless transition.
        var descriptors: [String] = []
        /// Format 3: the condition, if any.
        var cond: FlowChart.Condition?

        /// Whether the transition takes the event `name` (formats 1 and 2: by name; format
        /// 3: by descriptor). An eventless transition takes no event.
        func matches(_ name: String, structured: Bool) -> Bool {
            guard structured else { return event == name }
            return descriptors.contains { FlowChart.descriptor($0, matches: name) }
        }

        /// Whether the transition is enabled when `isActive` says which states are active.
        func isEnabled(_ isActive: (String) -> Bool) -> Bool {
            isEnabled && (cond?.holds(isActive) ?? true)
        }
    }

    /// What a transition with a target does: below `domain` (`nil`: the hidden container
    /// above the root), exit everything and enter `routes`, restoring history if asked.
    struct Step: Sendable {
        let domain: String?
        let routes: [String]
        let history: FlowHistoryDepth?
        let historyDefault: String?
        /// For a deep-history target whose parent records branching history (see
        /// ``State/recordsBranchingHistory``): that parent, whose record the machine restores.
        let branchingHistoryOf: String?
        /// Format 3: every target id (history nodes included); the machine works out the
        /// entry set from them.
        var targets: [String] = []
    }

    let root: String
    let states: [String: State]
    /// Every id in document order (pre-order).
    let order: [String]
    /// Transitions by source, in document order.
    var transitions: [String: [Transition]] = [:]
    /// Whether a state is a parallel state.
    let hasParallelStates: Bool
    /// Whether the chart is in format 3: the machine then selects transitions itself, works
    /// out every entry set and records every history (``FlowChartMachine``).
    let isStructured: Bool
    /// Whether the machine selects transitions itself (a chart with parallel states, or any
    /// chart of format 3); otherwise each state handles its events on the responder chain.
    var selectsTransitions: Bool { hasParallelStates || isStructured }
    /// Each id's place in document order.
    let position: [String: Int]

    init(root: String, states: [String: State], order: [String], isStructured: Bool = false) {
        self.root = root
        self.states = states
        self.order = order
        self.isStructured = isStructured
        hasParallelStates = states.values.contains { $0.isParallel }
        var position: [String: Int] = [:]
        for (index, id) in order.enumerated() { position[id] = index }
        self.position = position
    }

    /// Whether `node` lies strictly inside `ancestor`.
    func isProperDescendant(_ node: String, of ancestor: String) -> Bool {
        node != ancestor && isDescendant(node, ofOrSelf: ancestor)
    }

    /// Whether `node` is `ancestor` or lies inside it.
    func isDescendant(_ node: String, ofOrSelf ancestor: String) -> Bool {
        var current: String? = node
        while let id = current {
            if id == ancestor { return true }
            current = states[id]?.parent
        }
        return false
    }

    /// The ids from just below `top` (exclusive; `nil` = above the root) down to `node`.
    func path(from top: String?, to node: String) -> [String] {
        Self.path(from: top, to: node, states)
    }

    /// The ids from just below `top` (exclusive; `nil` = above the root) down to `node`.
    static func path(from top: String?, to node: String, _ states: [String: State]) -> [String] {
        var result: [String] = []
        var current: String? = node
        while let id = current, id != top {
            result.append(id)
            current = states[id]?.parent
        }
        return result.reversed()
    }

    func compile(_ transition: FlowChart.Transition, index: Int) throws -> Transition {
        let sourceID = transition.source
        guard let source = states[sourceID] else {
            throw FlowChartError.unknownID(sourceID, context: "transitions[\(index)].source")
        }
        switch source.kind {
        case .final: throw FlowChartError.transitionFromFinal(index: index, source: sourceID)
        case .history:
            throw FlowChartError.transitionFromHistory(index: index, source: sourceID)
        case .state, .parallel: break
        }
        if isStructured { return try compileStructured(transition, index: index) }
        if transition.cond != nil {
            throw FlowChartError.needsFormat3(key: "cond", context: "transitions[\(index)]")
        }
        guard let event = transition.event, !event.isEmpty else {
            throw FlowChartError.eventlessTransition(index: index, source: sourceID)
        }
        guard let targetID = transition.target else {
            return Transition(
                index: index, source: sourceID, event: event, isEnabled: transition.guard,
                raise: transition.raise, step: nil)
        }
        guard let target = states[targetID] else {
            throw FlowChartError.unknownID(targetID, context: "transitions[\(index)].target")
        }
        // The state the entry path leads to, and whether the effective targets lie strictly
        // below it (a history target enters descendants of its parent).
        let anchor: String
        var history: FlowHistoryDepth?
        if target.kind == .history {
            anchor = target.parent!
            history = target.historyDepth == .deep ? .deep : .shallow
            if history == .deep, sourceID != anchor, isDescendant(sourceID, ofOrSelf: anchor) {
                throw FlowChartError.deepHistoryFromInside(
                    index: index, source: sourceID, target: targetID, parent: anchor)
            }
        } else {
            anchor = targetID
        }
        let anchorIsExclusive = history != nil
        /// Whether every effective target lies strictly inside `state`.
        func containsTargets(_ state: String) -> Bool {
            anchorIsExclusive
                ? isDescendant(anchor, ofOrSelf: state)
                : anchor != state && isDescendant(anchor, ofOrSelf: state)
        }
        // The domain is a compound state (or the container above the root), never a
        // parallel state; `internal` applies to a compound source only.
        var domain: String?
        if transition.isInternal, !source.isParallel, !source.children.isEmpty,
            containsTargets(sourceID)
        {
            domain = sourceID
        } else {
            domain = source.parent
            while let candidate = domain,
                states[candidate]!.isParallel || !containsTargets(candidate)
            {
                domain = states[candidate]!.parent
            }
        }
        let branches = history == .deep && states[anchor]!.recordsBranchingHistory
        let step = Step(
            domain: domain, routes: path(from: domain, to: anchor), history: history,
            historyDefault: history == nil ? nil : target.historyDefault,
            branchingHistoryOf: branches ? anchor : nil)
        return Transition(
            index: index, source: sourceID, event: event, isEnabled: transition.guard,
            raise: transition.raise, step: step)
    }
}
