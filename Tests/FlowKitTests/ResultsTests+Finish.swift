import FlowKit
import Testing

struct User: Sendable, Equatable {
    let name: String
}

@MainActor
@Suite("Results: finished flows and flows that await a child")
struct FinishTests {
    @Test("finish(with:) sends a typed FlowFinished from the flow up to its parent")
    func finishWithResult() throws {
        let app = FlowSwitch(name: "app")
        let login = FlowController(name: "login", route: "login")
        try app.embed(login)
        let runtime = try FlowRuntime(root: app)
        try runtime.start()
        var received: [(User, String)] = []
        app.on(FlowFinished<User>.self) { done, origin in
            received.append((done.result, origin.path))
            try? app.switch(to: FlowController(name: "main"))
            return .handled
        }
        weak let weakLogin = login
        login.finish(with: User(name: "alice"))
        #expect(received.map(\.0) == [User(name: "alice")])
        #expect(received.map(\.1) == ["app/login"])
        #expect(runtime.trace.lines.contains("handled FlowFinished<User> at app"))
        #expect(runtime.focusedPath.map(\.name) == ["app", "main"])
        _ = login
        #expect(weakLogin?.state == .exited)
    }

    @Test("A finished flow that leaves before its event's turn does not report")
    func finishAfterExitIsDropped() throws {
        let (runtime, _, app, _, stack, _) = try makeApp()
        let flow = FlowController(name: "flow")
        try stack.push(flow)
        var finished = 0
        app.on(FlowFinished<Void>.self) { _ in
            finished += 1
            return .handled
        }
        app.on(Ping.self) { _ in
            flow.finish()  // queued behind this handler…
            _ = try? stack.pop()  // …and the flow is gone before its turn
            return .handled
        }
        flow.send(Ping())
        #expect(finished == 0)
        #expect(runtime.trace.lines.last?.hasPrefix("dropped FlowFinished<()>") == true)
    }

    // MARK: Targeted finish events

    @Test("A handler for one child's FlowFinished is not fooled by a grandchild's")
    func targetedFinish() throws {
        let (runtime, _, _, main, stack, _) = try makeApp()
        let login = FlowController(name: "login")
        let grandchild = FlowController(name: "grandchild")
        try login.embed(grandchild)
        try stack.push(login)
        var heard: [String] = []
        main.on(FlowFinished<String>.self, from: login) { done in
            heard.append("login: \(done.result)")
            return .handled
        }
        grandchild.finish(with: "grandchild's")
        login.finish(with: "login's")
        #expect(heard == ["login: login's"])
        #expect(
            runtime.trace.lines.suffix(4) == [
                "send FlowFinished<String> from app/main/stack/login/grandchild",
                "unhandled FlowFinished<String> from app/main/stack/login/grandchild",
                "send FlowFinished<String> from app/main/stack/login",
                "handled FlowFinished<String> at app/main",
            ])
        let done = FlowFinished(result: 1, flow: login)
        #expect(done.isFrom(login) && !done.isFrom(grandchild) && done.flowName == "login")
        #expect(!FlowFinished(result: 1, flowName: "login", flowRoute: nil).isFrom(login))
    }

    // MARK: A flow's didEnter awaits a child

    final class Root: FlowSwitch {
        var log: [String] = []
        override func didEnter() {
            task { [weak self] in
                guard let self else { return }
                do {
                    let value = try await run(Picker("login"), .switch)
                    log.append("signed in \(value)")
                    try self.switch(to: FlowController(name: "main"))
                } catch {
                    log.append("\(error)")
                    throw error
                }
            }
        }
    }

    @Test("A flow whose didEnter awaits a child works end to end")
    func didEnterAwaitsAChild() async throws {
        let root = Root(name: "app")
        let runtime = try FlowRuntime(root: root)
        var failures: [FlowFailure] = []
        runtime.onError = { failures.append($0) }
        try runtime.start()
        await waitUntil { root.current is Picker }
        try #require(root.current as? Picker).finish(with: 42)
        await waitUntil { root.current?.name == "main" }
        #expect(root.log == ["signed in 42"])
        #expect(runtime.focusedPath.map(\.path) == ["app", "app/main"])
        #expect(failures.isEmpty)
    }

    @Test("Stopping the runtime while didEnter awaits cancels the await; nothing is reported")
    func stoppingCancelsTheAwait() async throws {
        weak var weakRoot: Root?
        weak var weakLogin: FlowController?
        var failures: [FlowFailure] = []
        do {
            let root = Root(name: "app")
            weakRoot = root
            let runtime = try FlowRuntime(root: root)
            runtime.onError = { failures.append($0) }
            try runtime.start()
            await waitUntil { root.current is Picker }
            weakLogin = root.current
            try runtime.stop()
            #expect(
                runtime.trace.lines.contains(
                    "cancelled app/login (it left without finishing): run at app throws"))
            await waitUntil { root.log.count == 1 }
            #expect(root.log == ["\(FlowError.flowCancelled(flow: "app/login"))"])
        }
        await waitUntil { weakRoot == nil }
        #expect(weakRoot == nil && weakLogin == nil)
        #expect(failures.isEmpty)  // the task was cancelled with its node: not a failure
    }

    @Test("A child that finishes just before its awaiting node exits: run returns, cancelled")
    func finishThenExitBeforeTheTaskResumes() async throws {
        // The result is handed over inside the finishing change, but the awaiting task runs
        // on a later main-actor turn. If its node exits first (here the runtime stops in the
        // same turn), `run` still returns the result (each run ends once, with what came
        // first) and the task sees itself cancelled, so code after the await can tell that
        // its node is gone (its dependencies then show only defaults).
        let parent = FlowController(name: "parent")
        let runtime = try FlowRuntime(root: FlowStack(name: "stack", root: parent))
        try runtime.start()
        var seen: (result: Int, cancelled: Bool, state: FlowLifecycleState)?
        parent.task {
            let result = try await parent.run(Picker(), .present)
            seen = (result, Task.isCancelled, parent.state)
        }
        await waitUntil { parent.presentedChild is Picker }
        try #require(parent.presentedChild as? Picker).finish(with: 7)
        try runtime.stop()  // same turn: the task has its result but has not run
        #expect(seen == nil)
        await waitUntil { seen != nil }

        #expect(seen?.result == 7)
        #expect(seen?.cancelled == true)
        #expect(seen?.state == .exited)
    }
}
