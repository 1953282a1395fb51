import FlowKit

/// app (switch) → tabs (switch with history) → {feed, profile → {info, edit}}; plus "away".
@MainActor
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
