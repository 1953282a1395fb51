import Foundation

// Stand-ins for the UIKit types the UIKit host of Docs/HostingUIKit.md calls, named and shaped
// like UIKit's, so that the guide's code compiles and runs on Linux unchanged.
//
// Transitions take time here as in UIKit, but the clock is the test: an animated transition
// (a navigation controller's `setViewControllers`, a presentation, a dismissal, a back-button
// pop, the rest of a swipe or a sheet drag after the user let go) runs until the test calls
// `finishTransition()` on the view controller it runs in, or `UIKitStandIns.finishTransitions()`
// for all of them. Then, as UIKit does, the transition coordinator's completions run, then the
// delegate is told (`didShow`, `presentationControllerDidDismiss`) or the completion block
// called. A transition without animation ends at once.
//
// The user's actions are methods the test calls: `tapBack()`, `beginInteractivePop()` and
// `finishInteractivePop(cancelled:)` on a navigation controller, `beginSheetDrag()` and
// `finishSheetDrag(cancelled:)` on a presenter, `tap(_:)` on a tab bar. Each asks the
// delegate first where UIKit does (`gestureRecognizerShouldBegin`,
// `presentationControllerShouldDismiss`).
//
// What UIKit refuses or gets wrong is recorded in `UIKitStandIns.illegalCalls` (a test expects
// it empty): setting a navigation controller's view controllers while it is in a transition,
// presenting or dismissing while another presentation transition runs, presenting from a view
// controller that presents already, dismissing where nothing is presented.
//
// What cannot be checked here: the real order of UIKit's callbacks around the end of a
// transition (assumed: the coordinator's completions, then the delegate), views, layout and
// adaptivity — see Docs/HostingUIKit.md.

/// The stand-ins' shared state: the transitions running and the illegal calls. Tests are
/// synchronous on the main actor, so one test's use cannot interleave with another's; each
/// starts with `reset()`.
@MainActor
enum UIKitStandIns {
    /// What UIKit would have refused or got wrong, in order.
    static var illegalCalls: [String] = []
    /// The animated transitions running, oldest first.
    static var running: [StandInTransition] = []

    static func reset() {
        illegalCalls = []
        running = []
    }

    /// Ends every running transition, and those their completions start, oldest first (at
    /// most 1,000).
    static func finishTransitions() {
        var rounds = 0
        while let next = running.first, rounds < 1_000 {
            next.finish()
            rounds += 1
        }
    }

    /// Whether a presentation or dismissal is running anywhere (UIKit allows one at a time).
    static var isPresentationTransitionRunning: Bool {
        running.contains { $0.isPresentation }
    }
}

/// One animated transition of the stand-ins, ended by the test.
@MainActor
final class StandInTransition: UIViewControllerTransitionCoordinator {
    /// The view controller the transition runs in (the navigation controller, the presenter).
    unowned let owner: UIViewController
    let isPresentation: Bool
    private(set) var isInteractive: Bool
    private(set) var isCancelled = false
    private var interactionHandlers: [(any UIViewControllerTransitionCoordinatorContext) -> Void] =
        []
    private var completions: [(any UIViewControllerTransitionCoordinatorContext) -> Void] = []
    /// What the owner does when the transition ends (before the completions), and after them
    /// (the delegate call, the completion block).
    private let end: (_ cancelled: Bool) -> Void
    private let tell: (_ cancelled: Bool) -> Void

    init(
        owner: UIViewController, isPresentation: Bool, isInteractive: Bool,
        end: @escaping (Bool) -> Void = { _ in }, tell: @escaping (Bool) -> Void
    ) {
        self.owner = owner
        self.isPresentation = isPresentation
        self.isInteractive = isInteractive
        self.end = end
        self.tell = tell
    }

    func notifyWhenInteractionChanges(
        _ handler: @escaping (any UIViewControllerTransitionCoordinatorContext) -> Void
    ) {
        interactionHandlers.append(handler)
    }

