import FlowKit
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
