import Testing
import XCTest

/// Where a failure is reported: Swift Testing's location, plus the `StaticString` file path
/// XCTest needs (it cannot be rebuilt from a `String`).
struct _FailureLocation: Sendable {
    let sourceLocation: SourceLocation
    let filePath: StaticString

    init(_ sourceLocation: SourceLocation, _ filePath: StaticString) {
        self.sourceLocation = sourceLocation
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
