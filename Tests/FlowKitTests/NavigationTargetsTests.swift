import FlowKit
import FlowKitTesting
import Testing

/// `app` → `P` (a FlowParallel: `L` → `L1` | `L2` → `L2a` | `L2b`; `M` → `M1` | `M2`), with
/// `O` beside `P`; every node built from a factory on its parent, with its first child as
/// its initial route, logging its hooks (`P` does not log). `L` records its history.
@MainActor
final class RegionsApp {
    let journal = Journal()
    let host = RecordingFlowHost()
    let runtime: FlowRuntime
    let app: LoggingNode

    static let children: [String: [String]] = [
        "app": ["P", "O"], "L": ["L1", "L2"], "L2": ["L2a", "L2b"], "M": ["M1", "M2"],
    ]

    init() throws {
        let journal = journal
        func node(_ name: String) -> FlowController {
            if name == "P" {
                let parallel = FlowParallel(
                    name: "P", route: "P", regions: [node("L"), node("M")])
                return parallel
            }
            let made = LoggingNode(name, route: FlowRoute(name), journal: journal)
            let children = Self.children[name] ?? []
            for child in children { made.register(FlowRoute(child)) { node(child) } }
            made.initialRoute = children.first.map { FlowRoute($0) }
            if name == "L" { made.history = .recorded }
            return made
        }
        app = node("app") as! LoggingNode
        runtime = try FlowRuntime(root: app, host: host)
        try runtime.start()
    }

    func live(_ path: String) -> FlowController { runtime.node(at: "app/" + path)! }

    func reset() {
        journal.entries.removeAll()
        host.removeAll()
    }

    var active: [String] { runtime.activeNodes.map(\.name) }
}

