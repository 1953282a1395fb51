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
        forgetEndedGestures()
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
    /// shows that tab, then FlowKit is told (`FlowTabs.platformDidSelect(_:)`) if the tree
    /// still has it, as the tab bar controller's delegate
    /// (`tabBarController(_:didSelect:)`) is, even when the tab was already selected.
    ///
    /// Tapping the selected tab when it is a stack showing more than one entry pops it to its
    /// first entry, as `UITabBarController` does ("the tab bar always displays the tab's root
    /// view … even if the tab was already selected"): what the platform shows changes, and
    /// FlowKit is told as a navigation controller's delegate would tell it
    /// (`FlowTransitions.platformDidPop(_:toShownEntry:)`, which pops the tree too unless
    /// `FlowTabs.reselectionPopsToRoot` made `platformDidSelect(_:)` pop it already, or the
    /// tree had popped it before the platform showed it).
    ///
    /// A tap during a transition of `tabs` or of that stack, or on an index the tab bar does
    /// not show, is recorded in ``illegalCalls`` (UIKit takes no touches during a
    /// transition) and changes nothing.
    public func tapTab(
        at index: Int, of tabs: FlowTabs, in transitions: FlowTransitions
    ) throws {
        let shown = shownChildren[tabs.id] ?? []
        guard let selected = shownSelections[tabs.id], shown.indices.contains(index) else {
            illegalCalls.append(
                "tab \(index) tapped on \(tabs.path), which shows \(shown.count) tabs")
            return
        }
        let tabID = shown[index]
        if running.contains(where: { $0.step.container == tabs.id || $0.step.container == tabID }) {
            illegalCalls.append("tab \(index) tapped on \(tabs.path) during a transition")
            return
        }
        shownSelections[tabs.id] = index
        var poppedTo: FlowNodeID?
        if selected == index, shownNodes[tabID]?.kind == .stack,
            var entries = shownChildren[tabID], entries.count > 1
        {
            while entries.count > 1 { forget(entries.removeLast()) }
            shownChildren[tabID] = entries
            poppedTo = entries[0]
        }
        guard let tab = tabs.tabs.first(where: { $0.id == tabID }) else { return }
        try tabs.platformDidSelect(tab)
        // The navigation controller's delegate tells FlowKit what it shows now, even if the
        // tree popped that stack already (its pop still to be shown).
        if let poppedTo, let stack = tab as? FlowStack {
            try transitions.platformDidPop(stack, toShownEntry: poppedTo)
        }
    }

    /// The user drags the sheet `presenter` presents down. While the drag runs, the sheet is
    /// being dismissed (not on screen) and, with `oneModalTransitionAtATime`, a modal step is
    /// an illegal call.
    public func dragDown(
        sheetOf presenter: FlowController, in transitions: FlowTransitions
    ) throws -> FlowInteractiveTransition {
        let gesture = try transitions.beginInteractiveDismiss(of: presenter)
        forgetEndedGestures()
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

    /// Forgets the gestures that ended without this platform (committed or cancelled on the
    /// gesture itself).
    private func forgetEndedGestures() {
        if gestures.values.contains(where: \.hasEnded) {
            gestures = gestures.filter { !$0.value.hasEnded }
        }
    }
}
