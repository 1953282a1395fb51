import FlowKit
import FlowKitTesting
import Foundation
import XCTest

/// The harness under XCTest: failures go through `XCTFail` with the caller's file and line.
///
/// The test case captures its own failures (overriding `recordFailure`) so that a failure
/// made on purpose can be checked instead of failing the run.
final class XCTestReportingTests: XCTestCase {
    private struct Failure: Equatable {
        let message: String
        let file: String
        let line: Int
    }

    /// `@unchecked Sendable`: `failures` is only touched while holding `lock` (XCTest may
    /// call `recordFailure` from any thread).
    private final class FailureLog: @unchecked Sendable {
        private let lock = NSLock()
        private var failures: [Failure] = []
        private var capturing = false

        var isCapturing: Bool {
            get { lock.withLock { capturing } }
            set { lock.withLock { capturing = newValue } }
        }

        func append(_ failure: Failure) { lock.withLock { failures.append(failure) } }
        func take() -> [Failure] {
            lock.withLock {
                defer { failures = [] }
                return failures
            }
        }
    }

    private let log = FailureLog()

    override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
        expected: Bool
    ) {
        guard log.isCapturing else {
            super.recordFailure(
                withDescription: description, inFile: filePath, atLine: lineNumber,
                expected: expected)
            return
        }
        log.append(
            Failure(
                message: description, file: (filePath as NSString).lastPathComponent,
                line: lineNumber))
    }

    // Test discovery on Linux cannot call `@MainActor` test methods, so each test hops to
    // the main actor itself.
    func testPassingHarnessRecordsNoFailure() async throws {
        try await MainActor.run {
            let harness = try FlowTestHarness(root: SampleApp())
            harness.send(Ping())
            harness.expectTrace(["send Ping from app/login", "unhandled Ping from app/login"])
            harness.finish()
        }
    }

    func testUncheckedRecordsFailWithXCTFailAtTheCallersLine() async throws {
        let log = self.log
        let line = try await MainActor.run {
            let harness = try FlowTestHarness(root: SampleApp())
            harness.send(Ping())
            log.isCapturing = true
            defer { log.isCapturing = false }
            let line = #line + 1
            harness.finish()
            return line
        }
        let failures = log.take()
        XCTAssertEqual(failures.count, 1)
        XCTAssertEqual(failures.first?.file, "XCTestReportingTests.swift")
        XCTAssertEqual(failures.first?.line, line)
        XCTAssertTrue(
            failures.first?.message.contains(
                "The test ended with 2 unchecked records (check them with expect, or call "
                    + "skipReceived()):\n+ send Ping from app/login\n+ unhandled Ping from app/login"
            ) ?? false, failures.first?.message ?? "no failure")
    }
}
