import FlowKit

/// The tree the hosting guide's UIKit and SwiftUI hosts show: a switch `app` over tabs `tabs`
/// with two stacks (`catalog` > [list], `favourites` > [fav]); `catalog` builds `detail` and
/// `more`; `app` registers the global routes `settings` and `share` (a stack, presented), and
/// `login`. Every node a factory builds is tracked in `bag`.
@MainActor
final class HostingGuideTree {
    let catalog = FlowStack(
        name: "catalog", route: "catalog", root: FlowController(name: "list", route: "list"))
    let favourites = FlowStack(
        name: "favourites", route: "favourites", root: FlowController(name: "fav"))
    let tabs: FlowTabs
    let app: FlowSwitch
    let bag = WeakBag()

    init() {
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
    }
}
