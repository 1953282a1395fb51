import FlowKit
import Testing

/// Changes asked for while a change runs: by route factories and guards (its check phase,
/// `changeInProgress`) and by lifecycle hooks (queued as the next transaction).
@MainActor
@Suite("Transactions: factories, guards and hooks asking for changes")
struct TransactionTests {
    @Test(
        "A route factory that pushes during navigate gets changeInProgress; nothing dangles",
        .bug(
            id: "9.1",
            "a factory's push ran outside the change and left the pushed node linked to a freed stack"
        ))
    func factoryThatPushesIsRefused() throws {
        let app = FlowSwitch(name: "app")
        let runtime = try FlowRuntime(root: app)
        var pushed: FlowController?
        var factoryError: (any Error)?
        weak var weakStack: FlowStack?
        do {
            let stack = FlowStack(name: "stack", root: FlowController(name: "list"))
            weakStack = stack
            try stack.present(FlowController(name: "sheet"))
            try app.embed(stack)
            try runtime.start()
            stack.register("x") { [unowned stack] in
                let node = FlowController(name: "pushed")
                pushed = node
                do { try stack.push(node) } catch { factoryError = error }
                return FlowController(name: "x", route: "x")
            }
            try stack.navigate(to: ["x"])
            #expect(factoryError as? FlowError == .changeInProgress(node: "app/stack"))
            #expect(stack.entries.map(\.name) == ["list", "x"])
            #expect(pushed?.parent == nil && pushed?.state == .created && pushed?.runtime == nil)
        }
        try app.switch(to: FlowController(name: "other"))
        #expect(weakStack == nil)
        pushed?.send(Ping())  // used to reach the freed stack (heap-use-after-free)
        #expect(runtime.trace.lines.last?.hasPrefix("activate app/other") == true)
    }

    @Test(
        "A route factory that pops gets changeInProgress; the popped entry is not put back",
        .bug(id: "9.1", "a factory's pop ran outside the change and the popped entry was put back"))
    func factoryThatPopsIsRefused() throws {
        let (runtime, _, _, _, stack, _) = try makeApp()
        let top = FlowController(name: "top")
        try stack.push(top)
        var factoryError: (any Error)?
        stack.register("x") { [unowned stack] in
            do { try stack.pop() } catch { factoryError = error }
            return FlowController(name: "x", route: "x")
        }
        try stack.navigate(to: ["x"])
        #expect(factoryError as? FlowError == .changeInProgress(node: "app/main/stack"))
        #expect(stack.entries.map(\.name) == ["list", "top", "x"])
        #expect(stack.entries.allSatisfy { $0.state == .entered })
        _ = runtime
    }

    @Test(
        "switch(to: route) runs its factory inside the change too",
        .bug(id: "9.1", "switch(to: route) ran its factory outside the change"))
    func switchFactoryIsInsideTheChange() throws {
        let (runtime, _, app, _, stack, _) = try makeApp()
        var factoryError: (any Error)?
        app.register("other") { [unowned stack] in
            do { try stack.push(FlowController(name: "sneaky")) } catch { factoryError = error }
            return FlowController(name: "other", route: "other")
        }
        try app.switch(to: "other")
        #expect(factoryError as? FlowError == .changeInProgress(node: "app/main/stack"))
        #expect(app.current?.name == "other")
        _ = runtime
    }

    @Test(
        "A factory may compose its own new subtree (a flow with its stack and first screen)",
        .bug(
            id: "9.1",
            "factories ran outside the change (the fix must still let a factory compose its new subtree)"
        ))
    func factoriesComposeFreely() throws {
        let (runtime, _, app, _, _, _) = try makeApp()
        app.register("flow") {
            let flow = FlowController(name: "flow", route: "flow")
            let stack = FlowStack(name: "stack")
            try? stack.push(FlowController(name: "first"))
            try? flow.embed(stack)
            return flow
        }
        try app.switch(to: "flow")
        #expect(runtime.focusedPath.map(\.path).last == "app/flow/stack/first")
    }

