// The code of Docs/StateMachine.md. GuideCodeBlockTests checks that every ```swift block of
// the page appears here verbatim: change the page and this file together.

import FlowKit
import Testing

/// A state named and routed `name`: its parent's factory builds it, its first child in
/// `chart` is its initial route, and it registers a factory for each of its children.
@MainActor
func chartState(_ name: String, _ chart: KeyValuePairs<String, [String]>) -> FlowController {
    let node = FlowController(name: name, route: FlowRoute(name))
    let children = chart.first { $0.key == name }?.value ?? []
    for child in children {
        node.register(FlowRoute(child)) { chartState(child, chart) }
    }
    node.initialRoute = children.first.map { FlowRoute($0) }
    return node
}

/// app ─ a ─ a1 ─ a1x (initial routes), with a1y and editor beside a1x, a2 beside a1, and
/// b ─ b1 ─ b1y beside a.
@MainActor
func makeChartApp() throws -> FlowRuntime {
    let chart: KeyValuePairs<String, [String]> = [
        "app": ["a", "b"], "a": ["a1", "a2"], "a1": ["a1x", "a1y", "editor"], "b": ["b1"],
        "b1": ["b1y"],
    ]
    let runtime = try FlowRuntime(root: chartState("app", chart))
    try runtime.start()
    return runtime
}

/// The `enter`/`exit` lines of the trace from `start`, each with its node's name only.
@MainActor
func enteredAndExited(_ runtime: FlowRuntime, from start: Int) -> [String] {
    tracedPaths(runtime, ["enter", "exit"], from: start).map { line in
        let parts = line.split(separator: " ")
        return "\(parts[0]) \(parts[1].split(separator: "/").last!)"
    }
}

