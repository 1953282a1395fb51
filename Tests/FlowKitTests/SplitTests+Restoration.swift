import FlowKit
import FlowKitTesting
import Foundation
import Testing

/// A split app whose detail entries and sheet are built from routes, so a snapshot can
/// rebuild them: split → sidebar [sections], content [list], detail [item(n)…] (item
/// presents `sheet(n)`).
@MainActor
private func makeRoutedSplit(bag: WeakBag? = nil) -> (FlowSplit, FlowStack) {
    let detail = FlowStack(name: "detail", route: "detail")
    detail.register(SplitItem.self) { item, _ in
        let node = FlowController(name: "item", route: FlowRoute(item))
        node.register(SplitSheet.self) { sheet, _ in
            FlowController(name: "sheet", route: FlowRoute(sheet))
        }
        bag?.track(node, "item \(item.id)")
        return node
    }
    let split = FlowSplit(
        name: "split",
        sidebar: FlowStack(
            name: "sidebar", route: "sidebar", root: FlowController(name: "sections")),
        content: FlowStack(name: "content", route: "content", root: FlowController(name: "list")),
        detail: detail, focus: .content)
    return (split, detail)
}

private struct SplitItem: Codable, Hashable, Sendable { var id: Int }
private struct SplitSheet: Codable, Hashable, Sendable { var id: Int }

@Suite("Splits: restoration")
@MainActor
struct SplitRestorationTests {
    @Test("A collapsed split with a sheet over the detail survives a snapshot round trip")
    func collapsedSplitWithSheetRoundTrip() throws {
        let (split, detail) = makeRoutedSplit()
        let runtime = try FlowRuntime(root: split)
        try runtime.start()
        try runtime.navigate(to: [
            .child("detail"), .child(SplitItem(id: 3)), .present(SplitSheet(id: 3)),
        ])
        try split.platformDidCollapse()
        #expect(split.compactStack.map(\.name) == ["sections", "list", "item"])
        #expect(runtime.focusedPath.map(\.name) == ["split", "detail", "item", "sheet"])
        let before = runtime.treeDescription()
        let snapshot = try runtime.snapshot()
        let root = try #require(snapshot.root.kind == .split ? snapshot.root : nil)
        #expect(root.collapsed == true)
        #expect(root.focusedRegion == 2)
        #expect(root.preferredColumn == .detail)
        let data = try JSONEncoder().encode(snapshot)
        let decoded = try JSONDecoder().decode(FlowSnapshot.self, from: data)
        #expect(decoded == snapshot)

        let (newSplit, newDetail) = makeRoutedSplit()
        let restored = try FlowRuntime(root: newSplit)
        let report = try restored.start(
            restoring: decoded, routeTypes: [SplitItem.self, SplitSheet.self])
        #expect(report.isComplete)
        #expect(newSplit.isCollapsed)
        #expect(newSplit.preferredCompactColumn == .detail)
        #expect(newDetail.entries.first?.presentedChild?.route == FlowRoute(SplitSheet(id: 3)))
        #expect(restored.treeDescription() == before)
        #expect(restored.activeNodes.map(\.name) == ["split", "detail", "item", "sheet"])
        #expect(try restored.snapshot() == snapshot)
        _ = detail
    }

    @Test("An expanded split with an empty detail and its focus round-trips")
    func emptyDetailRoundTrip() throws {
        let (split, _) = makeRoutedSplit()
        let runtime = try FlowRuntime(root: split)
        try runtime.start()
        try split.focus(.sidebar)
        let snapshot = try runtime.snapshot()
        #expect(snapshot.root.children[2].children.isEmpty)
        let (newSplit, newDetail) = makeRoutedSplit()
        let restored = try FlowRuntime(root: newSplit)
        _ = try restored.start(restoring: snapshot, routeTypes: [SplitItem.self])
        #expect(newSplit.focusedColumn == .sidebar)
        #expect(!newSplit.isCollapsed)
        #expect(newDetail.entries.isEmpty)
        #expect(restored.activeNodes.count == 6)
    }

    @Test("Impossible split snapshots are refused with the runtime not started")
    func impossibleSplitSnapshots() throws {
        let (split, _) = makeRoutedSplit()
        let runtime = try FlowRuntime(root: split)
        try runtime.start()
        let good = try runtime.snapshot()
        var noFocus = good
        noFocus.root.focusedRegion = nil
        var badFocus = good
        badFocus.root.focusedRegion = 3
        var twoColumnsShort = good
        twoColumnsShort.root.children.removeLast(2)
        var layoutOnStack = good
        layoutOnStack.root.children[0].collapsed = true
        for bad in [noFocus, badFocus, twoColumnsShort, layoutOnStack] {
            let (newSplit, _) = makeRoutedSplit()
            let fresh = try FlowRuntime(root: newSplit)
            #expect(throws: FlowSnapshotError.self) {
                try fresh.start(restoring: bad, routeTypes: [SplitItem.self])
            }
            #expect(!fresh.isRunning)
            #expect(newSplit.state == .created)
        }
    }
}

