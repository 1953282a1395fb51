import FlowKit
import Testing

/// Tab containers. The tests marked with a bug are FlowKit bugs the model-based random test
/// found in tab containers, each shrunk to a few lines, now fixed (the random test expects
/// the fixed behaviour too).
@Suite("Tabs")
@MainActor
struct TabsTests {
    @Test("Every tab enters at start; only the selected one is on the focused path")
    func allTabsEnter() throws {
        let app = try TabbedApp(selected: 1)
        #expect(app.tabs.tabs.allSatisfy { $0.state == .entered })
        #expect(app.catalog.entries[0].state == .entered)
        #expect(app.focus == ["app", "app/favourites", "app/favourites/saved"])
        #expect(app.tabs.selectedTab === app.favourites)
        #expect(app.tabs.selectedIndex == 1)
    }

    @Test("Switching tabs exits nothing, keeps each stack, and fires activation hooks once")
    func switchingKeepsStacks() throws {
        let app = try TabbedApp()
        let detail = LoggingNode("detail", journal: app.journal)
        try app.catalog.push(detail)
        app.journal.entries.removeAll()
        app.host.removeAll()
        app.runtime.trace.removeAll()

        try app.tabs.select(app.favourites)
        #expect(app.journal.entries == ["inactive detail", "active saved"])
        #expect(app.host.changes.map(\.description) == ["select app"])
        #expect(app.catalog.entries.map(\.name) == ["list", "detail"])
        #expect(detail.state == .entered && !detail.isActive)
        #expect(app.focus == ["app", "app/favourites", "app/favourites/saved"])

        app.journal.entries.removeAll()
        try app.tabs.select(at: 0)
        #expect(app.journal.entries == ["inactive saved", "active detail"])
        #expect(app.focus == ["app", "app/catalog", "app/catalog/detail"])
        let exits = app.runtime.trace.lines.filter { $0.hasPrefix("exit") || $0.hasPrefix("enter") }
        #expect(exits.isEmpty)
    }