@MainActor
@Suite("State machine guide")
struct StateMachineGuideTests {
    @Test("navigate(to:) across subtrees exits innermost first, then enters outermost first")
    func acrossSubtrees() throws {
        let runtime = try makeChartApp()
        let start = runtime.trace.lines.count

        // app ─ a ─ a1 ─ a1x          (focused)
        //     └ b ─ b1 ─ b1y          (registered routes)
        try runtime.navigate(to: ["b", "b1", "b1y"])
        // exit a1x, exit a1, exit a, enter b, enter b1, enter b1y   (NavigationTests.acrossSubtrees)

        #expect(
            enteredAndExited(runtime, from: start) == [
                "exit a1x", "exit a1", "exit a", "enter b", "enter b1", "enter b1y",
            ])
    }

    @Test("Internal and external transitions")
    func reentering() throws {
        let runtime = try makeChartApp()
        let app = runtime.root!
        let a = runtime.node(at: "app/a")!
        let start = runtime.trace.lines.count

        // internal in a: exit a1x, a1; enter a1, a1y
        try a.navigate(to: ["a1", "a1y"], reentering: true)
        // external self-transition of a: exit a1y, a1, a; enter a, a1, a1x
        try app.navigate(to: ["a"], reentering: true)

        #expect(
            enteredAndExited(runtime, from: start) == [
                "exit a1x", "exit a1", "enter a1", "enter a1y",
                "exit a1y", "exit a1", "exit a", "enter a", "enter a1", "enter a1x",
            ])
    }

    @Test("A refusing guard leaves everything as it was")
    func refusal() throws {
        let runtime = try makeChartApp()
        try runtime.navigate(to: ["a", "a1", "editor"])
        let editor = runtime.focusedNode!
        let hasUnsavedEdits = true
        let lines = runtime.trace.lines.count

        let error = #expect(throws: FlowError.self) {
            editor.exitGuard = { hasUnsavedEdits ? .refuse("unsaved edits") : .allow }
            // throws FlowError.exitRefused(node: "app/a/…/editor", reason: "unsaved edits")
            try runtime.navigate(to: ["b"])
        }
        #expect(error == .exitRefused(node: "app/a/a1/editor", reason: "unsaved edits"))
        #expect(runtime.focusedRoutes == ["a", "a1", "editor"])
        #expect(runtime.trace.lines.count == lines)
    }

    @Test("Deep history restores the whole recorded path; recorded history restores on request")
    func history() throws {
        let app = FlowSwitch(name: "app")
        app.register("away") { FlowController(name: "away", route: "away") }
        app.register("flow") { chartState("flow", ["flow": ["intro", "start", "step2"]]) }
        app.initialRoute = "away"
        let runtime = try FlowRuntime(root: app)
        try runtime.start()
        var start = runtime.trace.lines.count

        app.register("settings") { SettingsFlow(history: .deep) }
        try runtime.navigate(to: ["settings", "account", "edit"])
        try app.switch(to: "away")  // settings exits; records ["account", "edit"]
        try app.switch(to: "settings")  // enters settings, account, edit again
        let recorded = runtime.recordedHistory(at: "app/settings")  // ["account", "edit"]

        #expect(recorded == ["account", "edit"])
        #expect(
            enteredAndExited(runtime, from: start).suffix(3) == [
                "enter settings", "enter account", "enter edit",
            ])

        try runtime.navigate(to: ["flow", "step2"])
        let flow = try #require(app.current)
        start = runtime.trace.lines.count

        flow.history = .recorded  // records; restores only when navigation asks
        try app.switch(to: "away")  // flow exits; records ["step2"]
        try app.navigate(to: ["flow"], history: .shallow, historyDefault: "start")  // step2

        #expect(
            enteredAndExited(runtime, from: start) == [
                "exit step2", "exit flow", "enter away", "exit away", "enter flow", "enter step2",
            ])
        runtime.clearHistory()
        try app.switch(to: "away")
        try app.navigate(to: ["flow"], history: .shallow, historyDefault: "start")
        #expect(runtime.focusedRoutes == ["flow", "start"])  // no record: the default
    }

    @Test("A finished login flow: the app root handles FlowFinished and moves on")
    func finishedFlow() throws {
        let app = FlowSwitch(name: "app", initial: LoginFlow())
        app.register("main") { FlowController(name: "main", route: "main") }
        let runtime = try FlowRuntime(root: app)
        try runtime.start()
        unowned let login = try #require(app.current as? LoginFlow)
        weak let released = login

        app.on(FlowFinished<Account>.self) { [unowned app] done, origin in
            try app.navigate(to: ["main"])  // login exits and is released
            return .handled
        }
        login.finish(with: Account(name: "ada"))  // (NavigationTests.finishingALoginFlow)

        #expect(runtime.focusedNode?.path == "app/main")
        #expect(released == nil)
        #expect(runtime.trace.lines.contains("handled FlowFinished<Account> at app"))
    }

    @Test("A step in two regions of a FlowParallel is one transaction")
    func parallelRegions() throws {
        let playback = chartState("playback", ["playback": ["paused", "playing"]])
        let lyrics = chartState("lyrics", ["lyrics": ["hidden", "shown"]])
        let player = FlowParallel(name: "player", route: "player", regions: [playback, lyrics])
        let runtime = try FlowRuntime(root: player)
        try runtime.start()
        // active: player, playback, paused, lyrics, hidden
        try runtime.navigate(toEach: [
            FlowNavigationTarget(from: playback, to: [.child("playing")], reentering: true),
            FlowNavigationTarget(from: lyrics, to: [.child("shown")], reentering: true),
        ])
        // one transaction: exit hidden, exit paused, enter playing, enter shown

        #expect(
            enteredAndExited(runtime, from: 0) == [
                "enter player", "enter playback", "enter paused", "enter lyrics", "enter hidden",
                "exit hidden", "exit paused", "enter playing", "enter shown",
            ])
        #expect(
            runtime.activeNodes.map(\.name) == ["player", "playback", "playing", "lyrics", "shown"])
    }
}