@MainActor
@Suite("Navigation to several targets in one transaction")
struct NavigationTargetsTests {
    @Test(
        "Targets from two regions' nodes are one change: exits in reverse entry order, entries in entry order"
    )
    func twoRegionsOneChange() throws {
        let app = try RegionsApp()
        #expect(app.active == ["app", "P", "L", "L1", "M", "M1"])
        app.reset()
        // M's target first: the exits still run in the reverse of entry order, and the
        // entries in entry order.
        try app.runtime.navigate(toEach: [
            FlowNavigationTarget(from: app.live("P/M"), to: [.child("M2")], reentering: true),
            FlowNavigationTarget(
                from: app.live("P/L"), to: [.child("L2"), .child("L2b")], reentering: true),
        ])
        #expect(app.host.changes.count == 1)
        #expect(
            app.journal.entries.filter { $0.hasPrefix("e") } == [
                "exit M1", "exit L1", "enter L2", "enter L2b", "enter M2",
            ])
        #expect(app.host.changes.map(\.entered) == [["app/P/L/L2", "app/P/M/M2"]])
        #expect(app.active == ["app", "P", "L", "L2", "L2b", "M", "M2"])
    }

    @Test("A later target continues through the nodes an earlier one built")
    func laterTargetSeesEarlier() throws {
        let app = try RegionsApp()
        try app.runtime.navigate(to: [.child("O")])
        app.reset()
        try app.runtime.navigate(toEach: [
            FlowNavigationTarget(
                from: app.app, to: [.child("P"), .child("L"), .child("L2"), .child("L2b")],
                reentering: true),
            FlowNavigationTarget(from: app.app, to: [.child("P"), .child("M"), .child("M2")]),
        ])
        #expect(app.host.changes.count == 1)
        #expect(
            app.journal.entries.filter { $0.hasPrefix("e") } == [
                "exit O", "enter L", "enter L2", "enter L2b", "enter M", "enter M2",
            ])
    }

    @Test("A target restores history this very change records, beside another target")
    func historyRecordedByTheSameChange() throws {
        let app = try RegionsApp()
        try app.runtime.navigate(to: [.child("P"), .child("L"), .child("L2"), .child("L2b")])
        app.reset()
        // P exits and re-enters: L records [L2, L2b] first, and its restore sees it.
        try app.runtime.navigate(toEach: [
            FlowNavigationTarget(
                from: app.app, to: [.child("P"), .child("L")], history: .deep, historyDefault: "L1",
                reentering: true),
            FlowNavigationTarget(from: app.app, to: [.child("P"), .child("M"), .child("M2")]),
        ])
        #expect(app.runtime.recordedHistory(at: "app/P/L") == ["L2", "L2b"])
        #expect(app.active == ["app", "P", "L", "L2", "L2b", "M", "M2"])
        #expect(app.host.changes.count == 1)
    }

    @Test(
        "A target restoring a kept node's history enters in entry order beside later targets",
        .bug(id: "29.10", "a restored history entered after the other targets' nodes"))
    func historyRestoreEntersInEntryOrder() throws {
        let app = try RegionsApp()
        try app.runtime.navigate(to: [.child("P"), .child("L"), .child("L2"), .child("L2b")])
        try app.runtime.navigate(to: [.child("O")])  // P exits: L records [L2, L2b]
        try app.runtime.navigate(to: [.child("P")])
        #expect(app.active == ["app", "P", "L", "L1", "M", "M1"])
        app.reset()
        // L is kept and refilled from its record; M's node is built in planning.
        try app.runtime.navigate(toEach: [
            FlowNavigationTarget(
                from: app.live("P/L"), to: [], history: .deep, reentering: true),
            FlowNavigationTarget(from: app.live("P/M"), to: [.child("M2")], reentering: true),
        ])
        #expect(
            app.journal.entries.filter { $0.hasPrefix("e") } == [
                "exit M1", "exit L1", "enter L2", "enter L2b", "enter M2",
            ])
        #expect(app.host.changes.map(\.entered) == [["app/P/L/L2", "app/P/M/M2"]])
        #expect(app.active == ["app", "P", "L", "L2", "L2b", "M", "M2"])
    }

    @Test("A refusal in one target leaves the whole tree as it was")
    func refusalIsAtomic() throws {
        let app = try RegionsApp()
        app.live("P/M/M1").exitGuard = { .refuse("busy") }
        app.reset()
        #expect(throws: FlowError.exitRefused(node: "app/P/M/M1", reason: "busy")) {
            try app.runtime.navigate(toEach: [
                FlowNavigationTarget(from: app.live("P/L"), to: [.child("L2")], reentering: true),
                FlowNavigationTarget(from: app.live("P/M"), to: [.child("M2")], reentering: true),
            ])
        }
        #expect(app.journal.entries.isEmpty)
        #expect(app.host.changes.isEmpty)
        #expect(app.active == ["app", "P", "L", "L1", "M", "M1"])
    }

    @Test("A target's node must be entered in the runtime")
    func nodeNotInTree() throws {
        let app = try RegionsApp()
        let stray = FlowController(name: "stray")
        #expect(throws: FlowError.notInTree(node: "stray")) {
            try app.runtime.navigate(toEach: [FlowNavigationTarget(from: stray, to: [.child("x")])])
        }
        try app.runtime.navigate(toEach: [FlowNavigationTarget]())
        #expect(app.active == ["app", "P", "L", "L1", "M", "M1"])
    }

    @Test("Asked from a hook, the navigation is queued behind the change being applied")
    func queuedFromHook() throws {
        let app = try RegionsApp()
        let l = app.live("P/L")
        let m2 = HookNode(name: "M2x", route: "M2x") {
            // Queued, so it does not throw here.
            try? app.runtime.navigate(toEach: [
                FlowNavigationTarget(from: l, to: [.child("L2")], reentering: true)
            ])
        }
        app.live("P/M").register("M2x") { m2 }
        try app.runtime.navigate(to: [.child("P"), .child("M"), .child("M2x")])
        #expect(app.active == ["app", "P", "L", "L2", "L2a", "M", "M2x"])
    }
}

/// A node that runs `entered` from its `didEnter()` hook.
@MainActor
private final class HookNode: FlowController {
    let entered: @MainActor () -> Void

    init(name: String, route: FlowRoute, entered: @escaping @MainActor () -> Void) {
        self.entered = entered
        super.init(name: name, route: route)
    }

    override func didEnter() { entered() }
}
