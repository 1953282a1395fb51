import FlowKit
import Foundation

/// Runs a flow in a test and makes the test account for everything that happened: every
/// change, every event delivery and every lifecycle step, in order.
///
///     let harness = try FlowTestHarness(root: AppFlow())
///     harness.send(SignIn(user: "ada"), from: harness.node("app/login"))
///     harness.expect([
///         .send(SignIn(user: "ada"), from: "app/login"),
///         .exit("app/login"),
///         .enter("app/main"),
///         .change(.switch, "app", exited: ["app/login"], entered: ["app/main"]),
///         .activate("app/main"),
///         .handled(SignIn(user: "ada"), at: "app"),
///     ])
///     harness.finish()
///
/// The harness creates a `FlowRuntime` with a ``FlowChangeRecorder`` as its host, watches
/// the runtime's structured trace (`FlowTrace.addObserver(_:)`) and keeps each
/// `FlowTraceRecord` as *received* until an `expect…` call checks it. Whatever changes the
/// tree is seen, whether it goes through the harness's actions or straight to a node.
///
/// In the default exhaustive mode (``Exhaustivity-swift.enum/on``):
/// - `expect` checks the oldest received records against the expected ones, value by value;
/// - an action (``send(_:from:fileID:filePath:line:column:)``, ``platformBack(in:fileID:filePath:line:column:)``, …)
///   fails if records from before it were never checked;
/// - ``finish(fileID:filePath:line:column:)`` fails if any record is left unchecked or a tracked
///   object outlived its node.
///
/// In the non-exhaustive mode (``Exhaustivity-swift.enum/off``) `expect` looks for the
/// expected records in order among the received ones and skips the rest; nothing else fails
/// for unchecked records.
///
/// Failures are recorded at the caller's line: as Swift Testing issues when a Swift Testing
/// test runs, otherwise with `XCTFail`. Every failure shows both sides line by line with
/// `- ` for expected lines that did not happen and `+ ` for lines that were not expected.
///
/// End every test with ``finish(fileID:filePath:line:column:)``. A harness that is released
/// without it finishes then and reports at the line that created it.
@MainActor
public final class FlowTestHarness {
    /// Whether every record must be checked.
    public enum Exhaustivity: Sendable, Equatable {
        /// Every change, delivery and lifecycle step must be checked with `expect`.
        case on
        /// `expect` checks the records it names and skips the others.
        case off
    }

    /// Whether every record must be checked. May be changed during a test.
    public var exhaustivity: Exhaustivity {
        didSet { inbox.isChecking = isChecking }
    }

    /// The runtime under test.
    public let runtime: FlowRuntime

    /// The host that records the changes reported to the platform, or `nil` for a harness
    /// wrapping a runtime whose host is not a ``FlowChangeRecorder``.
    public let recorder: FlowChangeRecorder?

    /// Tracks objects that must be deallocated once their node leaves the tree; checked by
    /// ``finish(fileID:filePath:line:column:)``. It counts the changes this harness observed.
    public let leaks: LeakTracker

    /// Every record observed since the harness was created, oldest first.
    public private(set) var allRecords: [FlowTraceRecord] = []

    /// The records no `expect` has checked yet, oldest first.
    public internal(set) var received: [FlowTraceRecord] {
        get { inbox.records }
        set { inbox.records = newValue }
    }

    /// How many change records the harness observed (including the platform's own changes).
    public var changeCount: Int { counter.value }

    /// Whether ``finish(fileID:filePath:line:column:)`` has run.
    public private(set) var isFinished = false {
        didSet { inbox.isChecking = isChecking }
    }

    private var observation: FlowTraceObservation?
    private let hostChangesAtStart: Int
    private let creation: _FailureLocation
    private let counter = _Counter()
    private let inbox: _Inbox

    private var isChecking: Bool { !isFinished && exhaustivity == .on }

    /// Creates a runtime for `root` and starts it.
    ///
    /// - Parameters:
    ///   - root: The tree to run; it must not be in another runtime.
    ///   - host: A host to pass changes on to (the recorder sits in front of it).
    ///   - exhaustivity: Whether every record must be checked; `.on` by default.
    ///   - includesStart: Whether the records of the start (entries, the `start` change,
    ///     activation) are received and must be checked. By default they are setup, not
    ///     something the test did, and are skipped; check the tree with
    ///     ``expectTree(_:fileID:filePath:line:column:)`` instead.
    ///   - fileID: The file a failure is reported in; leave the default, the caller's
    ///     (see ``FlowTestHarness``).
    ///   - filePath: The full path of that file; leave the default.
    ///   - line: The line a failure is reported at; leave the default.
    ///   - column: The column a failure is reported at; leave the default.
    /// - Throws: What `FlowRuntime.start()` throws (a guard's refusal, a missing route
    ///   factory).
    public convenience init(
        root: FlowController, host: (any FlowHost)? = nil, exhaustivity: Exhaustivity = .on,
        includesStart: Bool = false, fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) throws {
        let recorder = FlowChangeRecorder(forwardingTo: host)
        let runtime = try FlowRuntime(root: root, host: recorder)
        self.init(
            runtime: runtime, exhaustivity: exhaustivity, fileID: fileID, filePath: filePath,
            line: line, column: column)
        do {
            try runtime.start()
        } catch {
            isFinished = true
            stopObserving()
            throw error
        }
        if !includesStart { received.removeAll() }
    }

