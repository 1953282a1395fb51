/// An interactive gesture of the platform in progress: a swipe back on a stack, or a sheet
/// dragged down. Made by ``FlowTransitions/beginInteractivePop(on:)`` or
/// ``FlowTransitions/beginInteractiveDismiss(of:)``, which asked the exit guards first.
///
/// While it runs the tree does not change, no hook runs, steps of its container wait, and
/// nothing inside the container presents (its entries are in a transition: not on screen).
/// ``cancel()`` leaves everything as it was (the trace records only the gesture);
/// ``commit()`` makes the platform's change, with the usual teardown, not echoed to the host.
/// Only the first ``commit()`` or ``cancel()`` counts.
///
/// The steps that waited are issued as soon as either is called. Call it once the platform
/// has finished the gesture's own animation, or, if you call it when the user lets go (UIKit's
/// `notifyWhenInteractionChanges`), hold the steps that arrive until the platform is ready, as
/// the UIKit host of <doc:Hosting> does.
@MainActor
public final class FlowInteractiveTransition {
    /// What an interactive gesture does once committed.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A swipe back on a stack: its top entry slides away
        /// (``FlowTransitions/beginInteractivePop(on:)``).
        case pop
        /// A sheet dragged down: the presented node goes
        /// (``FlowTransitions/beginInteractiveDismiss(of:)``).
        case dismiss

        /// Compares with the `String` ``FlowInteractiveTransition/kind`` was before it became
        /// an enum (`"pop"`, `"dismiss"`).
        @available(*, deprecated, message: "compare with .pop or .dismiss (or use rawValue)")
        public static func == (kind: Kind, name: String) -> Bool { kind.rawValue == name }

        /// Compares with the `String` ``FlowInteractiveTransition/kind`` was before it became
        /// an enum.
        @available(*, deprecated, message: "compare with .pop or .dismiss (or use rawValue)")
        public static func != (kind: Kind, name: String) -> Bool { kind.rawValue != name }
    }

    private weak var transitions: FlowTransitions?
    private let token: Int
    /// What the gesture does: ``Kind/pop`` or ``Kind/dismiss``.
    public let kind: Kind
    /// The node the gesture happens in: the stack (a pop) or the presenter (a dismissal).
    public let container: FlowNodeID
    /// The container's path when the gesture began (for logs and traces).
    public let containerPath: String
    /// How far the gesture has gone, from 0 to 1 (what ``update(progress:)`` last set).
    public private(set) var progress = 0.0
    /// Whether the gesture has ended (committed or cancelled).
    public private(set) var hasEnded = false

    init(transitions: FlowTransitions, token: Int, gesture: _Gesture) {
        self.transitions = transitions
        self.token = token
        kind = gesture.kind
        container = gesture.container
        containerPath = gesture.path
    }

    /// Records how far the gesture has gone (0 to 1). Nothing else happens.
    public func update(progress: Double) {
        guard !hasEnded else { return }
        self.progress = min(max(progress, 0), 1)
        if let trace = transitions?._runtime?.trace, trace._isRecordingSession {
            let (kind, path, progress) = (kind, containerPath, self.progress)
            trace._tellSession { $0.gestureDidProgress(kind, at: path, progress: progress) }
        }
    }

    /// The user let go past the point of no return: the pop or the dismissal happens, and
    /// FlowKit tears down what it removed. A pop goes back to the entry the platform shows under the one that
    /// slid away: entries code pushed while the gesture ran (never shown) go with it, as the
    /// user's back gesture wins.
    public func commit() {
        guard !hasEnded else { return }
        hasEnded = true
        transitions?._endGesture(token: token, committed: true)
    }

    /// The user let go before the point of no return: the platform puts back what the gesture
    /// had started to remove, and nothing changed.
    public func cancel() {
        guard !hasEnded else { return }
        hasEnded = true
        transitions?._endGesture(token: token, committed: false)
    }
}

/// The gesture in progress: where, and what the platform shows once it is committed.
struct _Gesture {
    let token: Int
    let kind: FlowInteractiveTransition.Kind
    /// The stack (pop) or the presenter (dismiss).
    let container: FlowNodeID
    /// For a pop: the entry the platform shows on top once committed.
    let newTop: FlowNodeID?
    /// For a dismissal: the presented node.
    let presented: FlowNodeID?
    /// The container's path.
    let path: String

    var isDismissal: Bool { kind == .dismiss }
}

