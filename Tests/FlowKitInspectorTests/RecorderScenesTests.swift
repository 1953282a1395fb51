import FlowKit
import FlowKitRecorder
import Testing

@MainActor
@Suite("Recorder: every scene of a FlowApp")
struct RecorderScenesTests {
    @Test(
        "Attached to an app, a recorder records each scene's start under its identity, and a reclaimed scene's new tree when it comes back"
    )
    func recordsEveryScene() throws {
        let app = FlowApp()
        try app.register(String.self) { value, _ in FlowController(name: value) }
        let recorder = FlowRecorder(bufferLimit: 1_000)
        recorder.attach(app)
        try app.connect("w1", value: FlowRoute("main"))
        try app.connect("w2", value: FlowRoute("other"))
        try app.report(.enterForeground, for: "w2")
        try app.report(.enterBackground, for: "w2")
        try app.report(.disconnect, for: "w2")  // the system reclaims it
        try app.connect("w2", value: FlowRoute("other"))  // and brings it back

        let steps = recorder.lines.filter { $0.contains(#""k":"step""#) }
        let first = steps.filter { $0.contains(#""rt":"w1""#) }
        let second = steps.filter { $0.contains(#""rt":"w2""#) }
        #expect(first.count == 1 && first[0].contains(#""kind":"start""#), "\(first)")
        // Its first tree starts and stops (reclaimed); its second starts from the snapshot.
        #expect(
            second.map { $0.contains(#""kind":"stop""#) ? "stop" : "start" }
                == ["start", "stop", "start"], "\(second)")
        #expect(steps.count == 4)
        // One attach per runtime, each before its start: three runtimes.
        #expect(recorder.lines.filter { $0.contains(#""k":"attach""#) }.count == 3)
    }

    @Test("A scene connected before the recorder is attached is recorded from an attach step")
    func attachesConnectedScenes() throws {
        let app = FlowApp()
        try app.register(String.self) { value, _ in FlowController(name: value) }
        try app.connect("w1", value: FlowRoute("main"))
        let recorder = FlowRecorder(bufferLimit: 1_000)
        recorder.attach(app)
        #expect(recorder.lines.contains { $0.contains(#""k":"attach","rt":"w1""#) })
    }
}