@Suite("Splits: observation and bindings")
@MainActor
struct SplitObservationTests {
    @Test("The collapsed state, the focused column, the active nodes and the compact stack notify")
    func observableState() throws {
        let app = try SplitApp()
        #expect(try notifies({ _ = app.split.isCollapsed }) { try app.split.platformDidCollapse() })
        #expect(try notifies({ _ = app.split.focusedColumn }) { try app.split.platformDidExpand() })
        #expect(try notifies({ _ = app.split.focusedColumn }) { try app.split.focus(.content) })
        #expect(try notifies({ _ = app.runtime.focusedPath }) { try app.split.focus(.detail) })
        #expect(
            try notifies({ _ = app.runtime.activeNodes }) {
                try app.detail.push(FlowController(name: "more"))
            })
        // Reading the active nodes also tracks the focused path (documented).
        #expect(try notifies({ _ = app.runtime.activeNodes }) { try app.split.focus(.sidebar) })
        #expect(
            try notifies({ _ = app.split.compactStack }) {
                try app.split.show(FlowController(name: "other"), in: .detail)
            })
    }

    @Test("A write of the preferred compact column while collapsed is the platform's focus change")
    func preferredCompactColumnBinding() throws {
        let app = try SplitApp()
        try app.split.platformDidCollapse()
        #expect(app.split.focusedColumn == .detail)
        app.reset()
        app.split.preferredCompactColumn = .sidebar
        #expect(app.split.focusedColumn == .sidebar)
        #expect(app.compact == ["sections"])
        #expect(app.host.changes.isEmpty)  // the platform's write: not echoed
        #expect(app.runtime.trace.lines.contains("change platformFocus split"))
        #expect(app.runtime.activationIsConsistent)

        // Expanded, the write only decides the next collapse.
        try app.split.platformDidExpand()
        app.split.preferredCompactColumn = .content
        #expect(app.split.focusedColumn == .sidebar)
        try app.split.platformDidCollapse()
        #expect(app.split.focusedColumn == .content)
        #expect(app.compact == ["sections", "list"])
    }

    @Test("A refused write of the preferred column changes nothing and is reported")
    func refusedPreferredColumnWrite() throws {
        let app = try SplitApp(withDetail: false)
        var failures: [String] = []
        app.runtime.onError = { failures.append("\($0)") }
        try app.split.platformDidCollapse()
        app.split.preferredCompactColumn = .detail  // already preferred: nothing to do
        app.split.preferredCompactColumn = .sidebar
        app.split.preferredCompactColumn = .detail  // the detail shows nothing
        #expect(app.split.preferredCompactColumn == .sidebar)
        #expect(failures.count == 1)
        #expect(failures.first?.contains("shows nothing") == true)
    }
}

@Suite("Splits: transitions")
@MainActor
struct SplitTransitionTests {
    @Test("A compact pop the platform made is not shown again; a selection is one column step")
    func compactPopIsThePlatforms() throws {
        let platform = SimulatedPlatform(rules: .uiKit, duration: 350)
        let transitions = FlowTransitions(host: platform)
        let detail = FlowStack(name: "detail", root: FlowController(name: "item"))
        let list = FlowStack(name: "list", root: FlowController(name: "books"))
        let split = FlowSplit(
            name: "split", sidebar: FlowStack(name: "sidebar", root: FlowController(name: "s")),
            content: list, detail: detail)
        let runtime = try FlowRuntime(root: split, host: transitions)
        try runtime.start()
        platform.runUntilIdle()
        try detail.push(FlowController(name: "more"))
        platform.runUntilIdle()
        let performed = platform.performedSteps.count

        try split.platformDidCollapse()
        try split.platformDidPopCompact(to: list.entries[0])
        platform.runUntilIdle()
        #expect(platform.performedSteps.count == performed)
        #expect(transitions.isShowingTree && transitions.isIdle)
        #expect(platform.illegalCalls.isEmpty)

        try split.show(FlowController(name: "other"), in: .detail)
        platform.runUntilIdle()
        let steps = platform.performedSteps.dropFirst(performed)
        #expect(steps.count == 1)
        #expect(steps.first?.container == detail.id)
        #expect(transitions.isShowingTree && transitions.isIdle)
    }
}
