import FlowKit

// What the user does on the simulated platform: swipes, taps and drags. Each changes what the
// platform shows first, then tells FlowKit, as UIKit's delegates do.

extension SimulatedPlatform {
    /// The user swipes back on `stack`: the gesture begins if FlowKit allows it (guards
    /// included). Move it with `FlowInteractiveTransition.update(progress:)`; let go with
    /// ``release(_:on:)`` or ``cancel(_:)``. While it runs, the stack's entries are in a
    /// transition (not on screen), and a step in the stack is an illegal call.
    public func swipeBack(
        on stack: FlowStack, in transitions: FlowTransitions
    ) throws -> FlowInteractiveTransition {
        if running.contains(where: { $0.step.container == stack.id }) {
            illegalCalls.append("swipe back on \(stack.path) during a transition")
        }
        let gesture = try transitions.beginInteractivePop(on: stack)
        gestures[stack.id] = gesture
        return gesture
    }

    /// The user taps back on `stack` (no gesture to follow): the platform pops what it shows
    /// on top, then tells FlowKit
    /// (`FlowTransitions.platformDidPop(_:toShownEntry:)`), as a navigation controller's
    /// delegate does.
    public func tapBack(on stack: FlowStack, in transitions: FlowTransitions) throws {
        if running.contains(where: { $0.step.container == stack.id }) {
            illegalCalls.append("back tapped on \(stack.path) during a transition")
        }
        guard var children = shownChildren[stack.id], children.count > 1 else { return }
        forget(children.removeLast())
        shownChildren[stack.id] = children
        try transitions.platformDidPop(stack, toShownEntry: children.last!)
    }

    /// The user taps the tab at `index` of `tabs` (as the platform shows them): the tab bar
    /// shows that tab, then FlowKit is told (``FlowTabs/platformDidSelect(_:)``) if the tree
    /// still has it, as the tab bar controller's delegate
    /// (`tabBarController(_:didSelect:)`) does, even when the tab was already selected.
    ///
    /// A tap during a transition of `tabs`, or on an index it does not show, is recorded in
    /// ``illegalCalls`` (UIKit takes no touches during a transition) and changes nothing.
    public func tapTab(at index: Int, of tabs: FlowTabs) throws {
        let shown = shownChildren[tabs.id] ?? []
        guard shownSelections[tabs.id] != nil, shown.indices.contains(index) else {
            illegalCalls.append(
                "tab \(index) tapped on \(tabs.path), which shows \(shown.count) tabs")
            return
        }
        if running.contains(where: { $0.step.container == tabs.id }) {
            illegalCalls.append("tab \(index) tapped on \(tabs.path) during a transition")
            return
        }
        shownSelections[tabs.id] = index
        if let tab = tabs.tabs.first(where: { $0.id == shown[index] }) {
            try tabs.platformDidSelect(tab)
        }
    }

    /// The user drags the sheet `presenter` presents down. While the drag runs, the sheet is
    /// being dismissed (not on screen) and, with `oneModalTransitionAtATime`, a modal step is
    /// an illegal call.
    public func dragDown(
        sheetOf presenter: FlowController, in transitions: FlowTransitions
    ) throws -> FlowInteractiveTransition {
        let gesture = try transitions.beginInteractiveDismiss(of: presenter)
        gestures[presenter.id] = gesture
        return gesture
    }

    /// The user lets go past the point of no return: the platform finishes the pop or the
    /// dismissal (what it shows changes), then tells FlowKit.
    public func release(_ gesture: FlowInteractiveTransition, on container: FlowController) {
        if gestures[container.id] === gesture { gestures[container.id] = nil }
        if Self.isPop(gesture) {
            if var children = shownChildren[container.id], children.count > 1 {
                let removed = children.removeLast()
                forget(removed)
                shownChildren[container.id] = children
            }
        } else if let presented = shownPresented.removeValue(forKey: container.id) {
            forget(presented)
        }
        gesture.commit()
    }

    /// The user lets go before the point of no return: nothing changes on screen.
    public func cancel(_ gesture: FlowInteractiveTransition) {
        gestures = gestures.filter { $0.value !== gesture }
        gesture.cancel()
    }
}
