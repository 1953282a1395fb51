import FlowKit
import Testing

@MainActor
@Suite("History policies")
struct HistoryTests {
    @Test("Without history a re-entered switch starts at its initial child")
    func noHistory() throws {
        let (runtime, app) = try makeTabs(policy: .none)
        try runtime.navigate(to: ["tabs", "profile", "edit"])
        try app.switch(to: "away")
        try app.switch(to: "tabs")
        #expect(runtime.focusedRoutes == ["tabs", "feed"])
        #expect(runtime.recordedHistory(at: "app/tabs") == nil)
    }

    @Test("Shallow history re-enters the last child, then its defaults")
    func shallowHistory() throws {
        let (runtime, app) = try makeTabs(policy: .shallow)
        try runtime.navigate(to: ["tabs", "profile", "edit"])
        weak let oldProfile = runtime.node(at: "app/tabs/profile")
        try app.switch(to: "away")
        #expect(oldProfile == nil)  // history keeps routes, not nodes
        #expect(runtime.recordedHistory(at: "app/tabs") == ["profile", "edit"])
        runtime.trace.removeAll()
        try app.switch(to: "tabs")
        #expect(runtime.focusedRoutes == ["tabs", "profile", "info"])
        #expect(
            runtime.trace.lines.filter { $0.hasPrefix("enter") || $0.hasPrefix("exit") } == [
                "exit app/away", "enter app/tabs", "enter app/tabs/profile",
                "enter app/tabs/profile/info",
            ])
    }

    @Test("Deep history re-enters the whole recorded path")
    func deepHistory() throws {
        let (runtime, app) = try makeTabs(policy: .deep)
        try runtime.navigate(to: ["tabs", "profile", "edit"])
        try app.switch(to: "away")
        try app.switch(to: "tabs")
        #expect(runtime.focusedRoutes == ["tabs", "profile", "edit"])
    }

    @Test("Recorded history is restored only when navigation asks, with a default otherwise")
    func recordedHistory() throws {
        let (runtime, app) = try makeTabs(policy: .recorded)
        try runtime.navigate(to: ["tabs", "profile"], history: .deep, historyDefault: "edit")
        #expect(runtime.focusedRoutes == ["tabs", "profile", "edit"])  // no record: default
        try runtime.navigate(to: ["tabs", "feed"])
        try app.switch(to: "away")
        try app.switch(to: "tabs")
        #expect(runtime.focusedRoutes == ["tabs", "feed"])  // initial: not restored
        try runtime.navigate(to: ["tabs", "profile", "edit"])
        try app.switch(to: "away")
        try runtime.navigate(to: ["tabs"], history: .shallow)
        #expect(runtime.focusedRoutes == ["tabs", "profile", "info"])
    }

    @Test("A change that exits a node and restores its history restores what it just recorded")
    func historyRecordedBySameChange() throws {
        func leaf(_ id: String) -> FlowController { FlowController(name: id, route: FlowRoute(id)) }
        let root = FlowController(name: "root")
        root.initialRoute = "P"
        root.register("P") {
            let p = FlowController(name: "P", route: "P")
            p.history = .recorded
            p.initialRoute = "P1"
            p.register("P1") { leaf("P1") }
            p.register("P2") { leaf("P2") }
            return p
        }
        let runtime = try FlowRuntime(root: root)
        try runtime.start()
        try runtime.node(at: "root/P")!.navigate(to: ["P2"])
        try root.navigate(to: ["P"], history: .shallow, reentering: true)
        #expect(runtime.recordedHistory(at: "root/P") == ["P2"])
        #expect(runtime.focusedPath.map(\.name) == ["root", "P", "P2"])
    }

    @Test(
        "Shallow history restores the child, which then enters its own defaults",
        .bug(
            id: "9.14",
            "shallow history restored the child without entering the child's own defaults"),
        arguments: [FlowHistoryPolicy.none, .shallow])
    func shallowHistoryEntersChildDefaults(childPolicy: FlowHistoryPolicy) throws {
        func makeFlow() -> FlowController {
            let flow = FlowSwitch(name: "flow", route: "flow")
            flow.history = childPolicy
            flow.initialRoute = "first"
            flow.register("first") { FlowController(name: "first", route: "first") }
            flow.register("second") { FlowController(name: "second", route: "second") }
            return flow
        }
        func makeArea() -> FlowController {
            let area = FlowSwitch(name: "area", route: "area")
            area.history = .shallow
            area.initialRoute = "other"
            area.register("flow", factory: makeFlow)
            area.register("other") { FlowController(name: "other", route: "other") }
            return area
        }
        let root = FlowSwitch(name: "root")
        root.register("area", factory: makeArea)
        root.register("away") { FlowController(name: "away", route: "away") }
        root.initialRoute = "area"
        let runtime = try FlowRuntime(root: root)
        try runtime.start()
        try runtime.navigate(to: ["area", "flow", "second"])
        try runtime.navigate(to: ["away"])
        #expect(runtime.recordedHistory(at: "root/area") == ["flow", "second"])
        try runtime.navigate(to: ["area"])
        // The child the area last had (flow), then flow's own defaults: its initial route,
        // or its own recorded history when its policy restores it.
        let expected = childPolicy == .shallow ? "root/area/flow/second" : "root/area/flow/first"
        #expect(runtime.focusedNode?.path == expected)
    }
}
