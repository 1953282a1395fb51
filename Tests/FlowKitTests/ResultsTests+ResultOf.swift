import Testing

@testable import FlowKit

@MainActor
@Suite("Results: result(of:) awaits a flow that is already shown")
struct ResultOfTests {
    @Test("A presented flow shown without run: result(of:) returns its result and dismisses it")
    func presentedFlow() async throws {
        let (runtime, _, _, _, _, list) = try makeApp()
        let bag = WeakBag()
        do {
            let picker = Picker()
            bag.track(picker, "picker")
            try list.present(picker)
        }
        let picker = try #require(list.presentedChild as? Picker)
        let task = Task { try await list.result(of: picker) }
        await waitUntil { picker._extras?.resultWaiter != nil }
        picker.finish(with: 5)
        #expect(try await task.value == 5)
        #expect(list.presentedChild == nil)
        #expect(
            runtime.trace.lines.contains(
                "finished app/main/stack/list/picker: result to run at app/main/stack/list"))
        _ = consume picker
        #expect(bag.alive.isEmpty)
    }

    @Test("A stack entry is popped when it finishes; the bottom entry stays")
    func stackEntry() async throws {
        let (runtime, _, _, main, stack, _) = try makeApp()
        let picker = Picker()
        try stack.push(picker)
        let task = Task { try await main.result(of: picker) }
        await waitUntil { picker._extras?.resultWaiter != nil }
        picker.finish(with: 9)
        #expect(try await task.value == 9)
        #expect(stack.entries.map(\.name) == ["list"])
        #expect(picker.state == .exited)

        let bottom = FlowStack(name: "solo", root: Picker("only"))
        try main.embed(bottom)
        let only = try #require(bottom.top as? Picker)
        let second = Task { try await main.result(of: only) }
        await waitUntil { only._extras?.resultWaiter != nil }
        only.finish(with: 1)
        #expect(try await second.value == 1)
        #expect(only.state == .entered)  // the bottom entry is never popped
        #expect(runtime.isRunning)
    }

    @Test("A flow that leaves without finishing ends the wait with flowCancelled")
    func leavesWithoutFinishing() async throws {
        let (runtime, _, _, _, _, list) = try makeApp()
        let picker = Picker()
        try list.present(picker)
        let task = Task { try await list.result(of: picker) }
        await waitUntil { picker._extras?.resultWaiter != nil }
        try list.platformDidDismiss()
        let error = await failure(of: task)
        #expect(error as? FlowError == .flowCancelled(flow: "app/main/stack/list/picker"))
        #expect(runtime.isRunning)
    }

    @Test("A flow awaited twice, or not in the tree, is a typed error")
    func badRequests() async throws {
        let (runtime, _, _, _, _, list) = try makeApp()
        let picker = Picker()
        await #expect(throws: FlowError.notInTree(node: "picker")) {
            try await list.result(of: picker)
        }
        try list.present(picker)
        let first = Task { try await list.result(of: picker) }
        await waitUntil { picker._extras?.resultWaiter != nil }
        await #expect(throws: FlowError.resultAlreadyAwaited(flow: "app/main/stack/list/picker")) {
            try await list.result(of: picker)
        }
        first.cancel()
        #expect(await failure(of: first) is CancellationError)
        await waitUntil { list.presentedChild == nil }
        #expect(list.presentedChild == nil)  // cancelling the wait dismissed it
        #expect(runtime.isRunning)
    }
}
