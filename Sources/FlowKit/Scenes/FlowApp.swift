/// The app above its scenes (its windows): what every scene shares, and the scenes
/// themselves.
///
///     let app = FlowApp()
///     try app.register(Window.self, uniqueValues: true) { window, scene in
///         makeRoot(for: window)                          // one tree per window
///     }
///     app.dependencies[AccountKey.self] = account        // every window's tree sees it
///     app.on(SignOut.self) { _, scene in                 // what bubbles past a scene's root
///         if scene.value != FlowRoute(Window.main) { try scene.requestClose() }
///     }
///     app.host = platform                                // opens and closes windows
///     try app.connect("window-1", value: FlowRoute(Window.main))   // reported by the platform
///     try app.open(link)                                 // routed: see <doc:Scenes>
///
/// - **Dependencies.** ``dependencies`` is a scope every scene's tree sees below its own
///   values: a scene's nodes override it.
/// - **Handlers.** ``on(_:handler:)`` takes events no node of a scene handled.
/// - **Scenes.** ``scenes``, each built by the factory registered for its value's type
///   (``register(_:uniqueValues:accepts:placeholder:factory:)``, like SwiftUI's
///   `WindowGroup(for:)`), driven by the platform's facts (``connect(_:value:restoration:)``,
///   ``report(_:for:)``, ``restorationDidArrive(for:snapshot:)``).
/// - **The router.** ``open(_:delivery:receivedBy:)`` and ``perform(_:delivery:)`` route
///   everything from outside by one written policy; each decision is a record of ``trace``.
///
/// Nothing of it is process-wide: two apps in one process share nothing.
@MainActor
public final class FlowApp {
    /// The app's name, as trace records and errors show it.
    public let name: String
    /// The platform side: opens, closes and brings forward windows. Held weakly (the
    /// platform's adapter usually holds the app).
    public weak var host: (any FlowSceneHost)?
    /// Where scene snapshots and the app's own are kept.
    public let store: any FlowSceneStore
    /// The app's own log: scene phases, routing decisions, app-level handlers, broadcasts.
    /// Each scene's tree has its own trace (``FlowRuntime/trace``).
    public let trace: FlowTrace
    /// Called with every error that has no caller to throw to (after the trace records it):
    /// a waiting link that failed in its scene, a snapshot that could not be saved, an
    /// app-level handler that threw.
    public var onError: (@MainActor (FlowFailure) -> Void)?
    /// Route value types the scenes' snapshots use that restoration cannot find on the nodes
    /// (see ``FlowRuntime/start(restoring:routeTypes:)``).
    public var routeTypes: [any (Codable & Hashable & Sendable).Type] = []

    /// The scenes: connected and disconnected ones, in the order they were first connected.
    public private(set) var scenes: [FlowScene] = []

    var _kinds: [ObjectIdentifier: _SceneKind] = [:]
    var _values = _IdentityTable<_AnyValueBox>()
    /// The app's values as one flattened scope, read by each scene's root as it enters.
    var _scope: _DependencyScope?
    var _handlers: [ObjectIdentifier: @MainActor (any FlowEvent, FlowScene) throws -> Void] =
        [:]
    /// The delivery identities seen in this launch.
    var _deliveries: Set<FlowDeliveryID> = []
    /// Links that wait for every restoring scene to finish, with the scene that received each.
    var _waitingLinks: [(link: FlowLink, receivedBy: FlowSceneID?)] = []
    /// Scenes asked of the host and not yet connected, with the links waiting for each.
    var _opening: [(value: FlowRoute, links: [FlowLink])] = []
    var _counter = 0
    /// What ``observeSceneRuntimes(_:)`` registered, in order.
    var _runtimeObservers: [@MainActor (FlowScene, FlowRuntime) -> Void] = []

    /// An app with no scenes.
    ///
    /// - Parameters:
    ///   - name: How trace records and errors name it.
    ///   - store: Where snapshots are kept; by default a new ``FlowInMemorySceneStore``.
    ///   - trace: The app's trace.
    public init(
        name: String = "app", store: (any FlowSceneStore)? = nil, trace: FlowTrace = FlowTrace()
    ) {
        self.name = name
        self.store = store ?? FlowInMemorySceneStore()
        self.trace = trace
    }

    /// Calls `observer` with each runtime a scene gets from now on (connecting, reconnecting
    /// after the system reclaimed it, late restoration data arriving), once the runtime is
    /// made and before its tree starts, so that it sees the whole start: attach a session
    /// recorder or a trace printer there. Observers are called in the order they were added
    /// and stay for the app's life; one that captures the app keeps it alive. An observer runs
    /// in the middle of a connect: it may read and watch the runtime, but must not connect a
    /// scene or report a fact (do that from a task, after the connect returned).
    public func observeSceneRuntimes(
        _ observer: @escaping @MainActor (FlowScene, FlowRuntime) -> Void
    ) {
        _runtimeObservers.append(observer)
    }

    /// The app-wide dependency scope.
    public var dependencies: FlowAppDependencies { FlowAppDependencies(app: self) }

    /// The scene with identity `id` (connected or disconnected), or `nil`.
    public func scene(_ id: FlowSceneID) -> FlowScene? {
        scenes.first { $0.id == id }
    }

    /// The focused scene: of the active scenes, the one activated last (where commands go);
    /// `nil` when no scene is active.
    public var focusedScene: FlowScene? {
        var best: FlowScene?
        for scene in scenes where scene.phase == .active {
            if best == nil || scene._lastActivation > best!._lastActivation { best = scene }
        }
        return best
    }

