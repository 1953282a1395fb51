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

    /// What happened to a pending intent (see ``FlowGuardDecision/redirect(to:)``).
    public enum IntentAction: String, Sendable, Hashable {
        /// A guard redirected the change; it waits for the redirect's flow to finish.
        case kept
        /// A newer redirected change or navigation took its place.
        case replaced
        /// The redirect's flow finished; the change is asked for again.
        case replayed
        /// The redirect's flow left without finishing, or the redirect failed.
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
        }
    }
}

/// The runtime's structured log of what happened: entries, exits, activation, events and
/// changes, in order.
///
///     runtime.trace.lines   // ["send SignOut from app/main", "handled SignOut at app", …]
///
/// The trace keeps the most recent ``limit`` records (a ring buffer, so a long-running app
/// does not grow). It is cheap enough to leave on: a record keeps the parts it was made of
/// (an event value that holds no references, else the event's name; the node's name and
/// its parent's path; the change's paths and identities) and is formatted into a
/// ``FlowTraceRecord`` only when read (``records``, ``lines``) or when an observer is
/// attached. Turn it off with ``isEnabled`` to skip even that.
///
/// The trace never keeps a node alive: records hold paths and identities, not nodes, and an
/// event value that holds references (an event carrying a screen) is not kept, only its
/// ``FlowEvent/traceName``.
@MainActor
public final class FlowTrace {
    /// Whether records are kept and observers called. Defaults to `true`.
    // Unchecked exclusivity: read once per event and per change; every access is a plain
    // read or assignment that calls no code, so two accesses can never overlap.
    @exclusivity(unchecked)
    public var isEnabled: Bool

    /// How many of the most recent records are kept. Defaults to 10,000.
    @exclusivity(unchecked)
    public var limit: Int {
        didSet {
            precondition(limit > 0, "FlowTrace.limit must be positive")
            let kept = _orderedEntries()
            storage = Array(kept.suffix(limit))
            start = 0
        }
    }

    // Unchecked exclusivity (like `isEnabled`) on the observer list and the ring: every record
    // touches them (the flag and the ring's start need no attribute); each access is a
    // read, an assignment or a short in-place mutation that calls no code (observers are
    // called on a copy of the list, after the storage access ended).
    @exclusivity(unchecked)
    private var observers: [(id: Int, call: @MainActor (FlowTraceRecord) -> Void)] = [] {
        didSet { hasObservers = !observers.isEmpty }
    }
    /// Whether ``observers`` has any: what every record checks, without loading the array
    /// (which retains and releases its storage).
    private var hasObservers = false
    private var nextObserverID = 0

    @exclusivity(unchecked)
    private var storage: [_TraceEntry] = []
    private var start = 0

    /// Creates a trace.
    public init(isEnabled: Bool = true, limit: Int = 10_000) {
        precondition(limit > 0, "FlowTrace.limit must be positive")
        self.isEnabled = isEnabled
        self.limit = limit
    }

    /// The kept records, oldest first (formatted now, from what was stored).
    public var records: [FlowTraceRecord] {
        _orderedEntries().map(\.record)
    }

    /// The kept records in their text form.
    public var lines: [String] { records.map(\.description) }

    /// Calls `observer` with each record from now on, as it is made (for example to print
    /// the trace live), until ``removeObserver(_:)``. Observers are called in the order they
    /// were added; any number can observe at once (a test harness and a live printout).
    ///
    ///     let printing = runtime.trace.addObserver { print($0) }
    ///     …
    ///     runtime.trace.removeObserver(printing)
    @discardableResult
    public func addObserver(
        _ observer: @escaping @MainActor (FlowTraceRecord) -> Void
    ) -> FlowTraceObservation {
        nextObserverID += 1
        observers.append((nextObserverID, observer))
        return FlowTraceObservation(id: nextObserverID)
    }

    /// Stops calling the observer that `observation` stands for. Removing twice does nothing.
    public func removeObserver(_ observation: FlowTraceObservation) {
        observers.removeAll { $0.id == observation.id }
    }

    /// Forgets every kept record.
    public func removeAll() {
        storage.removeAll()
        start = 0
    }

    private func _orderedEntries() -> [_TraceEntry] {
        Array(storage[start...] + storage[..<start])
    }

    /// Keeps a formatted record.
    func record(_ record: FlowTraceRecord) {
        _append(.formatted(record))
    }

    /// Keeps an entry; observers get it formatted.
    func _append(_ entry: consuming _TraceEntry) {
        // Observers are served first, so that the entry is then moved into the ring, not
        // copied.
        if hasObservers {
            let record = entry.record
            let current = observers
            for observer in current { observer.call(record) }
        }
        _store(consume entry)
    }

    private func _store(_ entry: consuming _TraceEntry) {
        if storage.count < limit {
            storage.append(consume entry)
        } else {
            storage[start] = consume entry
            start += 1
            if start == limit { start = 0 }
        }
    }

