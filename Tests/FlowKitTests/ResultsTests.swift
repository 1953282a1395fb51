import Testing

@testable import FlowKit

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
        runtime.onError = { failures.append("\($0.kind) at \($0.node): \($0.error)") }
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

    // The time limits guard against a hang, never time anything: these tests await the main
    // actor, which every @MainActor suite of the parallel run shares, so on a loaded 2-core
    // machine a test that takes 1 s alone can wait a minute for it.
    @Test(
        "Cancelling the awaiting task removes the child; 1,000 times, each run resumes once",
        .timeLimit(.minutes(5)), arguments: [FlowPlacement.push, .present, .embed, .switch])
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
        .timeLimit(.minutes(5)))
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
        .timeLimit(.minutes(5)))
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
}
