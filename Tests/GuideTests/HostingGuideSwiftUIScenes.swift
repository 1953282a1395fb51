import FlowKit

// The SwiftUI scenes' logic of Docs/HostingSwiftUI.md ("Scenes"), verbatim, exercised by
// HostingGuideScenesTests.swift (the views cannot be compiled on Linux).

/// SwiftUI's scene phase, as the window's view maps it (`ScenePhase` is SwiftUI's).
enum WindowPhase {
    case active, inactive, background
}

/// The app's scenes under SwiftUI: opens windows with the `openWindow` action a view hands
/// over, turns each window's scene phase into the facts of the scene life cycle, and routes
/// `onOpenURL`.
@MainActor
final class SwiftUIScenes: FlowSceneHost {
    let app: FlowApp
    /// The window's `openWindow(value:)`, set by the first window that appears.
    var openWindow: ((Window) -> Void)?
    /// Windows the app asked to close, for their views to `dismissWindow()`.
    private(set) var closing: Set<FlowSceneID> = []

    init(app: FlowApp) {
        self.app = app
        app.host = self
    }

    func openScene(value: FlowRoute) {
        if let window = value.value(as: Window.self) { openWindow?(window) }
    }

    func closeScene(_ id: FlowSceneID) { closing.insert(id) }

    func activateScene(_ id: FlowSceneID) {
        if let window = app.scene(id)?.value.value(as: Window.self) { openWindow?(window) }
    }

    /// A window appeared (`onAppear`), with its `@SceneStorage` identity and its value.
    func windowAppeared(_ id: FlowSceneID, value: Window) throws {
        if let scene = app.scene(id), scene.phase.isConnected { return }
        try app.connect(id, value: FlowRoute(value))
    }

    /// The window's scene phase changed (`onChange(of: scenePhase)`): the facts from where
    /// the scene is to where SwiftUI says it is, in the life cycle's order.
    func phaseChanged(_ id: FlowSceneID, to phase: WindowPhase) throws {
        guard let scene = app.scene(id) else { return }
        let facts: [FlowSceneFact]
        switch (scene.phase, phase) {
        case (.connected, .active), (.background, .active): facts = [.enterForeground, .activate]
        case (.connected, .inactive), (.background, .inactive): facts = [.enterForeground]
        case (.inactive, .active): facts = [.activate]
        case (.active, .inactive): facts = [.deactivate]
        case (.active, .background): facts = [.deactivate, .enterBackground]
        case (.connected, .background), (.inactive, .background): facts = [.enterBackground]
        default: facts = []
        }
        for fact in facts { try app.report(fact, for: id) }
    }

    /// The window went away (`onDisappear`): SwiftUI does not say whether the user closed it
    /// or the system reclaimed it, so without a UIKit scene delegate it counts as closed.
    func windowDisappeared(_ id: FlowSceneID) throws {
        closing.remove(id)
        guard let scene = app.scene(id), scene.phase.isConnected else { return }
        try app.report(.close, for: id)
    }
}
