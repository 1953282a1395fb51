import FlowKit
import Testing

/// Split bugs the model-based random test found (Tests/FlowKitTests/ModelBased), each shrunk
/// to the operations that show it.
@Suite("Splits: found by the model-based random test")
@MainActor
struct SplitFuzzFindingsTests {
    @Test(
        "A root step at a split, or a reentering navigation from it, leaves its columns",
        .bug(id: "24.1", "a root step at a split or reentering it removed its columns"))
    func navigationCannotReplaceColumns() throws {
        let app = try SplitApp(focus: .detail)
        let columns = app.split.regions.map(ObjectIdentifier.init)
        app.split.register("other") { FlowController(name: "other") }
        app.reset()
        // The sidebar has the route: the root step used to keep it and remove the others.
        #expect(throws: FlowError.regionsAreFixed(container: "split")) {
            try app.split.navigate(to: [.root("sidebar")])
        }
        // A new node: the root step used to make it the split's only region.
        #expect(throws: FlowError.regionsAreFixed(container: "split")) {
            try app.split.navigate(to: [.root("other")])
        }
        // Reentering used to remove every column (a split without regions).
        #expect(throws: FlowError.regionsAreFixed(container: "split")) {
            try app.split.navigate(to: [FlowRoute](), reentering: true)
        }
        #expect(throws: FlowError.regionsAreFixed(container: "split")) {
            try app.split.navigate(to: ["detail"], reentering: true)
        }
        // A kept split given its history anew would lose its columns the same way.
        #expect(throws: FlowError.regionsAreFixed(container: "split")) {
            try app.runtime.navigate(to: [FlowRoute](), history: .shallow)
        }
        #expect(app.split.regions.map(ObjectIdentifier.init) == columns)
        #expect(app.journal.entries.isEmpty)
        #expect(app.host.changes.isEmpty)
        #expect(app.runtime.activationIsConsistent)
        // A root step into a column still replaces what it shows.
        try app.split.navigate(to: [.child("detail"), .root("item")])
        #expect(app.detail.entries.map(\.name) == ["item"])
    }

    @Test(
        "A node presented over a collapsed split, or dismissed, keeps the focused column",
        .bug(id: "24.2", "presenting over a collapsed split set its focus to the compact top"))
    func presentingKeepsTheFocus() throws {
        let app = try SplitApp(focus: .content, withDetail: false)
        // The detail shows nothing, so the content column is on top when collapsed.
        try app.split.platformDidCollapse()
        try app.split.focus(.sidebar)
        #expect(app.split.focusedColumn == .sidebar)
        #expect(app.split.focusedIndex == 1)
        try app.split.present(FlowController(name: "sheet"))
        #expect(app.split.focusedIndex == 1)
        try app.split.dismiss()
        #expect(app.split.focusedIndex == 1)
        #expect(app.split.focusedRegion === app.content)
        #expect(app.runtime.activationIsConsistent)
    }

    @Test(
        "Paths of one navigation through two columns, ending on the focused one, move no focus",
        .bug(id: "24.3", "a focus moved and moved back was reported as touching the split"))
    func focusMovedBackIsNoChange() throws {
        let app = try SplitApp(focus: .content)
        app.content.register("more") { FlowController(name: "more") }
        app.reset()
        try app.split.navigate(toEach: [
            [.child("sidebar")], [.child("content"), .child("more")],
        ])
        // The change is reported where it reshaped (the content column), not at the split.
        #expect(
            app.host.changes.map(\.description) == ["navigate split/content +split/content/more"])
        #expect(app.split.focusedColumn == .content)
        app.reset()
        // Nothing else changes: no change at all.
        try app.split.navigate(toEach: [[.child("sidebar")], [.child("content")]])
        #expect(app.host.changes.isEmpty)
        #expect(app.runtime.trace.lines.isEmpty)
        // The same on a collapsed split, whose preferred column moves and moves back.
        try app.split.platformDidCollapse()
        app.reset()
        try app.split.navigate(toEach: [[.child("sidebar")], [.child("detail")]])
        #expect(app.split.preferredCompactColumn == .detail)
        #expect(app.runtime.trace.lines.isEmpty)
    }

    @Test(
        "A later path of navigate(toEach:) that replaces what an earlier one built: it never enters",
        .bug(id: "24.4", "a node an earlier path built and a later one replaced exited and entered")
    )
    func laterPathReplacesAnEarlierOnesNode() throws {
        let app = try SplitApp(focus: .detail)
        let bag = WeakBag()
        app.detail.register("page") { [journal = app.journal] in
            let node = LoggingNode("page", journal: journal)
            // A handler that captures its node: only a discard releases it.
            node.on(SplitFindingPing.self) { _ in
                _ = node
                return .handled
            }
            bag.track(node, "page")
            return node
        }
        app.reset()
        try app.split.navigate(toEach: [
            [.child("detail"), .child("page")], [.child("detail"), .root("item")],
        ])
        // The first path pushed a page; the second replaced everything above the item: the
        // page was planned and dropped in the same change. It used to exit (without having
        // entered), then enter, linked to the detail stack but not among its entries.
        #expect(app.detail.entries.map(\.name) == ["item"])
        #expect(!app.journal.entries.contains { $0.hasSuffix(" page") })
        #expect(app.host.changes.isEmpty)
        #expect(bag.alive.isEmpty)
        #expect(app.runtime.activationIsConsistent)
    }

    @Test(
        "An exited split refuses focus(_ column) and its accessors answer without trapping",
        .bug(id: "24.5", "focus(.column), compactStack and node(for:) trapped on an exited split"))
    func exitedSplitDoesNotTrap() throws {
        let sidebar = FlowStack(name: "sidebar", root: FlowController(name: "sections"))
        let split = FlowSplit(
            name: "split", sidebar: sidebar, detail: FlowStack(name: "detail"),
            preferredCompactColumn: .sidebar, collapsed: true)
        let root = FlowStack(name: "root", root: FlowController(name: "home"))
        let runtime = try FlowRuntime(root: root)
        try runtime.start()
        try root.push(split)
        try root.pop()
        #expect(split.state == .exited)
        // Each of these indexed the columns, which leave with the split: they trapped.
        #expect(throws: FlowError.containerExited(container: "root/split")) {
            try split.focus(.sidebar)
        }
        #expect(split.compactStack.isEmpty)
        #expect(split.node(for: .detail) == nil)
        #expect(split.focusedColumn == .sidebar)
    }
}

/// An event for the handlers of the 24.4 test.
private struct SplitFindingPing: FlowEvent {}
