import FlowKit
import Testing

/// Split views and parallel regions: every column entered and active at once, one focused;
/// selection replacing the detail; several columns changed in one transaction; collapse and
/// expand as host facts.
@Suite("Splits")
@MainActor
struct SplitTests {
    @Test("Three columns enter and become active at once; activation hooks run once each")
    func columnsActiveAtOnce() throws {
        let app = try SplitApp()
        #expect(
            app.journal.entries == [
                "enter sidebar", "enter sections", "enter content", "enter list",
                "enter detail", "enter item",
                "active sidebar", "active sections", "active content", "active list",
                "active detail", "active item",
            ])
        #expect(app.focus == ["split", "split/sidebar", "split/sidebar/sections"])
        #expect(
            app.active == [
                "split", "split/sidebar", "split/sidebar/sections", "split/content",
                "split/content/list", "split/detail", "split/detail/item",
            ])
        #expect(app.sidebar.isActive && app.content.isActive && app.detail.isActive)
        #expect(app.split.focusedColumn == .sidebar)
        #expect(
            app.runtime.treeDescription() == """
                * split
                  * sidebar
                    * sections
                  + content
                    + list
                  + detail
                    + item
                """)
    }

    @Test("Moving the focus between columns moves only the focus")
    func focusMovesWithoutExits() throws {
        let app = try SplitApp()
        app.reset()
        try app.split.focus(.detail)
        #expect(app.runtime.activationIsConsistent)
        #expect(app.focus == ["split", "split/detail", "split/detail/item"])
        #expect(app.journal.entries.isEmpty)
        #expect(app.host.changes.map(\.description) == ["focus split"])
        #expect(app.active.count == 7)
        #expect(app.split.focusedColumn == .detail)
        #expect(app.split.focusedRegion === app.detail)
        let lines = app.runtime.trace.lines.filter {
            $0.hasPrefix("exit") || $0.hasPrefix("enter") || $0.hasPrefix("deactivate")
                || $0.hasPrefix("activate")
        }
        #expect(lines.isEmpty)

        // The platform's own focus change is the same change, not echoed.
        app.reset()
        try app.split.platformDidFocus(app.content)
        #expect(app.runtime.activationIsConsistent)
        #expect(app.split.focusedColumn == .content)
        #expect(app.host.changes.isEmpty)
        #expect(app.journal.entries.isEmpty)
        // Focusing the focused column changes nothing.
        try app.split.focus(.content)
        #expect(app.runtime.activationIsConsistent)
        #expect(app.host.changes.isEmpty)
    }

    @Test("Events start at the focused column's leaf and bubble up through the split")
    func eventsBubbleThroughTheSplit() throws {
        struct Ping: FlowEvent {}
        let app = try SplitApp(focus: .detail)
        let journal = app.journal
        app.split.on(Ping.self) { [unowned app] _ in
            journal.entries.append("split handled from \(app.runtime.focusedNode?.name ?? "")")
            return .handled
        }
        app.reset()
        app.runtime.send(Ping())
        app.content.entries[0].send(Ping())
        #expect(journal.entries == ["split handled from item", "split handled from item"])
    }

    @Test("A push in a column beside the focus resigns its old top; focus stays")
    func pushBesideTheFocus() throws {
        let app = try SplitApp()
        app.reset()
        try app.detail.push(LoggingNode("more", journal: app.journal))
        #expect(app.runtime.activationIsConsistent)
        #expect(app.journal.entries == ["enter more", "inactive item", "active more"])
        #expect(app.focus == ["split", "split/sidebar", "split/sidebar/sections"])
        #expect(app.active.last == "split/detail/more")
    }

    @Test("A selection replaces the detail as one change and releases the old detail")
    func selectionReplacesTheDetail() throws {
        let app = try SplitApp()
        let bag = WeakBag()
        do {
            let old = app.detail.entries[0]
            bag.track(old, "item")
            let deeper = FlowController(name: "deeper")
            bag.track(deeper, "deeper")
            try app.detail.push(deeper)
        }
        app.reset()
        try app.split.show(LoggingNode("item2", journal: app.journal), in: .detail)
        #expect(app.runtime.activationIsConsistent)
        #expect(app.detail.entries.map(\.name) == ["item2"])
        #expect(app.journal.entries == ["exit item", "enter item2", "active item2"])
        #expect(
            app.host.changes.map(\.description)
                == ["show split -split/detail/deeper -split/detail/item +split/detail/item2"])
        #expect(bag.alive.isEmpty)
        #expect(app.split.focusedColumn == .sidebar)
    }

    @Test("A multi-column change is one transaction with one exit and one entry order")
    func multiColumnChangeIsOneTransaction() throws {
        let app = try SplitApp()
        app.reset()
        try app.split.show([
            .content: LoggingNode("poems", journal: app.journal),
            .detail: LoggingNode("poem", journal: app.journal),
        ])
        #expect(
            app.journal.entries == [
                "exit item", "exit list", "enter poems", "enter poem", "active poems",
                "active poem",
            ])
        #expect(app.host.changes.count == 1)
        #expect(
            app.host.changes.first?.description
                == "show split -split/detail/item -split/content/list +split/content/poems +split/detail/poem"
        )
    }

    @Test("A refused selection leaves every column as it was")
    func refusedSelectionChangesNothing() throws {
        let app = try SplitApp()
        app.content.entries[0].exitGuard = { .refuse("editing") }
        let before = app.active
        app.reset()
        #expect(throws: FlowError.self) {
            try app.split.show([
                .content: FlowController(name: "poems"), .detail: FlowController(name: "poem"),
            ])
        }
        #expect(app.active == before)
        #expect(app.journal.entries.isEmpty)
        #expect(app.host.changes.isEmpty)
    }

    @Test("Collapse, a platform pop of the detail's root, expand: an empty detail, same nodes")
    func collapsePopExpand() throws {
        let app = try SplitApp(focus: .content)
        let sections = app.sidebar.entries[0]
        let list = app.content.entries[0]
        let ids = [app.sidebar.id, sections.id, app.content.id, list.id]
        app.reset()

        try app.split.platformDidCollapse()
        #expect(app.runtime.activationIsConsistent)
        #expect(app.split.isCollapsed)
        #expect(app.compact == ["sections", "list", "item"])
        #expect(app.focus == ["split", "split/detail", "split/detail/item"])
        #expect(app.active == ["split", "split/detail", "split/detail/item"])
        #expect(
            app.journal.entries == [
                "inactive list", "inactive content", "inactive sections", "inactive sidebar",
            ])
        #expect(app.host.changes.isEmpty)
        #expect(app.runtime.trace.lines.contains { $0.contains("platformCollapse split") })

        app.reset()
        try app.split.platformDidPopCompact(to: list)
        #expect(app.runtime.activationIsConsistent)
        #expect(app.detail.entries.isEmpty)
        #expect(app.compact == ["sections", "list"])
        #expect(app.focus == ["split", "split/content", "split/content/list"])
        #expect(app.split.preferredCompactColumn == .content)
        #expect(
            app.journal.entries == [
                "exit item", "inactive detail", "active content", "active list",
            ])

        app.reset()
        try app.split.platformDidExpand()
        #expect(app.runtime.activationIsConsistent)
        #expect(!app.split.isCollapsed)
        #expect(app.detail.entries.isEmpty)
        #expect(
            [app.sidebar.id, app.sidebar.entries[0].id, app.content.id, app.content.entries[0].id]
                == ids)
        #expect(app.split.focusedColumn == .content)
        #expect(
            app.journal.entries == [
                "active sidebar", "active sections", "active detail",
            ])
        #expect(!app.journal.entries.contains { $0.hasPrefix("enter") || $0.hasPrefix("exit") })
    }

    @Test("Collapsed, a selection brings its column on top; focus brings a column on top")
    func collapsedSelectionAndFocus() throws {
        let app = try SplitApp(withDetail: false)
        try app.split.platformDidCollapse()
        #expect(app.runtime.activationIsConsistent)
        #expect(app.compact == ["sections", "list"])
        #expect(app.split.focusedColumn == .content)
        app.reset()
        try app.split.show(LoggingNode("item", journal: app.journal), in: .detail)
        #expect(app.runtime.activationIsConsistent)
        #expect(app.compact == ["sections", "list", "item"])
        #expect(app.split.focusedColumn == .detail)
        #expect(
            app.journal.entries == [
                "enter item", "inactive list", "inactive content", "active detail", "active item",
            ])

        app.reset()
        try app.split.focus(.sidebar)
        #expect(app.runtime.activationIsConsistent)
        #expect(app.compact == ["sections"])
        #expect(app.split.preferredCompactColumn == .sidebar)
        #expect(app.focus == ["split", "split/sidebar", "split/sidebar/sections"])
        #expect(app.host.changes.map(\.description) == ["focus split"])
        #expect(app.detail.entries.map(\.name) == ["item"])
    }

    @Test("Bad input to a split throws a typed error and changes nothing")
    func badInput() throws {
        let app = try SplitApp()
        let split = FlowSplit(
            name: "two", sidebar: FlowController(name: "a"), detail: FlowStack(name: "b"))
        #expect(split.columns == [.sidebar, .detail])
        #expect(split.node(for: .content) == nil)
        #expect(throws: FlowError.notARegion(container: "two", node: "column content")) {
            try split.focus(.content)
        }
        app.reset()
        #expect(throws: FlowError.self) { try app.split.focus(FlowController(name: "x")) }
        #expect(throws: FlowError.splitLayoutMismatch(split: "split", reason: "is not collapsed")) {
            try app.split.platformDidPopCompact(to: app.content.entries[0])
        }
        #expect(throws: FlowError.regionsAreFixed(container: "split")) {
            try app.split.embed(FlowController(name: "x"))
        }
        #expect(throws: FlowError.self) {
            try app.split.show([.detail: FlowController(name: "x")], clearing: [.detail])
        }
        let used = app.sidebar.entries[0]
        #expect(throws: FlowError.self) { try app.split.show(used, in: .detail) }
        #expect(app.host.changes.isEmpty)
        #expect(app.journal.entries.isEmpty)
    }

    @Test("A sheet over the split covers every column")
    func sheetCoversColumns() throws {
        let app = try SplitApp()
        app.reset()
        try app.split.present(LoggingNode("sheet", journal: app.journal))
        #expect(app.runtime.activationIsConsistent)
        #expect(app.active == ["split", "split/sheet"])
        try app.split.dismiss()
        #expect(app.runtime.activationIsConsistent)
        #expect(app.active.count == 7)
    }

    @Test("A navigation path through a split focuses the column it names")
    func navigationFocusesColumn() throws {
        let app = try SplitApp()
        app.detail.register("item3") { FlowController(name: "item3", route: "item3") }
        app.reset()
        try app.runtime.navigate(to: ["detail", "item3"])
        #expect(app.runtime.activationIsConsistent)
        #expect(app.split.focusedColumn == .detail)
        #expect(app.focus == ["split", "split/detail", "split/detail/item3"])
        #expect(app.detail.entries.map(\.name) == ["item", "item3"])
    }

    @Test("Several paths are navigated in one transaction; the last one gets the focus")
    func navigateToEach() throws {
        let app = try SplitApp()
        app.content.register("poems") { LoggingNode("poems", route: "poems", journal: app.journal) }
        app.detail.register("poem") { LoggingNode("poem", route: "poem", journal: app.journal) }
        app.reset()
        try app.runtime.navigate(toEach: [
            [.child("content"), .child("poems")], [.child("detail"), .child("poem")],
        ])
        #expect(app.host.changes.count == 1)
        #expect(app.split.focusedColumn == .detail)
        #expect(app.content.entries.map(\.name) == ["list", "poems"])
        #expect(app.detail.entries.map(\.name) == ["item", "poem"])
        #expect(
            app.journal.entries == [
                "enter poems", "enter poem", "inactive item", "inactive list", "active poems",
                "active poem",
            ])
    }

    @Test("Stopping a runtime with a split exits everything and leaks nothing")
    func stopReleasesEverything() throws {
        let bag = WeakBag()
        do {
            let app = try SplitApp()
            bag.track(app.split, "split")
            bag.track(app.detail.entries[0], "item")
            try app.runtime.stop()
            #expect(app.runtime.activeNodes.isEmpty)
            #expect(!app.split.isActive)
        }
        #expect(bag.alive.isEmpty)
    }
}

