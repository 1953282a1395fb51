import FlowKit

extension FlowRuntime {
    /// Checks the live tree against `expected`, a text in the format of
    /// `FlowRuntime.treeDescription()`: one node per line, indented two spaces per level,
    /// `* ` on the focused path and `^` before presented nodes.
    ///
    ///     runtime.expectTree("""
    ///         * app
    ///           * login
    ///         """)
    ///
    /// A trailing newline in `expected` is ignored. A failure shows both trees line by line.
    public func expectTree(
        _ expected: String, fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        let actual = treeDescription()
        var wanted = expected
        while wanted.hasSuffix("\n") { wanted.removeLast() }
        guard actual != wanted else { return }
        let split = { (text: String) -> [String] in
            text.isEmpty
                ? []
                : text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }
        _recordFailure(
            "The tree is not the expected one (- expected, + actual):\n"
                + _LineDiff.render(expected: split(wanted), actual: split(actual)),
            at: _FailureLocation(fileID, filePath, line, column))
    }
}
