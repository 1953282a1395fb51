import FlowKit
import Testing

// The guide's wiring of the UIKit host, verbatim.

/// Shows `app` in `window` with the UIKit host.
@MainActor
func showWithUIKit(
    _ app: FlowController, in window: UIWindow
) throws -> (FlowRuntime, FlowTransitions, UIKitTransitionHost) {
    let host = UIKitTransitionHost { NodeViewController(node: $0) }
    let transitions = FlowTransitions(host: host)
    let runtime = try FlowRuntime(root: app, host: transitions)
    host.transitions = transitions
    host.runtime = runtime
    try runtime.start()  // the start step makes the view controllers at once
    window.rootViewController = host.rootViewController
    return (runtime, transitions, host)
}

/// An app shown by the guide's UIKit host in a stand-in window: a switch `app` over tabs
/// `tabs` with two stacks (`catalog` > [list], `favourites` > [fav]); `catalog` builds
/// `detail` and `more`, and `app` registers the global routes `settings` and `share` (a
/// stack, presented), and `login`.
@MainActor
final class HostedUIKitApp {
    let window = UIWindow()
    let tree: HostingGuideTree
    let runtime: FlowRuntime
    let transitions: FlowTransitions
    let host: UIKitTransitionHost
    var catalog: FlowStack { tree.catalog }
    var favourites: FlowStack { tree.favourites }
    var tabs: FlowTabs { tree.tabs }
    var app: FlowSwitch { tree.app }
    var bag: WeakBag { tree.bag }

    init() throws {
        UIKitStandIns.reset()
        tree = HostingGuideTree()
        (runtime, transitions, host) = try showWithUIKit(tree.app, in: window)
    }

    /// The navigation controller of `stack`.
    func navigation(_ stack: FlowStack) throws -> UINavigationController {
        try #require(host.keptController(stack.id) as? UINavigationController)
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

    /// The node a kept view controller shows.
    func nodeID(of viewController: UIViewController?) -> FlowNodeID? {
        host.controllerIDs.first { host.keptController($0) === viewController }
    }

    /// Lets every running UIKit transition end, then checks that UIKit shows exactly the
    /// tree, that nothing illegal was called, and that the host keeps a view controller for
    /// live nodes only.
    func settleAndExpectScreenMatchesTree(
        _ step: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        UIKitStandIns.finishTransitions()
        #expect(UIKitStandIns.illegalCalls == [], "\(step)", sourceLocation: sourceLocation)
        #expect(transitions.isIdle, "\(step): idle", sourceLocation: sourceLocation)
        #expect(transitions.isShowingTree, "\(step): shown", sourceLocation: sourceLocation)
        let live = liveNodes
        #expect(
            host.controllerIDs == Set(live.map(\.id)), "\(step): kept controllers",
            sourceLocation: sourceLocation)
        #expect(
            nodeID(of: window.rootViewController) == runtime.root?.id, "\(step): root",
            sourceLocation: sourceLocation)
        for node in live {
            guard let shown = host.keptController(node.id) else { continue }
            if let tabs = node as? FlowTabs {
                #expect(
                    (shown as? UITabBarController)?.selectedIndex == tabs.selectedIndex,
                    "\(step): \(tabs.path) selection", sourceLocation: sourceLocation)
            }
            #expect(
                shown.children.map(nodeID(of:)) == node.children.map(\.id),
                "\(step): \(node.path) shows its children", sourceLocation: sourceLocation)
            #expect(
                nodeID(of: shown.presentedViewController) == node.presentedChild?.id,
                "\(step): what \(node.path) presents", sourceLocation: sourceLocation)
        }
    }
}

/// Tracks nodes weakly.
@MainActor
final class WeakBag {
    private var nodes: [() -> FlowController?] = []