@Suite("Splits: navigation")
@MainActor
struct SplitNavigationTests {
    /// A split whose detail column builds `item` screens by route.
    private func makeApp(collapsed: Bool = false) throws -> (FlowRuntime, FlowSplit, FlowStack) {
        let detail = FlowStack(name: "detail", route: "detail")
        detail.register(Int.self) { id, _ in
            FlowController(name: "item-\(id)", route: FlowRoute(id))
        }
        let split = FlowSplit(
            name: "split", sidebar: FlowStack(name: "sidebar", root: FlowController(name: "s")),
            detail: detail, collapsed: collapsed)
        let runtime = try FlowRuntime(root: split)
        try runtime.start()
        return (runtime, split, detail)
    }

    @Test("A root step replaces what the detail shows in one transaction; child would push")
    func rootStepReplacesTheDetail() throws {
        let (runtime, split, detail) = try makeApp()
        let host = RecordingFlowHost()
        try runtime.navigate(to: [.child("detail"), .root(1)])
        try runtime.navigate(to: [.child("detail"), .child(2)])
        #expect(detail.entries.map(\.name) == ["item-1", "item-2"])
        let bag = WeakBag()
        bag.track(detail.entries[0], "item-1")
        bag.track(detail.entries[1], "item-2")
        try runtime.navigate(to: [.child("detail"), .root(3)])
        #expect(detail.entries.map(\.name) == ["item-3"])
        #expect(bag.alive.isEmpty)
        // The bottom entry with the route is kept, what is above it popped.
        try runtime.navigate(to: [.child("detail"), .child(4)])
        let three = detail.entries[0]
        try runtime.navigate(to: [.child("detail"), .root(3)])
        #expect(detail.entries.count == 1 && detail.entries[0] === three)
        #expect(split.focusedColumn == .detail)
        #expect(FlowStep.root(3).description == "root 3")
        _ = host
    }

