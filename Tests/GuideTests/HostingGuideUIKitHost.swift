import FlowKit
import Foundation

// The UIKit host of Docs/Hosting.md, verbatim, compiled against the stand-ins in
// Support/UIKitStandIns.swift and exercised by HostingGuideTests.swift.

/// A view controller that knows the node it shows.
class NodeViewController: UIViewController {
    let nodeID: FlowNodeID
    init(node: FlowController) {
        nodeID = node.id
        super.init(nibName: nil, bundle: nil)
        title = node.name
    }
    required init?(coder: NSCoder) { fatalError("not used") }
}

@MainActor
final class UIKitHost: NSObject, FlowHost, UINavigationControllerDelegate,
    UIAdaptivePresentationControllerDelegate, UITabBarControllerDelegate
{
    weak var runtime: FlowRuntime?
    private let makeScreen: (FlowController) -> NodeViewController
    private var controllers: [FlowNodeID: UIViewController] = [:]

    init(makeScreen: @escaping (FlowController) -> NodeViewController) {
        self.makeScreen = makeScreen
    }

    /// The view controller of `node`, made once (shown by `show(_:keeping:)`).
    func controller(for node: FlowController) -> UIViewController {
        if let existing = controllers[node.id] { return existing }
        let made: UIViewController
        switch node {
        case is FlowStack:
            let navigation = UINavigationController()
            navigation.delegate = self
            made = navigation
        case is FlowTabs:
            let tabBar = UITabBarController()
            tabBar.delegate = self
            made = tabBar
        default:
            made = makeScreen(node)
        }
        controllers[node.id] = made
        return made
    }

    // MARK: FlowKit's changes

    /// Every kind of change ends here: a push or a pop, a path's `.present` step, a global
    /// route `open` presents, an unwind's dismissals and pops, a tab selection. The host does
    /// not decode the change: it makes the screen show the tree again.
    func apply(_ change: FlowChange, in runtime: FlowRuntime) {
        sync(with: runtime)
    }

    /// Shows the tree from the root down, then forgets the view controllers of every node
    /// that left it (whole exited subtrees, and entries the platform popped).
    func sync(with runtime: FlowRuntime) {
        var live = Set<FlowNodeID>()
        if runtime.isRunning, let root = runtime.root { show(root, keeping: &live) }
        for (id, gone) in controllers where !live.contains(id) {
            // A sheet presented from a node that left (a popped entry) goes with it.
            if gone.presentedViewController != nil { gone.dismiss(animated: false) }
        }
        controllers = controllers.filter { live.contains($0.key) }
    }

    private func show(_ node: FlowController, keeping live: inout Set<FlowNodeID>) {
        live.insert(node.id)
        let shown = controller(for: node)
        switch node {
        case let stack as FlowStack:
            let navigation = shown as! UINavigationController
            let entries = stack.entries.map(controller(for:))
            if navigation.viewControllers.map(ObjectIdentifier.init)
                != entries.map(ObjectIdentifier.init)
            {
                navigation.setViewControllers(entries, animated: true)
            }
        case let tabs as FlowTabs:
            let tabBar = shown as! UITabBarController
            let tabControllers = tabs.tabs.map(controller(for:))
            if (tabBar.viewControllers ?? []).map(ObjectIdentifier.init)
                != tabControllers.map(ObjectIdentifier.init)
            {
                tabBar.setViewControllers(tabControllers, animated: false)
            }
            if tabBar.selectedIndex != tabs.selectedIndex {
                tabBar.selectedIndex = tabs.selectedIndex
            }
        default:
            break
        }
        // What the node presents: dismiss what it should no longer show, then present.
        let wanted = node.presentedChild.map(controller(for:))
        if shown.presentedViewController !== wanted {
            let present: @MainActor @Sendable () -> Void = {
                guard let wanted else { return }
                wanted.presentationController?.delegate = self
                shown.present(wanted, animated: true)
            }
            if shown.presentedViewController != nil {
                shown.dismiss(animated: true, completion: present)
            } else {
                present()
            }
        }
        for child in node.children { show(child, keeping: &live) }
        if let presented = node.presentedChild { show(presented, keeping: &live) }
    }

    // MARK: The platform's own changes

    /// The back button, the swipe and the long-press on back all end here.
    func navigationController(
        _ navigationController: UINavigationController, didShow viewController: UIViewController,
        animated: Bool
    ) {
        guard let runtime, let shown = viewController as? NodeViewController,
            let entry = runtime.node(id: shown.nodeID),
            let stack = entry.parent as? FlowStack, stack.top !== entry
        else { return }
        do {
            try stack.platformDidPop(to: entry)
        } catch {
            assertionFailure("\(error)")
        }
        sync(with: runtime)  // the host is not told of platform changes: forget the popped
    }

    /// A sheet swiped away.
    func presentationControllerDidDismiss(_ presentationController: UIPresentationController) {
        guard let runtime,
            let shown = presentationController.presentedViewController as? NodeViewController,
            let presented = runtime.node(id: shown.nodeID), let presenter = presented.parent
        else { return }
        do {
            try presenter.platformDidDismiss()
        } catch {
            assertionFailure("\(error)")
        }
        sync(with: runtime)
    }

    /// A tab tapped.
    func tabBarController(
        _ tabBarController: UITabBarController, didSelect viewController: UIViewController
    ) {
        guard let runtime,
            let tabsID = controllers.first(where: { $0.value === tabBarController })?.key,
            let tabs = runtime.node(id: tabsID) as? FlowTabs,
            tabs.tabs.indices.contains(tabBarController.selectedIndex)
        else { return }
        do {
            try tabs.platformDidSelect(tabs.tabs[tabBarController.selectedIndex])
        } catch {
            assertionFailure("\(error)")
        }
        sync(with: runtime)
    }
}

extension UIKitHost {
    /// The identities the host keeps a view controller for (for the tests).
    var controllerIDs: Set<FlowNodeID> { Set(controllers.keys) }

    /// The view controller kept for `id`, if any (for the tests).
    func keptController(_ id: FlowNodeID) -> UIViewController? { controllers[id] }
}
