/// Where a connecting scene's tree comes from (see ``FlowApp/connect(_:value:restoration:)``).
public enum FlowSceneRestoration: Sendable {
    /// A new scene: its factory's tree, started fresh (a window the user or the app just
    /// opened).
    case none
    /// The snapshot the app's store keeps under the scene's identity, if any; else a fresh
    /// start. The default: a scene the system reclaimed comes back with its screens.
    case stored
    /// The snapshot stored under another identity: the platform brought a reclaimed scene
    /// back under a new one. The old identity's record and snapshot move to the new one.
    case storedUnder(FlowSceneID)
    /// A snapshot the platform handed over (UIKit's `stateRestorationActivity`).
    case snapshot(FlowSceneSnapshot)
    /// The data comes later (the platform hands it over once the device is unlocked): the
    /// scene shows its kind's placeholder, or nothing, until
    /// ``FlowApp/restorationDidArrive(for:snapshot:)``; links wait for it.
    case later
}
