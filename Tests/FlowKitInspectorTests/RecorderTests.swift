import FlowKit
import FlowKitInspector
import FlowKitRecorder
import FlowKitTesting
import Foundation
import Testing

@MainActor
@Suite("Recorder: one line per record, every record kind")
struct RecorderTests {
    @Test("Peek")
    func peek() async throws {
        let (recorder, _) = try await recordDemo(options: FlowRecorder.Options(treeText: true))
        print(recorder.lines.joined(separator: "\n"))
        print(recorder.lines.count)
    }
}
