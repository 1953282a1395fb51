import FlowKit
import FlowKitTesting
import Testing

@MainActor
@Suite("Change recorder")
struct FlowChangeRecorderTests {
    /// A host that keeps what it was told, standing in for an app's real host.
    private final class CountingHost: FlowHost {
        var lines: [String] = []
        func apply(_ change: FlowChange, in runtime: FlowRuntime) {
            lines.append(
                "\(change) (tree has \(runtime.treeDescription().split(separator: "\n").count) lines)"
            )
        }
    }

    @Test("The recorder keeps every reported change as a value and passes it on")
    func recordsAndForwards() throws {
        let next = CountingHost()
        let recorder = FlowChangeRecorder(forwardingTo: next)
        let runtime = try FlowRuntime(root: SampleApp(), host: recorder)
        try runtime.start()
        runtime.node(at: "app/login")!.send(SignIn(user: "ada"))
        runtime.node(at: "app/main/stack/list")!.send(Select(item: 4))
        try (runtime.node(at: "app/main/stack") as! FlowStack).platformDidPop()

        recorder.expectChanges([
            FlowChange(kind: .start, container: "", exited: [], entered: ["app"]),
            FlowChange(
                kind: .switch, container: "app", exited: ["app/login"], entered: ["app/main"]),
            FlowChange(
                kind: .push, container: "app/main/stack", exited: [],
                entered: ["app/main/stack/detail"]),
        ])
        #expect(
            next.lines == [
                "start +app (tree has 2 lines)",
                "switch app -app/login +app/main (tree has 4 lines)",
                "push app/main/stack +app/main/stack/detail (tree has 5 lines)",
            ])
        #expect(
            recorder.transcript
                == """
                1. start +app
                2. switch app -app/login +app/main
                3. push app/main/stack +app/main/stack/detail
                """)
        #expect(recorder.recording.changes == recorder.changes)
        recorder.expectNoChanges()
    }

    @Test("Checks go step by step: each sees only the changes after the last one")
    func stepByStep() throws {
        let recorder = FlowChangeRecorder()
        let runtime = try FlowRuntime(root: SampleApp(), host: recorder)
        try runtime.start()
        recorder.expectChanges(["start +app"])
        runtime.node(at: "app/login")!.send(SignIn(user: "ada"))
        #expect(recorder.uncheckedChanges.map(\.kind) == [.switch])
        recorder.expectChanges(["switch app -app/login +app/main"])
        recorder.skipChanges()
        try runtime.stop()
        recorder.expectChanges(["stop -app"])
    }
}
