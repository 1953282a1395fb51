/// Where ``FlowApp`` keeps snapshots: one per scene, keyed by the scene's persistent
/// identity, plus the app's own. ``FlowInMemorySceneStore`` is the default; an app stores
/// them in files (encoded as JSON) or in the platform's restoration data.
///
/// A store that throws makes the operation that needed it fail: connecting a scene that
/// restores from it throws ``FlowSceneError/storeFailed(operation:error:)`` and changes
/// nothing; a failed save is reported to ``FlowApp/onError`` and the app trace.
@MainActor
public protocol FlowSceneStore: AnyObject {
    /// The snapshot saved for `scene`, or `nil`.
    func snapshot(of scene: FlowSceneID) throws -> FlowSceneSnapshot?
    /// Saves `snapshot` under its scene's identity, replacing what was saved before.
    func save(_ snapshot: FlowSceneSnapshot) throws
    /// Deletes the snapshot of `scene`, if there is one.
    func deleteSnapshot(of scene: FlowSceneID) throws
    /// The app's own snapshot, or `nil`.
    func appSnapshot() throws -> FlowAppSnapshot?
    /// Saves the app's own snapshot.
    func save(_ snapshot: FlowAppSnapshot) throws
}

/// A ``FlowSceneStore`` in memory: what a ``FlowApp`` uses unless it is given another. Each
/// store is its own (two apps, two stores).
@MainActor
public final class FlowInMemorySceneStore: FlowSceneStore {
    /// The scene snapshots, by identity.
    public private(set) var scenes: [FlowSceneID: FlowSceneSnapshot] = [:]
    /// The app's own snapshot.
    public private(set) var app: FlowAppSnapshot?

    /// An empty store.
    public init() {}

    /// The snapshot kept for `scene`, or `nil`.
    public func snapshot(of scene: FlowSceneID) -> FlowSceneSnapshot? { scenes[scene] }

    /// Keeps `snapshot` under its scene's identity.
    public func save(_ snapshot: FlowSceneSnapshot) { scenes[snapshot.scene] = snapshot }

    /// Forgets the snapshot of `scene`.
    public func deleteSnapshot(of scene: FlowSceneID) { scenes[scene] = nil }

    /// The app's own snapshot, or `nil`.
    public func appSnapshot() -> FlowAppSnapshot? { app }

    /// Keeps the app's own snapshot.
    public func save(_ snapshot: FlowAppSnapshot) { app = snapshot }
}
