/// One scene's saved state: which scene it is (its identity and value) and its tree's
/// ``FlowSnapshot``. ``FlowApp`` saves it on background and disconnect, restores it on
/// reconnect and launch, and deletes it when the scene is discarded or closed.
///
/// `Codable` without help: the scene's value is stored like a route in a snapshot (its
/// type's name and encoded value) and decoded by the app, which knows its scene value types.
public struct FlowSceneSnapshot: Codable, Sendable, Equatable {
    /// The scene's persistent identity.
    public var scene: FlowSceneID
    /// The scene's value (`main`, `book(id: 12)`), as a stored route.
    public var value: FlowSnapshot.Route
    /// The scene's tree.
    public var tree: FlowSnapshot

    /// A scene snapshot from its parts.
    public init(scene: FlowSceneID, value: FlowSnapshot.Route, tree: FlowSnapshot) {
        self.scene = scene
        self.value = value
        self.tree = tree
    }
}

/// The app's own saved state beside its scenes' snapshots: which scenes it had, in the order
/// they were connected, with their values and whether each was connected or disconnected.
/// A launch that must reopen windows itself (a terminal, a test; UIKit reconnects its
/// sessions on its own) reads it with ``FlowApp/savedScenes()``.
public struct FlowAppSnapshot: Codable, Sendable, Equatable {
    /// One scene the app had.
    public struct Scene: Codable, Sendable, Equatable {
        /// Its identity.
        public var id: FlowSceneID
        /// Its value, as a stored route.
        public var value: FlowSnapshot.Route
        /// Its phase when saved (a connected phase, or `disconnected`).
        public var phase: FlowScenePhase

        /// A scene entry.
        public init(id: FlowSceneID, value: FlowSnapshot.Route, phase: FlowScenePhase) {
            self.id = id
            self.value = value
            self.phase = phase
        }
    }

    /// The scenes, in the order they were first connected.
    public var scenes: [Scene]
    /// The focused scene when saved, if one was.
    public var focused: FlowSceneID?

    /// An app snapshot.
    public init(scenes: [Scene], focused: FlowSceneID?) {
        self.scenes = scenes
        self.focused = focused
    }
}
