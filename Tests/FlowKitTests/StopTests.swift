import FlowKit
import FlowKitTesting
import Testing

/// Lines a trace observer saw.
@MainActor
private final class Lines {
    var all: [String] = []
}

/// A host that asks for changes while the `stop` change is applied.
@MainActor
private final class AskingHost: FlowHost {
    weak var runtime: FlowRuntime?
    var thrown: [String] = []

    func apply(_ change: FlowChange, in runtime: FlowRuntime) {
        guard change.kind == .stop else { return }
        do { try runtime.navigate(to: ["x"]) } catch { thrown.append("navigate: \(error)") }
        do { try runtime.navigate(to: [FlowStep("x")]) } catch { thrown.append("steps: \(error)") }
        do { try runtime.open("x") } catch { thrown.append("open: \(error)") }
        do { try runtime.unwind(to: "x") } catch { thrown.append("unwind: \(error)") }
        do { try runtime.stop() } catch { thrown.append("stop: \(error)") }
    }
}

@MainActor
@Suite("Stopping: stop() and a released runtime end everything the same way")
struct StopTests {
    /// Starts app > main (a stack) > [list], with a redirected push kept as an intent (the
    /// redirect showed `login`) and a `run` awaiting a picker presented by `login`; then
    /// stops the runtime with `stop()` or by releasing it, and returns what the trace
    /// observer saw from the stop on, and how the `run` ended.
    private func stopWithWork(explicitly: Bool) async throws -> (lines: [String], error: String) {
        let lines = Lines()
        let trace = FlowTrace()
        trace.addObserver { lines.all.append($0.description) }
        let list = FlowController(name: "list")
        let main = FlowStack(name: "main", route: "main", root: list)
        let app = FlowSwitch(name: "app", initial: main)
        app.register("login") { FlowController(name: "login", route: "login") }
        var runtime: FlowRuntime? = try FlowRuntime(root: app, trace: trace)
        try runtime?.start()
        let guarded = FlowController(name: "guarded")
        guarded.entryGuard = { .redirect(to: [.child("login")]) }
        #expect(throws: FlowError.redirected(node: "app/main/guarded", to: "login")) {
            try main.push(guarded)
        }
        let login = try #require(app.current)
        #expect(login.name == "login")
        #expect(runtime?.redirectedIntent != nil)
        let task = Task { try await login.run(Picker(), .present) }
        await waitUntil { login.presentedChild != nil }
        lines.all.removeAll()
        if explicitly { try runtime?.stop() }
        runtime = nil
        let error = await failure(of: task).map { "\($0)" } ?? "none"
        return (lines.all, error)
    }

    @Test(
        "A runtime released without stop() records the cancelled run and the dropped intent",
        .bug(id: "21.7", "a released runtime left no record of the run and intent it ended"))
    func releaseRecordsLikeStop() async throws {
        let stopped = try await stopWithWork(explicitly: true)
        let released = try await stopWithWork(explicitly: false)
        let expected = [
            "intent dropped push app/main (the runtime stopped)",
            "cancelled app/login/picker (it left without finishing): run at app/login throws",
        ]
        for line in expected {
            #expect(stopped.lines.contains(line))
            #expect(released.lines.contains(line))
        }
        #expect(stopped.lines == released.lines)
        #expect(stopped.error == released.error)
        #expect(released.error == "\(FlowError.flowCancelled(flow: "app/login/picker"))")
    }

    @Test(
        "Navigation asked of the runtime while its stop is applied is queued, not thrown back",
        .bug(id: "21.8", "runtime.navigate threw runtimeNotStarted into the host"))
    func runtimeOperationsDuringStopAreQueued() throws {
        let host = AskingHost()
        let app = FlowSwitch(name: "app", initial: FlowController(name: "main"))
        let runtime = try FlowRuntime(root: app, host: host)
        host.runtime = runtime
        var failures: [String] = []
        runtime.onError = { failures.append("\($0.kind): \($0.error)") }
        try runtime.start()
        try runtime.stop()
        #expect(host.thrown.isEmpty)
        let notStarted = "\(FlowError.runtimeNotStarted)"
        #expect(
            failures == [
                "navigate: \(notStarted)", "navigate: \(notStarted)", "open: \(notStarted)",
                "unwind: \(notStarted)", "stop: \(notStarted)",
            ])
    }

    @Test(
        "A runtime released without stop() exits its tree and nothing leaks",
        .bug(id: "9.7", "a runtime released without stop() left its tree entered and leaked it"))
    func runtimeReleasedWithoutStop() async throws {
        let journal = Journal()
        weak var weakRuntime: FlowRuntime?
        weak var weakWorker: FlowController?
        let kept = LoggingNode("kept", journal: journal)
        var cancelled = false
        do {
            let root = LoggingNode("root", journal: journal)
            let worker = LoggingNode("worker", journal: journal)
            worker.task {
                while !Task.isCancelled { await Task.yield() }
                _ = worker  // captured strongly: only cancellation lets it go
                cancelled = true
            }
            try root.embed(worker)
            try worker.embed(kept)
            let runtime = try FlowRuntime(root: root)
            try runtime.start()
            weakRuntime = runtime
            weakWorker = worker
        }
        #expect(weakRuntime == nil)
        #expect(
            journal.entries.filter { $0.hasPrefix("exit") } == [
                "exit kept", "exit worker", "exit root",
            ])
        for _ in 0..<1000 where weakWorker != nil { await Task.yield() }
        #expect(cancelled && weakWorker == nil)
        #expect(kept.state == .exited)
        #expect(throws: FlowError.nodeExited(node: "root/worker/kept")) {
            _ = try FlowRuntime(root: kept)
        }
    }
}
