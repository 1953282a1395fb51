import Testing

@testable import FlowKit

/// `FlowRuntime.settle()`: the tasks a change wakes have run up to their next suspension when
/// it returns, however many main-actor turns that takes.
@MainActor
@Suite("settle(): woken tasks have run when it returns")
struct SettleTests {
    /// A session loop like an app root's: awaits a login picker, then a main picker, and
    /// again; each step is logged.
    final class Loop: FlowSwitch {
        var log: [String] = []
        override func didEnter() {
            task { [weak self] in
                guard let self else { return }
                while true {
                    try Task.checkCancellation()
                    log.append("login")
                    let user = try await run(Picker("login"), .switch)
                    try Task.checkCancellation()
                    log.append("main \(user)")
                    _ = try await run(Picker("main"), .switch)
                }
            }
        }
    }

    @Test("A task started as the tree starts has begun: it shows its first flow")
    func startedTaskHasBegun() async throws {
        let loop = Loop(name: "app")
        let runtime = try FlowRuntime(root: loop)
        try runtime.start()
        #expect(loop.log.isEmpty)  // the task has not run yet

        await runtime.settle()

        #expect(loop.log == ["login"])
        #expect(runtime.focusedPath.map(\.path) == ["app", "app/login", "app/login/page"])
        #expect(runtime._pendingWakeups == 0)
    }

    @Test("A finished flow's awaiting task, and the flow it shows next, have run")
    func chainHasRun() async throws {
        let loop = Loop(name: "app")
        let runtime = try FlowRuntime(root: loop)
        try runtime.start()
        await runtime.settle()
        for round in 1...3 {
            try #require(loop.current as? Picker).finish(with: round)  // login
            #expect(runtime._pendingWakeups == 1)  // the loop's task, not yet resumed
            await runtime.settle()
            #expect(loop.current?.name == "main")
            try #require(loop.current as? Picker).finish(with: 0)  // logout
            await runtime.settle()
            #expect(loop.current?.name == "login")
        }
        #expect(
            loop.log == ["login", "main 1", "login", "main 2", "login", "main 3", "login"])
    }

    @Test("Ends of runs by cancellation count too; nothing is left pending after a stop")
    func cancellationsBalance() async throws {
        let loop = Loop(name: "app")
        let runtime = try FlowRuntime(root: loop)
        try runtime.start()
        await runtime.settle()
        try runtime.stop()  // the login picker exits: the loop's run throws flowCancelled
        #expect(runtime._pendingWakeups == 1)
        await runtime.settle()
        #expect(runtime._pendingWakeups == 0)
        #expect(loop.log == ["login"])  // the loop ended at the cancelled run
        #expect(loop.runningTaskCount == 0)
    }

    @Test("With nothing woken it returns at once")
    func nothingPending() async throws {
        let runtime = try FlowRuntime(root: FlowController(name: "app"))
        await runtime.settle()  // not started
        try runtime.start()
        await runtime.settle()
        #expect(runtime._pendingWakeups == 0)
    }
}