    @Test("A path through a collapsed split into its empty column fills it and brings it on top")
    func collapsedPathIntoEmptyColumn() throws {
        let (runtime, split, detail) = try makeApp(collapsed: true)
        #expect(split.isCollapsed)
        #expect(runtime.activeNodes.map(\.name) == ["split", "sidebar", "s"])
        #expect(!detail.isActive)
        try runtime.navigate(to: [.child("detail"), .root(5)])
        #expect(split.compactStack.map(\.name) == ["s", "item-5"])
        #expect(runtime.focusedPath.map(\.name) == ["split", "detail", "item-5"])
        #expect(runtime.activationIsConsistent)
        // The explicit focus still refuses a column that shows nothing.
        try split.platformDidPopCompact(to: split.compactStack[0])
        #expect(throws: FlowError.self) { try split.focus(.detail) }
    }

    @Test("A split made collapsed enters with only its top column active")
    func entersCollapsed() throws {
        let journal = Journal()
        let split = FlowSplit(
            name: "split", sidebar: LoggingNode("sidebar", journal: journal),
            detail: LoggingNode("detail", journal: journal), collapsed: true)
        let runtime = try FlowRuntime(root: split)
        try runtime.start()
        #expect(journal.entries == ["enter sidebar", "enter detail", "active detail"])
        #expect(runtime.activationIsConsistent)
    }
}
