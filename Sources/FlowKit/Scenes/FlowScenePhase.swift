/// Where a scene is in its life, as the platform reported it (see <doc:Scenes>).
///
/// ```
/// connected ─▶ inactive ⇄ active
///     │           ⇅
///     └──────▶ background ─▶ disconnected ─▶ discarded
///  (any connected phase) ─▶ closed          (connect again: restored)
/// ```
public enum FlowScenePhase: String, Hashable, Sendable, Codable, CustomStringConvertible {
    /// Connected: its tree is built (or restored) and running, not yet in the foreground
    /// (UIKit's `unattached`).
    case connected
    /// In the foreground, not receiving events (UIKit's `foregroundInactive`).
    case inactive
    /// In the foreground and receiving events (`foregroundActive`): the most recently
    /// activated active scene is the focused one.
    case active
    /// Not visible; its snapshot was saved when it got here (`background`).
    case background
    /// Reclaimed by the system: its snapshot was saved and its tree stopped and released. The
    /// platform may connect it again later, possibly under a new identity.
    case disconnected
    /// Gone for good: the platform discarded its session; its snapshot is deleted.
    case discarded
    /// Closed (by the user, or by the app through its host): its tree stopped without a
    /// snapshot, and any saved snapshot is deleted.
    case closed

    /// Whether the scene has a running tree (connected, inactive, active or background).
    public var isConnected: Bool {
        switch self {
        case .connected, .inactive, .active, .background: return true
        case .disconnected, .discarded, .closed: return false
        }
    }

    /// Whether the scene has left the app for good (discarded or closed).
    public var isGone: Bool { self == .discarded || self == .closed }

    public var description: String { rawValue }
}

/// Something the platform reports about a scene, after connecting it (see
/// ``FlowApp/report(_:for:)``).
public enum FlowSceneFact: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// `sceneWillEnterForeground(_:)`, SwiftUI's scene phase becoming `.inactive` from
    /// `.background`: connected or background → inactive.
    case enterForeground
    /// `sceneDidBecomeActive(_:)`, scene phase `.active`: inactive → active.
    case activate
    /// `sceneWillResignActive(_:)`: active → inactive.
    case deactivate
    /// `sceneDidEnterBackground(_:)`, scene phase `.background`: connected or inactive →
    /// background. Saves the scene's snapshot.
    case enterBackground
    /// `sceneDidDisconnect(_:)`: the system reclaimed the scene (connected, inactive or
    /// background → disconnected). Saves its snapshot, then stops its tree.
    case disconnect
    /// `application(_:didDiscardSceneSessions:)`: a disconnected scene is gone for good.
    /// Deletes its snapshot.
    case discard
    /// The window was closed (by the user where the platform says so, or by the app through
    /// ``FlowSceneHost/closeScene(_:)``): any connected phase → closed. Stops the tree
    /// without saving, deletes the snapshot.
    case close

    public var description: String { rawValue }

    /// The phase this fact leads to from `phase`, or `nil` where the platform never reports
    /// it (the rules table of <doc:Scenes>).
    public func phase(from phase: FlowScenePhase) -> FlowScenePhase? {
        switch (phase, self) {
        case (.connected, .enterForeground), (.background, .enterForeground),
            (.active, .deactivate):
            return .inactive
        case (.inactive, .activate):
            return .active
        case (.connected, .enterBackground), (.inactive, .enterBackground):
            return .background
        case (.connected, .disconnect), (.inactive, .disconnect), (.background, .disconnect):
            return .disconnected
        case (.disconnected, .discard):
            return .discarded
        case (.connected, .close), (.inactive, .close), (.active, .close), (.background, .close):
            return .closed
        default:
            return nil
        }
    }
}
