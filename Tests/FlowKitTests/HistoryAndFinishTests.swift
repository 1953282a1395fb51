import Testing

@testable import FlowKit

struct User: Sendable, Equatable {
    let name: String
}

@MainActor
@Suite("History and finished flows")
struct HistoryAndFinishTests {
    /// app (switch) → tabs (switch with history) → {feed, profile → {info, edit}}; plus "away".
    func makeTabs(policy: FlowHistoryPolicy) throws -> (FlowRuntime, FlowSwitch) {
        let app = FlowSwitch(name: "app")
        app.register("tabs") {
            let tabs = FlowSwitch(name: "tabs", route: "tabs")
            tabs.history = policy
            tabs.initialRoute = "feed"
            tabs.register("feed") { FlowController(name: "feed", route: "feed") }
            tabs.register("profile") {
                let profile = FlowSwitch(name: "profile", route: "profile")
                profile.initialRoute = "info"
                profile.register("info") { FlowController(name: "info", route: "info") }
                profile.register("edit") { FlowController(name: "edit", route: "edit") }
                return profile
            }
            return tabs
        }
        app.register("away") { FlowController(name: "away", route: "away") }
        app.initialRoute = "tabs"
        let runtime = try FlowRuntime(root: app)
        try runtime.start()
        return (runtime, app)
    }

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

    @Test("navigate(to:) keeps what is on the way and exits only below the common ancestor")
    func minimalChange() throws {
        let (runtime, _) = try makeTabs(policy: .none)
        try runtime.navigate(to: ["tabs", "profile", "info"])
        let profile = runtime.node(at: "app/tabs/profile")
        runtime.trace.removeAll()
        try runtime.navigate(to: ["tabs", "profile", "edit"])
        #expect(runtime.node(at: "app/tabs/profile") === profile)
        #expect(
            runtime.trace.lines.filter { !$0.hasPrefix("activate") && !$0.hasPrefix("deact") }
                == [
                    "exit app/tabs/profile/info", "enter app/tabs/profile/edit",
                    "change navigate app/tabs/profile -app/tabs/profile/info +app/tabs/profile/edit",
                ])
    }

    @Test("finish(with:) sends a typed FlowFinished from the flow up to its parent")
    func finishWithResult() throws {
        let app = FlowSwitch(name: "app")
        let login = FlowController(name: "login", route: "login")
        try app.embed(login)
        let runtime = try FlowRuntime(root: app)
        try runtime.start()
        var received: [(User, String)] = []
        app.on(FlowFinished<User>.self) { done, origin in
            received.append((done.result, origin.path))
            try? app.switch(to: FlowController(name: "main"))
            return .handled
        }
        weak let weakLogin = login
        login.finish(with: User(name: "alice"))
        #expect(received.map(\.0) == [User(name: "alice")])
        #expect(received.map(\.1) == ["app/login"])
        #expect(runtime.trace.lines.contains("handled FlowFinished<User> at app"))
        #expect(runtime.focusedPath.map(\.name) == ["app", "main"])
        _ = login
        #expect(weakLogin?.state == .exited)
    }

    @Test("A finished flow that leaves before its event's turn does not report")
    func finishAfterExitIsDropped() throws {
        let (runtime, _, app, _, stack, _) = try makeApp()
        let flow = FlowController(name: "flow")
        try stack.push(flow)
        var finished = 0
        app.on(FlowFinished<Void>.self) { _ in
            finished += 1
            return .handled
        }
        app.on(Ping.self) { _ in
            flow.finish()  // queued behind this handler…
            _ = try? stack.pop()  // …and the flow is gone before its turn
            return .handled
        }
        flow.send(Ping())
        #expect(finished == 0)
        #expect(runtime.trace.lines.last?.hasPrefix("dropped FlowFinished<()>") == true)
    }
}
