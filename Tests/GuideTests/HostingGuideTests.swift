import FlowKit
import Testing

/// An app shown by the guide's UIKitHost: a switch `app` over tabs `tabs` with two stacks
/// (`catalog` > [list], `favourites` > [fav]); `catalog` builds `detail` and `more`, and
/// `app` registers the global routes `settings` (presented) and `share` (presented), and
/// `login`.
@MainActor
private final class HostedApp {
    let host = UIKitHost { NodeViewController(node: $0) }
    let catalog = FlowStack(
        name: "catalog", route: "catalog", root: FlowController(name: "list", route: "list"))
    let favourites = FlowStack(
        name: "favourites", route: "favourites", root: FlowController(name: "fav"))
    let tabs: FlowTabs
    let app: FlowSwitch
    let runtime: FlowRuntime
    let bag = WeakBag()

    init() throws {
        tabs = FlowTabs(name: "tabs", route: "tabs", tabs: [catalog, favourites])
        app = FlowSwitch(name: "app", initial: tabs)
        catalog.register("detail") { [bag] in
            bag.made(FlowController(name: "detail", route: "detail"))
        }
        catalog.register("more") { [bag] in bag.made(FlowController(name: "more", route: "more")) }
        app.registerGlobal("settings") { [bag] in
            bag.made(FlowController(name: "settings", route: "settings"))
        }
        app.registerGlobal("share") { [bag] in
            let share = FlowStack(
                name: "share", route: "share", root: FlowController(name: "compose"))
            return bag.made(share)
        }
        app.register("login") { [bag] in bag.made(FlowController(name: "login", route: "login")) }
        runtime = try FlowRuntime(root: app, host: host)
        host.runtime = runtime
        try runtime.start()
    }

    /// Every node of the live tree.
    var liveNodes: [FlowController] {
        guard let root = runtime.root, runtime.isRunning else { return [] }
        var nodes: [FlowController] = []
        var pending = [root]
        while let node = pending.popLast() {
            nodes.append(node)
            pending += node.children
            if let presented = node.presentedChild { pending.append(presented) }
        }
        return nodes
    }

    /// The screen shows exactly the tree, and the host keeps a view controller for live
    /// nodes only.
    func expectScreenMatchesTree(_ step: String, sourceLocation: SourceLocation = #_sourceLocation)
    {
        let live = liveNodes
        #expect(
            host.controllerIDs == Set(live.map(\.id)), "\(step): kept controllers",
            sourceLocation: sourceLocation)
        for node in live {
            guard let shown = host.keptController(node.id) else { continue }
            if let stack = node as? FlowStack {
                let navigation = shown as? UINavigationController
                #expect(
                    navigation?.viewControllers.map { ($0 as? NodeViewController)?.nodeID }
                        == stack.entries.map(\.id),
                    "\(step): \(stack.path) shows its entries", sourceLocation: sourceLocation)
            }
            if let tabs = node as? FlowTabs {
                #expect(
                    (shown as? UITabBarController)?.selectedIndex == tabs.selectedIndex,
                    "\(step): \(tabs.path) selection", sourceLocation: sourceLocation)
            }
            let presented = node.presentedChild.flatMap { host.keptController($0.id) }
            #expect(
                shown.presentedViewController === presented,
                "\(step): what \(node.path) presents", sourceLocation: sourceLocation)
        }
    }
}

/// Tracks the nodes factories made, weakly.
@MainActor
private final class WeakBag {
    private var nodes: [() -> FlowController?] = []

    /// Tracks `node` and returns it.
    func made<Node: FlowController>(_ node: Node) -> Node {
        nodes.append { [weak node] in node }
        return node
    }

    /// The tracked nodes still alive, by name.
    var alive: [String] { nodes.compactMap { $0()?.name } }
}

