/// One catch-up pass of ``FlowTransitions``: walks what the platform shows, compares each
/// shown node with the live tree, and issues the steps the rules allow now.
///
/// Linear in the shown tree and the live tree; a pass runs when a change happens in an idle
/// container, and when a step completes, so the changes made during one transition cost one
/// pass in all.
///
/// What "on screen" means here is UIKit's "the view is in the window hierarchy" (see
/// ``FlowTransitions/isOnScreen(_:)``): only a node on screen presents, so a presentation waits
/// while its presenter is a covered stack entry, in an unselected tab, in a hidden column,
/// under another presentation of its layer, or in a container whose transition (or gesture)
/// is running.
@MainActor
struct _CatchUpPass {
    let transitions: FlowTransitions
    let runtime: FlowRuntime
    /// The live tree's nodes by identity.
    var live: [FlowNodeID: FlowController] = [:]
    /// Whether a shown node has, at or below it, a presented node that must be dismissed.
    var pendingDismissal: [FlowNodeID: Bool] = [:]
    /// Whether a shown node, or a node of its shown embedded subtree, presents (shown, or in
    /// the tree): its layer is covered.
    var presentsWithin: [FlowNodeID: Bool] = [:]

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

    /// Whether the shown node `id` or a node of its shown embedded subtree presents
    /// something, on the platform or in the tree (a presentation covers its whole layer).
    mutating func hasPresentationWithin(_ id: FlowNodeID) -> Bool {
        if let known = presentsWithin[id] { return known }
        guard let shown = transitions._shown[id] else { return false }
        var result = shown.presented != nil || live[id]?._presented != nil
        if !result {
            for child in shown.children where hasPresentationWithin(child) {
                result = true
                break
            }
        }
        presentsWithin[id] = result
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

    /// Catches up below the shown node `id`. `covered`: a presentation the platform shows covers
    /// this node. `onScreen`: the platform shows this node on screen (see
    /// ``FlowTransitions/isOnScreen(_:)``), so it may present.
    mutating func visit(_ id: FlowNodeID, covered: Bool, onScreen: Bool) {
        guard let shown = transitions._shown[id] else { return }
        let node = live[id]
        let busy = transitions._isRunningStep(in: id)
        // 1. A presentation the tree no longer has goes first, and nothing below it or
        //    inside it changes before it is gone.
        if let presented = shown.presented, node?._presented?.id != presented {
            dismiss(presented, in: id)
            return
        }
        // 2. Dismissals deeper down (in kept children, or in children that left) come before
        //    anything changes here.
        if hasPendingDismissal(id) {
            for (index, child) in shown.children.enumerated() where hasPendingDismissal(child) {
                visit(
                    child, covered: covered || shown.presented != nil,
                    onScreen: onScreen && !busy && shown.presented == nil
                        && node?._presented == nil
                        && transitions._showsOnScreen(index, of: node, shown: shown))
            }
            if let presented = shown.presented, hasPendingDismissal(presented) {
                visit(presented, covered: covered, onScreen: onScreen && !busy)
            }
            return
        }
        guard let node else { return }  // left the tree: its container's step removes it
        // 3. A presentation the tree has and the platform does not show, once the presenter
        //    is on screen.
        if shown.presented == nil, let presented = node._presented, onScreen,
            canIssue(in: id, modal: true)
        {
            issue(.present(presented.id), in: id, showing: [presented])
        }
        // 4. The children (or the selection), unless a presentation covers them, the
        //    platform cannot change what is covered while a modal transition runs, and one
        //    runs (a covered change waits for that transition only: it would wait forever
        //    under a presentation that stays). A presentation covers its presenter's layer,
        //    so a sheet an entry presents covers its stack too.
        let coveredBelow = covered || shown.presented != nil || node._presented != nil
        if rules.changesUnderPresentation || !modalTransitionRuns
            || !(covered || hasPresentationWithin(id))
        {
            catchUpChildren(of: node, shown: shown)
        }
        // 5. Kept children and the kept presented node, as the platform shows them now (a
        //    step issued above may have ended already). A container's children are on
        //    screen only once it shows what the tree has: a child its next step removes or
        //    covers (a reorder popping it, a push above it, another tab selected) does not
        //    present meanwhile.
        guard let shown = transitions._shown[id] else { return }
        let busyNow = transitions._isRunningStep(in: id)
        let childrenOnScreen =
            onScreen && !busyNow && shown.presented == nil && node._presented == nil
            && transitions._showsTree(of: node, shown: shown)
        for (index, child) in shown.children.enumerated() where live[child] != nil {
            visit(
                child, covered: coveredBelow,
                onScreen: childrenOnScreen
                    && transitions._showsOnScreen(index, of: node, shown: shown))
        }
        if let presented = shown.presented {
            visit(presented, covered: covered, onScreen: onScreen && !busyNow)
        }
    }

    /// Dismisses the shown `presented` of `presenter`: in one step with
    /// ``FlowTransitionRules/dismissesLayersAbove``, else the top-most layer first, wherever
    /// in the layers above a node presents it (an entry of a presented stack, a tab of a
    /// presented tab container).
    private mutating func dismiss(_ presented: FlowNodeID, in presenter: FlowNodeID) {
        var presenter = presenter
        var layer = presented
        if !rules.dismissesLayersAbove {
            while true {
                switch transitions._topPresentation(within: layer) {
                case .none: break
                case .running: return  // a modal step inside the layers above: it ends first
                case .shown(let above, let node):
                    presenter = above
                    layer = node
                    continue
                }
                break
            }
        }
        if canIssue(in: presenter, modal: true) {
            issue(.dismiss(layer), in: presenter)
        }
    }

    /// The step that brings `node`'s shown children (or selection) towards the tree's.
    private mutating func catchUpChildren(of node: FlowController, shown: _ShownNode) {
        let target = node._children.map(\.id)
        if shown.children != target {
            guard canIssue(in: node.id, modal: false) else { return }
            let next: [FlowNodeID]
            if node is FlowStack, rules.stackSteps == .oneEntry {
                if target.count > shown.children.count && target.starts(with: shown.children) {
                    next = Array(target.prefix(shown.children.count + 1))
                } else {
                    next = Array(shown.children.dropLast())
                }
            } else {
                next = target
            }
            // What the step removes must present nothing and run nothing (UIKit does not
            // remove a view controller that presents): a presentation there is dismissed
            // first (and shown again once its presenter is back on screen), a running step
            // ends first.
            for removed in shown.children where !next.contains(removed) {
                switch transitions._topPresentation(within: removed) {
                case .none: continue
                case .running: return
                case .shown(let presenter, let presented):
                    dismiss(presented, in: presenter)
                    return
                }
            }
            let kind: FlowTransitionStep.Kind =
                node is FlowStack
                ? .setEntries(from: shown.children, to: next)
                : .setChildren(from: shown.children, to: next)
            issue(kind, in: node.id, showing: newNodes(in: next, shown: shown.children))
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
