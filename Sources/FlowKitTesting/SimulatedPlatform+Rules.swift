import FlowKit

// The simulated platform's rules: what UIKit refuses or gets wrong, checked for each step
// against the platform's own record (see the table in SimulatedPlatform's documentation).

extension SimulatedPlatform {
    func checkLegality(of step: FlowTransitionStep) {
        func illegal(_ why: String) { illegalCalls.append("\(step): \(why)") }
        // Tearing everything down is legal at any time (the window goes away).
        if step.kind == .stop { return }
        let container = step.container
        // One transition per container; modal transitions one at a time.
        if running.contains(where: { $0.step.container == container }) {
            illegal("a transition of this container is still running")
        }
        if let gesture = gesture(on: container) {
            illegal(
                Self.isPop(gesture)
                    ? "the user is swiping this stack back" : "the user is dragging its sheet down")
        }
        if !transitionRules.containersAnimateTogether && !running.isEmpty {
            illegal("another transition is running")
        }
        if step.isModal && transitionRules.oneModalTransitionAtATime {
            if running.contains(where: { $0.step.isModal }) {
                illegal("another modal transition is running")
            } else if let drag = sheetDrag(), drag != container {
                illegal("the sheet of \(name(drag)) is being dragged down")
            }
        }
        switch step.kind {
        case .start:
            if root != nil { illegal("the platform already shows a tree") }
        case .setEntries(let from, let to):
            let shown = shownChildren[container] ?? []
            if from != shown { illegal("the stack shows \(list(shown)), not \(list(from))") }
            if transitionRules.stackSteps == .oneEntry {
                let onePush = to.count == from.count + 1 && to.starts(with: from)
                let onePop = from.count == to.count + 1 && from.starts(with: to)
                if !onePush && !onePop { illegal("more than one push or pop in one step") }
            }
            checkRemovals(from: shown, to: to, illegal)
        case .setChildren(let from, let to):
            let shown = shownChildren[container] ?? []
            if from != shown { illegal("the container shows \(list(shown)), not \(list(from))") }
            checkRemovals(from: shown, to: to, illegal)
        case .select(let from, let to):
            if let shown = shownSelections[container] {
                if shown != from { illegal("the tab bar shows tab \(shown), not \(from)") }
                let count = shownChildren[container]?.count ?? 0
                if !(0..<count).contains(to) { illegal("the tab bar has no tab \(to)") }
            } else {
                illegal("the platform shows no tab bar there")
            }
        case .present:
            if shownPresented[container] != nil || presentRunning(in: container) != nil {
                illegal("presenting from a node that presents already")
            }
            if let why = whyNotOnScreen(container) {
                illegal("presenting from a node not on screen (\(why))")
            }
            if running.contains(where: {
                if case .dismiss = $0.step.kind { return true } else { return false }
            }) {
                illegal("presenting while a dismissal runs")
            }
        case .dismiss(let id):
            if presentRunning(in: container) == id {
                illegal("\(id) is still being presented")
            } else if shownPresented[container] != id {
                illegal("\(id) is not presented there")
            } else if !transitionRules.dismissesLayersAbove,
                let (presenter, presented) = presentation(inside: id)
            {
                illegal(
                    "\(name(presenter)) \(presents(presenter)) \(name(presented)) above it (this "
                        + "platform dismisses one layer at a time)")
            }
        case .stop:
            break
        }
    }

    /// A view controller that presents is not removed from its container: every node that
    /// `from` has and `to` does not must present nothing, nor any node inside it.
    private func checkRemovals(
        from: [FlowNodeID], to: [FlowNodeID], _ illegal: (String) -> Void
    ) {
        for removed in from where !to.contains(removed) {
            guard let (presenter, presented) = presentation(inside: removed) else { continue }
            let presents = "\(presents(presenter)) \(name(presented))"
            if presenter == removed {
                illegal("removes \(name(removed)), which \(presents)")
            } else {
                illegal("removes \(name(removed)), inside which \(name(presenter)) \(presents)")
            }
        }
    }

    /// `presents`, or `is presenting` while the `present` step of `presenter` runs.
    private func presents(_ presenter: FlowNodeID) -> String {
        shownPresented[presenter] == nil ? "is presenting" : "presents"
    }

    /// The first node at or below `id` (through embedded children) that presents, shown or
    /// being presented, and what it presents.
    func presentation(inside id: FlowNodeID) -> (FlowNodeID, FlowNodeID)? {
        var pending = [id]
        while let node = pending.popLast() {
            if let presented = shownPresented[node] ?? presentRunning(in: node) {
                return (node, presented)
            }
            pending.append(contentsOf: (shownChildren[node] ?? []).reversed())
        }
        return nil
    }

