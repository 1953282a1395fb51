/// What ``FlowApp`` throws for bad input from the platform or the app: the app, its scenes,
/// their trees and the snapshot store are then unchanged.
public enum FlowSceneError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No scene of the app has this identity (it was never connected, or it is gone).
    case noSuchScene(FlowSceneID)
    /// A scene with this identity is already connected.
    case alreadyConnected(FlowSceneID)
    /// The platform reported `fact` for a scene in `phase`, which it never does (see the rules
    /// table of <doc:Scenes>).
    case illegalFact(scene: FlowSceneID, phase: FlowScenePhase, fact: FlowSceneFact)
    /// No scene factory is registered for the value's type.
    case noSceneFactory(value: String)
    /// A scene factory for this value type is registered already.
    case sceneFactoryExists(type: String)
    /// The scene's factory threw.
    case factoryFailed(value: String, error: String)
    /// A scene was connected without a value, and nothing stored says which it is.
    case unknownSceneValue(FlowSceneID)
    /// Restoring a scene failed (the snapshot's error, a ``FlowSnapshotError`` or a
    /// ``FlowError``, as text); the scene is as it was before.
    case restorationFailed(scene: FlowSceneID, error: String)
    /// Restoration data arrived for a scene that is not waiting for any.
    case notRestoring(FlowSceneID)
    /// A command arrived while no scene is active.
    case noFocusedScene
    /// No scene can take the link and none can be opened for it (the link has no scene
    /// value, or no factory builds it); `reasons` says why each scene refused it.
    case unroutable(link: String, reasons: [String])
    /// The route to move is not shown in the source scene.
    case routeNotFound(route: String, scene: FlowSceneID)
    /// The snapshot store failed.
    case storeFailed(operation: String, error: String)

    public var description: String {
        switch self {
        case .noSuchScene(let id):
            return "no scene '\(id)': connect it first (or it is gone)"
        case .alreadyConnected(let id):
            return "scene '\(id)' is already connected"
        case .illegalFact(let scene, let phase, let fact):
            return "scene '\(scene)' is \(phase): the platform never reports \(fact) there"
        case .noSceneFactory(let value):
            return "no scene factory builds \(value): register one for its type"
        case .sceneFactoryExists(let type):
            return "a scene factory for \(type) is already registered"
        case .factoryFailed(let value, let error):
            return "the scene factory for \(value) failed: \(error)"
        case .unknownSceneValue(let id):
            return "scene '\(id)' has no value and no snapshot says which scene it is"
        case .restorationFailed(let scene, let error):
            return "scene '\(scene)' could not be restored: \(error)"
        case .notRestoring(let id):
            return "scene '\(id)' is not waiting for restoration data"
        case .noFocusedScene:
            return "no scene is active: a command needs a focused scene"
        case .unroutable(let link, let reasons):
            let why = reasons.isEmpty ? "no scene is connected" : reasons.joined(separator: "; ")
            return "no scene can take \(link), and no scene can be opened for it (\(why))"
        case .routeNotFound(let route, let scene):
            return "scene '\(scene)' does not show \(route)"
        case .storeFailed(let operation, let error):
            return "the scene store could not \(operation): \(error)"
        }
    }
}
