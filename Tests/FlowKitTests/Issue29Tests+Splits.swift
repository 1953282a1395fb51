import Testing

@testable import FlowKit

/// Issue 29's bugs in fixed regions, results and snapshots (11, 13, 14, 16, 17), each with
/// the repro from the issue.
@Suite("Issue 29: splits, regions, results, snapshots")
@MainActor
struct Issue29SplitTests {
    @Test(
        "A write of the preferred compact column on an exited split changes nothing and is reported",
        .bug(id: "29.11", "writing preferredCompactColumn on an exited collapsed split trapped"))
    func lateCompactColumnWrite() throws {
        let bag = WeakBag()
        let split: FlowSplit
        let expanded: FlowSplit
        let app: FlowSwitch
        let runtime: FlowRuntime
        do {
            let sidebar = FlowStack(name: "sidebar", root: FlowController(name: "sections"))
            let detail = FlowStack(name: "detail", root: FlowController(name: "item"))
            bag.track(sidebar, "sidebar")
            bag.track(detail, "detail")
            split = FlowSplit(name: "split", sidebar: sidebar, detail: detail, collapsed: true)
            expanded = FlowSplit(
                name: "expanded", sidebar: FlowController(name: "menu"),
                detail: FlowController(name: "page"))
            app = FlowSwitch(name: "app", initial: split)
            runtime = try FlowRuntime(root: app)
        }
        var failures: [String] = []
        runtime.onError = { failures.append("\($0)") }
        try runtime.start()
        try app.switch(to: expanded)
        #expect(split.state == .exited)

        // SwiftUI can write the binding after the screen left: it used to index the columns,
        // which left with the split.
        split.preferredCompactColumn = .sidebar
        #expect(split.preferredCompactColumn == .detail)
        #expect(split.focusedColumn == .sidebar)  // an exited split's answer (24.5)
        // Writing what the binding reads is nothing, as on every binding.
        split.preferredCompactColumn = .detail
        // An exited expanded split's write used to be stored: it is refused the same way.
        try app.switch(to: FlowController(name: "other"))
        expanded.preferredCompactColumn = .sidebar
        #expect(expanded.preferredCompactColumn == .detail)
        #expect(
            failures == [
                "preferredCompactColumn at app/split failed: 'app/split' was exited; it cannot "
                    + "take new children or change",
                "preferredCompactColumn at app/expanded failed: 'app/expanded' was exited; it "
                    + "cannot take new children or change",
            ])
        #expect(runtime.trace.lines.contains { $0.hasPrefix("failed preferredCompactColumn") })
        #expect(bag.alive.isEmpty)