    /// Keeps a node record (enter, exit, activate, deactivate).
    func _node(_ step: _TraceEntry.NodeStep, _ node: FlowController) {
        _append(.node(step, _TracePath(node)))
    }

    /// Keeps an event record.
    @inline(__always)
    func _event<Event: FlowEvent>(
        _ step: _TraceEntry.EventStep, _ event: Event, _ node: FlowController?
    ) {
        // Senders and handlers are long-lived: the record shares the path object an entered
        // node keeps. (No `map` with a main-actor closure here: passing one to a nonisolated
        // generic makes Swift check the executor on every call.)
        //
        // What the record keeps of the event: the value itself only if it holds no references
        // (a trivial type, like most events: `SignOut()`, `Select(id: 3)`), whose name is then
        // formatted when the record is read; otherwise its name, formatted now. A value that
        // holds references could hold a node (`ShowScreen(screen: login)`), and the ring
        // would keep that node alive after it exits, for up to `limit` records. (`_isPOD` reads
        // the type's metadata, or is a constant where the event type is specialised; the
        // record is formed in place, as a local optional path cost ~50 instructions more.)
        guard _isPOD(Event.self) else { return _namedEvent(step, event.traceName, node) }
        guard let node else { return _append(.event(step, event, nil)) }
        _append(.event(step, event, _TracePath(node)))
    }

    /// Keeps an event record of an event that holds references: its name only.
    @inline(never)
    private func _namedEvent(
        _ step: _TraceEntry.EventStep, _ name: String, _ node: FlowController?
    ) {
        let event = _NamedEvent(traceName: name)
        guard let node else { return _append(.event(step, event, nil)) }
        _append(.event(step, event, _TracePath(node)))
    }
}

/// An event as the trace keeps one whose value holds references: its name only.
struct _NamedEvent: FlowEvent {
    let traceName: String
}

/// Stands for an observer added with ``FlowTrace/addObserver(_:)``, to remove it later.
public struct FlowTraceObservation: Hashable, Sendable {
    let id: Int
}

/// A node's path as the trace keeps it: the node's shared path object (see
/// ``FlowController/_tracePath``), joined only when the record is read.
struct _TracePath {
    let cache: _PathCache

    @MainActor
    init(_ node: FlowController) {
        cache = node._tracePath
    }

    @MainActor
    var text: String { cache.path }
}

/// One or a few items without allocating an array for the usual single one.
enum _Few<Element> {
    case none
    case one(Element)
    case many([Element])

    /// Each node's trace path and identity, without an array for a single node.
    @MainActor
    static func nodes(_ nodes: [FlowController]) -> _Few<(_TracePath, FlowNodeID)> {
        switch nodes.count {
        case 0: return .none
        case 1: return .one((_TracePath(nodes[0]), nodes[0].id))
        default:
            var items: [(_TracePath, FlowNodeID)] = []
            items.reserveCapacity(nodes.count)
            for node in nodes { items.append((_TracePath(node), node.id)) }
            return .many(items)
        }
    }

    var array: [Element] {
        switch self {
        case .none: return []
        case .one(let element): return [element]
        case .many(let elements): return elements
        }
    }
}

/// A change as the trace keeps it (see ``FlowChange``).
struct _TracedChange {
    let kind: FlowChange.Kind
    let container: _TracePath?
    let containerID: FlowNodeID?
    let exited: _Few<(_TracePath, FlowNodeID)>
    let entered: _Few<(_TracePath, FlowNodeID)>

    @MainActor
    var change: FlowChange {
        let exited = exited.array
        let entered = entered.array
        return FlowChange(
            kind: kind, container: container?.text ?? "", exited: exited.map(\.0.text),
            entered: entered.map(\.0.text), containerID: containerID,
            exitedIDs: exited.map(\.1), enteredIDs: entered.map(\.1))
    }
}

/// What the trace stores: the parts of a record, formatted when read.
enum _TraceEntry {
    enum NodeStep { case enter, exit, activate, deactivate }
    enum EventStep { case send, handled, unhandled, dropped }

    case node(NodeStep, _TracePath)
    case event(EventStep, any FlowEvent, _TracePath?)
    case change(_TracedChange)
    case formatted(FlowTraceRecord)

    @MainActor
    var record: FlowTraceRecord {
        switch self {
        case .node(let step, let path):
            switch step {
            case .enter: return .enter(path.text)
            case .exit: return .exit(path.text)
            case .activate: return .activate(path.text)
            case .deactivate: return .deactivate(path.text)
            }
        case .event(let step, let event, let path):
            let name = event.traceName
            let text = path?.text ?? ""
            switch step {
            case .send: return .send(event: name, from: text)
            case .handled: return .handled(event: name, at: text)
            case .unhandled: return .unhandled(event: name, from: text)
            case .dropped: return .dropped(event: name, from: text)
            }
        case .change(let change):
            return .change(change.change)
        case .formatted(let record):
            return record
        }
    }

}
