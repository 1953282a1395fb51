import Foundation

// Stand-ins for the UIKit scene types the scene delegate of Docs/HostingUIKit.md ("Scenes")
// calls, named and shaped like UIKit's, so that the guide's code compiles and runs on Linux.
// The test plays the system: it makes sessions and scenes and calls the delegates as UIKit
// would (`UIKitSceneSystem`). What the app asks of UIApplication is recorded in `requests`.
//
// What cannot be checked here: when UIKit calls each delegate method (assumed: the order the
// scene life cycle documents), real `NSUserActivity` and `NSPredicate` behaviour, protected
// data, and that a session's persistent identifier survives a relaunch.

@MainActor
class UIResponder {
    init() {}
}

@MainActor
protocol UIApplicationDelegate: AnyObject {}

@MainActor
protocol UISceneDelegate: AnyObject {}

@MainActor
protocol UIWindowSceneDelegate: UISceneDelegate {
    var window: UIWindow? { get set }
}

final class NSUserActivity {
    let activityType: String
    var userInfo: [String: String] = [:]
    var targetContentIdentifier: String?

    init(activityType: String) {
        self.activityType = activityType
    }
}

final class NSPredicate {
    let format: String
    let arguments: [String]

    init(format: String, _ arguments: String...) {
        self.format = format
        self.arguments = arguments
    }
}

struct UIOpenURLContext: Hashable {
    let url: URL
}

@MainActor
final class UISceneSession: Hashable {
    let persistentIdentifier: String
    var stateRestorationActivity: NSUserActivity?

    init(persistentIdentifier: String) {
        self.persistentIdentifier = persistentIdentifier
    }

    nonisolated static func == (lhs: UISceneSession, rhs: UISceneSession) -> Bool { lhs === rhs }
    nonisolated func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

@MainActor
final class UISceneActivationConditions {
    var canActivateForTargetContentIdentifierPredicate: NSPredicate?
    var prefersToActivateForTargetContentIdentifierPredicate: NSPredicate?
}

@MainActor
class UIScene {
    let session: UISceneSession
    var delegate: UISceneDelegate?
    let activationConditions = UISceneActivationConditions()

    init(session: UISceneSession) {
        self.session = session
    }

    struct ConnectionOptions {
        var urlContexts: Set<UIOpenURLContext> = []
        var userActivities: [NSUserActivity] = []
    }
}

@MainActor
final class UIWindowScene: UIScene {}

extension UIWindow {
    convenience init(windowScene: UIWindowScene) {
        self.init()
    }
}

@MainActor
final class UIApplication {
    static let shared = UIApplication()
    var delegate: UIApplicationDelegate?
    var isProtectedDataAvailable = true
    /// What the app asked for, in order (stand-in).
    var requests: [String] = []

    func requestSceneSessionActivation(
        _ session: UISceneSession?, userActivity: NSUserActivity?, options: Any?,
        errorHandler: ((any Error) -> Void)?
    ) {
        let what = session?.persistentIdentifier ?? "a new session"
        let activity = userActivity.map { " with \($0.userInfo)" } ?? ""
        requests.append("activate \(what)\(activity)")
    }

    func requestSceneSessionDestruction(
        _ session: UISceneSession, options: Any?, errorHandler: ((any Error) -> Void)?
    ) {
        requests.append("destroy \(session.persistentIdentifier)")
    }
}