        // Before the split enters, the write is the platform's (offline) focus change.
        let offline = FlowSplit(
            name: "offline", sidebar: FlowController(name: "menu"),
            detail: FlowController(name: "page"), collapsed: true)
        offline.preferredCompactColumn = .sidebar
        #expect(offline.preferredCompactColumn == .sidebar)
        #expect(offline.focusedColumn == .sidebar)
    }

    @Test(
        "Showing in, or clearing, a column whose node is a parallel container throws regionsAreFixed",
        .bug(id: "29.13", "show(_:in:) and show(_:clearing:) replaced a parallel column's regions"))
    func fixedRegionsInAColumn() throws {
        let bag = WeakBag()
        let panes = FlowParallel(
            name: "panes", regions: [FlowController(name: "r0"), FlowController(name: "r1")])
        let split = FlowSplit(
            name: "split", sidebar: FlowStack(name: "sidebar", root: FlowController(name: "s")),
            detail: panes)
        let host = RecordingFlowHost()
        let runtime = try FlowRuntime(root: split, host: host)
        try runtime.start()
        host.removeAll()
        runtime.trace.removeAll()
        let before = runtime.treeDescription()
        let fixed = FlowError.regionsAreFixed(container: "split/panes")
        do {
            let node = FlowController(name: "x")
            bag.track(node, "x")
            #expect(throws: fixed) { try split.show(node, in: .detail) }
            #expect(throws: fixed) { try split.show([.detail: node]) }
            #expect(throws: fixed) {
                try split.show([.sidebar: node], clearing: [.detail])
            }
            #expect(node.state == .created && node.parent == nil)
        }
        #expect(panes.regions.map(\.name) == ["r0", "r1"])
        #expect(runtime.treeDescription() == before)
        #expect(host.changes.isEmpty)
        #expect(runtime.trace.lines.isEmpty)
        #expect(bag.alive.isEmpty)

        // A nested split in the detail: clearing the column used to leave the inner split
        // without regions, and a later show into it trapped.
        let inner = FlowSplit(
            name: "inner", sidebar: FlowStack(name: "list", root: FlowController(name: "a")),
            detail: FlowStack(name: "pane", root: FlowController(name: "b")))
        let outer = FlowSplit(
            name: "outer", sidebar: FlowStack(name: "menu", root: FlowController(name: "m")),
            detail: inner)
        let second = try FlowRuntime(root: outer)
        try second.start()
        #expect(throws: FlowError.regionsAreFixed(container: "outer/inner")) {
            try outer.show([:], clearing: [.detail])
        }
        try #require(inner.regions.map(\.name) == ["list", "pane"])
        try inner.show(FlowController(name: "x"), in: .detail)
        #expect(inner.node(for: .detail)?.children.map(\.name) == ["x"])
        // A stack column is still cleared.
        try outer.show([:], clearing: [.sidebar])
        #expect(outer.node(for: .sidebar)?.children.isEmpty == true)
        #expect(second.activationIsConsistent)
    }

    @Test(
        "Cancelling a result(of:) wait on a column ends it with CancellationError; the column stays",
        .bug(id: "29.14", "a cancelled result(of:) on a column took the column out of its split"))
    func cancelledWaitOnAColumn() async throws {
        let detail = Picker("detail")
        let split = FlowSplit(
            name: "split", sidebar: FlowStack(name: "sidebar", root: FlowController(name: "s")),
            detail: detail)
        let runtime = try FlowRuntime(root: split)
        var failures: [String] = []
        runtime.onError = { failures.append("\($0)") }
        try runtime.start()
        let waiting = Task { try await split.result(of: detail) }
        await waitUntil { detail._extras?.resultWaiter != nil }
        runtime.trace.removeAll()
        waiting.cancel()
        #expect(await failure(of: waiting) is CancellationError)
        await runtime.settle()
        try #require(split.regions.count == 2)
        #expect(split.regions[1] === detail)
        #expect(detail.state == .entered && detail.children.map(\.name) == ["page"])
        #expect(
            runtime.trace.lines == [
                "cancelled split/detail (the awaiting task was cancelled; a region stays): run "
                    + "at split throws"
            ])
        try split.focus(.detail)
        #expect(runtime.focusedPath.map(\.path) == ["split", "split/detail", "split/detail/page"])
        #expect(failures.isEmpty)
        #expect(runtime.activationIsConsistent)

        // The column can be awaited again, and finishing leaves it in place.
        let again = Task { try await split.result(of: detail) }
        await waitUntil { detail._extras?.resultWaiter != nil }
        detail.finish(with: 4)
        #expect(try await again.value == 4)
        #expect(split.regions.count == 2 && detail.state == .entered)
    }

    @Test(
        "A snapshot refuses an empty stack presented over a split; only a column may be empty",
        .bug(id: "29.16", "snapshot() wrote an empty stack presented over a split"))
    func emptyStackOverASplit() throws {
        let split = FlowSplit(
            name: "split", sidebar: FlowStack(name: "sidebar", root: FlowController(name: "s")),
            detail: FlowStack(name: "detail"))
        let runtime = try FlowRuntime(root: split)
        try runtime.start()
        try split.present(FlowStack(name: "sheet"))
        #expect(
            throws: FlowSnapshotError.notEncodable(
                path: "split/sheet", reason: "an empty stack cannot be restored")
        ) { try runtime.snapshot() }
        // The empty detail column is fine.
        try split.dismiss()
        let snapshot = try runtime.snapshot()
        #expect(snapshot.root.children[1].children.isEmpty)
    }

    @Test(
        "Restoring a stack presented over a split whose entries are all lost is a mismatch",
        .bug(id: "29.16", "a restoration left an empty stack presented over a split"))
    func restoredEmptyStackOverASplit() throws {
        let bag = WeakBag()
        func makeSplit() -> FlowSplit {
            let split = FlowSplit(
                name: "split",
                sidebar: FlowStack(name: "sidebar", root: FlowController(name: "s")),
                detail: FlowStack(name: "detail"))
            split.register("sheet") {
                let sheet = FlowStack(name: "sheet")
                bag.track(sheet, "sheet")
                return sheet
            }
            return split
        }
        let split = makeSplit()
        let runtime = try FlowRuntime(root: split)
        try runtime.start()
        // The sheet's entry has no route: a restoration cannot build it, and the stack its
        // factory builds has no entry of its own.
        try split.present(
            FlowStack(name: "sheet", route: "sheet", root: FlowController(name: "page")))
        let snapshot = try runtime.snapshot()

        let fresh = makeSplit()
        let restored = try FlowRuntime(root: fresh)
        #expect(
            throws: FlowSnapshotError.mismatch(
                path: "split/sheet",
                reason:
                    "none of the stack's entries was restored and it has no history or "
                    + "initial route to build one from")
        ) { try restored.start(restoring: snapshot) }
        #expect(!restored.isRunning)
        #expect(fresh.presentedChild == nil)
        #expect(fresh.state == .created)
        #expect(bag.alive.isEmpty)
    }

    @Test(
        "A collapsed split's focused column tells its observers whenever the top column changes",
        .bug(id: "29.17", "focusedColumn changed after a compact pop without notifying"))
    func focusedColumnIsObservableWhenCollapsed() throws {
        let app = try SplitApp()
        try app.split.platformDidCollapse()
        #expect(app.split.focusedColumn == .detail)
        // The compact pop moves the top column from the detail to the content.
        #expect(
            try notifies({ _ = app.split.focusedColumn }) {
                try app.split.platformDidPopCompact(to: app.content.entries[0])
            })
        #expect(app.split.focusedColumn == .content)
        // The preferred column stays the content; the detail coming back does not move the
        // top (it is after the preferred column), so it notifies nothing.
        #expect(
            try !notifies({ _ = app.split.focusedColumn }) {
                try app.detail.push(FlowController(name: "again"))
            })
        // Preferring the detail again: the top follows the preferred column.
        #expect(
            try notifies({ _ = app.split.focusedColumn }) { try app.split.focus(.detail) })
        #expect(app.split.focusedColumn == .detail)
        // Emptying the detail (the preferred column) moves the top back to the content, and
        // filling it brings it back: neither changes the preferred column.
        #expect(
            try notifies({ _ = app.split.focusedColumn }) {
                try app.split.show([:], clearing: [.detail])
            })
        #expect(app.split.focusedColumn == .content)
        #expect(app.split.preferredCompactColumn == .detail)
        #expect(
            try notifies({ _ = app.split.focusedColumn }) {
                try app.detail.push(FlowController(name: "more"))
            })
        #expect(app.split.focusedColumn == .detail)
        // The compact stack and the preferred column were already tracked.
        #expect(
            try notifies({ _ = app.split.compactStack }) {
                try app.split.platformDidPopCompact(to: app.sidebar.entries[0])
            })
        #expect(app.split.preferredCompactColumn == .sidebar)
        #expect(app.runtime.activationIsConsistent)
    }
}
