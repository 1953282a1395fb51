import FlowKit
import Foundation
import Testing

/// Plays UIKit's scene system for the scene delegate of Docs/HostingUIKit.md ("Scenes").
@MainActor
@Suite("Guide: hosting scenes with UIKit and SwiftUI")
struct HostingGuideScenesTests {
    /// Connects a session's scene as UIKit does, with a new scene delegate.
    func connect(
        _ session: UISceneSession, urls: [String] = [], activities: [NSUserActivity] = []
    ) -> (UIWindowScene, SceneDelegate) {
        let scene = UIWindowScene(session: session)
        let delegate = SceneDelegate()
        scene.delegate = delegate
        let options = UIScene.ConnectionOptions(
            urlContexts: Set(urls.map { UIOpenURLContext(url: URL(string: $0)!) }),
            userActivities: activities)
        delegate.scene(scene, willConnectTo: session, options: options)
        return (scene, delegate)
    }

    func foreground(_ scene: UIScene, _ delegate: SceneDelegate) {
        delegate.sceneWillEnterForeground(scene)
        delegate.sceneDidBecomeActive(scene)
    }

    func background(_ scene: UIScene, _ delegate: SceneDelegate) {
        delegate.sceneWillResignActive(scene)
        delegate.sceneDidEnterBackground(scene)
    }

    @Test("Cold launch with a URL, a second delivery, a window opened for a book, reclaim, discard")
    func sceneDelegate() throws {
        UIKitStandIns.reset()
        let appDelegate = AppDelegate()
        UIApplication.shared.delegate = appDelegate
        UIApplication.shared.requests = []
        UIApplication.shared.isProtectedDataAvailable = true
        let app = appDelegate.app

        // Cold launch: the URL arrives in the options, and again in openURLContexts.
        let first = UISceneSession(persistentIdentifier: "S1")
        let (scene1, delegate1) = connect(first, urls: ["books://books/12"])
        delegate1.scene(
            scene1, openURLContexts: [UIOpenURLContext(url: URL(string: "books://books/12")!)])
        foreground(scene1, delegate1)
        let main = try #require(app.scene("S1"))
        #expect(main.runtime?.treeDescription() == "* shelf\n    shelf\n  * book-12")
        #expect(delegate1.window?.rootViewController != nil)
        #expect(
            app.trace.lines.filter { $0.hasPrefix("route") } == [
                "route link book(id: 12): resolvesRoute scene S1: it received the link resolves the route",
                "route link book(id: 12): duplicate: delivery launch:books://books/12 ran already in this launch",
            ])
        #expect(
            scene1.activationConditions.prefersToActivateForTargetContentIdentifierPredicate?
                .arguments == ["main"])

        // Open in a new window: UIKit is asked for a session, then connects it with the request.
        let link = FlowLink(
            [.child(Page.shelf), .push(Page.book(id: 12))],
            sceneValue: FlowRoute(Window.book(id: 12)))
        try app.openInNewScene(link, from: "S1", removingFromSource: true)
        #expect(
            UIApplication.shared.requests == [
                "activate S1",  // the launch's URL brought its window forward
                "activate a new session with [\"request\": \"1\"]",
            ])
        let activity = NSUserActivity(activityType: "window")
        activity.userInfo = ["request": "1"]
        let second = UISceneSession(persistentIdentifier: "S2")
        var (scene2, delegate2) = connect(second, activities: [activity])
        foreground(scene2, delegate2)
        #expect(app.scene("S2")?.value == FlowRoute(Window.book(id: 12)))
        #expect(app.scene("S2")?.runtime?.treeDescription() == "* shelf\n  * book-12")
        #expect(main.runtime?.treeDescription() == "* shelf\n  * shelf")

        // The system reclaims the book window, and brings it back later with its screens.
        background(scene2, delegate2)
        delegate2.sceneDidDisconnect(scene2)
        #expect(app.scene("S2")?.phase == .disconnected)
        (scene2, delegate2) = connect(second)
        #expect(app.scene("S2")?.runtime?.treeDescription() == "* shelf\n  * book-12")
        #expect(delegate2.window?.rootViewController != nil)
        foreground(scene2, delegate2)

        // Locked device: the data comes once protected data is available.
        background(scene2, delegate2)
        delegate2.sceneDidDisconnect(scene2)
        UIApplication.shared.isProtectedDataAvailable = false
        (scene2, delegate2) = connect(second)
        #expect(app.scene("S2")?.isRestoring == true)
        UIApplication.shared.isProtectedDataAvailable = true
        appDelegate.applicationProtectedDataDidBecomeAvailable(UIApplication.shared)
        #expect(app.scene("S2")?.runtime?.treeDescription() == "* shelf\n  * book-12")
        foreground(scene2, delegate2)

        // The user swipes the window away in the switcher: disconnect, then discard.
        background(scene2, delegate2)
        delegate2.sceneDidDisconnect(scene2)
        appDelegate.application(UIApplication.shared, didDiscardSceneSessions: [second])
        #expect(app.scene("S2") == nil)
        #expect(try app.store.snapshot(of: "S2") == nil)
        #expect(UIKitStandIns.illegalCalls == [])
    }

    @Test("SwiftUI: windows appear, follow their scene phase, open a window for a book, close")
    func swiftUIScenes() throws {
        let app = FlowApp()
        try app.register(Window.self, uniqueValues: true) { window, _ in makeWindow(window) }
        let scenes = SwiftUIScenes(app: app)
        var opened: [Window] = []
        scenes.openWindow = { opened.append($0) }
        try scenes.windowAppeared("A", value: .main)
        try scenes.phaseChanged("A", to: .active)
        #expect(app.focusedScene?.id == "A")
        let link = FlowLink(
            [.child(Page.shelf), .push(Page.book(id: 7))], sceneValue: FlowRoute(Window.book(id: 7))
        )
        try app.openInNewScene(link, from: "A", removingFromSource: false)
        #expect(opened == [.book(id: 7)])
        try scenes.windowAppeared("B", value: .book(id: 7))
        try scenes.phaseChanged("B", to: .active)
        try scenes.phaseChanged("A", to: .background)
        #expect(app.scene("B")?.runtime?.treeDescription() == "* shelf\n  * book-7")
        #expect(try app.store.snapshot(of: "A") != nil)
        // A unique value brings its window forward instead of opening a second one.
        try app.open(link)
        #expect(opened == [.book(id: 7)])
        try app.requestClose("B")
        try scenes.windowDisappeared("B")
        #expect(app.scene("B") == nil)
        #expect(
            app.trace.lines.filter { $0.hasPrefix("scene A") } == [
                "scene A connected (main, fresh)", "scene A inactive", "scene A active",
                "scene A inactive", "scene A background (snapshot saved)",
            ])
    }
}