extension FlowTransitions {
    /// Begins an interactive pop (a swipe back) on `stack`: the platform shows its top entry
    /// sliding away, the entry below coming back.
    ///
    /// The exit guards of what the pop would remove decide first, so an unsaved-edits guard
    /// protects against a swipe as against a pop (UIKit: call this from the pop gesture
    /// recognizer's `gestureRecognizerShouldBegin`). While the gesture runs nothing changes;
    /// its end does (``FlowInteractiveTransition``).
    ///
    /// - Throws: ``FlowError/exitRefused(node:reason:)`` if a guard refuses (the gesture must
    ///   not start); ``FlowError/gestureNotPossible(container:reason:)`` if the platform shows
    ///   fewer than two entries, a transition or another gesture is running (also one a
    ///   guard's effect started), or a presentation covers the stack.
    public func beginInteractivePop(on stack: FlowStack) throws -> FlowInteractiveTransition {
        let id = stack.id
        guard let shown = _shown[id], shown.children.count >= 2 else {
            throw FlowError.gestureNotPossible(container: stack.path, reason: "nothing to pop")
        }
        try _requireGestureCanBegin(in: id, path: stack.path)
        if _isCovered(id) || shown.presented != nil
            || _shown[shown.children.last!]?.presented != nil
        {
            throw FlowError.gestureNotPossible(
                container: stack.path, reason: "a presentation covers it")
        }
        let newTop = shown.children[shown.children.count - 2]
        // What the pop removes from the tree: the entries above the one that comes back.
        if let index = stack._children.lastIndex(where: { $0.id == newTop }) {
            try _askExitGuards(of: Array(stack._children[(index + 1)...]))
            // A guard's effect may have changed the tree, and a step may run now.
            try _requireGestureCanBegin(in: id, path: stack.path)
        }
        return _beginGesture(
            .pop, in: id, path: stack.path, newTop: newTop, presented: nil)
    }

    /// Begins an interactive dismissal (a sheet dragged down) of what `presenter` presents.
    ///
    /// The exit guards of the presented subtree decide first (SwiftUI: bind
    /// `interactiveDismissDisabled` to ``canBeginInteractiveDismiss(of:)``).
    ///
    /// - Throws: ``FlowError/exitRefused(node:reason:)`` if a guard refuses;
    ///   ``FlowError/gestureNotPossible(container:reason:)`` if the platform shows nothing
    ///   presented there, or a transition or another gesture is running (also one a guard's
    ///   effect started).
    public func beginInteractiveDismiss(
        of presenter: FlowController
    )
        throws -> FlowInteractiveTransition
    {
        let id = presenter.id
        guard let presented = _shown[id]?.presented else {
            throw FlowError.gestureNotPossible(
                container: presenter.path, reason: "nothing presented")
        }
        try _requireGestureCanBegin(in: id, path: presenter.path)
        if let node = presenter._presented, node.id == presented {
            try _askExitGuards(of: [node])
            // A guard's effect may have dismissed it: a step may run now.
            try _requireGestureCanBegin(in: id, path: presenter.path)
            guard _shown[id]?.presented == presented else {
                throw FlowError.gestureNotPossible(
                    container: presenter.path, reason: "nothing presented")
            }
        }
        return _beginGesture(
            .dismiss, in: id, path: presenter.path, newTop: nil, presented: presented)
    }

    /// Whether ``beginInteractivePop(on:)`` would begin now (its guards allow it), without
    /// beginning it.
    public func canBeginInteractivePop(on stack: FlowStack) -> Bool {
        guard let shown = _shown[stack.id], shown.children.count >= 2,
            _gesture == nil, _inFlight[stack.id] == nil, !_isCovered(stack.id),
            shown.presented == nil, _shown[shown.children.last!]?.presented == nil
        else { return false }
        let newTop = shown.children[shown.children.count - 2]
        guard let index = stack._children.lastIndex(where: { $0.id == newTop }) else {
            return true
        }
        return (try? _askExitGuards(of: Array(stack._children[(index + 1)...]))) != nil
    }

    /// Whether ``beginInteractiveDismiss(of:)`` would begin now (its guards allow it).
    public func canBeginInteractiveDismiss(of presenter: FlowController) -> Bool {
        guard let presented = _shown[presenter.id]?.presented, _gesture == nil,
            _inFlight[presenter.id] == nil
        else { return false }
        guard let node = presenter._presented, node.id == presented else { return true }
        return (try? _askExitGuards(of: [node])) != nil
    }

