import Testing
import XCTest

/// Where a failure is reported: Swift Testing's location, plus the `StaticString` file path
/// XCTest needs (it cannot be rebuilt from a `String`).
///
/// Public API takes the caller's location as `#fileID`, `#filePath`, `#line` and `#column`
/// defaults rather than Swift Testing's `#_sourceLocation` macro: a macro default needs
/// `import Testing` in the calling file, and XCTest files should not need it.
struct _FailureLocation: Sendable {
    let sourceLocation: SourceLocation
    let filePath: StaticString

    init(_ fileID: String, _ filePath: StaticString, _ line: UInt, _ column: UInt) {
        self.sourceLocation = SourceLocation(
            fileID: fileID, filePath: "\(filePath)", line: Int(line), column: Int(column))
        self.filePath = filePath
    }

    /// `File.swift:42`, for messages that point at another line than the failing one.
    var shortDescription: String {
        "\(sourceLocation.fileName):\(sourceLocation.line)"
    }
}

/// Records a test failure at `location`: as a Swift Testing issue when a Swift Testing test is
/// running, otherwise with `XCTFail`.
func _recordFailure(_ message: String, at location: _FailureLocation) {
    if Test.current != nil {
        Issue.record(Comment(rawValue: message), sourceLocation: location.sourceLocation)
    } else {
        XCTFail(message, file: location.filePath, line: UInt(location.sourceLocation.line))
    }
}
