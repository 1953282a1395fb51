import Testing

@testable import FlowKit

/// A flow that finishes with an `Int`; it embeds a `page` so that it has a subtree.
@MainActor
final class Picker: FlowController, ResultFlow {
    typealias Result = Int
    var onEnter: (@MainActor (Picker) -> Void)?

    init(_ name: String = "picker", onEnter: (@MainActor (Picker) -> Void)? = nil) {
        self.onEnter = onEnter
        super.init(name: name)
        try! embed(FlowController(name: "page"))
    }

    override func didEnter() { onEnter?(self) }
}

/// Yields to the main actor until `condition` holds (at most 1,000 times).
@MainActor
func waitUntil(_ condition: () -> Bool) async {
    var turns = 0
    while !condition() && turns < 1_000 {
        await Task.yield()
        turns += 1
    }
}

/// The error a task ended with, or `nil` if it returned.
func failure<Success>(of task: Task<Success, any Error>) async -> (any Error)? {
    switch await task.result {
    case .success: return nil
    case .failure(let error): return error
    }
}

@MainActor
@Suite(
    "Results: run(_:_:) awaits a child flow; throwing handlers; refused changes release")
struct ResultsTests {
    // MARK: Awaiting a result

    @Test(
        "run returns the result for each placement; presented and pushed children are removed",
        arguments: [FlowPlacement.push, .present, .embed, .switch])
    func runReturnsTheResult(placement: FlowPlacement) async throws {
        let (runtime, _, app, main, _, list) = try makeApp()
        let from: FlowController = placement == .embed ? main : list
        let expectedPath = [
            FlowPlacement.push: "app/main/stack/picker", .present: "app/main/stack/list/picker",
            .embed: "app/main/picker", .switch: "app/picker",
        ][placement]!
        let bag = WeakBag()
        let task = Task { try await from.run(Picker(), placement) }
        await waitUntil { runtime.focusedNode?.name == "page" }
        do {
            let picker = try #require(runtime.focusedNode?.parent as? Picker)
            bag.track(picker, "picker")
            #expect(picker.path == expectedPath)
            picker.finish(with: 7)
        }
        #expect(try await task.value == 7)
        #expect(
            runtime.trace.lines.contains(
                "finished \(expectedPath): result to run at \(from.path)"))
        #expect(!runtime.trace.lines.contains { $0.hasPrefix("send FlowFinished") })
        switch placement {
        case .push, .present:
            #expect(runtime.focusedNode === list)
            #expect(bag.alive == [])
        case .embed:
            #expect(main.children.count == 1 && main.children.first?.path == expectedPath)
            #expect(main.children.first?.state == .entered)
        case .switch:
            #expect(app.current?.path == expectedPath && app.current?.state == .entered)
        }
    }

    @Test("A later finish of a flow that stays sends FlowFinished; a finish of another type too")
    func laterFinishesSendEvents() async throws {
        let (runtime, _, _, main, _, _) = try makeApp()
        var events: [String] = []
        main.on(FlowFinished<Int>.self) { done in
            events.append("Int \(done.result)")
            return .handled
        }
        main.on(FlowFinished<String>.self) { done in
            events.append("String \(done.result)")
            return .handled
        }
        let task = Task { try await main.run(Picker(), .embed) }
        await waitUntil { main.children.first is Picker }
        let picker = try #require(main.children.first as? Picker)
        picker.finish(with: "not an Int")  // the generic finish: not the awaited type
        #expect(events == ["String not an Int"])
        picker.finish(with: 1)
        picker.finish(with: 2)
        #expect(try await task.value == 1)
        #expect(events == ["String not an Int", "Int 2"])
        _ = runtime
    }

    @Test("run throws noContainer, notInTree, and a guard's refusal; nothing changes")
    func runRefusals() async throws {
        let (runtime, host, app, main, stack, list) = try makeApp()
        await #expect(throws: FlowError.noContainer(placement: "push", node: "app/main")) {
            try await main.run(Picker(), .push)
        }
        let loose = FlowController(name: "loose")
        await #expect(throws: FlowError.notInTree(node: "loose")) {
            try await loose.run(Picker(), .present)
        }
        let before = observe(runtime, host)
        weak var weakPicker: Picker?
        await #expect(throws: FlowError.entryRefused(node: "app/main/stack/picker", reason: "no")) {
            let picker = Picker()
            weakPicker = picker
            picker.entryGuard = { .refuse("no") }
            _ = try await list.run(picker, .push)
        }
        #expect(observe(runtime, host) == before)
        #expect(weakPicker == nil)
        _ = (app, stack)
    }

    @Test("If a guard refuses the removal after finishing, run still returns; onError has it")
    func refusedRemovalAfterFinish() async throws {
        let (runtime, _, _, _, _, list) = try makeApp()
        var failures: [String] = []
        runtime.onError = { failures.append($0.description) }
        let task = Task { try await list.run(Picker(), .present) }
        await waitUntil { list.presentedChild != nil }
        let picker = try #require(list.presentedChild as? Picker)
        picker.exitGuard = { .refuse("busy") }
        picker.finish(with: 3)
        #expect(try await task.value == 3)
        #expect(
            failures == [
                "dismiss at app/main/stack/list failed: 'app/main/stack/list/picker' refused to exit: busy"
            ])
        #expect(list.presentedChild === picker)
    }

    @Test(
        "run(.switch) or run(.embed) awaited by a task of the branch it would replace is refused",
        .bug(
            id: "21.also",
            "run(.switch) from the current child cancelled itself and emptied the switch"))
    func runThatWouldReplaceItsCaller() async throws {
        let (runtime, _, app, main, stack, list) = try makeApp()
        var failures: [String] = []
        runtime.onError = { failures.append("\($0.operation) at \($0.node): \($0.error)") }
        list.task { _ = try await list.run(Picker(), .switch) }
        list.task { _ = try await main.run(Picker(), .embed) }
        await waitUntil { failures.count == 2 }
        let switched = FlowError.runWouldReplaceCaller(
            node: "app/main/stack/list", container: "app")
        let embedded = FlowError.runWouldReplaceCaller(
            node: "app/main/stack/list", container: "app/main")
        #expect(
            failures == [
                "task at app/main/stack/list: \(switched)",
                "task at app/main/stack/list: \(embedded)",
            ])
        #expect(app.current === main && main.children.first === stack && list.state == .entered)
        // Awaited by a task of the switch itself, the same run replaces the branch.
        app.task { _ = try await app.run(Picker("second"), .switch) }
        await waitUntil { app.current?.name == "second" }
        #expect(main.state == .exited)
        #expect(failures.count == 2)
    }

    // MARK: Leaving without finishing

    enum ExitPath: String, CaseIterable, Sendable {
        case platformDismiss, platformPop, parentPopped, ancestorSwitched, runtimeStopped
        case navigationReplaced
    }

    @Test(
        "Every way of leaving without finishing ends the run inside that change; all is freed",
        arguments: ExitPath.allCases)
    func leavingCancelsTheRun(path: ExitPath) async throws {
        let (runtime, _, app, main, stack, list) = try makeApp()
        let detail = FlowController(name: "detail")
        try stack.push(detail)
        main.register("other") { FlowController(name: "other", route: "other") }
        let placement: FlowPlacement =
            path == .platformPop ? .push : path == .navigationReplaced ? .embed : .present
        let from: FlowController = path == .navigationReplaced ? main : detail
        let bag = WeakBag()
        let task = Task { try await from.run(Picker(), placement) }
        await waitUntil { runtime.focusedNode?.name == "page" }
        let pickerPath: String
        do {
            let picker = try #require(runtime.focusedNode?.parent as? Picker)
            pickerPath = picker.path
            bag.track(picker, "picker")
            bag.track(picker.children[0], "page")
        }
        let resumed = runtime._runStatistics.resumptions
        var resumedInsideTheChange: Bool?
        // The change is reported to the trace after its exits: the run ended before that.
        let observation = runtime.trace.addObserver { record in
            if case .change = record, resumedInsideTheChange == nil {
                resumedInsideTheChange = runtime._runStatistics.resumptions == resumed + 1
            }
        }
        switch path {
        case .platformDismiss: try detail.platformDidDismiss()
        case .platformPop: try stack.platformDidPop()
        case .parentPopped: try stack.pop()
        case .ancestorSwitched: try app.switch(to: FlowController(name: "elsewhere"))
        case .runtimeStopped: try runtime.stop()
        case .navigationReplaced: try main.navigate(to: ["other"])
        }
        runtime.trace.removeObserver(observation)
        #expect(resumedInsideTheChange == true)
        #expect(runtime._runStatistics.resumptions == resumed + 1)
        #expect(
            runtime.trace.lines.contains(
                "cancelled \(pickerPath) (it left without finishing): run at \(from.path) throws"))
        let error = await failure(of: task)
        #expect(error as? FlowError == .flowCancelled(flow: pickerPath))
        _ = list
        #expect(bag.alive == [])
    }

    // MARK: Cancelling the awaiting task

    @Test(
        "Cancelling the awaiting task removes the child; 1,000 times, each run resumes once",
        .timeLimit(.minutes(1)), arguments: [FlowPlacement.push, .present, .embed, .switch])
    func cancellingTheTaskRemovesTheChild(placement: FlowPlacement) async throws {
        let (runtime, _, app, main, stack, list) = try makeApp()
        let from: FlowController = placement == .embed ? main : placement == .switch ? app : list
        let resumed = runtime._runStatistics.resumptions
        let decided = runtime._runStatistics.decisions
        let bag = WeakBag()
        var cancellations = 0
        for _ in 0..<1_000 {
            let task = Task { try await from.run(Picker(), placement) }
            await waitUntil { runtime.focusedNode?.name == "page" }
            weak let picker = try #require(runtime.focusedNode?.parent as? Picker)
            if let picker { bag.track(picker, "picker") }
            task.cancel()
            if await failure(of: task) is CancellationError { cancellations += 1 }
            #expect(picker == nil)
            #expect(from.state == .entered && runtime.focusedNode?.name != "page")
        }
        #expect(cancellations == 1_000)
        #expect(runtime._runStatistics.resumptions - resumed == 1_000)
        #expect(runtime._runStatistics.decisions - decided == 1_000)
        #expect(bag.alive == [])
        _ = stack
    }

    @Test(
        "Cancellation before the run starts, or while the child is being shown: once each",
        .timeLimit(.minutes(1)))
    func earlyCancellation() async throws {
        let (runtime, _, _, _, _, list) = try makeApp()
        let resumed = runtime._runStatistics.resumptions
        let bag = WeakBag()
        for _ in 0..<1_000 {
            // Cancelled before it runs: nothing is shown, no continuation is made.
            let early = Task { try await list.run(Picker(), .present) }
            early.cancel()
            #expect(await failure(of: early) is CancellationError)
            #expect(list.presentedChild == nil)

            // Cancelled from the child's didEnter, before the continuation is installed.
            var current: Task<Int, any Error>?
            let picker = Picker(onEnter: { _ in current?.cancel() })
            bag.track(picker, "picker")
            current = Task { [picker] in try await list.run(picker, .present) }
            #expect(await failure(of: current!) is CancellationError)
            await waitUntil { list.presentedChild == nil }
            #expect(list.presentedChild == nil)
        }
        #expect(runtime._runStatistics.resumptions - resumed == 1_000)
        #expect(bag.alive == [])
        _ = runtime
    }

    @Test(
        "Finishing, then cancelling: the result wins and the run resumes once",
        .timeLimit(.minutes(1)))
    func finishThenCancel() async throws {
        let (runtime, _, _, _, _, list) = try makeApp()
        let resumed = runtime._runStatistics.resumptions
        var results = 0
        for index in 0..<1_000 {
            let task = Task { try await list.run(Picker(), .present) }
            await waitUntil { list.presentedChild != nil }
            let picker = try #require(list.presentedChild as? Picker)
            picker.finish(with: index)
            task.cancel()
            if try await task.value == index { results += 1 }
            #expect(list.presentedChild == nil)
        }
        #expect(results == 1_000)
        #expect(runtime._runStatistics.resumptions - resumed == 1_000)
        _ = runtime
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

    // MARK: Throwing handlers

    struct Refusal: Error, CustomStringConvertible {
        var description: String { "refused by the handler" }
    }

    @Test("A throwing handler stops the event; the error is in onError and the trace once")
    func throwingHandler() throws {
        let (runtime, _, app, main, stack, list) = try makeApp()
        var failures: [FlowFailure] = []
        runtime.onError = { failures.append($0) }
        var appSaw = 0
        app.on(Ping.self) { _ in
            appSaw += 1
            return .handled
        }
        stack.on(Ping.self) { _ in .forward }
        main.on(Ping.self) { _ in throw Refusal() }
        list.send(Ping())
        #expect(appSaw == 0)
        #expect(
            failures.map(\.description) == [
                "handler Ping at app/main failed: refused by the handler"
            ])
        #expect(failures.first?.operation == "handler Ping" && failures.first?.node == "app/main")
        #expect(
            runtime.trace.lines.suffix(2) == [
                "send Ping from app/main/stack/list",
                "failed handler Ping at app/main: refused by the handler",
            ])
        // A guard's refusal thrown from a handler is no longer lost.
        let editor = FlowController(name: "editor")
        editor.entryGuard = { .refuse("read-only") }
        main.on(Ping.self) { _ in
            try stack.push(editor)
            return .handled
        }
        list.send(Ping())
        #expect(failures.count == 2)
        #expect(
            failures.last?.error as? FlowError
                == .entryRefused(node: "app/main/stack/editor", reason: "read-only"))
        #expect(runtime.trace.lines.filter { $0.hasPrefix("failed") }.count == 2)
    }

    @Test("respond(to:) passes the node, so a node that never enters is not kept alive")
    func respondPassesTheNode() throws {
        let (runtime, _, _, _, stack, _) = try makeApp()
        weak var weakEditor: FlowController?
        var saved: [String] = []
        do {
            let editor = FlowController(name: "editor")
            weakEditor = editor
            editor.respond(to: Ping.self) { editor, _ in
                saved.append(editor.path)
                return .handled
            }
            editor.entryGuard = { .refuse("never") }
            #expect(throws: FlowError.self) { try stack.push(editor) }
        }
        #expect(weakEditor == nil)
        let screen = FlowController(name: "screen")
        screen.respond(to: Ping.self) { screen, _ in
            saved.append(screen.path)
            return .handled
        }
        try stack.push(screen)
        screen.send(Ping())
        #expect(saved == ["app/main/stack/screen"])
        _ = runtime
    }

    // MARK: Refused changes release what factories built

    @Test("A refused navigate releases factory-built nodes with self-capturing handlers")
    func refusedNavigateReleasesBuiltNodes() throws {
        let (runtime, host, _, _, stack, _) = try makeApp()
        let bag = WeakBag()
        stack.register("detail") {
            let detail = FlowController(name: "detail", route: "detail")
            detail.on(Ping.self) { _ in
                _ = detail  // captures itself
                return .handled
            }
            let inner = FlowStack(name: "inner", root: FlowController(name: "first"))
            inner.on(Ping.self) { _ in
                _ = inner
                return .handled
            }
            try! detail.embed(inner)
            detail.task { _ = detail }
            detail.entryGuard = { [detail] in
                _ = detail; return .refuse("not now")
            }
            bag.track(detail, "detail")
            bag.track(inner, "inner")
            return detail
        }
        let before = observe(runtime, host)
        #expect(throws: FlowError.entryRefused(node: "app/main/stack/detail", reason: "not now")) {
            try stack.navigate(to: ["detail"])
        }
        #expect(observe(runtime, host) == before)
        #expect(!runtime.trace.lines.contains { $0.hasPrefix("enter") && $0.contains("detail") })
        #expect(bag.alive == [])
    }

    @Test("Defaults built below an app-made node for a refused push are released; the node stays")
    func refusedPushReleasesDefaults() throws {
        let (runtime, _, _, _, stack, _) = try makeApp()
        let bag = WeakBag()
        let flow = FlowController(name: "flow")
        flow.register("start") {
            let start = FlowController(name: "start", route: "start")
            start.on(Ping.self) { _ in
                _ = start
                return .handled
            }
            start.entryGuard = { .refuse("closed") }
            bag.track(start, "start")
            return start
        }
        flow.initialRoute = "start"
        #expect(throws: FlowError.entryRefused(node: "app/main/stack/flow/start", reason: "closed"))
        {
            try stack.push(flow)
        }
        #expect(bag.alive == [])
        #expect(flow.state == .created && flow.children.isEmpty)
        flow.register("start") { FlowController(name: "start", route: "start") }
        try stack.push(flow)  // the app's node can still be used
        #expect(flow.children.map(\.path) == ["app/main/stack/flow/start"])
        _ = runtime
    }
}
