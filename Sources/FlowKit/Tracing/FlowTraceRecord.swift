/// One step FlowKit took, as kept by ``FlowTrace``.
public enum FlowTraceRecord: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// A node entered (its ``FlowController/didEnter()`` ran).
    case enter(String)
    /// A node exited (its ``FlowController/willExit()`` ran).
    case exit(String)
    /// A node came onto the focused path.
    case activate(String)
    /// A node that stays in the tree left the focused path.
    case deactivate(String)
    /// An event started its way up the chain.
    case send(event: String, from: String)
    /// A node handled an event.
    case handled(event: String, at: String)
    /// An event went past the root without being handled.
    case unhandled(event: String, from: String)
    /// An event was not delivered because its sender had left the tree.
    case dropped(event: String, from: String)
    /// A change was committed.
    case change(FlowChange)
    /// An operation that had no caller to throw to failed (for example a change a lifecycle
    /// hook asked for); the error also went to ``FlowRuntime/onError``.
    case failed(operation: String, at: String, error: String)
    /// A change a guard redirected: kept as a pending intent, replaced by a newer one,
    /// replayed after the redirect's flow finished, or dropped.
    case intent(IntentAction, change: String, note: String)
    /// A flow shown by ``FlowController/run(_:_:)`` finished: its result went to the `run`
    /// awaiting it at `awaitedAt` (no ``FlowFinished`` event is sent for it).
    case finished(flow: String, awaitedAt: String)
    /// A flow shown by ``FlowController/run(_:_:)`` will not finish for the `run` awaiting it
    /// at `awaitedAt`, for `reason` (it left the tree, or the awaiting task was cancelled):
    /// the `run` throws.
    case cancelled(flow: String, awaitedAt: String, reason: String)

    /// A node of a snapshot was not restored (see ``FlowRestoreReport/skipped``): recorded
    /// after the restoring `start` change.
    case notRestored(node: String, reason: String)

    /// An interactive gesture of the platform (see ``FlowTransitions``): `began`, `cancelled`
    /// or `committed`, in the container `at` (a swipe back on a stack, a sheet dragged down).
    case gesture(GesturePhase, kind: FlowInteractiveTransition.Kind, at: String)

    /// A step of the app above the scenes (in ``FlowApp/trace``): a scene's phase, a routing
    /// decision, an app-level handler, a broadcast.
    case app(FlowAppRecord)

    /// A gesture record from the name of its kind (`"pop"`, `"dismiss"`), as the record took
    /// it before its kind became ``FlowInteractiveTransition/Kind``. A name that is not a
    /// kind's makes a `pop` record.
    @available(*, deprecated, message: "pass a FlowInteractiveTransition.Kind (.pop, .dismiss)")
    public static func gesture(_ phase: GesturePhase, kind: String, at path: String) -> Self {
        .gesture(phase, kind: FlowInteractiveTransition.Kind(rawValue: kind) ?? .pop, at: path)
    }

    /// The phase of an interactive gesture.
    public enum GesturePhase: String, Sendable, Hashable {
        /// The gesture began: its exit guards allowed it.
        case began
        /// The gesture was cancelled: nothing changed.
        case cancelled
        /// The gesture was committed: the platform's change was made.
        case committed
    }

    /// What happened to a pending intent (see ``FlowGuardDecision/redirect(to:)``).
    public enum IntentAction: String, Sendable, Hashable {
        /// A guard redirected the change; it waits for the redirect's flow to finish.
        case kept
        /// A newer redirected change or navigation took its place.
        case replaced
        /// The redirect's flow finished; the change is asked for again.
        case replayed
        /// The redirect's flow left without finishing, or its redirect failed.
        case dropped
    }

    /// Whether `actual` is the record this one describes: equal, except that a change record
    /// compares identities only where this one gives them (see ``FlowChange/matches(_:)``).
    public func matches(_ actual: FlowTraceRecord) -> Bool {
        if case .change(let expected) = self, case .change(let change) = actual {
            return expected.matches(change)
        }
        return self == actual
    }

    /// The stable one-line text form, e.g. `handled SignOut at app`.
    public var description: String {
        switch self {
        case .enter(let path): return "enter \(path)"
        case .exit(let path): return "exit \(path)"
        case .activate(let path): return "activate \(path)"
        case .deactivate(let path): return "deactivate \(path)"
        case .send(let event, let from): return "send \(event) from \(from)"
        case .handled(let event, let at): return "handled \(event) at \(at)"
        case .unhandled(let event, let from): return "unhandled \(event) from \(from)"
        case .dropped(let event, let from):
            if from.isEmpty { return "dropped \(event) (no focused node: the runtime stopped)" }
            return "dropped \(event) from \(from) (sender left the tree)"
        case .change(let change): return "change \(change)"
        case .failed(let operation, let at, let error):
            return "failed \(operation) at \(at): \(error)"
        case .intent(let action, let change, let note):
            return "intent \(action.rawValue) \(change) (\(note))"
        case .finished(let flow, let awaitedAt):
            return "finished \(flow): result to run at \(awaitedAt)"
        case .cancelled(let flow, let awaitedAt, let reason):
            return "cancelled \(flow) (\(reason)): run at \(awaitedAt) throws"
        case .notRestored(let node, let reason):
            return "not restored \(node): \(reason)"
        case .gesture(let phase, let kind, let at):
            return "gesture \(kind.rawValue) \(phase.rawValue) at \(at)"
        case .app(let record): return record.description
        }
    }
}
