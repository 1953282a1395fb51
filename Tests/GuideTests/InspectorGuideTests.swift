import FlowKit
import FlowKitRecorder
import Foundation
import Testing

/// Docs/Inspector.md's code: recording to a file, and several runtimes into a bounded buffer.
@MainActor
@Suite("Inspector guide")
struct InspectorGuideTests {
    @Test("Recording to a file: a header, the steps, the end")
    func recordingToAFile() throws {
        let sessionPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("inspector-guide-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: sessionPath) }
        let stack = FlowStack(name: "stack", root: FlowController(name: "list"))
        let runtime = try FlowRuntime(root: stack)

        let recorder = try FlowRecorder(writingTo: sessionPath)
        recorder.attach(runtime)
        try runtime.start()
        try stack.push(FlowController(name: "detail"))
        recorder.finish()

        let lines = try String(contentsOfFile: sessionPath, encoding: .utf8)
            .split(separator: "\n")
        #expect(lines.first == #"{"format":"flowkit-session","version":3,"payloads":false}"#)
        #expect(lines.filter { $0.contains(#""k":"step""#) }.count == 2)
        #expect(lines.last?.hasPrefix(#"{"k":"end""#) == true)
    }

    @Test("Several runtimes into one bounded buffer, each under its label")
    func severalRuntimes() throws {
        let firstScene = try FlowRuntime(root: FlowController(name: "scene"))
        let secondScene = try FlowRuntime(root: FlowController(name: "scene"))

        let options = FlowRecorder.Options(snapshots: true)
        let recorder = FlowRecorder(bufferLimit: 5_000, options: options)
        recorder.attach(firstScene, label: "scene-1")
        recorder.attach(secondScene, label: "scene-2")
        try firstScene.start()
        try secondScene.start()
        let report = recorder.text  // the header and the kept lines, a session file's text

        #expect(report.contains(#""k":"step","rt":"scene-1""#))
        #expect(report.contains(#""k":"step","rt":"scene-2""#))
        #expect(report.contains(#""snapshot":{"#))
    }
}
