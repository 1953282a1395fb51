import FlowKit
import Testing

/// The screens of the guide's tab example.
private final class CatalogList: FlowController {
    init() { super.init(name: "list") }
}

private final class FavouritesList: FlowController {
    init() { super.init(name: "favourites-list") }
}

private final class ProfileScreen: FlowController {
    init() { super.init(name: "profile", route: "profile") }
}

@MainActor
@Suite("Hosting guide: tabs")
struct HostingGuideTabsTests {
    @Test("The guide's tab container selects by code and by the platform")
    func tabs() throws {
        let host = RecordingFlowHost()
        let tabs = FlowTabs(
            name: "tabs",
            tabs: [
                FlowStack(name: "catalog", route: "catalog", root: CatalogList()),
                FlowStack(name: "favourites", route: "favourites", root: FavouritesList()),
                ProfileScreen(),
            ])
        let runtime = try FlowRuntime(root: tabs, host: host)
        try runtime.start()
        try tabs.select(at: 1)  // host told: `select tabs`
        try tabs.platformDidSelect(tabs.tabs[0])  // the user tapped it: host not told
        #expect(host.changes.map(\.description) == ["start +tabs", "select tabs"])
        #expect(tabs.selectedIndex == 0)
    }
}
