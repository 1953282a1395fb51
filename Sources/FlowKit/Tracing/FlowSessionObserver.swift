/// What a session recorder hears from a runtime: the trace's records as they are made (with the
/// event value they are about, for an app that records payloads), and the facts the trace does not
/// keep: a change that failed its check (a guard's refusal or redirect), the presentation
/// pipeline's steps on their way (issued, done, failed, coalesced) and a gesture's progress.
///
///     final class Recorder: FlowSessionObserver {
///         func traceDidRecord(_ record: FlowTraceRecord, event: (any FlowEvent)?) {
///             print(record)
///         }
///         func changeDidFinish(_ change: FlowSessionChange, in runtime: FlowRuntime) {
///             print(change.record, runtime.sessionFocusedCount)
///         }
///     }
///     let observation = runtime.trace.addSessionObserver(Recorder())
///     …
///     runtime.trace.removeObserver(observation)
///
/// FlowKitRecorder's `FlowRecorder` is one. A session observer is told the records formatted as
/// they are made, except the node records (not told) and the change records: a change comes
/// to ``changeDidFinish(_:in:)`` unformatted (its identities are read without joining a path).
/// With no observer, nothing is added to a push, a pop or an event: the other facts are told only from paths that are rare already (a change that
/// fails, a step of the pipeline, a gesture), after a check of a flag, and each change checks one
/// flag once it is over. The observer is told only
/// while the trace ``FlowTrace/isEnabled``.
@MainActor
public protocol FlowSessionObserver: AnyObject {
    /// A trace record was made: every record but the node records (enter, exit, activate,
    /// deactivate) and the change records (``changeDidFinish(_:in:)`` tells a change once the tree
    /// and the focus it left can be read). `event` is the event the record is about when it is about one whose value
    /// holds no references (a value the app may choose to record); `nil` for other records and
    /// for events that hold references (kept by their trace name only).
    func traceDidRecord(_ record: FlowTraceRecord, event: (any FlowEvent)?)

    /// A change is over: its activation changes are made, so the tree, its focused path and
    /// its active nodes are what the change left (a change a hook asked for runs after this).
    /// `change` is what the trace's ``FlowTraceRecord/change(_:)`` record says, unformatted
    /// until asked (``FlowSessionChange/record``): what changed is inside its
    /// ``FlowSessionChange/container``. `runtime` is the runtime whose trace this is (handed
    /// over so that an observer need not keep a reference to it and load it per change).
    func changeDidFinish(_ change: FlowSessionChange, in runtime: FlowRuntime)

    /// A change of `kind` asked of the node at `path` failed before anything changed: a guard
    /// refused it (``FlowError/exitRefused(node:reason:)``,
    /// ``FlowError/entryRefused(node:reason:)``), redirected it
    /// (``FlowError/redirected(node:to:)``; the trace's
    /// ``FlowTraceRecord/intent(_:change:note:)`` says what became of it), or its check found
    /// it invalid (another error). The tree, the host and the trace show nothing of it.
    func changeDidFail(_ kind: FlowChange.Kind, at path: String, error: any Error)

    /// The presentation pipeline handed `step` to the platform (`token` tells this step apart
    /// from an equal one issued later).
    func transitionDidBegin(_ step: FlowTransitionStep, token: Int)

    /// The platform finished the step `token` (`error` is `nil`) or failed it.
    func transitionDidEnd(_ step: FlowTransitionStep, token: Int, error: (any Error)?)

    /// A change arrived while its container was in a transition: the platform will show it
    /// together with whatever else changed meanwhile, once that transition ends.
    func transitionDidCoalesce(_ change: FlowChange)

    /// An interactive gesture moved: its ``FlowInteractiveTransition/progress`` is now
    /// `progress` (0 to 1).
    func gestureDidProgress(
        _ kind: FlowInteractiveTransition.Kind, at path: String, progress: Double)
}

extension FlowSessionObserver {
    /// Does nothing.
    public func changeDidFinish(_ change: FlowSessionChange, in runtime: FlowRuntime) {}
    /// Does nothing.
    public func changeDidFail(_ kind: FlowChange.Kind, at path: String, error: any Error) {}
    /// Does nothing.
    public func transitionDidBegin(_ step: FlowTransitionStep, token: Int) {}
    /// Does nothing.
    public func transitionDidEnd(_ step: FlowTransitionStep, token: Int, error: (any Error)?) {}
    /// Does nothing.
    public func transitionDidCoalesce(_ change: FlowChange) {}
    /// Does nothing.
    public func gestureDidProgress(
        _ kind: FlowInteractiveTransition.Kind, at path: String, progress: Double
    ) {}
}

