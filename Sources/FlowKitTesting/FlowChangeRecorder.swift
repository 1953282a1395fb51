import FlowKit

/// A host for tests: keeps every change FlowKit reported, in order, as `FlowChange` values,
/// and checks them with a readable diff.
///
///     let recorder = FlowChangeRecorder()
///     let runtime = try FlowRuntime(root: app, host: recorder)
///     try runtime.start()
///     try stack.push(detail)
///     recorder.expectChanges([
///         FlowChange(kind: .start, container: "", exited: [], entered: ["app"]),
///         FlowChange(kind: .push, container: "app/main/stack", exited: [],
///                    entered: ["app/main/stack/detail"]),
///     ])
///
/// It stores the changes in FlowKit's `RecordingFlowHost` (``recording``, kept without a
/// limit) and can pass each change on to another host, so a real host adapter can be tested
/// while its input is recorded.
///
/// Each `expect…` call checks the changes that no earlier call checked and marks them
/// checked, so a test reads as a sequence of steps. On a mismatch the failure shows both
/// sides line by line, `- ` for an expected line that is missing, `+ ` for one that was not
/// expected.
///
/// Changes the platform made itself (`FlowStack.platformDidPop(to:)`,
/// `FlowController.platformDidDismiss()`) are not reported to hosts, so they do not appear
/// here; ``FlowTestHarness`` sees them in the trace.
@MainActor
public final class FlowChangeRecorder: FlowHost {
    /// The core recorder that stores the changes.
    public let recording: RecordingFlowHost

    /// The host each change is passed on to after it is recorded, if any.
    public let next: (any FlowHost)?

    private var checkedCount = 0

    /// Creates a recorder that passes each change on to `next`.
    ///
    /// - Parameter next: A host to forward changes to, for example the app's real host.
    public init(forwardingTo next: (any FlowHost)? = nil) {
        self.recording = RecordingFlowHost()
        self.next = next
    }

    /// Every change received, oldest first.
    public var changes: [FlowChange] { recording.changes }

    /// The changes that no `expect…` call has checked yet, oldest first.
    public var uncheckedChanges: [FlowChange] {
        Array(changes.dropFirst(min(checkedCount, changes.count)))
    }

    /// The changes received, one numbered line each (`1. start +app`), for failure messages
    /// and debugging.
    public var transcript: String {
        changes.enumerated().map { "\($0.offset + 1). \($0.element)" }
            .joined(separator: "\n")
    }

    /// Records `change` and passes it on to ``next``.
    public func apply(_ change: FlowChange, in runtime: FlowRuntime) {
        recording.apply(change, in: runtime)
        next?.apply(change, in: runtime)
    }

    /// Checks that the unchecked changes are exactly `expected`, then marks them checked.
    /// Identities are compared only where `expected` gives them (`FlowChange.matches(_:)`).
    ///
    /// - Parameters:
    ///   - expected: The changes, oldest first.
    ///   - fileID: The file a failure is reported in; leave the default, the caller's
    ///     (see ``FlowTestHarness``).
    ///   - filePath: The full path of that file; leave the default.
    ///   - line: The line a failure is reported at; leave the default.
    ///   - column: The column a failure is reported at; leave the default.
    public func expectChanges(
        _ expected: [FlowChange], fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        let actual = uncheckedChanges
        checkedCount = changes.count
        if actual.count == expected.count, zip(expected, actual).allSatisfy({ $0.matches($1) }) {
            return
        }
        let diff = _LineDiff.render(
            expected: expected, actual: actual, equal: { $0.matches($1) }, text: \.description)
        _recordFailure(
            "The host received other changes than expected (- expected, + received):\n"
                + diff,
            at: _FailureLocation(fileID, filePath, line, column))
    }

    /// Checks the unchecked changes by their one-line text form
    /// (`push app/main/stack +app/main/stack/detail`), then marks them checked.
    public func expectChanges(
        _ expected: [String], fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        let actual = uncheckedChanges.map(\.description)
        checkedCount = changes.count
        guard actual != expected else { return }
        _recordFailure(
            "The host received other changes than expected (- expected, + received):\n"
                + _LineDiff.render(expected: expected, actual: actual),
            at: _FailureLocation(fileID, filePath, line, column))
    }

    /// Checks that no change arrived since the last check.
    public func expectNoChanges(
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
        column: UInt = #column
    ) {
        expectChanges(
            [FlowChange](), fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Marks every change received so far as checked without checking it.
    public func skipChanges() {
        checkedCount = changes.count
    }
}
