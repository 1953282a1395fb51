import Testing

@testable import FlowKit

/// The `+Invariants.swift` checks: silent on every healthy state, and each names what broke
/// when a state is broken on purpose (then put back before any change runs, since debug
/// builds check them after every change and would trap).
@MainActor
@Suite("Invariants: tab containers, splits, the runtime's activation state")
struct InvariantsTests {
    @Test("A tab container reports a selection out of range and a foreign tab")
    func tabs() throws {
        let tabs = FlowTabs(
            name: "tabs", tabs: [FlowController(name: "a"), FlowStack(name: "b")], selected: 1)
        let runtime = try FlowRuntime(root: tabs)
        try runtime.start()
        #expect(tabs._invariantViolations().isEmpty)
        #expect(runtime._invariantViolations().isEmpty)

        tabs._selection = 2
        #expect(
            tabs._invariantViolations() == [
                "FlowTabs 'tabs': the selection 2 is not the index of one of its 2 tabs"
            ])
        tabs._selection = 1
        let stranger = FlowController(name: "stranger")
        tabs._children.append(stranger)
        #expect(
            tabs._invariantViolations() == [
                "FlowTabs 'tabs': the tab 'stranger' has a foreign parent",
                "FlowTabs 'tabs': the tab 'stranger' is created, the container entered",
            ])
        tabs._children.removeLast()
        #expect(tabs._invariantViolations().isEmpty)
    }

    #if DEBUG
    @Test("A broken invariant traps in a debug build, at the end of the next mutating path")
    func brokenInvariantTraps() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                let tabs = FlowTabs(
                    name: "tabs", tabs: [FlowController(name: "a"), FlowController(name: "b")])
                tabs._children.append(FlowController(name: "stranger"))
                try? tabs.select(at: 1)  // a change: the checks run after it
            }
        }
    }
    #endif

    @Test("A split reports a focus out of range and a column active while collapsed")
    func split() throws {
        let sidebar = FlowStack(name: "sidebar", root: FlowController(name: "list"))
        let detail = FlowStack(name: "detail", root: FlowController(name: "item"))
        let split = FlowSplit(name: "split", sidebar: sidebar, detail: detail)
        let runtime = try FlowRuntime(root: split)
        try runtime.start()
        try split.platformDidCollapse()
        #expect(split._invariantViolations().isEmpty)
        #expect(runtime._invariantViolations().isEmpty)

        split._focus = 5
        sidebar.isActive = true
        #expect(
            split._invariantViolations() == [
                "FlowSplit 'split': the focus index 5 is not one of its 2 columns'",
                "FlowSplit 'split': its sidebar column is active while collapsed and active",
            ])
        split._focus = 0
        sidebar.isActive = false
        #expect(split._invariantViolations().isEmpty)
    }

    @Test("The runtime reports a node flagged active off the active nodes, and one on them not")
    func runtime() throws {
        let list = FlowController(name: "list")
        let stack = FlowStack(name: "stack", root: list)
        let runtime = try FlowRuntime(root: stack)
        try runtime.start()
        try stack.push(FlowController(name: "detail"))
        #expect(runtime._invariantViolations().isEmpty)

        list.isActive = true
        #expect(
            runtime._invariantViolations() == [
                "FlowRuntime: 'stack/list' is flagged active, not among the active nodes",
                "FlowRuntime: 2 active, 3 flagged active in the tree",
            ])
        list.isActive = false
        runtime._focusedPath.removeLast()
        #expect(
            runtime._invariantViolations() == [
                "FlowRuntime: the focused path ends at 'stack', which focuses 'detail'",
                "FlowRuntime: 'stack/detail' is flagged active, not among the active nodes",
                "FlowRuntime: 1 active, 2 flagged active in the tree",
            ])
        runtime._focusedPath.append(stack.entries[1])
        #expect(runtime._invariantViolations().isEmpty)
        try runtime.stop()
        #expect(runtime._invariantViolations().isEmpty)
    }
}
