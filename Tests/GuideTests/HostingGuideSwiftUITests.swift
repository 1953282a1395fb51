import FlowKit
import Testing

/// SwiftUI's frames for the tests: what the host wrote is shown when the test says so
/// (`showFrame()`), and each write is recorded as SwiftUI would see it then.
@MainActor
final class StandInFrames {
    private var waiting: [@MainActor () -> Void] = []
    /// The state of the recorded stack after each write, oldest first.
    var writtenPaths: [[FlowNodeID]] = []
    var record: () -> [FlowNodeID] = { [] }

    /// The host's `whenShown`.
    func whenShown(_ done: @escaping @MainActor () -> Void) {
        writtenPaths.append(record())
        waiting.append(done)
    }

    var isWaiting: Bool { !waiting.isEmpty }

    /// SwiftUI shows the next write.
    func showFrame() {
        guard !waiting.isEmpty else { return }
        waiting.removeFirst()()
    }

    /// SwiftUI shows every write, and those they lead to (at most 1,000).
    func showAll() {
        var rounds = 0
        while !waiting.isEmpty, rounds < 1_000 {
            showFrame()
            rounds += 1
        }
    }
}

/// The UIKit fixture's tree, shown by the guide's SwiftUI host.
@MainActor
final class HostedSwiftUIApp {
    let frames = StandInFrames()
    let tree = HostingGuideTree()
    let host: SwiftUITransitionHost
    let transitions: FlowTransitions
    let runtime: FlowRuntime
    var catalog: FlowStack { tree.catalog }
    var favourites: FlowStack { tree.favourites }
    var tabs: FlowTabs { tree.tabs }
    var app: FlowSwitch { tree.app }
    var bag: WeakBag { tree.bag }

    init() throws {
        let frames = frames
        host = SwiftUITransitionHost { frames.whenShown($0) }
        transitions = FlowTransitions(host: host)
        runtime = try FlowRuntime(root: tree.app, host: transitions)
        host.transitions = transitions
        host.runtime = runtime
        try runtime.start()
        let catalog = tree.catalog
        frames.record = { [host] in host.shown(catalog.id)?.path ?? [] }
    }

    /// What SwiftUI shows of the catalog stack.
    var catalogState: ShownNode? { host.shown(catalog.id) }

    /// Shows every write, then checks that SwiftUI's state is the tree and that the host
    /// keeps state for live nodes only.
    func settleAndExpectStateMatchesTree(
        _ step: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        frames.showAll()
        #expect(transitions.isIdle, "\(step): idle", sourceLocation: sourceLocation)
        #expect(transitions.isShowingTree, "\(step): shown", sourceLocation: sourceLocation)
        var live: Set<FlowNodeID> = []
        if let root = runtime.root, runtime.isRunning {
            #expect(host.root?.id == root.id, "\(step): root", sourceLocation: sourceLocation)
            var pending = [root]
            while let node = pending.popLast() {
                live.insert(node.id)
                let shown = host.shown(node.id)
                #expect(
                    shown?.children == node.children.map(\.id),
                    "\(step): \(node.path) children", sourceLocation: sourceLocation)
                #expect(
                    shown?.sheet == node.presentedChild?.id, "\(step): \(node.path) sheet",
                    sourceLocation: sourceLocation)
                if let tabs = node as? FlowTabs {
                    #expect(
                        shown?.selectedTab == tabs.selectedIndex, "\(step): \(node.path) tab",
                        sourceLocation: sourceLocation)
                }
                pending += node.children
                if let presented = node.presentedChild { pending.append(presented) }
            }
        }
        #expect(host.shownIDs == live, "\(step): kept state", sourceLocation: sourceLocation)
    }
}

/// The state an exit guard reads.
@MainActor
private final class Editor {
    var hasUnsavedEdits = true
}

