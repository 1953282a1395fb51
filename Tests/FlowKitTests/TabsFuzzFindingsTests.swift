import Testing

@testable import FlowKit

/// FlowKit bugs the model-based random test found in tab containers, each shrunk to a few
/// lines, now fixed: these are their regression tests (the random test expects the fixed
/// behaviour too).
@Suite("Tabs: random-test findings")
@MainActor
struct TabsFuzzFindingsTests {
    /// `embedKeepsTabIndex` (seed 132742048867, shrunk to 5 operations):
    ///
    ///     let n5 = FlowSwitch(name: "n5", route: "r2")
    ///     let n7 = FlowController(name: "n7", route: "r2")
    ///     let n8 = FlowTabs(name: "n8", tabs: [n5, n7], selected: 1)
    ///     let n20 = FlowController(name: "n20")
    ///     try n8.embed(n20)   // n8.tabs == [n20], n8.selectedIndex == 1, selectedTab == nil
    ///
    /// `embed(_:)`, which `FlowTabs` inherits, replaces the tabs through the generic path that
    /// never touches `_selectedIndex`; so does a reentering navigation (its tabs are removed).
    /// The index then names no tab: in a running tree the only tab is entered but not on the
    /// focused path and never becomes active.
    @Test("embed on a tab container selects its only tab")
    func embedSelectsTheOnlyTab() throws {
        let first = FlowStack(name: "first", root: FlowController(name: "list"))
        let second = FlowController(name: "second")
        let tabs = FlowTabs(name: "tabs", tabs: [first, second], selected: 1)
        let runtime = try FlowRuntime(root: tabs)
        try runtime.start()
        let only = FlowController(name: "only")
        try tabs.embed(only)
        #expect(tabs.tabs.map(\.name) == ["only"])
        #expect(only.state == .entered)
        #expect(tabs.selectedIndex == 0)
        #expect(tabs.selectedTab === only)
        #expect(only.isActive)
        #expect(runtime.focusedPath.map(\.path) == ["tabs", "tabs/only"])
    }

    @Test("A reentering navigation that removes every tab leaves selectedIndex 0")
    func reenteringNavigationResetsTheSelection() throws {
        let tabs = FlowTabs(
            name: "tabs", tabs: [FlowController(name: "a"), FlowController(name: "b")],
            selected: 1)
        let runtime = try FlowRuntime(root: tabs)
        try runtime.start()
        try tabs.navigate(to: [FlowRoute](), reentering: true)
        #expect(tabs.tabs.isEmpty)
        #expect(tabs.selectedIndex == 0)
    }

    /// `noOpSetTabsReported` (seed 180521892709, shrunk to 11 operations; the last two):
    ///
    ///     try n9.setTabs([n7, n8])
    ///     try n2.present(n9)
    ///     try n9.setTabs([n7, n8])   // host and trace: "setStack n1/n2/n9", nothing changed
    ///
    /// `setTabs` plans the selection after laying out the tabs, and `_Transaction.select` keeps a
    /// selection whenever the container has a layout, even for the index it already has: the
    /// change is then never empty. `setStack` with the current entries commits nothing.
    @Test("setTabs with the current tabs and selection commits nothing, like setStack")
    func noOpSetTabsCommitsNothing() throws {
        let host = RecordingFlowHost()
        let stack = FlowStack(name: "stack", root: FlowController(name: "list"))
        let tabs = FlowTabs(name: "tabs", tabs: [stack, FlowController(name: "profile")])
        let runtime = try FlowRuntime(root: tabs, host: host)
        try runtime.start()
        host.removeAll()
        runtime.trace.removeAll()

        try stack.setStack(stack.entries)
        #expect(host.changes.isEmpty)
        try tabs.setTabs(tabs.tabs)
        try tabs.setTabs(tabs.tabs, selecting: 0)
        #expect(host.changes.isEmpty)
        #expect(runtime.trace.lines.isEmpty)
    }

    /// `setTabsWhilePresenting` (seed 106197691177, shrunk to 9 operations):
    ///
    ///     let n8 = FlowTabs(name: "n8", route: "r2")
    ///     try n8.setTabs([n2, n3, n5])     // n2 selected
    ///     let n22 = FlowSwitch(name: "n22", route: "r0")
    ///     try n8.present(n22)
    ///     let n25 = FlowController(name: "n25", route: "r2")
    ///     try n8.setTabs([n3, n2, n25])    // n3 selected: n2 stays but loses the selection
    ///
    /// `setTabs` looks for `focusedChild` among the new tabs to keep the selection; on a tab
    /// container that presents a node that is the presented node, never a tab, so the first
    /// tab is selected. The documentation says the selection stays on the selected tab.
    @Test("setTabs keeps the selected tab while the container presents a node")
    func setTabsKeepsTheSelectionWhilePresenting() throws {
        let a = FlowController(name: "a")
        let b = FlowController(name: "b")
        let tabs = FlowTabs(name: "tabs", tabs: [a, b], selected: 1)
        let runtime = try FlowRuntime(root: tabs)
        try runtime.start()
        try tabs.present(FlowController(name: "sheet"))
        try tabs.setTabs([a, b, FlowController(name: "c")])
        #expect(tabs.selectedTab === b)
        // The same change without a presented node keeps the selection.
        try tabs.dismiss()
        try tabs.select(b)
        try tabs.setTabs([a, b])
        #expect(tabs.selectedTab === b)
    }
}
