/// What the platform implements for ``FlowApp``: opening, closing and bringing forward
/// windows. What the platform reports goes the other way, through the app:
/// ``FlowApp/connect(_:value:restoration:)``, ``FlowApp/report(_:for:)`` and
/// ``FlowApp/restorationDidArrive(for:snapshot:)``.
///
/// Each request is asynchronous, as on the platforms: the app changes nothing until the
/// platform reports what it did (a scene opened is connected by the platform's `connect`;
/// a scene closed reports ``FlowSceneFact/close``).
@MainActor
public protocol FlowSceneHost: AnyObject {
    /// Opens a new scene for `value` (UIKit's `requestSceneSessionActivation`, SwiftUI's
    /// `openWindow(value:)`); the platform connects it with that value. Links waiting for
    /// it run once it is connected (and restored).
    func openScene(value: FlowRoute)
    /// Closes the scene (`requestSceneSessionDestruction`, `dismissWindow`); the platform
    /// reports ``FlowSceneFact/close``.
    func closeScene(_ id: FlowSceneID)
    /// Brings the scene forward (`requestSceneSessionActivation` with its session), and
    /// connects it again if it was disconnected; the platform reports the facts.
    func activateScene(_ id: FlowSceneID)
    /// The ``FlowHost`` for a scene's runtime, asked each time the scene gets a runtime.
    /// The default is `nil` (no host).
    func flowHost(for scene: FlowScene) -> (any FlowHost)?
}

extension FlowSceneHost {
    /// No host: the scene's runtime tells nobody its changes.
    public func flowHost(for scene: FlowScene) -> (any FlowHost)? { nil }
}
