import FlowKit

/// The value of a demo window (its scene, in FlowKit's ``FlowApp``): what the window's
/// factory builds its tree from, saved with the window's snapshot.
///
/// Every window shows the same app (an ``AppRoot``: sign-in, then the tabs) with a tree of
/// its own; sign-out keeps the main window (signed out) and closes the others.
public enum DemoWindow: String, Codable, Hashable, Sendable, CustomStringConvertible {
    /// The first window: it stays open (sign-out signs it out; `close` refuses it).
    case main
    /// A window opened with `window new`, or by the router for a link no window took.
    case extra

    public var description: String { rawValue }
}

/// The terminal as the platform of the demo's windows: the ``FlowSceneHost`` of the demo's
/// ``FlowApp``.
///
/// What the app asks of it (open a window, close one, bring one forward) is kept as a
/// request, as a platform does, and carried out after the command that asked
/// (``DemoApp/processWindowRequests()``): the demo then reports what happened to the app
/// (``FlowApp/connect(_:value:restoration:)``, ``FlowApp/report(_:for:)``). Each window's
/// runtime gets a screen and a transition pipeline of its own (``flowHost(for:)``).
@MainActor
final class DemoWindowPlatform: FlowSceneHost {
    /// Something the app asked of the platform.
    enum Request: Equatable {
        case open(FlowRoute)
        case close(FlowSceneID)
        case activate(FlowSceneID)
    }

    /// The screen and the pipeline of one window's runtime.
    struct Hosts {
        let screen: DemoScreenHost
        let transitions: FlowTransitions
    }

    /// The requests not carried out yet, oldest first.
    var requests: [Request] = []
    /// Each window's screen and pipeline, by the window's identity (replaced each time the
    /// window gets a runtime: at connect, reconnect and late restoration).
    private(set) var hosts: [FlowSceneID: Hosts] = [:]
    private let transitionTime: Duration
    private let clock: any DemoClock

    init(transitionTime: Duration, clock: any DemoClock) {
        self.transitionTime = transitionTime
        self.clock = clock
    }

    func openScene(value: FlowRoute) { requests.append(.open(value)) }

    func closeScene(_ id: FlowSceneID) { requests.append(.close(id)) }

    func activateScene(_ id: FlowSceneID) { requests.append(.activate(id)) }

    func flowHost(for scene: FlowScene) -> (any FlowHost)? {
        let screen = DemoScreenHost(duration: transitionTime, clock: clock)
        let transitions = FlowTransitions(host: screen)
        hosts[scene.id] = Hosts(screen: screen, transitions: transitions)
        return transitions
    }

    /// Forgets a window's screen (it closed or was discarded).
    func forget(_ id: FlowSceneID) {
        hosts[id] = nil
    }
}

/// What `--state FILE` holds when the demo had more than one window: each window's
/// identity, value and tree, and which was focused. (A state with one window is saved as
/// that window's ``FlowSnapshot``, as before windows.)
public struct DemoWindowsState: Codable, Sendable, Equatable {
    /// One window.
    public struct Window: Codable, Sendable, Equatable {
        /// Its identity (`1`, `2`, …).
        public var id: FlowSceneID
        /// Its value.
        public var value: DemoWindow
        /// Its tree; `nil` only if it could not be saved.
        public var tree: FlowSnapshot?
        /// Whether the system had reclaimed it (it comes back connected).
        public var wasReclaimed: Bool

        /// A window's saved state.
        public init(id: FlowSceneID, value: DemoWindow, tree: FlowSnapshot?, wasReclaimed: Bool) {
            self.id = id
            self.value = value
            self.tree = tree
            self.wasReclaimed = wasReclaimed
        }
    }

    /// The windows, in the order they were opened.
    public var windows: [Window]
    /// The focused window.
    public var focused: FlowSceneID?

    /// A saved state of several windows.
    public init(windows: [Window], focused: FlowSceneID?) {
        self.windows = windows
        self.focused = focused
    }
}
