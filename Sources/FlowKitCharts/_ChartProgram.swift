import FlowKit

/// A validated chart, ready to run: every state with its parent and children, and every
/// transition with its domain and entry path worked out (rule 2, "Domain", in Docs/ChartFormat.md).
struct _ChartProgram: Sendable {
    struct State: Sendable {
        let id: String
        let kind: FlowChart.Node.Kind
        let parent: String?
        /// The non-history children, in document order.
        let children: [String]
        let initial: String?
        let depth: Int
        /// For a state: whether it has a history child (it then records its history).
        var hasHistory = false
        /// For a history node.
        var historyDepth: FlowChart.Node.HistoryDepth?
        var historyDefault: String?
    }

    /// A transition as the state that owns it runs it.
    struct Transition: Sendable {
        let event: String
        let isEnabled: Bool
        let raise: [String]
        /// `nil` for a targetless transition.
        let step: Step?
    }

    /// What a transition with a target does: below `domain` (`nil`: the hidden container
    /// above the root), exit everything and enter `routes`, restoring history if asked.
    struct Step: Sendable {
        let domain: String?
        let routes: [String]
        let history: FlowHistoryDepth?
        let historyDefault: String?
    }

    let root: String
    let states: [String: State]
    /// Every id in document order (pre-order).
    let order: [String]
    /// Transitions by source, in document order.
    var transitions: [String: [Transition]] = [:]

    init(root: String, states: [String: State], order: [String]) {
        self.root = root
        self.states = states
        self.order = order
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
        guard let event = transition.event, !event.isEmpty else {
            throw FlowChartError.eventlessTransition(index: index, source: sourceID)
        }
        guard let targetID = transition.target else {
            return Transition(
                event: event, isEnabled: transition.guard, raise: transition.raise, step: nil)
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
        var domain: String?
        if transition.isInternal, !source.children.isEmpty, containsTargets(sourceID) {
            domain = sourceID
        } else {
            domain = source.parent
            while let candidate = domain, !containsTargets(candidate) {
                domain = states[candidate]!.parent
            }
        }
        let step = Step(
            domain: domain, routes: path(from: domain, to: anchor), history: history,
            historyDefault: history == nil ? nil : target.historyDefault)
        return Transition(
            event: event, isEnabled: transition.guard, raise: transition.raise, step: step)
    }
}
