/// One step of the app above the scenes, as kept in ``FlowApp/trace`` (inside a
/// ``FlowTraceRecord/app(_:)`` record).
public enum FlowAppRecord: Hashable, Sendable, CustomStringConvertible {
    /// A scene's phase changed; `note` says what that did to its tree and snapshot
    /// (`snapshot saved, tree stopped`).
    case scene(FlowSceneID, phase: FlowScenePhase, note: String)
    /// The router decided where a delivery goes (`delivery` is its description:
    /// `link book(id: 12)`, `command Refresh`).
    case routed(delivery: String, decision: FlowRoutingDecision)
    /// A candidate scene did not take a link (its kind does not accept it, or navigating
    /// there failed: `reason`); the router tried the next.
    case skipped(delivery: String, scene: FlowSceneID, reason: String)
    /// An event went past a scene's root and an app-level handler took it.
    case handled(event: String, scene: FlowSceneID)
    /// An app-wide event was sent to every connected scene, as one operation.
    case broadcast(event: String, scenes: [FlowSceneID])
    /// A route moved to a new scene (``FlowApp/openInNewScene(_:from:removingFromSource:)``).
    case moved(route: String, from: FlowSceneID, removed: Bool)
    /// Something with no caller to throw to failed (a waiting link that could not run in
    /// the scene it waited for, a snapshot that could not be saved); also given to
    /// ``FlowApp/onError``.
    case failed(operation: String, scene: FlowSceneID?, error: String)

    public var description: String {
        switch self {
        case .scene(let id, let phase, let note):
            return note.isEmpty ? "scene \(id) \(phase)" : "scene \(id) \(phase) (\(note))"
        case .routed(let delivery, let decision):
            return "route \(delivery): \(decision)"
        case .skipped(let delivery, let scene, let reason):
            return "route \(delivery): not scene \(scene): \(reason)"
        case .handled(let event, let scene):
            return "handled \(event) at app (from scene \(scene))"
        case .broadcast(let event, let scenes):
            let list = scenes.map(\.rawValue).joined(separator: ", ")
            return "broadcast \(event) to scenes [\(list)]"
        case .moved(let route, let from, let removed):
            return "move \(route) from scene \(from) to a new scene"
                + (removed ? " (removed there)" : "")
        case .failed(let operation, let scene, let error):
            let place = scene.map { " in scene \($0)" } ?? ""
            return "failed \(operation)\(place): \(error)"
        }
    }
}
