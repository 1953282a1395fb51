import Testing

/// Runs `body`, which must record exactly the failure `message` at `line` of this test file;
/// any other issue, or none, fails the test.
///
/// Elapsed times (`12 µs ago`) are replaced with `<time> ago` before comparing, since they
/// are measured.
func expectIssue(
    _ message: String, atLine line: Int, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> Void
) {
    let file = sourceLocation.fileName
    let matches: KnownIssueMatcher = { issue in
        let comments: [String] = issue.comments.map { normalized($0.rawValue) }
        guard let location = issue.sourceLocation else { return false }
        return comments == [message] && location.line == line && location.fileName == file
    }
    // The body's own errors are recorded as issues (and do not match), never thrown here.
    try? withKnownIssue(sourceLocation: sourceLocation, body, matching: matches)
}

/// `message` with measured durations replaced by `<time>`.
func normalized(_ message: String) -> String {
    message.replacing(/[0-9.]+ (µs|ms|s) ago/, with: "<time> ago")
}