    /// The node whose `present` step runs in `id`, if any.
    func presentRunning(in id: FlowNodeID) -> FlowNodeID? {
        for transition in running where transition.step.container == id {
            if case .present(let presented) = transition.step.kind { return presented }
        }
        return nil
    }

    /// Whether a `present` step of `id` runs.
    private func isBeingPresented(_ id: FlowNodeID) -> Bool {
        running.contains {
            if case .present(let presented) = $0.step.kind { return presented == id }
            return false
        }
    }

    /// The container whose running `setEntries` or `setChildren` step adds `id`, if any.
    private func containerBeingChanged(toShow id: FlowNodeID) -> FlowNodeID? {
        for transition in running {
            switch transition.step.kind {
            case .setEntries(let from, let to), .setChildren(let from, let to):
                if to.contains(id) && !from.contains(id) { return transition.step.container }
            default:
                break
            }
        }
        return nil
    }

    private func dismissRunning(in id: FlowNodeID) -> Bool {
        running.contains {
            if case .dismiss = $0.step.kind { return $0.step.container == id }
            return false
        }
    }

    /// The gesture the user is making on `id` (a swipe back on a stack, a drag of the sheet
    /// it presents), if one is in progress.
    func gesture(on id: FlowNodeID) -> FlowInteractiveTransition? {
        guard let gesture = gestures[id], !gesture.hasEnded else { return nil }
        return gesture
    }

    /// The presenter whose sheet the user is dragging down, if any.
    private func sheetDrag() -> FlowNodeID? {
        gestures.first { !$0.value.hasEnded && !Self.isPop($0.value) }?.key
    }

    static func isPop(_ gesture: FlowInteractiveTransition) -> Bool {
        gesture.kind == .pop
    }

    // MARK: On screen

    /// Why `id`'s view is not in the window hierarchy now, or `nil` if it is: walks up from
    /// `id` to its layer (the root, or the nearest presented node), checking that each
    /// container shows the child on the way, that nothing moves, and that nothing on the way
    /// (`id` excluded) presents.
    func whyNotOnScreen(_ id: FlowNodeID) -> String? {
        var child = id
        while child != root {
            if isBeingPresented(child) { return "\(name(child)) is still being presented" }
            if let container = containerBeingChanged(toShow: child) {
                return "\(name(container)) is in a transition"
            }
            guard let parent = shownParent[child], let container = shownNodes[parent] else {
                return "\(name(child)) is not shown"
            }
            if shownPresented[parent] == child {
                if dismissRunning(in: parent) || gesture(on: parent) != nil {
                    return "\(name(child)) is being dismissed"
                }
                return nil
            }
            if let presented = shownPresented[parent] ?? presentRunning(in: parent) {
                return
                    "\(name(parent)) \(presents(parent)) \(name(presented)) over \(name(child))"
            }
            let moving = running.contains { $0.step.container == parent }
            let children = shownChildren[parent] ?? []
            switch container.kind {
            case .stack:
                if children.last != child { return "\(name(child)) is below the top of its stack" }
                if moving { return "\(name(parent)) is in a transition" }
                if gesture(on: parent) != nil { return "\(name(parent)) is being swiped back" }
            case .tabs:
                let selected = shownSelections[parent] ?? 0
                if !children.indices.contains(selected) || children[selected] != child {
                    return
                        "\(name(child)) is not the selected tab: the tab bar shows tab \(selected)"
                }
                if moving { return "\(name(parent)) is in a transition" }
            case .split:
                let arrangement = splitArrangement(parent)
                if arrangement.collapsed && arrangement.topColumn != child {
                    return "\(name(child)) is not the top column of the collapsed split"
                }
                if moving { return "\(name(parent)) is in a transition" }
            case .parallel, .other:
                if moving { return "\(name(parent)) is in a transition" }
            }
            child = parent
        }
        return nil
    }

    /// A split's arrangement (collapsed or not, the column on top) as the platform last
    /// reported it to FlowKit (read from the live split, or what was known when it was last
    /// read).
    private func splitArrangement(_ id: FlowNodeID) -> (collapsed: Bool, topColumn: FlowNodeID?) {
        if let split = runtime?.node(id: id) as? FlowSplit, var shown = shownNodes[id] {
            read(split, into: &shown)
            shownNodes[id] = shown
        }
        let shown = shownNodes[id]
        return (shown?.collapsed ?? false, shown?.topColumn)
    }
}