@MainActor
@Suite("Hosting guide: the UIKit host follows every kind of change")
struct HostingGuideTests {
    @Test("start, push, pop, popTo, setStack: the navigation controller shows the entries")
    func stackChanges() throws {
        let fixture = try HostedApp()
        fixture.expectScreenMatchesTree("start")
        try fixture.catalog.push(FlowController(name: "a"))
        fixture.expectScreenMatchesTree("push")
        try fixture.catalog.push(FlowController(name: "b"))
        try fixture.catalog.pop()
        fixture.expectScreenMatchesTree("pop")
        try fixture.catalog.push(FlowController(name: "c"))
        try fixture.catalog.pop(to: fixture.catalog.entries[0])
        fixture.expectScreenMatchesTree("popTo")
        try fixture.catalog.setStack([fixture.catalog.entries[0], FlowController(name: "d")])
        fixture.expectScreenMatchesTree("setStack")
    }

    @Test("present, dismiss, a path's present step and open(route) reach the screen")
    func presentations() throws {
        let fixture = try HostedApp()
        let list = try #require(fixture.catalog.top)
        try list.present(FlowController(name: "sheet"))
        fixture.expectScreenMatchesTree("present")
        try list.dismiss()
        fixture.expectScreenMatchesTree("dismiss")
        try fixture.runtime.navigate(to: [
            .child("tabs"), .child("catalog"), .child("list"), .push("detail"), .present("share"),
        ])
        #expect(fixture.runtime.focusedNode?.path == "app/tabs/catalog/detail/share/compose")
        fixture.expectScreenMatchesTree("navigate with a present step")
        try fixture.runtime.open("settings")
        #expect(fixture.runtime.focusedNode?.name == "settings")
        fixture.expectScreenMatchesTree("open")
    }

    @Test("An unwind that dismisses and pops leaves no screen or controller behind")
    func unwind() throws {
        let fixture = try HostedApp()
        try fixture.runtime.navigate(to: [
            .child("tabs"), .child("catalog"), .child("list"), .push("detail"), .push("more"),
            .present("share"),
        ])
        try fixture.runtime.open("settings")
        fixture.expectScreenMatchesTree("before unwind")
        try fixture.runtime.unwind(to: try #require(fixture.catalog.entries.first))
        #expect(fixture.catalog.entries.map(\.name) == ["list"])
        fixture.expectScreenMatchesTree("unwind")
        #expect(fixture.bag.alive.isEmpty)
    }

    @Test("The platform's back button, sheet swipe and tab tap come back and are forgotten")
    func platformChanges() throws {
        let fixture = try HostedApp()
        try fixture.catalog.push(FlowController(name: "a"))
        try fixture.catalog.push(FlowController(name: "b"))
        let navigation = try #require(
            fixture.host.controller(for: fixture.catalog) as? UINavigationController)
        navigation.tapBack()
        #expect(fixture.catalog.entries.map(\.name) == ["list", "a"])
        fixture.expectScreenMatchesTree("back button")
        let top = try #require(fixture.catalog.top)
        try top.present(FlowController(name: "sheet"))
        fixture.host.controller(for: top).swipeDown()
        #expect(top.presentedChild == nil)
        fixture.expectScreenMatchesTree("sheet swiped away")
        let tabBar = try #require(
            fixture.host.controller(for: fixture.tabs) as? UITabBarController)
        tabBar.tap(1)
        #expect(fixture.tabs.selectedIndex == 1)
        fixture.expectScreenMatchesTree("tab tapped")
        try fixture.tabs.select(at: 0)
        fixture.expectScreenMatchesTree("select")
    }

    @Test("A popped entry that presented a sheet takes the sheet with it; a switch and a stop too")
    func removalsTakeTheirScreens() throws {
        let fixture = try HostedApp()
        let entry = FlowController(name: "a")
        try fixture.catalog.push(entry)
        try entry.present(FlowController(name: "sheet"))
        let shown = fixture.host.controller(for: entry)
        try fixture.catalog.pop()
        #expect(shown.presentedViewController == nil)
        fixture.expectScreenMatchesTree("pop of a presenting entry")
        try fixture.app.switch(to: "login")
        fixture.expectScreenMatchesTree("switch")
        try fixture.runtime.stop()
        #expect(fixture.host.controllerIDs.isEmpty)
    }
}

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
