import Foundation

// Stand-ins for the few UIKit types the UIKit host of Docs/Hosting.md calls, named and shaped
// like UIKit's, so that the guide's code compiles and runs on Linux unchanged. They do what
// the host relies on, synchronously (no animation): a navigation controller shows the view
// controllers it is given, a view controller presents and dismisses one other, a tab bar
// controller selects. Their "user" methods (`tapBack`, `swipeDown`, `tap`) change the screen
// the way the platform does on its own and then call the delegate, as UIKit does.
//
// What cannot be checked here: UIKit's animation and its timing (the transitions a real
// UINavigationController refuses while one is running) — see Docs/Hosting.md.

@MainActor
class UIViewController {
    var title: String?
    private(set) var presentedViewController: UIViewController?
    private(set) weak var presentingViewController: UIViewController?
    private var _presentationController: UIPresentationController?
    /// Every present or dismiss call, for tests: `present NAME` / `dismiss`.
    static var calls: [String] = []

    init(nibName: String?, bundle: Bundle?) {}

    required init?(coder: NSCoder) { nil }

    var presentationController: UIPresentationController? {
        if let existing = _presentationController { return existing }
        let made = UIPresentationController(presented: self)
        _presentationController = made
        return made
    }

    func present(
        _ viewController: UIViewController, animated: Bool,
        completion: (@MainActor @Sendable () -> Void)? = nil
    ) {
        precondition(presentedViewController == nil, "already presenting")
        precondition(viewController.presentingViewController == nil, "presented elsewhere")
        Self.calls.append("present \(viewController.title ?? "?")")
        presentedViewController = viewController
        viewController.presentingViewController = self
        completion?()
    }

    func dismiss(animated: Bool, completion: (@MainActor @Sendable () -> Void)? = nil) {
        Self.calls.append("dismiss")
        presentedViewController?.presentingViewController = nil
        presentedViewController = nil
        completion?()
    }

    /// The user swiped the presented sheet away: the platform dismissed it, then tells the
    /// sheet's presentation controller delegate.
    func swipeDown() {
        guard let sheet = presentedViewController else { return }
        let controller = sheet.presentationController
        presentedViewController = nil
        sheet.presentingViewController = nil
        if let controller { controller.delegate?.presentationControllerDidDismiss(controller) }
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
    func presentationControllerDidDismiss(_ presentationController: UIPresentationController)
}

@MainActor
protocol UINavigationControllerDelegate: AnyObject {
    func navigationController(
        _ navigationController: UINavigationController, didShow viewController: UIViewController,
        animated: Bool)
}

@MainActor
final class UINavigationController: UIViewController {
    weak var delegate: (any UINavigationControllerDelegate)?
    private(set) var viewControllers: [UIViewController] = []
    /// How many times the host set the view controllers.
    private(set) var setCount = 0

    init() { super.init(nibName: nil, bundle: nil) }

    required init?(coder: NSCoder) { nil }

    func setViewControllers(_ viewControllers: [UIViewController], animated: Bool) {
        setCount += 1
        self.viewControllers = viewControllers
    }

    /// The user tapped back: the platform pops, then tells its delegate what it shows.
    func tapBack() {
        guard viewControllers.count > 1 else { return }
        viewControllers.removeLast()
        delegate?.navigationController(self, didShow: viewControllers.last!, animated: true)
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
    private(set) var viewControllers: [UIViewController]?
    var selectedIndex = 0

    init() { super.init(nibName: nil, bundle: nil) }

    required init?(coder: NSCoder) { nil }

    func setViewControllers(_ viewControllers: [UIViewController]?, animated: Bool) {
        self.viewControllers = viewControllers
    }

    /// The user tapped tab `index`: the platform selects it, then tells its delegate.
    func tap(_ index: Int) {
        selectedIndex = index
        delegate?.tabBarController(self, didSelect: viewControllers![index])
    }
}