extension FlowTrace {
    /// Tells `observer` every record from now on, with the facts a session recorder needs
    /// besides (see ``FlowSessionObserver``), until ``removeObserver(_:)``. The trace keeps
    /// `observer` until then.
    @discardableResult
    public func addSessionObserver(_ observer: any FlowSessionObserver) -> FlowTraceObservation {
        let observation = addObserver { _ in }
        _sessionObservers.append((observation.id, observer))
        return observation
    }

    /// Whether a session observer listens (checked on rare paths only: a failed change, a
    /// pipeline step, a gesture).
    var _isRecordingSession: Bool { isEnabled && !_sessionObservers.isEmpty }

    /// Tells each session observer (a copy of the list: one may remove itself).
    func _tellSession(_ tell: (any FlowSessionObserver) -> Void) {
        let current = _sessionObservers
        for entry in current { tell(entry.observer) }
    }

    /// A change of `runtime` is over (see ``FlowSessionObserver/changeDidFinish(_:in:)``).
    /// `container` is consumed (moved into the change the observers get: the caller's
    /// reference is the change's, so no node is retained again for it).
    @inline(never)
    func _changeFinished(in container: consuming FlowController?, runtime: FlowRuntime) {
        guard isEnabled, let traced = _sessionChange.take() else { return }
        let change = FlowSessionChange(traced: traced, container: container)
        let current = _sessionObservers
        for entry in current { entry.observer.changeDidFinish(change, in: runtime) }
    }

    /// A change failed its check (see ``FlowSessionObserver/changeDidFail(_:at:error:)``).
    func _changeFailed(_ kind: FlowChange.Kind, at path: String, error: any Error) {
        var told = error
        if let redirect = error as? _Redirect {
            told = FlowError.redirected(node: redirect.node, to: redirect.path.pathDescription)
        }
        _tellSession { $0.changeDidFail(kind, at: path, error: told) }
    }
}

/// A change as a session observer is told it (``FlowSessionObserver/changeDidFinish(_:in:)``): its
/// kind, its container and the identities of what exited and entered, read without formatting
/// a path; ``record`` formats the trace's ``FlowChange`` (paths joined, arrays made) when asked.
@MainActor
public struct FlowSessionChange {
    let traced: _TracedChange
    /// The node the change happened in (``FlowChange/containerID``); `nil` for `start` and
    /// `stop`, or when it is no longer in the tree.
    public let container: FlowController?

    /// What kind of operation made the change.
    public var kind: FlowChange.Kind { traced.kind }
    /// The identity of the node the change happened in; `nil` for `start` and `stop`.
    public var containerID: FlowNodeID? { traced.containerID }
    /// The change as the trace formats it (``FlowChange``, with its paths).
    public var record: FlowChange { traced.change }

    /// How many subtrees exited (``FlowChange/exitedIDs``).
    public var exitedCount: Int { traced.exited.count }
    /// How many subtrees entered (``FlowChange/enteredIDs``).
    public var enteredCount: Int { traced.entered.count }

    /// The identity of the root of the subtree that exited `index`th (`0..<exitedCount`), in
    /// exit order: read without a closure or an array.
    public func exitedID(at index: Int) -> FlowNodeID { traced.exited[index].1 }

    /// The identity of the root of the subtree that entered `index`th (`0..<enteredCount`), in
    /// entry order: read without a closure or an array.
    public func enteredID(at index: Int) -> FlowNodeID { traced.entered[index].1 }

    /// Calls `body` with the identity of each root of a subtree that exited, in exit order.
    public func forEachExitedID(_ body: @MainActor (FlowNodeID) -> Void) {
        traced.exited.visit { body($0.1) }
    }

    /// Calls `body` with the identity of each root of a subtree that entered, in entry order.
    public func forEachEnteredID(_ body: @MainActor (FlowNodeID) -> Void) {
        traced.entered.visit { body($0.1) }
    }
}
