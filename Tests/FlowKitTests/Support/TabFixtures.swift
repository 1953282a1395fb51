import FlowKit

/// A tab container app: `app` (tabs) → catalog (stack [list]), favourites (stack [saved]),
/// profile (a screen), started with a recording host.
@MainActor
final class TabbedApp {
    let journal = Journal()
    let host = RecordingFlowHost()
    let catalog: FlowStack
    let favourites: FlowStack
    let profile: LoggingNode
    let tabs: FlowTabs
    let runtime: FlowRuntime

    init(selected: Int = 0) throws {
        catalog = FlowStack(
            name: "catalog", route: "catalog", root: LoggingNode("list", journal: journal))
        favourites = FlowStack(
            name: "favourites", route: "favourites",
            root: LoggingNode("saved", journal: journal))
        profile = LoggingNode("profile", route: "profile", journal: journal)
        tabs = FlowTabs(name: "app", tabs: [catalog, favourites, profile], selected: selected)
        runtime = try FlowRuntime(root: tabs, host: host)
        try runtime.start()
        journal.entries.removeAll()
        host.removeAll()
    }

    var focus: [String] { runtime.focusedPath.map(\.path) }
}
