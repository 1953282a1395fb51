import FlowKit
import FlowKitLinks
import Foundation

// The UIKit scene delegate of Docs/HostingUIKit.md ("Scenes"), verbatim, compiled against the
// stand-ins in Support/UIKitStandIns.swift and Support/UIKitSceneStandIns.swift and exercised
// by HostingGuideScenesTests.swift.

/// The platform side of the app's scenes on UIKit: opens, closes and brings forward scene
/// sessions, and gives each scene's runtime a UIKit transition host.
@MainActor
final class UIKitSceneHost: FlowSceneHost {
    let app: FlowApp
    var sessions: [FlowSceneID: UISceneSession] = [:]
    var hosts: [FlowSceneID: UIKitTransitionHost] = [:]
    private var requested: [String: FlowRoute] = [:]
    private var nextRequest = 0

    init(app: FlowApp) {
        self.app = app
        app.host = self
    }

    func openScene(value: FlowRoute) {
        nextRequest += 1
        let activity = NSUserActivity(activityType: "window")
        activity.userInfo = ["request": "\(nextRequest)"]
        requested["\(nextRequest)"] = value
        UIApplication.shared.requestSceneSessionActivation(
            nil, userActivity: activity, options: nil, errorHandler: nil)
    }

    func closeScene(_ id: FlowSceneID) {
        guard let session = sessions[id] else { return }
        UIApplication.shared.requestSceneSessionDestruction(
            session, options: nil, errorHandler: nil)
    }

    func activateScene(_ id: FlowSceneID) {
        UIApplication.shared.requestSceneSessionActivation(
            sessions[id], userActivity: nil, options: nil, errorHandler: nil)
    }

    func flowHost(for scene: FlowScene) -> (any FlowHost)? {
        let host = UIKitTransitionHost(makeScreen: NodeViewController.init(node:))
        let transitions = FlowTransitions(host: host)
        host.transitions = transitions
        hosts[scene.id] = host
        return transitions
    }

    /// The value a new window was opened for, from its connection options.
    func requestedValue(in options: UIScene.ConnectionOptions) -> FlowRoute? {
        options.userActivities.lazy.compactMap { $0.userInfo["request"] }.first
            .flatMap { requested.removeValue(forKey: $0) }
    }
}

final class AppDelegate: UIResponder, UIApplicationDelegate {
    let app = FlowApp()
    lazy var scenes = UIKitSceneHost(app: app)

    override init() {
        super.init()
        try? app.register(Window.self, uniqueValues: true) { window, _ in makeWindow(window) }
    }

    func application(
        _ application: UIApplication, didDiscardSceneSessions sceneSessions: Set<UISceneSession>
    ) {
        for session in sceneSessions {
            let id = FlowSceneID(session.persistentIdentifier)
            scenes.sessions[id] = nil
            // A session of an earlier launch that never connected in this one is not the
            // app's: noSuchScene is expected then.
            try? app.report(.discard, for: id)
        }
    }

    func applicationProtectedDataDidBecomeAvailable(_ application: UIApplication) {
        for scene in app.scenes where scene.isRestoring {
            try? app.restorationDidArrive(for: scene.id, snapshot: app.store.snapshot(of: scene.id))
            scenes.hosts[scene.id]?.runtime = scene.runtime
        }
    }
}

final class SceneDelegate: UIResponder, UIWindowSceneDelegate {
    var window: UIWindow?
    var scenes: UIKitSceneHost { (UIApplication.shared.delegate as! AppDelegate).scenes }
    var links = FlowURLRouter(scheme: "books")
    private var hasBeenActive = false

    override init() {
        super.init()
        try? links.add("/books/:id") { match in
            [.child(Page.shelf), .push(Page.book(id: try match.int("id", in: 1...999)))]
        }
    }

    func scene(
        _ scene: UIScene, willConnectTo session: UISceneSession,
        options connectionOptions: UIScene.ConnectionOptions
    ) {
        guard let windowScene = scene as? UIWindowScene else { return }
        let id = FlowSceneID(session.persistentIdentifier)
        scenes.sessions[id] = session
        let value = scenes.requestedValue(in: connectionOptions)
        let restoration: FlowSceneRestoration =
            value != nil ? .none : UIApplication.shared.isProtectedDataAvailable ? .stored : .later
        do {
            let connected: FlowScene
            do {
                connected = try scenes.app.connect(id, value: value, restoration: restoration)
            } catch FlowSceneError.unknownSceneValue {
                connected = try scenes.app.connect(id, value: FlowRoute(Window.main))
            }
            let window = UIWindow(windowScene: windowScene)
            scenes.hosts[id]?.runtime = connected.runtime
            window.rootViewController = scenes.hosts[id]?.rootViewController
            self.window = window
            windowScene.activationConditions.prefersToActivateForTargetContentIdentifierPredicate =
                NSPredicate(format: "self == %@", "\(connected.value)")
        } catch {
            print("scene \(id) could not connect: \(error)")
        }
        for context in connectionOptions.urlContexts {
            open(context.url, in: id)
        }
    }

    func scene(_ scene: UIScene, openURLContexts URLContexts: Set<UIOpenURLContext>) {
        for context in URLContexts {
            open(context.url, in: FlowSceneID(scene.session.persistentIdentifier))
        }
    }

    /// Routes a URL. Until the scene has been active once, a URL is the launch's: UIKit may
    /// hand it over twice (in the connection options and in `openURLContexts`), so both
    /// deliveries share an identity and it runs once.
    private func open(_ url: URL, in id: FlowSceneID) {
        let delivery =
            hasBeenActive ? nil : FlowDeliveryID(source: "launch", token: url.absoluteString)
        do {
            let link = try links.link(for: url) { steps in
                guard case .book(let book)? = steps.last?.route.value(as: Page.self) else {
                    return nil
                }
                return FlowRoute(Window.book(id: book))
            }
            try scenes.app.open(link, delivery: delivery, receivedBy: id)
        } catch {
            print("\(url): \(error)")
        }
    }

    func sceneWillEnterForeground(_ scene: UIScene) { report(.enterForeground, scene) }

    func sceneDidBecomeActive(_ scene: UIScene) {
        hasBeenActive = true
        report(.activate, scene)
    }

    func sceneWillResignActive(_ scene: UIScene) { report(.deactivate, scene) }

    func sceneDidEnterBackground(_ scene: UIScene) { report(.enterBackground, scene) }

    func sceneDidDisconnect(_ scene: UIScene) { report(.disconnect, scene) }

    /// The snapshot is in the app's store under the session's identity (saved on
    /// `enterBackground`); the activity tells UIKit the session has state to restore.
    func stateRestorationActivity(for scene: UIScene) -> NSUserActivity? {
        NSUserActivity(activityType: "flowkit.scene")
    }

    private func report(_ fact: FlowSceneFact, _ scene: UIScene) {
        let id = FlowSceneID(scene.session.persistentIdentifier)
        do {
            try scenes.app.report(fact, for: id)
        } catch {
            print("scene \(id): \(error)")
        }
    }
}
