import FlowKit

/// A platform with real timing on a virtual clock, for testing flows as a UIKit or SwiftUI
/// app would run them, on Linux: navigation stacks and modal presentation that take time,
/// refuse what the real platforms refuse, and can be swiped.
///
///     let platform = SimulatedPlatform(rules: .uiKit, duration: 350)
///     let transitions = FlowTransitions(host: platform)
///     let runtime = try FlowRuntime(root: app, host: transitions)
///     try runtime.start()
///     try stack.push(detail)           // the tree changes; the platform starts a push
///     try stack.push(more)             // during the push: waits its turn
///     platform.advance(by: 350)        // the first push ends; the second starts
///     platform.runUntilIdle()
///     #expect(platform.illegalCalls.isEmpty)
///     #expect(transitions.isShowingTree)
///
/// It keeps its own record of what it shows, built from the steps it was asked to perform, and
/// records as an *illegal call* (``illegalCalls``) anything a real platform would refuse or
/// get wrong: a transition started in a container whose transition is still running, a modal
/// transition while another runs (with `FlowTransitionRules.oneModalTransitionAtATime`), a
/// step while any runs (without `FlowTransitionRules.containersAnimateTogether`), a stack
/// step that does not start from what it shows or moves it further than the rules allow,
/// presenting from a node that presents already or is not on screen, dismissing what is not
/// presented there. Tests fail on them with `#expect(platform.illegalCalls.isEmpty)`.
@MainActor
public final class SimulatedPlatform: FlowTransitionHost {
    /// The rules this platform follows (and checks).
    public let transitionRules: FlowTransitionRules
    /// How long a transition takes, in virtual milliseconds (0: at once, inside `perform`).
    public var duration: Int
    /// The virtual time, in milliseconds.
    public private(set) var now = 0
    /// What a real platform would have refused, in order (empty in a correct run).
    public private(set) var illegalCalls: [String] = []
    /// Every step performed, in order.
    public private(set) var performedSteps: [FlowTransitionStep] = []
    /// Decides, for each step, whether the platform refuses it (the error its completion
    /// fails with) or performs it (`nil`). Defaults to performing everything.
    public var refuses: (FlowTransitionStep) -> (any Error)? = { _ in nil }

    /// What the platform shows: each shown node's children and presented node.
    private var shownChildren: [FlowNodeID: [FlowNodeID]] = [:]
    private var shownPresented: [FlowNodeID: FlowNodeID] = [:]
    private var root: FlowNodeID?
    private var running: [Running] = []

    private struct Running {
        let end: Int
        let step: FlowTransitionStep
        let completion: FlowTransitionCompletion
        /// The embedded subtrees the step shows, read from the tree when it started.
        let shows: [FlowNodeID: [FlowNodeID]]
    }

    /// Creates a platform with `rules` whose transitions take `duration` milliseconds.
    public init(rules: FlowTransitionRules = .uiKit, duration: Int = 350) {
        transitionRules = rules
        self.duration = duration
    }

    /// Whether a transition is running.
    public var isAnimating: Bool { !running.isEmpty }

    /// The identities of the children the platform shows for `node`.
    public func shownChildren(of node: FlowController) -> [FlowNodeID] {
        shownChildren[node.id] ?? []
    }

    /// The identity of the node the platform shows presented by `node`, if any.
    public func shownPresented(by node: FlowController) -> FlowNodeID? {
        shownPresented[node.id]
    }

    // MARK: FlowTransitionHost

    /// Starts `step` (checked against the rules and against what the platform shows; a
    /// violation is recorded in ``illegalCalls``), or fails it if ``refuses`` says so. The step
    /// ends after ``duration`` virtual milliseconds (``advance(by:)``), or at once with a
    /// duration of 0; then `completion` is called and what the platform shows changes.
    public func perform(
        _ step: FlowTransitionStep, in runtime: FlowRuntime, completion: FlowTransitionCompletion
    ) {
        performedSteps.append(step)
        checkLegality(of: step)
        if let error = refuses(step) {
            completion.fail(error)
            return
        }
        var shows: [FlowNodeID: [FlowNodeID]] = [:]
        switch step.kind {
        case .start:
            if let node = runtime.node(id: step.container) { record(node, into: &shows) }
        case .setEntries(let from, let to), .setChildren(let from, let to):
            for id in to where !from.contains(id) {
                if let node = runtime.node(id: id) { record(node, into: &shows) }
            }
        case .present(let id):
            if let node = runtime.node(id: id) { record(node, into: &shows) }
        case .select, .dismiss, .stop:
            break
        }
        if step.kind == .stop {
            shownChildren.removeAll()
            shownPresented.removeAll()
            root = nil
            running.removeAll()
            completion.done()
            return
        }
        let transition = Running(
            end: now + duration, step: step, completion: completion, shows: shows)
        if duration == 0 {
            finish(transition)
        } else {
            running.append(transition)
        }
    }

