import Foundation
import Testing

/// The change mechanism has one way in (see the header of
/// Sources/FlowKit/Transactions/FlowRuntime+Transaction.swift): every operation calls `_change`,
/// which queues while a change is applied, validates, and performs. These checks keep
/// hand-written queueing and direct transactions from coming back in the operations.
@Suite("One way into the change mechanism")
struct AdmissionTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/FlowKit")

    /// The code lines (comments left out) of every file under Sources/FlowKit, by path
    /// relative to it.
    static func codeLines() throws -> [(file: String, line: String)] {
        let enumerator = try #require(FileManager.default.enumerator(atPath: sources.path))
        var result: [(String, String)] = []
        while let path = enumerator.nextObject() as? String {
            guard path.hasSuffix(".swift") else { continue }
            let text = try String(
                contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let code = line.trimmingCharacters(in: .whitespaces)
                if code.hasPrefix("//") { continue }
                result.append((path, code))
            }
        }
        return result
    }

    /// The files in which `call` appears as code, sorted.
    static func files(calling call: String) throws -> [String] {
        Set(try codeLines().filter { $0.line.contains(call) }.map(\.file)).sorted()
    }

    @Test(
        "No operation queues itself by hand: only the admission and the runtime's own continuations queue"
    )
    func queueingHasOneHome() throws {
        #expect(try Self.files(calling: "_queueIfApplying").isEmpty)
        #expect(
            try Self.files(calling: "_enqueueChange(") == [
                // The definition, and the queue rung of `_change` and `_perform`.
                "Events/FlowRuntime+Dispatch.swift",
                // A guard's redirect and an intent's replay, queued behind the change.
                "Navigation/FlowRuntime+Intents.swift",
                // A cancelled wait's removal, queued if a change is under way.
                "Results/ResultWaiter.swift",
                "Transactions/FlowController+Admission.swift",
            ])
    }

    @Test("Only the admission performs and starts transactions (and the runtime's own changes)")
    func transactionsHaveOneDoor() throws {
        #expect(
            try Self.files(calling: "_perform(") == ["Transactions/FlowController+Admission.swift"])
        #expect(
            try Self.files(calling: "_transact(") == [
                // A guard's redirect, performed when its turn comes.
                "Navigation/FlowRuntime+Navigation.swift",
                // `start(restoring:)`.
                "Restoration/FlowRuntime+Restoration.swift",
                // A lazily restored tab's content, built before the change that visits it.
                "Restoration/Restoration+Lazy.swift",
                // `start()` and `stop()`, inside the runtime's `_change`.
                "Runtime/FlowRuntime.swift",
                "Transactions/FlowController+Admission.swift",
                "Transactions/FlowRuntime+Transaction.swift",
            ])
    }

    @Test("Platform-initiated is a property of the change kind, not a parameter")
    func noPlatformFlag() throws {
        #expect(try Self.files(calling: "platform: Bool").isEmpty)
        #expect(try Self.files(calling: "platform: true").isEmpty)
    }
}
