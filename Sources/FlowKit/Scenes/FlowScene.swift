/// One window of a ``FlowApp``: a tree of its own, built by the factory the app registered
/// for the scene's value, run by a ``FlowRuntime`` of its own.
///
///     let scene = try app.connect("window-2", value: FlowRoute(Window.book(id: 12)))
///     scene.runtime?.focusedNode      // the book's screen
///     try app.report(.enterForeground, for: scene.id)
///
/// The app keeps its scenes (``FlowApp/scenes``); nobody else needs a list of them. A scene
/// the system reclaimed (``FlowScenePhase/disconnected``) stays in the list without a tree
/// until the platform connects it again; a discarded or closed one leaves it. Nodes never
/// move between scenes: a scene's tree is built only by its own factory, from its value, a
/// snapshot or a link.
@MainActor
public final class FlowScene {
    /// The scene's persistent identity.
    public let id: FlowSceneID
    /// The scene's value (`main`, `book(id: 12)`): what its factory built its tree from.
    public let value: FlowRoute
    /// Where the scene is in its life.
    public internal(set) var phase: FlowScenePhase
    /// The runtime of its tree while it is connected (the placeholder's while it waits for
    /// restoration data, if its kind has a placeholder); `nil` while disconnected or gone.
    public internal(set) var runtime: FlowRuntime?
    /// Whether the scene waits for late restoration data
    /// (``FlowApp/restorationDidArrive(for:snapshot:)``): links for it wait too.
    public internal(set) var isRestoring: Bool
    /// The app the scene belongs to (`nil` once the app is released).
    public private(set) weak var app: FlowApp?

    /// When the scene was last activated (the app's counter), for the router's order.
    var _lastActivation = 0
    /// When the scene was first connected (the app's counter), for a stable order.
    let _order: Int
    /// Links waiting for this scene to be connected and restored.
    var _waitingLinks: [FlowLink] = []
    let _kind: _SceneKind
    var _stored: FlowSnapshot.Route?

    init(id: FlowSceneID, value: FlowRoute, app: FlowApp, kind: _SceneKind, order: Int) {
        self.id = id
        self.value = value
        self.app = app
        self._kind = kind
        self._order = order
        self.phase = .connected
        self.isRestoring = false
    }

    /// Whether this is the app's focused scene (the active scene activated last).
    public var isFocused: Bool { app?.focusedScene === self }

    /// Asks the app's host to close this scene (see ``FlowApp/requestClose(_:)``): what an
    /// app-level handler calls without holding the app (which would keep it alive).
    ///
    /// - Throws: ``FlowSceneError/noSuchScene(_:)`` if the scene has left its app.
    public func requestClose() throws {
        guard let app else { throw FlowSceneError.noSuchScene(id) }
        try app.requestClose(id)
    }

    /// Whether links can be routed to the scene now: connected with a tree, not restoring.
    var _isRoutable: Bool { phase.isConnected && !isRestoring && runtime != nil }

    /// The active node of the scene's tree with `route` (the innermost), if its tree shows
    /// one.
    func _shownNode(_ route: FlowRoute) -> FlowController? {
        guard let runtime, runtime.isRunning else { return nil }
        // The active nodes, read without registering an observation.
        let active =
            runtime._activeConfiguration.isEmpty
            ? runtime._focusedPath : runtime._activeConfiguration
        // The value types first: a route of another type never needs the dynamic cast.
        let type = route.valueType
        return active.last { $0.route.map { $0.valueType == type && $0 == route } ?? false }
    }

    /// The scene's value as a snapshot stores it, encoded once.
    func _storedValue() throws -> FlowSnapshot.Route {
        if let stored = _stored { return stored }
        let stored = try FlowSnapshot.Route(value)
        _stored = stored
        return stored
    }

    /// Offers an event that went past this scene's root to the app's handlers; `true` if one
    /// took it.
    func _handleBubbled<Event: FlowEvent>(_ event: Event) -> Bool {
        guard let app, let handler = app._handlers[ObjectIdentifier(Event.self)] else {
            return false
        }
        if app.trace.isEnabled {
            app.trace.record(.app(.handled(event: event.traceName, scene: id)))
        }
        do {
            try handler(event, self)
        } catch {
            app._report(
                FlowFailure(.handler(event: event.traceName), node: "scene \(id)", error: error),
                scene: id)
        }
        return true
    }
}

/// What the app registered for one scene value type.
struct _SceneKind {
    let typeName: String
    let uniqueValues: Bool
    let build: @MainActor (FlowRoute, FlowScene) throws -> FlowController
    let placeholder: (@MainActor (FlowRoute) -> FlowController)?
    let accepts: (@MainActor (FlowLink) -> Bool)?
    let decode: (FlowSnapshotValue) throws -> FlowRoute
}