    /// Moves the virtual clock on by `milliseconds`, ending the transitions due meanwhile
    /// (their completions run, and with them the next steps start).
    public func advance(by milliseconds: Int) {
        let target = now + milliseconds
        while let next = running.min(by: { $0.end < $1.end }), next.end <= target {
            now = next.end
            running.removeAll { $0.completion === next.completion }
            finish(next)
        }
        now = target
    }

    /// Advances the clock until no transition runs (at most 10,000 transitions).
    public func runUntilIdle() {
        var rounds = 0
        while let next = running.min(by: { $0.end < $1.end }), rounds < 10_000 {
            advance(by: max(0, next.end - now))
            rounds += 1
        }
    }

    // MARK: Interactive gestures

    /// The user swipes back on `stack`: the gesture begins if FlowKit allows it (guards
    /// included). Move it with `FlowInteractiveTransition.update(progress:)`; let go with
    /// ``release(_:on:)`` or ``cancel(_:)``.
    public func swipeBack(
        on stack: FlowStack, in transitions: FlowTransitions
    ) throws -> FlowInteractiveTransition {
        if running.contains(where: { $0.step.container == stack.id }) {
            illegalCalls.append("swipe back on \(stack.path) during a transition")
        }
        return try transitions.beginInteractivePop(on: stack)
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

    /// The user drags the sheet `presenter` presents down.
    public func dragDown(
        sheetOf presenter: FlowController, in transitions: FlowTransitions
    ) throws -> FlowInteractiveTransition {
        try transitions.beginInteractiveDismiss(of: presenter)
    }

    /// The user lets go past the point of no return: the platform finishes the pop or the
    /// dismissal (what it shows changes), then tells FlowKit.
    public func release(_ gesture: FlowInteractiveTransition, on container: FlowController) {
        if gesture.kind == "pop" {
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
        gesture.cancel()
    }

    // MARK: The record of what is shown

    private func record(_ node: FlowController, into shows: inout [FlowNodeID: [FlowNodeID]]) {
        var pending = [node]
        while let current = pending.popLast() {
            shows[current.id] = current.children.map(\.id)
            pending.append(contentsOf: current.children)
        }
    }

    private func finish(_ transition: Running) {
        let step = transition.step
        for (id, children) in transition.shows { shownChildren[id] = children }
        switch step.kind {
        case .start:
            root = step.container
        case .setEntries(let from, let to), .setChildren(let from, let to):
            for id in from where !to.contains(id) { forget(id) }
            shownChildren[step.container] = to
        case .present(let id):
            shownPresented[step.container] = id
        case .dismiss(let id):
            if shownPresented[step.container] == id { shownPresented[step.container] = nil }
            forget(id)
        case .select, .stop:
            break
        }
        transition.completion.done()
    }

    private func forget(_ id: FlowNodeID) {
        var pending = [id]
        while let node = pending.popLast() {
            if let children = shownChildren.removeValue(forKey: node) {
                pending.append(contentsOf: children)
            }
            if let presented = shownPresented.removeValue(forKey: node) {
                pending.append(presented)
            }
        }
    }

    private func isOnScreen(_ id: FlowNodeID) -> Bool {
        id == root || shownChildren.values.contains { $0.contains(id) }
            || shownPresented.values.contains(id)
    }

    private func checkLegality(of step: FlowTransitionStep) {
        func illegal(_ why: String) { illegalCalls.append("\(step): \(why)") }
        // Tearing everything down is legal at any time (the window goes away).
        if step.kind == .stop { return }
        if running.contains(where: { $0.step.container == step.container }) {
            illegal("a transition of this container is still running")
        }
        if !transitionRules.containersAnimateTogether && !running.isEmpty {
            illegal("another transition is running")
        }
        if step.isModal && transitionRules.oneModalTransitionAtATime
            && running.contains(where: { $0.step.isModal })
        {
            illegal("another modal transition is running")
        }
        switch step.kind {
        case .start:
            if root != nil { illegal("the platform already shows a tree") }
        case .setEntries(let from, let to):
            if from != (shownChildren[step.container] ?? []) {
                illegal("the stack shows \(shownChildren[step.container] ?? []), not \(from)")
            }
            if transitionRules.stackSteps == .oneEntry {
                let onePush = to.count == from.count + 1 && to.starts(with: from)
                let onePop = from.count == to.count + 1 && from.starts(with: to)
                if !onePush && !onePop { illegal("more than one push or pop in one step") }
            }
        case .setChildren(let from, _):
            if from != (shownChildren[step.container] ?? []) {
                illegal("the container shows \(shownChildren[step.container] ?? []), not \(from)")
            }
        case .present:
            if shownPresented[step.container] != nil {
                illegal("presenting from a node that presents already")
            }
            if !isOnScreen(step.container) { illegal("presenting from a node not on screen") }
            if running.contains(where: {
                if case .dismiss = $0.step.kind { return true } else { return false }
            }) {
                illegal("presenting while a dismissal runs")
            }
        case .dismiss(let id):
            if shownPresented[step.container] != id { illegal("\(id) is not presented there") }
        case .select, .stop:
            break
        }
    }
}