    /// Wraps `runtime`, started or not. Only what happens from now on is received.
    ///
    /// The harness adds itself as an observer of the trace (other observers keep working)
    /// and turns the trace on. If the runtime's host is a ``FlowChangeRecorder``, ``finish(fileID:filePath:line:column:)``
    /// also checks that the host was told exactly the changes the trace shows.
    public init(
        runtime: FlowRuntime, exhaustivity: Exhaustivity = .on,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
        column: UInt = #column
    ) {
        self.runtime = runtime
        self.exhaustivity = exhaustivity
        self.recorder = runtime.host as? FlowChangeRecorder
        self.hostChangesAtStart = recorder?.changes.count ?? 0
        self.creation = _FailureLocation(fileID, filePath, line, column)
        self.inbox = _Inbox(isChecking: exhaustivity == .on)
        self.leaks = LeakTracker(changeCount: { [counter] in counter.value })
        runtime.trace.isEnabled = true
        observation = runtime.trace.addObserver { [weak self] record in
            self?.observe(record)
        }
    }

    // A harness released without `finish()` still fails for unchecked records, at the line
    // that created it. The deinit reads a locked copy of them instead of main-actor state:
    // it may run on any thread, and an `isolated deinit` would run without the test's
    // task-local context, so Swift Testing could not attribute the failure to the test.
    deinit {
        let (isChecking, unchecked) = inbox.snapshot()
        guard isChecking, !unchecked.isEmpty else { return }
        _recordFailure(_uncheckedMessage(unchecked), at: creation)
    }

    private func observe(_ record: FlowTraceRecord) {
        guard !isFinished else { return }
        if case .change = record { counter.value += 1 }
        allRecords.append(record)
        inbox.append(record)
    }

    private func stopObserving() {
        if let observation { runtime.trace.removeObserver(observation) }
        observation = nil
    }

    /// The node at `path` in the live tree.
    ///
    /// - Precondition: A node is at `path`; a typo stops the test with the tree printed.
    public func node(_ path: String) -> FlowController {
        guard let node = runtime.node(at: path) else {
            preconditionFailure(
                "FlowTestHarness: no node at '\(path)'. The tree is:\n"
                    + runtime.treeDescription())
        }
        return node
    }

    /// The node at `path`, cast to `type`.
    ///
    /// - Precondition: A node of that type is at `path`.
    public func node<Node: FlowController>(_ path: String, as type: Node.Type) -> Node {
        guard let node = node(path) as? Node else {
            preconditionFailure(
                "FlowTestHarness: the node at '\(path)' is a \(Swift.type(of: node(path))), "
                    + "not a \(Node.self)")
        }
        return node
    }

    /// Ends the test: fails for every received record no `expect` checked (exhaustive mode),
    /// for a host that was told other changes than the trace shows, and for tracked objects
    /// that outlived their node (``LeakTracker/expectNoLeaks(fileID:filePath:line:column:)``).
    /// The harness observes nothing afterwards. Calling it again does nothing.
    public func finish(
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
        column: UInt = #column
    ) {
        finish(at: _FailureLocation(fileID, filePath, line, column))
    }

    private func finish(at location: _FailureLocation) {
        guard !isFinished else { return }
        isFinished = true
        stopObserving()
        if exhaustivity == .on && !received.isEmpty {
            _recordFailure(_uncheckedMessage(received), at: location)
        }
        received.removeAll()
        checkHostAgreesWithTrace(at: location)
        leaks.expectNoLeaks(at: location)
    }

    /// The host must have been told every change in the trace except the platform's own.
    private func checkHostAgreesWithTrace(at location: _FailureLocation) {
        guard let recorder, recorder.changes.count >= hostChangesAtStart else { return }
        let told = Array(recorder.changes.dropFirst(hostChangesAtStart))
        let traced = allRecords.compactMap { record -> FlowChange? in
            guard case .change(let change) = record,
                change.kind != .platformPop, change.kind != .platformDismiss,
                change.kind != .platformSelect
            else { return nil }
            return change
        }
        guard told != traced else { return }
        _recordFailure(
            "The host was told other changes than the trace shows (- traced, + told):\n"
                + _LineDiff.render(expected: traced, actual: told, equal: ==, text: \.description),
            at: location)
    }
}

/// A count shared with the harness's leak tracker.
@MainActor
private final class _Counter {
    var value = 0
}

/// The failure for records left unchecked when a test ends.
private func _uncheckedMessage(_ records: [FlowTraceRecord]) -> String {
    "The test ended with \(records.count) unchecked record\(records.count == 1 ? "" : "s") "
        + "(check them with expect, or call skipReceived()):\n"
        + _LineDiff.render(expected: [], actual: records, equal: ==, text: \.description)
}

/// The received records and whether they must be checked, readable from any thread (the
/// harness's deinit may run on another thread than the main actor's).
///
/// `@unchecked Sendable` because every access to the stored state goes through `lock`.
private final class _Inbox: @unchecked Sendable {
    private let lock = NSLock()
    private var _records: [FlowTraceRecord] = []
    private var _isChecking: Bool

    init(isChecking: Bool) {
        _isChecking = isChecking
    }

    var records: [FlowTraceRecord] {
        get { lock.withLock { _records } }
        set { lock.withLock { _records = newValue } }
    }

    var isChecking: Bool {
        get { lock.withLock { _isChecking } }
        set { lock.withLock { _isChecking = newValue } }
    }

    func append(_ record: FlowTraceRecord) {
        lock.withLock { _records.append(record) }
    }

    func snapshot() -> (isChecking: Bool, records: [FlowTraceRecord]) {
        lock.withLock { (_isChecking, _records) }
    }
}
