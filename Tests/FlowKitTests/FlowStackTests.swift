import FlowKit
import Testing

@MainActor
@Suite("Stacks")
struct FlowStackTests {
    @Test(
        "setStack that only reorders kept entries reorders them and reports it",
        .bug(
            id: "9.5", "setStack that only reordered kept entries did not reorder them or report it"
        ))
    func reorderingSetStack() throws {
        let (runtime, host, _, _, stack, list) = try makeApp()
        let other = FlowController(name: "other")
        try stack.push(other)
        runtime.trace.removeAll()
        try stack.setStack([other, list])
        #expect(stack.entries.map(\.name) == ["other", "list"])
        #expect(host.changes.last?.description == "setStack app/main/stack")
        #expect(
            runtime.trace.lines == [
                "change setStack app/main/stack",
                "deactivate app/main/stack/other",
                "activate app/main/stack/list",
            ])
        #expect(list.isActive && !other.isActive && other.state == .entered)
    }

    @Test(
        "Every operation on an exited container throws containerExited",
        .bug(
            id: "9.11",
            "operations on an exited container were accepted instead of throwing containerExited"))
    func operationsOnExitedContainers() throws {
        let (runtime, _, _, _, stack, _) = try makeApp()
        let inner = FlowStack(name: "inner", root: FlowController(name: "a"))
        let second = FlowController(name: "b")
        try inner.push(second)
        try inner.present(FlowController(name: "modal"))
        let innerSwitch = FlowSwitch(name: "switch", initial: FlowController(name: "c"))
        innerSwitch.register("d") { FlowController(name: "d", route: "d") }
        try stack.push(inner)
        try stack.push(innerSwitch)
        try stack.pop(to: stack.entries[0])
        let exited = FlowError.containerExited(container: "app/main/stack/inner")
        #expect(throws: exited) { try inner.pop() }
        #expect(throws: exited) { try inner.popToRoot() }
        #expect(throws: exited) { try inner.pop(to: second) }
        #expect(throws: exited) { try inner.platformDidPop() }
        #expect(throws: exited) { try inner.platformDidPop(to: second) }
        #expect(throws: exited) { try inner.setStack([]) }
        #expect(throws: exited) { try inner.push(FlowController(name: "x")) }
        #expect(throws: exited) { try inner.dismiss() }
        #expect(throws: exited) { try inner.platformDidDismiss() }
        #expect(throws: exited) { try inner.present(FlowController(name: "x")) }
        #expect(throws: exited) { try inner.embed(FlowController(name: "x")) }
        #expect(throws: exited) { try inner.navigate(to: ["x"]) }
        let switchExited = FlowError.containerExited(container: "app/main/stack/switch")
        #expect(throws: switchExited) { try innerSwitch.switch(to: "d") }
        #expect(throws: switchExited) { try innerSwitch.switch(to: FlowController(name: "e")) }
        _ = runtime
    }
}