    private func _requireGestureCanBegin(in id: FlowNodeID, path: String) throws {
        if _gesture != nil {
            throw FlowError.gestureNotPossible(container: path, reason: "another gesture runs")
        }
        if _inFlight[id] != nil {
            throw FlowError.gestureNotPossible(container: path, reason: "a transition runs")
        }
    }

    /// Whether a presentation the platform shows covers the shown node `id`: one of its
    /// shown ancestors presents something that `id` is not inside.
    func _isCovered(_ id: FlowNodeID) -> Bool {
        var child = id
        var current = _shown[id]?.parent
        while let node = current, let shown = _shown[node] {
            if let presented = shown.presented, presented != child { return true }
            child = node
            current = shown.parent
        }
        return false
    }

    /// Asks the exit guards of the subtrees of `roots` (top-most first, innermost first), as
    /// a pop or a dismissal would.
    private func _askExitGuards(of roots: [FlowController]) throws {
        var exitSet: [FlowController] = []
        var stack: [FlowController] = []
        for root in roots.reversed() { root._appendSubtreeInExitOrder(to: &exitSet, using: &stack) }
        for node in exitSet {
            switch node.shouldExit() {
            case .allow: break
            case .refuse(let reason):
                throw FlowError.exitRefused(node: node.path, reason: reason)
            case .redirect(let path):
                throw FlowError.exitRefused(
                    node: node.path, reason: "redirected to \(path.pathDescription)")
            }
        }
    }

    private func _beginGesture(
        _ kind: FlowInteractiveTransition.Kind, in id: FlowNodeID, path: String,
        newTop: FlowNodeID?, presented: FlowNodeID?
    ) -> FlowInteractiveTransition {
        _nextToken += 1
        let gesture = _Gesture(
            token: _nextToken, kind: kind, container: id, newTop: newTop, presented: presented,
            path: path)
        _gesture = gesture
        _traceGesture(.began, gesture)
        return FlowInteractiveTransition(transitions: self, token: _nextToken, gesture: gesture)
    }

    private func _traceGesture(_ phase: FlowTraceRecord.GesturePhase, _ gesture: _Gesture) {
        guard let runtime = _runtime, runtime.trace.isEnabled else { return }
        runtime.trace.record(.gesture(phase, kind: gesture.kind, at: gesture.path))
    }

    /// Ends the gesture `token`: on commit the platform's change is made (what the platform
    /// shows first, then the tree's teardown, not echoed); either way the platform catches up
    /// (the waiting steps are issued).
    func _endGesture(token: Int, committed: Bool) {
        guard let gesture = _gesture, gesture.token == token else { return }
        _gesture = nil
        _traceGesture(committed ? .committed : .cancelled, gesture)
        if committed {
            _isNotingOwnPlatformChange = true
            _carryOut(gesture)
            _isNotingOwnPlatformChange = false
        }
        _catchUp()
    }

    /// Carries out a committed gesture: what the platform shows loses what the gesture
    /// removed, then the tree makes the same change as a platform change (not echoed).
    private func _carryOut(_ gesture: _Gesture) {
        let id = gesture.container
        guard _shown[id] != nil else { return }
        var live: FlowController?
        if let runtime = _runtime, runtime.isRunning { live = runtime.node(id: id) }
        if let presented = gesture.presented {
            _shown[id]?.presented = nil
            _forget(presented)
            if let presenter = live, presenter._presented?.id == presented {
                _platformChange(.platformDismiss, at: presenter) {
                    try presenter.platformDidDismiss()
                }
            }
        } else if let newTop = gesture.newTop, _showsEntries(of: id, upTo: newTop) {
            if let stack = live as? FlowStack,
                let entry = stack._children.last(where: { $0.id == newTop }),
                stack._children.last !== entry
            {
                _platformChange(.platformPop, at: stack) { try stack.platformDidPop(to: entry) }
            }
        }
    }

    /// Makes a platform change; an error (none is expected: what it removes is checked)
    /// goes to the runtime's error sink.
    private func _platformChange(
        _ kind: FlowChange.Kind, at node: FlowController, _ change: () throws -> Void
    ) {
        do {
            try change()
        } catch {
            _runtime?._reportFailure(
                FlowFailure(.change(kind), node: node.path, error: error))
        }
    }
}
