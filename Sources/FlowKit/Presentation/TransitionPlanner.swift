/// One planning pass of ``FlowTransitions``: walks what the platform shows, compares each
/// shown node with the live tree, and issues the steps the rules allow now.
///
/// Linear in the shown tree and the live tree; a pass runs when a change happens in an idle
/// container, and when a step completes, so the changes made during one transition cost one
/// pass in all.
@MainActor
struct _Planner {
    let transitions: FlowTransitions
    let runtime: FlowRuntime
    /// The live tree's nodes by identity.
    var live: [FlowNodeID: FlowController] = [:]
    /// Whether a shown node has, at or below it, a presented node that must be dismissed.
    var pendingDismissal: [FlowNodeID: Bool] = [:]

    init(transitions: FlowTransitions, runtime: FlowRuntime) {
        self.transitions = transitions
        self.runtime = runtime
    }

    var rules: FlowTransitionRules { transitions.rules }

    mutating func indexLiveTree(from root: FlowController) {
        var pending = [root]
        while let node = pending.popLast() {
            live[node.id] = node
            pending.append(contentsOf: node._children)
            if let presented = node._presented { pending.append(presented) }
        }
    }

    /// Whether `id`, a shown node, shows a presentation the tree no longer has, or has one
    /// below it.
    mutating func hasPendingDismissal(_ id: FlowNodeID) -> Bool {
        if let known = pendingDismissal[id] { return known }
        guard let shown = transitions._shown[id] else { return false }
        var result = false
        if let presented = shown.presented {
            if live[id]?._presented?.id != presented {
                result = true
            } else if hasPendingDismissal(presented) {
                result = true
            }
        }
        if !result {
            for child in shown.children where hasPendingDismissal(child) {
                result = true
                break
            }
        }
        pendingDismissal[id] = result
        return result
    }

    /// Whether a present or dismiss step (or a sheet drag) runs now.
    var modalTransitionRuns: Bool {
        transitions._inFlight.values.contains { $0.step.isModal }
            || transitions._gesture?.isDismissal == true
    }

    /// Whether a step may start in `container` now.
    func canIssue(in container: FlowNodeID, modal: Bool) -> Bool {
        let t = transitions
        if t._inFlight[container] != nil || t._gesture?.container == container { return false }
        if !rules.containersAnimateTogether && (!t._inFlight.isEmpty || t._gesture != nil) {
            return false
        }
        if modal && rules.oneModalTransitionAtATime {
            if t._inFlight.values.contains(where: { $0.step.isModal }) { return false }
            if t._gesture?.isDismissal == true { return false }
        }
        return true
    }

    /// Plans below the shown node `id`. `covered`: a presentation the platform shows covers
    /// this node.
    mutating func visit(_ id: FlowNodeID, covered: Bool) {
        guard let shown = transitions._shown[id] else { return }
        let node = live[id]
        // 1. A presentation the tree no longer has goes first, and nothing below it or
        //    inside it changes before it is gone.
        if let presented = shown.presented, node?._presented?.id != presented {
            var presenter = id
            var layer = presented
            if !rules.dismissesLayersAbove {
                while let above = transitions._shown[layer]?.presented {
                    presenter = layer
                    layer = above
                }
            }
            if canIssue(in: presenter, modal: true) {
                issue(.dismiss(layer), in: presenter)
            }
            return
        }
        // 2. Dismissals deeper down (in kept children, or in children that left) come before
        //    anything changes here.
        if hasPendingDismissal(id) {
            for child in shown.children where hasPendingDismissal(child) {
                visit(child, covered: covered || shown.presented != nil)
            }
            if let presented = shown.presented, hasPendingDismissal(presented) {
                visit(presented, covered: covered)
            }
            return
        }
        guard let node else { return }  // left the tree: its container's step removes it
        // 3. A presentation the tree has and the platform does not show.
        if shown.presented == nil, let presented = node._presented,
            canIssue(in: id, modal: true)
        {
            issue(.present(presented.id), in: id, showing: [presented])
        }
        // 4. The children (or the selection), unless a presentation covers them, the
        //    platform cannot change what is covered while a modal transition runs, and one
        //    runs (a covered change never waits for more than that: it would wait forever
        //    under a presentation that stays).
        let coveredBelow = covered || shown.presented != nil || node._presented != nil
        if rules.changesUnderPresentation || !coveredBelow || !modalTransitionRuns {
            planChildren(of: node, shown: shown)
        }
        // 5. Kept children and the kept presented node.
        for child in shown.children where live[child] != nil {
            visit(child, covered: coveredBelow)
        }
        if let presented = shown.presented { visit(presented, covered: covered) }
    }

    /// The step that brings `node`'s shown children (or selection) towards the tree's.
    private mutating func planChildren(of node: FlowController, shown: _ShownNode) {
        let target = node._children.map(\.id)
        if shown.children != target {
            guard canIssue(in: node.id, modal: false) else { return }
            if node is FlowStack {
                let next: [FlowNodeID]
                switch rules.stackSteps {
                case .wholeStack:
                    next = target
                case .oneEntry:
                    if target.count > shown.children.count
                        && target.starts(with: shown.children)
                    {
                        next = Array(target.prefix(shown.children.count + 1))
                    } else {
                        next = Array(shown.children.dropLast())
                    }
                }
                issue(
                    .setEntries(from: shown.children, to: next), in: node.id,
                    showing: newNodes(in: next, shown: shown.children))
            } else {
                issue(
                    .setChildren(from: shown.children, to: target), in: node.id,
                    showing: newNodes(in: target, shown: shown.children))
            }
            return
        }
        if let tabs = node as? FlowTabs, let selected = shown.selected,
            selected != tabs._selectedIndex, canIssue(in: node.id, modal: false)
        {
            issue(.select(from: selected, to: tabs._selectedIndex), in: node.id)
        }
    }

    /// The live nodes of `ids` that `shown` does not have.
    private func newNodes(in ids: [FlowNodeID], shown: [FlowNodeID]) -> [FlowController] {
        ids.filter { !shown.contains($0) }.compactMap { live[$0] }
    }

    private func issue(
        _ kind: FlowTransitionStep.Kind, in container: FlowNodeID,
        showing nodes: [FlowController] = []
    ) {
        // A dismissal may happen in a node that left the tree: its shown path names it.
        let path = live[container]?.path ?? transitions._shown[container]?.path ?? ""
        transitions._issue(kind, in: container, path: path, showing: nodes, runtime: runtime)
    }
}