    @Test(
        "An entry guard that pushes onto its own node gets changeInProgress",
        .bug(id: "9.4", "a guard's change was not refused with changeInProgress"))
    func entryGuardThatPushes() throws {
        let (runtime, host, _, _, stack, _) = try makeApp()
        let inner = FlowStack(name: "inner", root: FlowController(name: "a"))
        var guardError: (any Error)?
        inner.entryGuard = { [unowned inner] in
            do { try inner.push(FlowController(name: "b")) } catch { guardError = error }
            return .allow
        }
        try stack.push(inner)
        #expect(guardError as? FlowError == .changeInProgress(node: "app/main/stack/inner"))
        #expect(inner.entries.map(\.name) == ["a"])
        #expect(inner.entries.allSatisfy { $0.state == .entered })
        _ = (runtime, host)
    }

    @Test(
        "start() asked for again from the start's own guard is refused, not a crash",
        .bug(id: "9", "start() asked for again from its own guard tripped a precondition"))
    func startFromItsOwnGuard() throws {
        let root = FlowController(name: "root")
        let runtime = try FlowRuntime(root: root)
        var nested: (any Error)?
        root.entryGuard = { [unowned runtime] in
            do { try runtime.start() } catch { nested = error }
            return .allow
        }
        try runtime.start()
        #expect(nested as? FlowError == .changeInProgress(node: "root"))
        #expect(root.state == .entered)
    }