    @discardableResult
    func animate(
        alongsideTransition animation: (
            (any UIViewControllerTransitionCoordinatorContext) -> Void
        )?,
        completion: ((any UIViewControllerTransitionCoordinatorContext) -> Void)? = nil
    ) -> Bool {
        animation?(self)
        if let completion { completions.append(completion) }
        return true
    }

    /// The user let go: the interaction ends, the rest of the transition runs.
    func endInteraction(cancelled: Bool) {
        guard isInteractive else { return }
        isInteractive = false
        isCancelled = cancelled
        for handler in interactionHandlers { handler(self) }
    }

    /// The animation ends: the owner's state, the coordinator's completions, then the
    /// delegate or completion block.
    func finish() {
        UIKitStandIns.running.removeAll { $0 === self }
        if owner._transition === self { owner._transition = nil }
        end(isCancelled)
        for completion in completions { completion(self) }
        tell(isCancelled)
    }
}

@MainActor
protocol UIViewControllerTransitionCoordinatorContext: AnyObject {
    var isInteractive: Bool { get }
    var isCancelled: Bool { get }
}

@MainActor
protocol UIViewControllerTransitionCoordinator: UIViewControllerTransitionCoordinatorContext {
    func notifyWhenInteractionChanges(
        _ handler: @escaping (any UIViewControllerTransitionCoordinatorContext) -> Void)
    @discardableResult
    func animate(
        alongsideTransition animation: (
            (any UIViewControllerTransitionCoordinatorContext) -> Void
        )?,
        completion: ((any UIViewControllerTransitionCoordinatorContext) -> Void)?
    ) -> Bool
}

@MainActor
class UIViewController {
    var title: String?
    private(set) var presentedViewController: UIViewController?
    private(set) weak var presentingViewController: UIViewController?
    private(set) var children: [UIViewController] = []
    private(set) weak var parent: UIViewController?
    private var _presentationController: UIPresentationController?
    /// The animated transition running in this view controller (stand-in).
    var _transition: StandInTransition?

    init(nibName: String?, bundle: Bundle?) {}

    required init?(coder: NSCoder) { nil }

    var presentationController: UIPresentationController? {
        if let existing = _presentationController { return existing }
        let made = UIPresentationController(presented: self)
        _presentationController = made
        return made
    }

    /// The coordinator of the transition this view controller (or its parent) is in.
    var transitionCoordinator: (any UIViewControllerTransitionCoordinator)? {
        _transition ?? presentingViewController?._transition ?? parent?.transitionCoordinator
    }

    // MARK: Containment

    func addChild(_ child: UIViewController) {
        child.parent?.removeChild(child)
        children.append(child)
        child.parent = self
    }

    func removeFromParent() {
        parent?.removeChild(self)
    }

    func willMove(toParent parent: UIViewController?) {}

    func didMove(toParent parent: UIViewController?) {}

    /// Containers that keep their children in an order of their own set them here.
    func _setChildren(_ newChildren: [UIViewController]) {
        for child in children where !newChildren.contains(where: { $0 === child }) {
            child.parent = nil
        }
        for child in newChildren {
            if let old = child.parent, old !== self { old.removeChild(child) }
            child.parent = self
        }
        children = newChildren
    }

    private func removeChild(_ child: UIViewController) {
        children.removeAll { $0 === child }
        if child.parent === self { child.parent = nil }
    }

    // MARK: Presentation

    func present(
        _ viewController: UIViewController, animated: Bool,
        completion: (@MainActor () -> Void)? = nil
    ) {
        let name = viewController.title ?? "?"
        if UIKitStandIns.isPresentationTransitionRunning {
            UIKitStandIns.illegalCalls.append("present \(name) during a presentation transition")
        }
        if presentedViewController != nil {
            UIKitStandIns.illegalCalls.append("present \(name) from \(title ?? "?"), presenting")
            return
        }
        presentedViewController = viewController
        viewController.presentingViewController = self
        run(animated: animated, isPresentation: true) { _ in completion?() }
    }