    @Test("Selecting the selected tab does nothing unless reselection pops to root")
    func reselection() throws {
        let app = try TabbedApp()
        let bag = WeakBag()
        do {
            let detail = FlowController(name: "detail")
            let more = FlowController(name: "more")
            bag.track(detail, "detail")
            bag.track(more, "more")
            try app.catalog.push(detail)
            try app.catalog.push(more)
        }
        app.host.removeAll()
        try app.tabs.select(app.catalog)
        #expect(app.catalog.entries.count == 3)
        #expect(app.host.changes.isEmpty)

        app.tabs.reselectionPopsToRoot = true
        try app.tabs.select(app.catalog)
        #expect(app.catalog.entries.map(\.name) == ["list"])
        #expect(
            app.host.changes.map(\.description)
                == ["select app -app/catalog/more -app/catalog/detail"])
        #expect(bag.alive.isEmpty)
    }

    @Test("A reselection pop consults guards when FlowKit asks, not when the platform did it")
    func reselectionGuards() throws {
        let app = try TabbedApp()
        let editor = FlowController(name: "editor")
        editor.exitGuard = { .refuse("unsaved") }
        try app.catalog.push(editor)
        app.tabs.reselectionPopsToRoot = true
        #expect(throws: FlowError.exitRefused(node: "app/catalog/editor", reason: "unsaved")) {
            try app.tabs.select(app.catalog)
        }
        #expect(app.catalog.entries.count == 2)
        app.host.removeAll()
        try app.tabs.platformDidSelect(app.catalog)
        #expect(app.catalog.entries.count == 1)
        #expect(editor.state == .exited)
        #expect(app.host.changes.isEmpty)
    }

    @Test("A stack in a tab that is not selected can be popped and tears its entries down")
    func popInUnselectedTab() throws {
        let app = try TabbedApp()
        let bag = WeakBag()
        do {
            let saved2 = LoggingNode("saved2", journal: app.journal)
            bag.track(saved2, "saved2")
            try app.favourites.push(saved2)
            try app.tabs.select(app.catalog)
            app.journal.entries.removeAll()
            try app.favourites.pop()
            #expect(saved2.state == .exited)
        }
        #expect(app.journal.entries == ["exit saved2"])
        #expect(bag.alive.isEmpty)
        #expect(app.focus == ["app", "app/catalog", "app/catalog/list"])
        try app.favourites.push(FlowController(name: "again"))
        _ = try app.favourites.platformDidPop()
        #expect(app.favourites.entries.map(\.name) == ["saved"])
        #expect(app.focus == ["app", "app/catalog", "app/catalog/list"])
    }

    @Test("The platform's tab tap is the same change, not echoed to the host")
    func platformSelect() throws {
        let app = try TabbedApp()
        try app.tabs.platformDidSelect(app.profile)
        #expect(app.focus == ["app", "app/profile"])
        #expect(app.host.changes.isEmpty)
        #expect(app.runtime.trace.lines.contains("change platformSelect app"))
    }

    @Test("Bad selections throw typed errors and change nothing")
    func badSelections() throws {
        let app = try TabbedApp()
        let stranger = FlowController(name: "stranger")
        #expect(throws: FlowError.notATab(tabs: "app", node: "stranger")) {
            try app.tabs.select(stranger)
        }
        #expect(throws: FlowError.notATab(tabs: "app", node: "tab index 3")) {
            try app.tabs.select(at: 3)
        }
        #expect(app.tabs.selectedIndex == 0)
        #expect(app.host.changes.isEmpty)
    }

    @Test("A navigation path selects a tab by its route and goes on inside it")
    func navigationSelectsTab() throws {
        let app = try TabbedApp()
        try app.runtime.navigate(to: [.child("favourites")])
        #expect(app.focus == ["app", "app/favourites", "app/favourites/saved"])
        #expect(app.catalog.state == .entered)
        try app.runtime.navigate(to: [.child("catalog")])
        #expect(app.tabs.selectedTab === app.catalog)
        #expect(throws: FlowError.unknownRoute(route: "settings", node: "app")) {
            try app.runtime.navigate(to: [.child("settings")])
        }
        #expect(app.tabs.selectedTab === app.catalog)
    }

    @Test("setTabs keeps the tabs that stay, exits the others, and keeps the selection")
    func settingTabs() throws {
        let app = try TabbedApp()
        try app.tabs.select(app.favourites)
        let bag = WeakBag()
        bag.track(app.profile, "profile")
        let search = FlowController(name: "search")
        try app.tabs.setTabs([search, app.favourites, app.catalog])
        #expect(app.tabs.tabs.map(\.name) == ["search", "favourites", "catalog"])
        #expect(app.tabs.selectedTab === app.favourites)
        #expect(search.state == .entered && !search.isActive)
        #expect(app.profile.state == .exited)
        #expect(throws: FlowError.notATab(tabs: "app", node: "tab index 5")) {
            try app.tabs.setTabs([search], selecting: 5)
        }
        #expect(app.tabs.tabs.count == 3)
    }

    @Test("A navigation that only selects a tab is reported in the tab container")
    func selectionOnlyNavigation() throws {
        let app = try TabbedApp()
        try app.runtime.navigate(to: [.child("favourites")])
        #expect(app.host.changes.map(\.description) == ["navigate app"])
        #expect(app.host.changes.first?.containerID == app.tabs.id)
    }

    /// `embedKeepsTabIndex` (seed 132742048867, shrunk to 5 operations):
    ///
    ///     let n5 = FlowSwitch(name: "n5", route: "r2")
    ///     let n7 = FlowController(name: "n7", route: "r2")
    ///     let n8 = FlowTabs(name: "n8", tabs: [n5, n7], selected: 1)
    ///     let n20 = FlowController(name: "n20")
    ///     try n8.embed(n20)   // n8.tabs == [n20], n8.selectedIndex == 1, selectedTab == nil
    ///
    /// `embed(_:)`, which `FlowTabs` inherits, replaces the tabs through the generic path that
    /// never touches `_selectedIndex`; so did a reentering navigation (which removed the tabs;
    /// since 29.12 it throws `tabsAreFixed`).
    /// The index then names no tab: in a running tree the only tab is entered but not on the
    /// focused path and never becomes active.
    @Test(
        "embed on a tab container selects its only tab",
        .bug(id: "12.1", "embed on a tab container kept a selectedIndex that named no tab"))
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

    @Test(
        "A reentering navigation at a tab container keeps its tabs and selectedIndex",
        .bug(
            id: "12.1", "a reentering navigation that removed the tabs kept a stale selectedIndex"),
        .bug(id: "29.12", "a reentering navigation at a tab container removed its tabs"))
    func reenteringNavigationKeepsTheTabs() throws {
        let tabs = FlowTabs(
            name: "tabs", tabs: [FlowController(name: "a"), FlowController(name: "b")],
            selected: 1)
        let runtime = try FlowRuntime(root: tabs)
        try runtime.start()
        #expect(throws: FlowError.tabsAreFixed(container: "tabs")) {
            try tabs.navigate(to: [FlowRoute](), reentering: true)
        }
        #expect(tabs.tabs.map(\.name) == ["a", "b"])
        #expect(tabs.selectedIndex == 1)
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
    @Test(
        "setTabs with the current tabs and selection commits nothing, like setStack",
        .bug(id: "12.2", "setTabs with the current tabs and selection committed an empty change"))
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
    @Test(
        "setTabs keeps the selected tab while the container presents a node",
        .bug(id: "12.3", "setTabs while presenting selected the first tab"))
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
