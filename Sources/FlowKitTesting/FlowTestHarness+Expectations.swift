import FlowKit

extension FlowTestHarness {
    /// Checks the received records against `expected`, value by value, and marks them checked.
    ///
    ///     harness.expect([
    ///         .enter("app/main/stack/detail"),
    ///         .change(.push, "app/main/stack", entered: ["app/main/stack/detail"]),
    ///         .deactivate("app/main/stack/list"),
    ///         .activate("app/main/stack/detail"),
    ///     ])
    ///
    /// Exhaustive: the oldest received records must be exactly `expected`; later ones stay
    /// received for the next `expect`. Non-exhaustive: `expected` must appear in order among
    /// the received records; the records before and between them are skipped. On a mismatch
    /// the failure shows the expected lines against every received record, and all received
    /// records count as checked so the next step starts clean.
    public func expect(
        _ expected: [FlowTraceRecord], fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        check(
            expected, equal: { $0.matches($1) }, text: \.description, what: "records",
            at: _FailureLocation(fileID, filePath, line, column))
    }

    /// Checks the received records by their one-line text form, the lines of
    /// `FlowTrace.lines`, and marks them checked.
    ///
    ///     harness.expectTrace([
    ///         "send SignOut from app/main/stack/list",
    ///         "exit app/main/stack/list", "exit app/main/stack", "exit app/main",
    ///         "enter app/login",
    ///         "change switch app -app/main +app/login",
    ///         "activate app/login",
    ///         "handled SignOut at app",
    ///     ])
    public func expectTrace(
        _ lines: [String], fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        check(
            lines, equal: { $0 == $1.description }, text: { $0 }, what: "trace lines",
            at: _FailureLocation(fileID, filePath, line, column))
    }

    /// Checks that nothing was received since the last check.
    public func expectNothingReceived(
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
        column: UInt = #column
    ) {
        let unchecked = received
        received.removeAll()
        guard !unchecked.isEmpty else { return }
        _recordFailure(
            "Expected nothing, but \(unchecked.count) record"
                + "\(unchecked.count == 1 ? " was" : "s were") received:\n"
                + _LineDiff.render(
                    expected: [], actual: unchecked, equal: ==, text: \.description),
            at: _FailureLocation(fileID, filePath, line, column))
    }

    /// Marks every received record as checked without checking it (for setup steps in an
    /// exhaustive test).
    public func skipReceived() {
        received.removeAll()
    }

    /// The change records received since the last check, for coarse assertions.
    public var receivedChanges: [FlowChange] {
        received.compactMap { record in
            if case .change(let change) = record { return change }
            return nil
        }
    }

    /// The live tree as text, in the format of `FlowRuntime.treeDescription()`.
    public var tree: String { runtime.treeDescription() }

    /// Checks the live tree against `expected`, a text in the format of
    /// `FlowRuntime.treeDescription()` (the format the demo prints). Does not consume
    /// received records.
    ///
    ///     harness.expectTree("""
    ///         * app
    ///           * main
    ///             * stack
    ///                 list
    ///               * detail
    ///         """)
    public func expectTree(
        _ expected: String, fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        runtime.expectTree(expected, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    private func check<Expected>(
        _ expected: [Expected], equal: (Expected, FlowTraceRecord) -> Bool,
        text: (Expected) -> String, what: String, at location: _FailureLocation
    ) {
        let actual = received
        switch exhaustivity {
        case .on:
            if expected.count <= actual.count,
                zip(expected, actual).allSatisfy({ equal($0, $1) })
            {
                received.removeFirst(expected.count)
                return
            }
        case .off:
            if let end = endOfSubsequence(expected, in: actual, equal: equal) {
                received.removeFirst(end)
                return
            }
        }
        received.removeAll()
        let diff = _LineDiff.render(
            expected: expected.map { text($0) }, actual: actual.map(\.description))
        let mode = exhaustivity == .on ? "" : " in order (non-exhaustive)"
        _recordFailure(
            "The received \(what) do not match the expected ones\(mode) "
                + "(- expected, + received):\n\(diff)",
            at: location)
    }

    /// The index just past the last record matched when `expected` is found in order in
    /// `actual`, or `nil` if it is not.
    private func endOfSubsequence<Expected>(
        _ expected: [Expected], in actual: [FlowTraceRecord],
        equal: (Expected, FlowTraceRecord) -> Bool
    ) -> Int? {
        var index = 0
        for item in expected {
            while index < actual.count, !equal(item, actual[index]) { index += 1 }
            if index == actual.count { return nil }
            index += 1
        }
        return index
    }
}