    /// Dismisses what this view controller presents, with whatever that presents.
    func dismiss(animated: Bool, completion: (@MainActor () -> Void)? = nil) {
        if UIKitStandIns.isPresentationTransitionRunning {
            UIKitStandIns.illegalCalls.append("dismiss during a presentation transition")
        }
        guard let presented = presentedViewController else {
            UIKitStandIns.illegalCalls.append("dismiss from \(title ?? "?"): nothing presented")
            return
        }
        run(
            animated: animated, isPresentation: true,
            end: { [weak self] _ in self?.removePresentation(presented) }
        ) { _ in completion?() }
    }

    /// The user starts dragging the sheet this view controller presents down: the sheet's
    /// presentation controller delegate decides whether it moves, and is told it will
    /// dismiss. Returns whether the drag began.
    @discardableResult
    func beginSheetDrag() -> Bool {
        guard let sheet = presentedViewController, _transition == nil,
            !UIKitStandIns.isPresentationTransitionRunning,
            let controller = sheet.presentationController
        else { return false }
        let delegate = controller.delegate
        if delegate?.presentationControllerShouldDismiss(controller) == false { return false }
        let transition = StandInTransition(
            owner: self, isPresentation: true, isInteractive: true,
            end: { [weak self] cancelled in
                if !cancelled { self?.removePresentation(sheet) }
            },
            tell: { cancelled in
                if !cancelled { delegate?.presentationControllerDidDismiss(controller) }
            })
        _transition = transition
        UIKitStandIns.running.append(transition)
        delegate?.presentationControllerWillDismiss(controller)
        return true
    }

    /// The user lets go of the sheet: past the point of no return it goes away, else it
    /// snaps back. Either way the rest of the animation runs until `finishTransition()`.
    func finishSheetDrag(cancelled: Bool) {
        _transition?.endInteraction(cancelled: cancelled)
    }

    /// Ends the animated transition running in this view controller.
    func finishTransition() {
        _transition?.finish()
    }

    private func removePresentation(_ presented: UIViewController) {
        guard presentedViewController === presented else { return }
        presented.presentingViewController = nil
        presentedViewController = nil
    }

    /// Runs a transition in this view controller: at once without animation, else until the
    /// test ends it.
    func run(
        animated: Bool, isPresentation: Bool, end: @escaping (Bool) -> Void = { _ in },
        tell: @escaping (Bool) -> Void
    ) {
        let transition = StandInTransition(
            owner: self, isPresentation: isPresentation, isInteractive: false, end: end,
            tell: tell)
        if animated {
            _transition = transition
            UIKitStandIns.running.append(transition)
        } else {
            transition.finish()
        }
    }
}

@MainActor
final class UIPresentationController {
    weak var delegate: (any UIAdaptivePresentationControllerDelegate)?
    unowned let presentedViewController: UIViewController

    init(presented: UIViewController) {
        presentedViewController = presented
    }
}

@MainActor
protocol UIAdaptivePresentationControllerDelegate: AnyObject {
    func presentationControllerShouldDismiss(
        _ presentationController: UIPresentationController
    )
        -> Bool
    func presentationControllerWillDismiss(_ presentationController: UIPresentationController)
    func presentationControllerDidDismiss(_ presentationController: UIPresentationController)
}

@MainActor
class UIGestureRecognizer {
    weak var delegate: (any UIGestureRecognizerDelegate)?
}

@MainActor
protocol UIGestureRecognizerDelegate: AnyObject {
    func gestureRecognizerShouldBegin(_ gestureRecognizer: UIGestureRecognizer) -> Bool
}

@MainActor
protocol UINavigationControllerDelegate: AnyObject {
    func navigationController(
        _ navigationController: UINavigationController, willShow viewController: UIViewController,
        animated: Bool)
    func navigationController(
        _ navigationController: UINavigationController, didShow viewController: UIViewController,
        animated: Bool)
}