    /// Tracks `node` and returns it.
    @discardableResult
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
        let fixture = try HostedUIKitApp()
        fixture.settleAndExpectScreenMatchesTree("start")
        try fixture.catalog.push(fixture.bag.made(FlowController(name: "a")))
        fixture.settleAndExpectScreenMatchesTree("push")
        try fixture.catalog.push(fixture.bag.made(FlowController(name: "b")))
        fixture.settleAndExpectScreenMatchesTree("push")
        try fixture.catalog.pop()
        fixture.settleAndExpectScreenMatchesTree("pop")
        try fixture.catalog.push(fixture.bag.made(FlowController(name: "c")))
        fixture.settleAndExpectScreenMatchesTree("push")
        try fixture.catalog.pop(to: fixture.catalog.entries[0])
        fixture.settleAndExpectScreenMatchesTree("popTo")
        try fixture.catalog.setStack([
            fixture.catalog.entries[0], fixture.bag.made(FlowController(name: "d")),
        ])
        fixture.settleAndExpectScreenMatchesTree("setStack")
        #expect(fixture.bag.alive == ["d"])
    }

    @Test("present, dismiss, a path's present step and open(route) reach the screen")
    func presentations() throws {
        let fixture = try HostedUIKitApp()
        let list = try #require(fixture.catalog.top)
        try list.present(fixture.bag.made(FlowController(name: "sheet")))
        fixture.settleAndExpectScreenMatchesTree("present")
        try list.dismiss()
        fixture.settleAndExpectScreenMatchesTree("dismiss")
        #expect(fixture.bag.alive.isEmpty)
        try fixture.runtime.navigate(to: [
            .child("tabs"), .child("catalog"), .child("list"), .push("detail"), .present("share"),
        ])
        #expect(fixture.runtime.focusedNode?.path == "app/tabs/catalog/detail/share/compose")
        fixture.settleAndExpectScreenMatchesTree("navigate with a present step")
        #expect(
            fixture.transitions.performedSteps.map(\.description).suffix(2) == [
                "setEntries app/tabs/catalog [\(list.id)] -> [\(list.id) "
                    + "\(fixture.catalog.entries[1].id)]",
                "present app/tabs/catalog/detail \(fixture.catalog.entries[1].presentedChild!.id)",
            ])
        try fixture.runtime.open("settings")
        #expect(fixture.runtime.focusedNode?.name == "settings")
        fixture.settleAndExpectScreenMatchesTree("open")
    }

    @Test("An unwind that dismisses and pops leaves no screen or controller behind")
    func unwind() throws {
        let fixture = try HostedUIKitApp()
        try fixture.runtime.navigate(to: [
            .child("tabs"), .child("catalog"), .child("list"), .push("detail"), .push("more"),
            .present("share"),
        ])
        try fixture.runtime.open("settings")
        fixture.settleAndExpectScreenMatchesTree("before unwind")
        let steps = fixture.transitions.performedSteps.count
        try fixture.runtime.unwind(to: try #require(fixture.catalog.entries.first))
        #expect(fixture.catalog.entries.map(\.name) == ["list"])
        fixture.settleAndExpectScreenMatchesTree("unwind")
        // One dismissal (UIKit takes the layers above with it), then the pop under it.
        #expect(
            fixture.transitions.performedSteps.dropFirst(steps).map {
                String($0.description.prefix(13))
            }
                == ["dismiss app/t", "setEntries ap"])
        #expect(fixture.bag.alive.isEmpty)
    }

    @Test("A popped entry that presented a sheet: the sheet is dismissed before the pop")
    func popOfAPresenter() throws {
        let fixture = try HostedUIKitApp()
        do {
            let entry = fixture.bag.made(FlowController(name: "a"))
            try fixture.catalog.push(entry)
            try entry.present(fixture.bag.made(FlowController(name: "sheet")))
        }
        fixture.settleAndExpectScreenMatchesTree("presented from an entry")
        let steps = fixture.transitions.performedSteps.count
        try fixture.catalog.pop()
        fixture.settleAndExpectScreenMatchesTree("pop of a presenting entry")
        #expect(
            fixture.transitions.performedSteps.dropFirst(steps).map {
                String($0.description.prefix(10))
            }
                == ["dismiss ap", "setEntries"])
        #expect(fixture.bag.alive.isEmpty)
    }

    @Test("switch, select, the user's tab tap and back button, stop")
    func containersAndPlatform() throws {
        let fixture = try HostedUIKitApp()
        try fixture.tabs.select(at: 1)
        fixture.settleAndExpectScreenMatchesTree("select")
        let tabBar = try #require(
            fixture.host.keptController(fixture.tabs.id) as? UITabBarController)
        tabBar.tap(0)
        #expect(fixture.tabs.selectedIndex == 0)
        fixture.settleAndExpectScreenMatchesTree("tab tapped")
        try fixture.catalog.push(fixture.bag.made(FlowController(name: "a")))
        fixture.settleAndExpectScreenMatchesTree("push")
        let steps = fixture.transitions.performedSteps.count
        try fixture.navigation(fixture.catalog).tapBack()
        #expect(fixture.catalog.entries.map(\.name) == ["list"])  // told in willShow
        fixture.settleAndExpectScreenMatchesTree("back button")
        #expect(fixture.transitions.performedSteps.count == steps)  // not echoed
        try fixture.app.switch(to: "login")
        fixture.settleAndExpectScreenMatchesTree("switch")
        #expect(fixture.bag.alive == ["login"])
        try fixture.runtime.stop()
        #expect(fixture.host.controllerIDs.isEmpty)
        #expect(fixture.host.rootViewController == nil)
    }

    @Test("A push during a running push reaches UIKit after didShow, with every push since")
    func pushDuringPush() throws {
        let fixture = try HostedUIKitApp()
        let navigation = try fixture.navigation(fixture.catalog)
        let sets = navigation.setCount
        let a = FlowController(name: "a")
        try fixture.catalog.push(a)
        #expect(navigation.setCount == sets + 1)
        do {
            let transient = fixture.bag.made(FlowController(name: "transient"))
            try fixture.catalog.push(FlowController(name: "b"))
            try fixture.catalog.push(transient)
            try fixture.catalog.pop()
        }
        #expect(navigation.setCount == sets + 1)  // UIKit still animates the first push
        navigation.finishTransition()  // didShow: the first push is done, the next step starts
        #expect(navigation.setCount == sets + 2)
        #expect(navigation.viewControllers.map(\.title) == ["list", "a", "b"])
        fixture.settleAndExpectScreenMatchesTree("pushes during a push")
        #expect(navigation.setCount == sets + 2)
        #expect(fixture.bag.alive.isEmpty)  // entered and left while UIKit was busy: never shown
    }
}
