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
    ///
    /// - Precondition: at least 1 (to keep nothing, set ``isEnabled`` to `false`).
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
        didSet {
            hasObservers = !observers.isEmpty
            _onlySessionObservers =
                !_sessionObservers.isEmpty && observers.count == _sessionObservers.count
        }
    }
    /// Whether ``observers`` has any: what every record checks, without loading the array
    /// (which retains and releases its storage).
    private var hasObservers = false
    private var nextObserverID = 0
    /// The session observers (``addSessionObserver(_:)``), each also in ``observers`` (as a
    /// closure that does nothing) so that ``hasObservers`` covers them.
    var _sessionObservers: [(id: Int, observer: any FlowSessionObserver)] = [] {
        didSet {
            _endsChanges = !_sessionObservers.isEmpty
            if !_endsChanges { _sessionChange = nil }
            _onlySessionObservers = _endsChanges && observers.count == _sessionObservers.count
        }
    }
    /// Whether every observer is a session observer: then a node record (enter, exit,
    /// activate, deactivate) is not formatted for them (a session observer is not told it).
    private var _onlySessionObservers = false
    /// Whether a session observer listens: checked once per change, after its activation
    /// (``FlowSessionObserver/changeDidFinish(_:in:)``).
    var _endsChanges = false
    /// The last change recorded while a session observer listens, unformatted, until
    /// ``FlowSessionObserver/changeDidFinish(_:in:)`` tells it.
    var _sessionChange: _TracedChange?

    @exclusivity(unchecked)
    private var storage: [_TraceEntry] = []
    private var start = 0

    /// Creates a trace.
    ///
    /// - Precondition: `limit` is at least 1.
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
        if !_sessionObservers.isEmpty {
            _sessionObservers.removeAll { $0.id == observation.id }
        }
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
        if hasObservers { _tellObservers(entry) }
        _store(consume entry)
    }

    /// Tells the observers `entry`, formatted. Session observers are told neither node records
    /// nor change records: a change is kept unformatted for
    /// ``FlowSessionObserver/changeDidFinish(_:in:)``, and is formatted only if another observer
    /// listens.
    @inline(never)
    private func _tellObservers(_ entry: _TraceEntry) {
        let isSessionless: Bool
        switch entry {
        case .node:
            isSessionless = true
        case .change(let change):
            isSessionless = true
            if _endsChanges { _sessionChange = change }
        default:
            isSessionless = false
        }
        if _onlySessionObservers && isSessionless { return }
        let record = entry.record
        let current = observers
        for observer in current { observer.call(record) }
        if !_sessionObservers.isEmpty && !isSessionless {
            let sessions = _sessionObservers
            let event = entry._sessionEvent
            for session in sessions { session.observer.traceDidRecord(record, event: event) }
        }
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
        // `_append`, knowing the entry is a node record: when only session observers listen
        // (none is told one), the entry is not handed to `_tellObservers`, whose switch over
        // it would copy it.
        if hasObservers && !_onlySessionObservers { return _append(.node(step, _TracePath(node))) }
        _store(.node(step, _TracePath(node)))
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

/// Stands for an observer added with ``FlowTrace/addObserver(_:)``, to remove it later.
public struct FlowTraceObservation: Hashable, Sendable {
    let id: Int
}
