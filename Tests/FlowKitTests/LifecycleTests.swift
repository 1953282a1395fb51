import FlowKit
import Testing

@MainActor
@Suite("Lifecycle order")
struct LifecycleTests {
    /// app → [a → [a1, a2 → [a2x]], modal b presented by app]
    func makeWideTree(journal: Journal) throws -> (FlowRuntime, LoggingNode) {
        let app = LoggingNode("app", journal: journal)
        let stack = FlowStack(name: "a")
        let a1 = LoggingNode("a1", journal: journal)
        let a2 = LoggingNode("a2", journal: journal)
        try a2.embed(LoggingNode("a2x", journal: journal))
        try stack.setStack([a1, a2])
        try app.embed(stack)
        try app.present(LoggingNode("b", journal: journal))
        let runtime = try FlowRuntime(root: app)
        try runtime.start()
        return (runtime, app)
    }

    @Test("Entry runs outermost first, siblings in attach order, presented last")
    func entryOrder() throws {
        let journal = Journal()
        let (runtime, _) = try makeWideTree(journal: journal)
        #expect(
            runtime.trace.lines.prefix(6) == [
                "enter app", "enter app/a", "enter app/a/a1", "enter app/a/a2",
                "enter app/a/a2/a2x", "enter app/b",
            ])
        #expect(journal.entries.filter { $0.hasPrefix("enter") }.count == 5)
    }

    @Test("Exit runs innermost first, the last attached sibling first, exactly once each")
    func exitOrder() throws {
        let journal = Journal()
        let (runtime, _) = try makeWideTree(journal: journal)
        runtime.trace.removeAll()
        try runtime.stop()
        #expect(
            runtime.trace.lines == [
                "exit app/b", "exit app/a/a2/a2x", "exit app/a/a2", "exit app/a/a1", "exit app/a",
                "exit app", "change stop -app",
            ])
        #expect(runtime.root == nil)
        #expect(runtime.focusedPath.isEmpty)
    }

    @Test("stop() exits the whole tree even where an exit guard would refuse")
    func stopIgnoresGuards() throws {
        let (runtime, host, _, _, _, list) = try makeApp()
        list.exitGuard = { .refuse("busy") }
        try runtime.stop()
        #expect(list.state == .exited)
        #expect(host.changes.last?.description == "stop -app")
        #expect(throws: FlowError.runtimeNotStarted) { try runtime.stop() }
        #expect(throws: FlowError.runtimeAlreadyStarted) { try runtime.start() }
    }

    @Test("Activation changes come after entries and exits, once per node per change")
    func activationOncePerChange() throws {
        let journal = Journal()
        let (runtime, _, _, main, stack, _) = try makeApp(journal: journal)
        let detail = LoggingNode("detail", journal: journal)
        try stack.push(detail)
        let modal = LoggingNode("modal", journal: journal)
        runtime.trace.removeAll()
        journal.entries = []
        try main.present(modal)
        #expect(
            runtime.trace.lines == [
                "enter app/main/modal",
                "change present app/main +app/main/modal",
                "deactivate app/main/stack/detail",
                "deactivate app/main/stack",
                "activate app/main/modal",
            ])
        #expect(
            journal.entries == ["enter modal", "inactive detail", "active modal"])
        journal.entries = []
        try main.dismiss()
        #expect(
            journal.entries == ["exit modal", "active detail"])
        #expect(runtime.focusedPath.map(\.name) == ["app", "main", "stack", "detail"])
        #expect(main.isActive && stack.isActive && detail.isActive && !modal.isActive)
    }

    @Test("A change inside a covered entry leaves the focus alone; uncovering finds it")
    func changesUnderCoveredEntries() throws {
        let journal = Journal()
        let (runtime, _, _, _, stack, list) = try makeApp(journal: journal)
        let inner = FlowStack(name: "inner", root: LoggingNode("x", journal: journal))
        try stack.setStack([inner, list])  // inner is covered by list
        journal.entries = []
        let y = LoggingNode("y", journal: journal)
        try inner.push(y)
        #expect(journal.entries == ["enter y"])
        #expect(!y.isActive && !inner.isActive)
        #expect(runtime.focusedNode === list)
        journal.entries = []
        try stack.pop()
        #expect(journal.entries == ["exit list", "active y"])
        #expect(runtime.focusedPath.map(\.name) == ["app", "main", "stack", "inner", "y"])
        #expect(inner.isActive && y.isActive)
    }

    @Test("Covered entries stay entered and keep their state; only the top is active")
    func coveredIsNotExited() throws {
        let (runtime, _, _, _, stack, list) = try makeApp()
        let detail = FlowController(name: "detail")
        list.dependencies[TitleKey.self] = "kept"
        try stack.push(detail)
        #expect(list.state == .entered)
        #expect(!list.isActive)
        #expect(list.dependencies[TitleKey.self] == "kept")
        #expect(detail.isActive)
        _ = runtime
    }

    @Test("Tasks started before entry wait for it; exit cancels running tasks")
    func tasksFollowTheLifecycle() async throws {
        let (runtime, _, _, _, stack, _) = try makeApp()
        let detail = FlowController(name: "detail")
        let gate = AsyncGate()
        var log: [String] = []
        detail.task {
            log.append("started")
            await gate.wait()
            log.append(Task.isCancelled ? "saw cancellation" : "not cancelled")
        }
        #expect(detail.runningTaskCount == 1)
        #expect(log.isEmpty)
        try stack.push(detail)
        await gate.waitUntilWaiting()
        #expect(log == ["started"])
        try stack.pop()
        #expect(detail.runningTaskCount == 0)  // exit released the task
        gate.open()
        for _ in 0..<1000 where log.count < 2 { await Task.yield() }
        #expect(log == ["started", "saw cancellation"])
        var lateRan = false
        detail.task { lateRan = true }
        await Task.yield()
        #expect(!lateRan)
        _ = runtime
    }

    @Test("A node's task that throws reports to onError and the trace, once")
    func throwingTaskReports() async throws {
        let (runtime, _, _, main, _, _) = try makeApp()
        var failures: [String] = []
        runtime.onError = { failures.append($0.description) }
        var done = false
        main.task {
            defer { done = true }
            throw FlowError.emptyStack(stack: "demo")
        }
        await waitUntil { done }
        await Task.yield()
        #expect(failures == ["task at app/main failed: 'demo' has no entries to pop"])
        #expect(runtime.trace.lines.last == "failed task at app/main: 'demo' has no entries to pop")
    }
}

enum TitleKey: DependencyKey {
    static let defaultValue = "default"
}

/// A one-shot gate for tests: tasks wait on it until `open()`; no timers.
@MainActor
final class AsyncGate {
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var isOpen = false
    private var arrivals: [CheckedContinuation<Void, Never>] = []
    private(set) var waitingCount = 0

    func wait() async {
        if isOpen { return }
        waitingCount += 1
        for arrival in arrivals { arrival.resume() }
        arrivals = []
        await withCheckedContinuation { waiters.append($0) }
    }

    func waitUntilWaiting() async {
        if waitingCount > 0 { return }
        await withCheckedContinuation { arrivals.append($0) }
    }

    func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters = []
    }
}