@MainActor
@Suite("Hosting guide: the SwiftUI host writes its bindings only when the pipeline says so")
struct HostingGuideSwiftUITests {
    @Test("Every kind of change reaches SwiftUI's state, and only what is shown is kept")
    func everyChange() throws {
        let fixture = try HostedSwiftUIApp()
        fixture.settleAndExpectStateMatchesTree("start")
        try fixture.catalog.push(fixture.bag.made(FlowController(name: "a")))
        fixture.settleAndExpectStateMatchesTree("push")
        try fixture.catalog.push(fixture.bag.made(FlowController(name: "b")))
        try fixture.catalog.pop(to: fixture.catalog.entries[0])
        fixture.settleAndExpectStateMatchesTree("push and popTo")
        try fixture.catalog.setStack([
            fixture.catalog.entries[0], fixture.bag.made(FlowController(name: "c")),
        ])
        fixture.settleAndExpectStateMatchesTree("setStack")
        try fixture.catalog.top?.present(fixture.bag.made(FlowController(name: "sheet")))
        fixture.settleAndExpectStateMatchesTree("present")
        try fixture.catalog.top?.dismiss()
        fixture.settleAndExpectStateMatchesTree("dismiss")
        try fixture.runtime.open("settings")
        fixture.settleAndExpectStateMatchesTree("open")
        try fixture.runtime.unwind(to: fixture.catalog.entries[0])
        fixture.settleAndExpectStateMatchesTree("unwind")
        try fixture.tabs.select(at: 1)
        fixture.settleAndExpectStateMatchesTree("select")
        try fixture.app.switch(to: "login")
        fixture.settleAndExpectStateMatchesTree("switch")
        #expect(fixture.bag.alive == ["login"])
        try fixture.runtime.stop()
        #expect(fixture.host.root == nil)
        #expect(fixture.host.shownIDs.isEmpty)
    }

    @Test("Pushes during a push: the path is written once per shown frame, one entry each")
    func pushesWaitForTheFrame() throws {
        let fixture = try HostedSwiftUIApp()
        fixture.frames.showAll()
        let a = FlowController(name: "a")
        let b = FlowController(name: "b")
        try fixture.catalog.push(a)
        try fixture.catalog.push(b)
        do {
            let transient = fixture.bag.made(FlowController(name: "transient"))
            try fixture.catalog.push(transient)
            try fixture.catalog.pop()
        }
        #expect(fixture.catalogState?.path == [a.id])  // b waits until a is shown
        fixture.frames.showFrame()
        #expect(fixture.catalogState?.path == [a.id, b.id])
        fixture.settleAndExpectStateMatchesTree("pushes")
        #expect(fixture.frames.writtenPaths.suffix(2) == [[a.id], [a.id, b.id]])
        #expect(fixture.bag.alive.isEmpty)  // entered and left while SwiftUI was busy
    }

    @Test("The user goes back: SwiftUI writes a shorter path, FlowKit tears the entry down")
    func userGoesBack() throws {
        let fixture = try HostedSwiftUIApp()
        try fixture.catalog.push(fixture.bag.made(FlowController(name: "a")))
        fixture.settleAndExpectStateMatchesTree("push")
        let steps = fixture.transitions.performedSteps.count
        fixture.catalogState?.path = []  // what NavigationStack writes
        #expect(fixture.catalog.entries.map(\.name) == ["list"])
        #expect(fixture.bag.alive.isEmpty)
        #expect(fixture.transitions.performedSteps.count == steps)  // not echoed
        fixture.settleAndExpectStateMatchesTree("back")
    }

    @Test("interactiveDismissDisabled reads the guard; a sheet dragged away is torn down")
    func sheetDraggedAway() throws {
        let fixture = try HostedSwiftUIApp()
        let list = try #require(fixture.catalog.top)
        let editor = Editor()
        do {
            let sheet = fixture.bag.made(FlowController(name: "sheet"))
            sheet.exitGuard = { editor.hasUnsavedEdits ? .refuse("unsaved edits") : .allow }
            try list.present(sheet)
        }
        #expect(!fixture.transitions.canBeginInteractiveDismiss(of: list))  // still presenting
        fixture.settleAndExpectStateMatchesTree("present")
        #expect(!fixture.transitions.canBeginInteractiveDismiss(of: list))  // the guard
        editor.hasUnsavedEdits = false
        #expect(fixture.transitions.canBeginInteractiveDismiss(of: list))
        let state = try #require(fixture.host.shown(list.id))
        state.isShowingSheet = false  // what sheet(isPresented:) writes
        #expect(list.presentedChild == nil)
        #expect(fixture.bag.alive.isEmpty)
        fixture.settleAndExpectStateMatchesTree("dragged away")
    }

    @Test("The user taps a tab: TabView writes the selection, FlowKit follows")
    func userTapsTab() throws {
        let fixture = try HostedSwiftUIApp()
        fixture.frames.showAll()
        let steps = fixture.transitions.performedSteps.count
        fixture.host.shown(fixture.tabs.id)?.tabSelection = 1
        #expect(fixture.tabs.selectedIndex == 1)
        #expect(fixture.transitions.performedSteps.count == steps)
        fixture.settleAndExpectStateMatchesTree("tab tapped")
    }
}