    /// Registers the factory that builds a scene's tree from its value, for every value of
    /// `type` (as SwiftUI's `WindowGroup(for:)`).
    ///
    ///     try app.register(Window.self, uniqueValues: true) { window, scene in
    ///         switch window {
    ///         case .main: return AppRoot()
    ///         case .book(let id): return BookWindowRoot(id: id)
    ///         }
    ///     }
    ///
    /// - Parameters:
    ///   - type: The scene value type; `Codable`, so a scene's value is saved with its
    ///     snapshot.
    ///   - uniqueValues: Whether at most one scene shows each value (as `openWindow(value:)`
    ///     brings the window of a value forward instead of opening a second one).
    ///   - accepts: Which links scenes of this type may take (as `handlesExternalEvents`);
    ///     `nil`: every link.
    ///   - placeholder: The tree a scene shows while it waits for late restoration data;
    ///     `nil`: no tree until the data arrives.
    ///   - factory: Builds the scene's root. It runs with the scene (its identity, value) and
    ///     before the root is started; the root's dependencies see the app's.
    /// - Throws: ``FlowSceneError/sceneFactoryExists(type:)`` for a type registered already.
    public func register<Value: Codable & Hashable & Sendable>(
        _ type: Value.Type, uniqueValues: Bool = false,
        accepts: (@MainActor (FlowLink) -> Bool)? = nil,
        placeholder: (@MainActor (Value) -> FlowController)? = nil,
        factory: @escaping @MainActor (Value, FlowScene) throws -> FlowController
    ) throws {
        let key = ObjectIdentifier(type)
        let typeName = String(reflecting: type)
        guard _kinds[key] == nil else { throw FlowSceneError.sceneFactoryExists(type: typeName) }
        let build: @MainActor (FlowRoute, FlowScene) throws -> FlowController = {
            route, scene in
            try factory(route.value(as: Value.self)!, scene)
        }
        var makePlaceholder: (@MainActor (FlowRoute) -> FlowController)?
        if let placeholder {
            makePlaceholder = { route in placeholder(route.value(as: Value.self)!) }
        }
        let decode: (FlowSnapshotValue) throws -> FlowRoute = { stored in
            FlowRoute(try _SnapshotValueDecoder.decode(Value.self, from: stored))
        }
        _kinds[key] = _SceneKind(
            typeName: typeName, uniqueValues: uniqueValues, build: build,
            placeholder: makePlaceholder, accepts: accepts, decode: decode)
    }

    /// Handles events of type `Event` that went past a scene's root unhandled (sign-out, a
    /// menu command no screen took). The handler gets the scene the event came from;
    /// registering again replaces the handler. A handler that throws reports to
    /// ``onError`` and the trace.
    ///
    /// > Note: The app keeps its handlers: a handler that captures the app strongly keeps it
    /// > alive. Reach the app through the scene (`scene.app`, ``FlowScene/requestClose()``).
    ///
    /// Only what no node of a scene handles reaches the app, and only then: a tree without
    /// an app, or an event some node handles, costs nothing more.
    public func on<Event: FlowEvent>(
        _ type: Event.Type, handler: @escaping @MainActor (Event, FlowScene) throws -> Void
    ) {
        _handlers[ObjectIdentifier(type)] = { event, scene in
            try handler(event as! Event, scene)
        }
    }

    /// Stops handling `Event` at the app.
    public func removeHandler<Event: FlowEvent>(for type: Event.Type) {
        _handlers[ObjectIdentifier(type)] = nil
    }

    /// Asks the host to close the scene (the user's close button, sign-out closing secondary
    /// windows). The scene closes when the platform reports ``FlowSceneFact/close``.
    ///
    /// - Throws: ``FlowSceneError/noSuchScene(_:)`` if no scene has this identity.
    public func requestClose(_ id: FlowSceneID) throws {
        guard scene(id) != nil else { throw FlowSceneError.noSuchScene(id) }
        host?.closeScene(id)
    }

    // MARK: Internal

    func _setValue<Value>(_ value: Value, for key: ObjectIdentifier) {
        _values[key] = _ValueBox(value)
        _refreshScopes()
    }

    func _removeValue(for key: ObjectIdentifier) {
        guard _values[key] != nil else { return }
        _values[key] = nil
        _refreshScopes()
    }

    /// Rebuilds the app scope and every connected scene's flattened scopes.
    private func _refreshScopes() {
        _scope = _values.isEmpty ? nil : _DependencyScope(table: _values)
        for scene in scenes {
            scene.runtime?.root?._refreshScopes()
        }
    }

    /// Reports a failure with no caller to throw to: trace, then ``onError``.
    func _report(_ failure: FlowFailure, scene: FlowSceneID?) {
        if trace.isEnabled {
            trace.record(
                .app(
                    .failed(
                        operation: failure.kind.description, scene: scene,
                        error: "\(failure.error)")))
        }
        onError?(failure)
    }

    /// Records an app trace record (made only when the trace is on).
    func _record(_ record: @autoclosure () -> FlowAppRecord) {
        if trace.isEnabled { trace.record(.app(record())) }
    }

    /// The registered kind for a scene value.
    func _kind(of value: FlowRoute) -> _SceneKind? {
        _kinds[value.valueType]
    }

    func _add(_ scene: FlowScene) { scenes.append(scene) }

    func _remove(_ scene: FlowScene) { scenes.removeAll { $0 === scene } }

    func _nextCount() -> Int {
        _counter += 1
        return _counter
    }
}
