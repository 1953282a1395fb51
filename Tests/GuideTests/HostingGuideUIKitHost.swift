import FlowKit
import Foundation

// The UIKit host of Docs/HostingUIKit.md, verbatim, compiled against the stand-ins in
// Support/UIKitStandIns.swift and exercised by HostingGuideTests.swift and
// HostingGuideGestureTests.swift.

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

/// Shows FlowKit's tree with UIKit, one transition at a time: ``FlowTransitions`` plans the
/// steps, this host performs each with the matching UIKit call and completes it when UIKit
/// has finished it. The user's own changes come back through UIKit's delegates.
@MainActor
final class UIKitTransitionHost: NSObject, FlowTransitionHost, UINavigationControllerDelegate,
    UIAdaptivePresentationControllerDelegate, UIGestureRecognizerDelegate,
    UITabBarControllerDelegate
{
    let transitionRules = FlowTransitionRules.uiKit
    weak var runtime: FlowRuntime?
    weak var transitions: FlowTransitions?
    /// The window's root view controller, once the tree is shown.
    private(set) var rootViewController: UIViewController?
    private let makeScreen: (FlowController) -> NodeViewController
    /// A view controller per node UIKit shows (or is about to).
    private var controllers: [FlowNodeID: UIViewController] = [:]
    /// The steps UIKit is animating in navigation controllers, by stack: done in `didShow`.
    private var running: [FlowNodeID: FlowTransitionCompletion] = [:]
    /// Steps that wait for a transition UIKit started on its own (the back button, the rest
    /// of a swipe) to end, by stack.
    private var waiting: [FlowNodeID: ([UIViewController], FlowTransitionCompletion)] = [:]
    /// The sheet the user is dragging down.
    private var sheetDrag: FlowInteractiveTransition?

    init(makeScreen: @escaping (FlowController) -> NodeViewController) {
        self.makeScreen = makeScreen
    }

    // MARK: FlowKit's steps

    func perform(
        _ step: FlowTransitionStep, in runtime: FlowRuntime, completion: FlowTransitionCompletion
    ) {
        switch step.kind {
        case .start:
            rootViewController = runtime.node(id: step.container).map(controller(for:))
            completion.done()
        case .setEntries(_, let to):
            let navigation = controllers[step.container] as! UINavigationController
            let entries = controllers(for: to, in: runtime)
            if navigation.transitionCoordinator != nil {
                waiting[step.container] = (entries, completion)  // UIKit moves on its own
            } else {
                running[step.container] = completion
                navigation.setViewControllers(entries, animated: true)
            }
        case .setChildren(_, let to):
            let container = controllers[step.container]!
            let children = controllers(for: to, in: runtime)
            if let tabBar = container as? UITabBarController {
                tabBar.setViewControllers(children, animated: false)
            } else {
                embed(children, in: container)
            }
            forgetWhatLeft()
            completion.done()
        case .select(_, let to):
            (controllers[step.container] as! UITabBarController).selectedIndex = to
            completion.done()
        case .present(let id):
            let presenter = controllers[step.container]!
            let presented = controllers(for: [id], in: runtime)[0]
            presented.presentationController?.delegate = self
            presenter.present(presented, animated: true) { completion.done() }
        case .dismiss:
            // The presenter may have left the tree: UIKit still shows it, so it is kept.
            controllers[step.container]!.dismiss(animated: true) { [weak self] in
                self?.forgetWhatLeft()
                completion.done()
            }
        case .stop:
            rootViewController = nil
            controllers.removeAll()
            completion.done()
        }
    }

    /// The view controllers of the nodes `ids` (live: a step never shows a node that left).
    private func controllers(for ids: [FlowNodeID], in runtime: FlowRuntime) -> [UIViewController] {
        ids.map { id in controllers[id] ?? controller(for: runtime.node(id: id)!) }
    }

    /// The view controller of `node`, made once with its embedded subtree as it is now (what
    /// FlowKit expects a step that shows a node to show), never what it presents.
    private func controller(for node: FlowController) -> UIViewController {
        if let existing = controllers[node.id] { return existing }
        let children = node.children.map(controller(for:))
        let made: UIViewController
        switch node {
        case is FlowStack:
            let navigation = UINavigationController()
            navigation.setViewControllers(children, animated: false)
            navigation.delegate = self
            navigation.interactivePopGestureRecognizer?.delegate = self
            made = navigation
        case let tabs as FlowTabs:
            let tabBar = UITabBarController()
            tabBar.setViewControllers(children, animated: false)
            tabBar.selectedIndex = tabs.selectedIndex
            tabBar.delegate = self
            made = tabBar
        default:
            made = makeScreen(node)
            embed(children, in: made)
        }
        controllers[node.id] = made
        return made
    }

    /// Makes `children` the child view controllers of `container` (a switch's child, a
    /// flow's embedded node); lay their views out as the app's design wants.
    private func embed(_ children: [UIViewController], in container: UIViewController) {
        for old in container.children where !children.contains(where: { $0 === old }) {
            old.willMove(toParent: nil)
            old.removeFromParent()
        }
        for child in children where child.parent !== container {
            container.addChild(child)
            child.didMove(toParent: container)
        }
    }

    /// Forgets the view controller of every node that left the tree and that UIKit no longer
    /// shows (or is about to show).
    private func forgetWhatLeft() {
        var shown = Set<ObjectIdentifier>()
        var pending = [rootViewController].compactMap { $0 } + waiting.values.flatMap(\.0)
        while let viewController = pending.popLast() {
            guard shown.insert(ObjectIdentifier(viewController)).inserted else { continue }
            pending += viewController.children
            if let presented = viewController.presentedViewController { pending.append(presented) }
        }
        controllers = controllers.filter { id, viewController in
            runtime?.node(id: id) != nil || shown.contains(ObjectIdentifier(viewController))
        }
    }

    private func nodeID(of viewController: UIViewController) -> FlowNodeID? {
        controllers.first { $0.value === viewController }?.key
    }

    // MARK: Navigation controllers

    /// Before every transition: one UIKit starts on its own is the swipe back, which
    /// FlowKit learns of when the user lets go, or the back button, which it learns of now.
    func navigationController(
        _ navigationController: UINavigationController, willShow viewController: UIViewController,
        animated: Bool
    ) {
        guard let stackID = nodeID(of: navigationController), running[stackID] == nil else {
            return
        }
        guard let coordinator = navigationController.transitionCoordinator else {
            userWentBack(to: viewController, in: stackID)  // a pop without animation
            return
        }
        if coordinator.isInteractive {
            // The swipe `gestureRecognizerShouldBegin` allowed: nothing changes until the
            // user lets go.
            let stack = runtime?.node(id: stackID) as? FlowStack
            let swipe = stack.flatMap { try? transitions?.beginInteractivePop(on: $0) }
            coordinator.notifyWhenInteractionChanges { context in
                if context.isCancelled { swipe?.cancel() } else { swipe?.commit() }
            }
        } else {
            userWentBack(to: viewController, in: stackID)
        }
        // Steps FlowKit plans meanwhile wait for the end (`didShow`, or this for a swipe
        // given up, which has no `didShow`).
        coordinator.animate(alongsideTransition: nil) { [weak self] context in
            if context.isCancelled { self?.performWaitingStep(of: stackID) }
        }
    }

    /// After every transition: the end of a step, or of a change UIKit made on its own.
    func navigationController(
        _ navigationController: UINavigationController, didShow viewController: UIViewController,
        animated: Bool
    ) {
        guard let stackID = nodeID(of: navigationController) else { return }
        if let completion = running.removeValue(forKey: stackID) {
            forgetWhatLeft()
            completion.done()
            return
        }
        forgetWhatLeft()
        performWaitingStep(of: stackID)
    }

    /// UIKit pops to `viewController` on its own: FlowKit tears down what it removes.
    private func userWentBack(to viewController: UIViewController, in stackID: FlowNodeID) {
        guard let stack = runtime?.node(id: stackID) as? FlowStack,
            let shown = viewController as? NodeViewController,
            let entry = stack.entries.last(where: { $0.id == shown.nodeID }), stack.top !== entry
        else { return }
        do {
            try stack.platformDidPop(to: entry)
        } catch {
            assertionFailure("\(error)")
        }
    }

    private func performWaitingStep(of stackID: FlowNodeID) {
        guard let (entries, completion) = waiting.removeValue(forKey: stackID),
            let navigation = controllers[stackID] as? UINavigationController
        else { return }
        running[stackID] = completion
        navigation.setViewControllers(entries, animated: true)
    }

    /// The swipe back begins only if FlowKit allows it: no transition runs there, and the
    /// exit guards of the entry it would pop allow it.
    func gestureRecognizerShouldBegin(_ gestureRecognizer: UIGestureRecognizer) -> Bool {
        guard let transitions,
            let stackID = controllers.first(where: {
                ($0.value as? UINavigationController)?.interactivePopGestureRecognizer
                    === gestureRecognizer
            })?.key,
            let stack = runtime?.node(id: stackID) as? FlowStack
        else { return false }
        return transitions.canBeginInteractivePop(on: stack)
    }

    // MARK: Sheets

    /// The presenter of the node `controller` shows, if it is in the tree.
    private func presenter(of controller: UIPresentationController) -> FlowController? {
        nodeID(of: controller.presentedViewController).flatMap { runtime?.node(id: $0) }?.parent
    }

    /// A sheet may be dragged away only if FlowKit allows it (its exit guards included).
    func presentationControllerShouldDismiss(_ controller: UIPresentationController) -> Bool {
        guard let transitions, let presenter = presenter(of: controller) else { return false }
        return transitions.canBeginInteractiveDismiss(of: presenter)
    }

    /// The drag began: nothing changes until it ends. A drag the user gives up ends in the
    /// coordinator's completion, once the sheet is back in place.
    func presentationControllerWillDismiss(_ controller: UIPresentationController) {
        guard let transitions, let presenter = presenter(of: controller) else { return }
        let drag = try? transitions.beginInteractiveDismiss(of: presenter)
        sheetDrag = drag
        controller.presentedViewController.transitionCoordinator?.animate(
            alongsideTransition: nil
        ) { [weak self] context in
            guard context.isCancelled else { return }
            drag?.cancel()
            self?.sheetDrag = nil
        }
    }

    /// The sheet is gone: FlowKit tears its subtree down.
    func presentationControllerDidDismiss(_ controller: UIPresentationController) {
        sheetDrag?.commit()
        sheetDrag = nil
        forgetWhatLeft()
    }

    // MARK: Tabs

    /// A tab tapped.
    func tabBarController(
        _ tabBarController: UITabBarController, didSelect viewController: UIViewController
    ) {
        guard let tabsID = nodeID(of: tabBarController),
            let tabs = runtime?.node(id: tabsID) as? FlowTabs,
            tabs.tabs.indices.contains(tabBarController.selectedIndex)
        else { return }
        do {
            try tabs.platformDidSelect(tabs.tabs[tabBarController.selectedIndex])
        } catch {
            assertionFailure("\(error)")
        }
    }
}

extension UIKitTransitionHost {
    /// The identities the host keeps a view controller for (for the tests).
    var controllerIDs: Set<FlowNodeID> { Set(controllers.keys) }

    /// The view controller kept for `id`, if any (for the tests).
    func keptController(_ id: FlowNodeID) -> UIViewController? { controllers[id] }
}