    @Test(
        "A coordinator's didEnter that pushes its first screen gets a real, entered screen",
        .bug(id: "9.4", "a push asked for in didEnter was refused with changeInProgress"))
    func coordinatorStartPattern() throws {
        let journal = Journal()
        final class Coordinator: LoggingNode {
            let stack = FlowStack(name: "stack")
            init(journal: Journal) {
                super.init("flow", journal: journal)
                try! embed(stack)
            }
            override func didEnter() {
                super.didEnter()
                do {
                    try stack.push(LoggingNode("welcome", journal: journal))
                } catch {
                    Issue.record("push from didEnter threw \(error)")
                }
            }
        }
        let (runtime, _, app, _, _, _) = try makeApp()
        var received: [String] = []
        let flow = Coordinator(journal: journal)
        flow.on(Ping.self) { _, origin in
            received.append(origin.path)
            return .handled
        }
        try app.switch(to: flow)
        let welcome = try #require(flow.stack.top)
        #expect(welcome.name == "welcome")
        #expect(welcome.state == .entered && welcome.runtime === runtime && welcome.isActive)
        #expect(runtime.focusedNode === welcome)
        welcome.send(Ping())
        #expect(received == ["app/flow/stack/welcome"])
        try flow.stack.setStack([FlowController(name: "replacement")])
        #expect(
            journal.entries.filter { $0.hasSuffix("welcome") } == [
                "enter welcome", "active welcome", "exit welcome",
            ])
    }

    @Test(
        "A pop asked for in a hook exits the entries properly and cancels their tasks",
        .bug(
            id: "9.4",
            "a pop asked for in a hook did not exit its entries properly or cancel their tasks"))
    func popFromHook() async throws {
        let (runtime, _, _, _, stack, list) = try makeApp()
        let worker = FlowController(name: "worker")
        var cancelled = false
        worker.task {
            while !Task.isCancelled { await Task.yield() }
            cancelled = true
        }
        try stack.push(worker)
        final class Closer: FlowController {
            override func didEnter() {
                let stack = parent as! FlowStack
                _ = try? stack.pop(to: stack.entries[0])
            }
        }
        try stack.push(Closer(name: "closer"))
        #expect(stack.entries.count == 1 && stack.entries[0] === list)
        #expect(worker.state == .exited)
        for _ in 0..<1000 where !cancelled { await Task.yield() }
        #expect(cancelled)
        _ = runtime
    }

    @Test(
        "A hook's change runs in order with events queued before and after it",
        .bug(id: "9.4", "a hook's change did not run in order with the events queued around it"))
    func hookChangesKeepQueueOrder() throws {
        let (runtime, _, _, main, stack, _) = try makeApp()
        main.on(Ping.self) { _ in .handled }
        main.on(Pong.self) { _ in .handled }
        final class Chatty: FlowController {
            override func didEnter() {
                send(Ping())
                try? (parent as? FlowStack)?.push(FlowController(name: "next"))
                send(Pong())
            }
        }
        runtime.trace.removeAll()
        try stack.push(Chatty(name: "chatty"))
        let lines = runtime.trace.lines.filter {
            !$0.hasPrefix("activate") && !$0.hasPrefix("deactivate")
        }
        #expect(
            lines == [
                "enter app/main/stack/chatty",
                "change push app/main/stack +app/main/stack/chatty",
                "send Ping from app/main/stack/chatty",
                "handled Ping at app/main",
                "enter app/main/stack/next",
                "change push app/main/stack +app/main/stack/next",
                "send Pong from app/main/stack/chatty",
                "handled Pong at app/main",
            ])
    }

    @Test(
        "A hook's change that fails when its turn comes goes to onError and the trace",
        .bug(
            id: "9.4",
            "a hook's change that failed at its turn was lost instead of reaching onError"))
    func failedHookChangeReachesErrorSink() throws {
        let (runtime, _, _, _, stack, _) = try makeApp()
        var failures: [String] = []
        runtime.onError = { failures.append($0.description) }
        final class Refusing: FlowController {
            override func didEnter() {
                let blocked = FlowController(name: "blocked")
                blocked.entryGuard = { .refuse("not today") }
                try? (parent as? FlowStack)?.push(blocked)
            }
        }
        try stack.push(Refusing(name: "refusing"))
        #expect(
            failures == [
                "push at app/main/stack failed: 'app/main/stack/blocked' refused to enter: "
                    + "not today"
            ])
        #expect(
            runtime.trace.lines.contains(
                "failed push at app/main/stack: 'app/main/stack/blocked' refused to enter: "
                    + "not today"))
        #expect(stack.entries.map(\.name) == ["list", "refusing"])
    }

    @Test(
        "A stack that pushes onto itself in its own willExit: queued, reported, no crash",
        .bug(id: "9", "a stack pushing onto itself in its own willExit tripped _checkInvariants()"))
    func pushFromOwnWillExit() throws {
        final class Leaving: FlowStack {
            override func willExit() { try? push(FlowController(name: "x")) }
        }
        let outer = FlowStack(name: "outer", root: FlowController(name: "a"))
        let runtime = try FlowRuntime(root: outer)
        var failures: [String] = []
        runtime.onError = { failures.append($0.description) }
        try runtime.start()
        try outer.push(Leaving(name: "inner", root: FlowController(name: "b")))
        try outer.pop()
        #expect(
            failures == [
                "push at outer/inner failed: 'outer/inner' was exited; it cannot "
                    + "take new children or change"
            ])
        #expect(outer.entries.map(\.name) == ["a"])
    }

    @Test(
        "A change asked for from willExit during stop() reaches onError, not the void",
        .bug(id: "9", "a change asked for from willExit during stop() vanished"))
    func changeFromWillExitDuringStop() throws {
        final class Root: FlowStack {
            override func willExit() { _ = try? popToRoot() }
        }
        let root = Root(name: "root", root: FlowController(name: "a"))
        let runtime = try FlowRuntime(root: root)
        var failures: [String] = []
        runtime.onError = { failures.append($0.description) }
        try runtime.start()
        try root.push(FlowController(name: "b"))
        try runtime.stop()
        #expect(failures.count == 1)
        #expect(failures.first?.hasPrefix("popTo at root failed: 'root' was exited") == true)
        #expect(runtime.trace.lines.last?.hasPrefix("failed popTo at root") == true)
    }
}