@MainActor
final class UINavigationController: UIViewController {
    weak var delegate: (any UINavigationControllerDelegate)?
    let interactivePopGestureRecognizer: UIGestureRecognizer? = UIGestureRecognizer()
    /// How many times view controllers were set (stand-in, for tests).
    private(set) var setCount = 0

    var viewControllers: [UIViewController] { children }
    var topViewController: UIViewController? { children.last }

    init() { super.init(nibName: nil, bundle: nil) }

    required init?(coder: NSCoder) { nil }

    func setViewControllers(_ viewControllers: [UIViewController], animated: Bool) {
        if _transition != nil {
            UIKitStandIns.illegalCalls.append(
                "setViewControllers on \(title ?? "?") during a transition")
        }
        setCount += 1
        _setChildren(viewControllers)
        show(animated: animated, interactive: false, cancel: {})
    }

    /// The user tapped back: the platform pops the top view controller with animation
    /// (ignored during a transition, as UIKit does).
    func tapBack() {
        guard _transition == nil, viewControllers.count > 1 else { return }
        _setChildren(Array(viewControllers.dropLast()))
        show(animated: true, interactive: false, cancel: {})
    }

    /// The user starts swiping back from the edge: the gesture recognizer's delegate decides
    /// whether it begins; if it does, the top view controller follows the finger. Returns
    /// whether the swipe began.
    @discardableResult
    func beginInteractivePop() -> Bool {
        guard _transition == nil, viewControllers.count > 1,
            let recognizer = interactivePopGestureRecognizer
        else { return false }
        if recognizer.delegate?.gestureRecognizerShouldBegin(recognizer) == false { return false }
        let all = viewControllers
        _setChildren(Array(all.dropLast()))
        show(animated: true, interactive: true, cancel: { [weak self] in self?._setChildren(all) })
        return true
    }

    /// The user lets go of the swipe: past the point of no return the pop completes, else the
    /// top view controller slides back. Either way the rest of the animation runs until
    /// `finishTransition()`.
    func finishInteractivePop(cancelled: Bool) {
        _transition?.endInteraction(cancelled: cancelled)
    }

    /// Tells the delegate `willShow` now and `didShow` when the transition ends (not when a
    /// swipe is cancelled: UIKit does not).
    private func show(animated: Bool, interactive: Bool, cancel: @escaping () -> Void) {
        guard let top = topViewController else { return }
        let transition = StandInTransition(
            owner: self, isPresentation: false, isInteractive: interactive,
            end: { cancelled in if cancelled { cancel() } },
            tell: { [weak self] cancelled in
                guard let self, !cancelled else { return }
                self.delegate?.navigationController(self, didShow: top, animated: animated)
            })
        if animated {
            _transition = transition
            UIKitStandIns.running.append(transition)
        }
        delegate?.navigationController(self, willShow: top, animated: animated)
        if !animated { transition.finish() }
    }
}

@MainActor
protocol UITabBarControllerDelegate: AnyObject {
    func tabBarController(
        _ tabBarController: UITabBarController, didSelect viewController: UIViewController)
}

@MainActor
final class UITabBarController: UIViewController {
    weak var delegate: (any UITabBarControllerDelegate)?
    var selectedIndex = 0

    var viewControllers: [UIViewController]? { children }

    init() { super.init(nibName: nil, bundle: nil) }

    required init?(coder: NSCoder) { nil }

    func setViewControllers(_ viewControllers: [UIViewController]?, animated: Bool) {
        _setChildren(viewControllers ?? [])
        if !children.indices.contains(selectedIndex) { selectedIndex = 0 }
    }

    /// The user tapped tab `index`: the platform selects it, then tells its delegate.
    func tap(_ index: Int) {
        selectedIndex = index
        delegate?.tabBarController(self, didSelect: children[index])
    }
}

@MainActor
final class UIWindow {
    var rootViewController: UIViewController?

    init() {}
}
