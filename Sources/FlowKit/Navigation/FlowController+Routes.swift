/// What a route factory is told about the node it builds: the route, and the node it is about
/// to join, whose dependency scope it can read before anything is attached.
///
///     stack.register(Screen.self) { screen, context in
///         let catalog = try context.dependencies.require(CatalogKey.self)
///         switch screen {
///         case .list: return ListScreen(catalog: catalog)
///         case .detail(let id): return DetailScreen(book: try catalog.book(id))
///         }
///     }
@MainActor
public struct FlowRouteContext {
    /// The route being built.
    public let route: FlowRoute
    /// The node the new node will join: its container, or its presenter.
    public let parent: FlowController

    /// The dependency scope the new node is about to join (its parent's).
    public var dependencies: FlowDependencies { parent.dependencies }
}

/// A factory as FlowKit keeps it: every registration form is wrapped into this.
typealias _Factory = @MainActor (FlowRoute, FlowRouteContext) throws -> FlowController

/// A global route: its factory, and how its node is shown.
struct _GlobalRoute {
    let factory: _Factory
    let placement: FlowGlobalPlacement
}

/// How a global route's node is shown when it is opened.
public enum FlowGlobalPlacement: String, Sendable, Hashable {
    /// Presented over the focused node (the default: settings, help, a profile sheet).
    case present
    /// Pushed onto the stack nearest to the focused node.
    case push
}

extension FlowController {
    /// Registers how to build the child for `route`, for navigation paths, initial routes and
    /// history.
    ///
    ///     stack.register("settings") { SettingsScreen() }
    ///
    /// The node built carries `route` (FlowKit sets it if the node's `init` did not).
    /// Factories are released when this node exits; registering on an exited node does
    /// nothing. A factory runs in the check phase of the change that needs its node, before
    /// guards decide; if the change is refused, the node it built is discarded. A factory may
    /// compose the new node freely (embed its stack, push its first screen), but asking for a
    /// change to the live tree from a factory throws ``FlowError/changeInProgress(node:)``.
    public func register(
        _ route: FlowRoute, factory: @escaping @MainActor () -> FlowController
    ) {
        guard state != .exited else { return }
        _writableExtras.factories[route] = { _, _ in factory() }
    }

    /// Registers one factory for every route of type `Route` (a route family): it receives
    /// the route value and a context that can read the scope the node is about to join.
    ///
    ///     enum Screen: Hashable, Sendable { case list, detail(id: Int) }
    ///     stack.register(Screen.self) { screen, context in
    ///         switch screen {
    ///         case .list: return ListScreen()
    ///         case .detail(let id): return DetailScreen(id: id)
    ///         }
    ///     }
    ///
    /// A factory registered for one exact route (``register(_:factory:)``) wins over the
    /// family. A factory that throws makes the change fail with
    /// ``FlowError/factoryFailed(route:node:error:)``, and nothing changes.
    public func register<Route: Hashable & Sendable>(
        _ type: Route.Type,
        factory: @escaping @MainActor (Route, FlowRouteContext) throws -> FlowController
    ) {
        guard state != .exited else { return }
        _writableExtras.familyTypes[ObjectIdentifier(type)] = type
        _writableExtras.families[ObjectIdentifier(type)] = { route, context in
            // The family is looked up by the route's value type, so the cast cannot fail.
            try factory(route.value(as: Route.self)!, context)
        }
    }

    /// Registers a global route: reachable with ``open(_:)`` from any node below this one,
    /// and by ``FlowStep/Placement/present`` steps. Its node is presented over the focused
    /// node unless `placement` says otherwise.
    ///
    ///     app.registerGlobal("settings") { SettingsScreen() }
    ///     try detail.open("settings")      // presented over the focused node
    public func registerGlobal(
        _ route: FlowRoute, placement: FlowGlobalPlacement = .present,
        factory: @escaping @MainActor () -> FlowController
    ) {
        guard state != .exited else { return }
        _writableExtras.globals[route] = _GlobalRoute(
            factory: { _, _ in factory() }, placement: placement)
    }

    /// Registers a global route family: one factory for every route of type `Route`.
    public func registerGlobal<Route: Hashable & Sendable>(
        _ type: Route.Type, placement: FlowGlobalPlacement = .present,
        factory: @escaping @MainActor (Route, FlowRouteContext) throws -> FlowController
    ) {
        guard state != .exited else { return }
        _writableExtras.familyTypes[ObjectIdentifier(type)] = type
        _writableExtras.globalFamilies[ObjectIdentifier(type)] = _GlobalRoute(
            factory: { route, context in try factory(route.value(as: Route.self)!, context) },
            placement: placement)
    }

    /// Whether this node can build a child for `route` (an exact factory or a family).
    public func hasFactory(for route: FlowRoute) -> Bool {
        _factory(for: route) != nil
    }

    /// Whether this node registers `route` as a global route (exactly or by family).
    public func hasGlobalRoute(_ route: FlowRoute) -> Bool {
        _globalRoute(for: route) != nil
    }

    func _factory(for route: FlowRoute) -> _Factory? {
        guard let extras = _extras else { return nil }
        if let exact = extras.factories[route] { return exact }
        if extras.families.isEmpty { return nil }
        return extras.families[route.valueType]
    }

    func _globalRoute(for route: FlowRoute) -> _GlobalRoute? {
        guard let extras = _extras else { return nil }
        if let exact = extras.globals[route] { return exact }
        if extras.globalFamilies.isEmpty { return nil }
        return extras.globalFamilies[route.valueType]
    }

    /// The nearest node from this one up (real or prospective links) that registers `route`
    /// as a global route, with the registration.
    func _nearestGlobalRoute(_ route: FlowRoute) -> (owner: FlowController, route: _GlobalRoute)? {
        var node: FlowController? = self
        while let current = node {
            if let global = current._globalRoute(for: route) { return (current, global) }
            node = current._effectiveParent
        }
        return nil
    }

    /// Builds the child for `route` with this node's factory (exact, then family), and checks
    /// what it built.
    func _makeChild(_ route: FlowRoute) throws -> FlowController {
        guard let factory = _factory(for: route) else {
            throw FlowError.unknownRoute(route: route.description, node: path)
        }
        return try _build(route, with: factory, joining: self)
    }

    /// Runs `factory` for `route` for a node that will join `parent`, and checks the result:
    /// a new node (not attached, not entered, not part of a change) carrying `route`, which
    /// it is given if it carries none.
    func _build(
        _ route: FlowRoute, with factory: _Factory, joining parent: FlowController
    ) throws -> FlowController {
        let node: FlowController
        // Nodes made from here on were made by the factory: a node refused below is released.
        let mark = _NodeSerial.next
        do {
            node = try factory(route, FlowRouteContext(route: route, parent: parent))
        } catch {
            throw FlowError.factoryFailed(
                route: route.description, node: path, error: String(describing: error))
        }
        guard node.state == .created, node._effectiveParent == nil, node._runtime == nil,
            node !== self, node !== parent
        else {
            let error = FlowError.factoryNodeInUse(
                route: route.description, node: path, built: node.path)
            FlowController._discardRefusedBuild(node, madeSince: mark)
            throw error
        }
        if let carried = node.route {
            guard carried == route else {
                let error = FlowError.factoryRouteMismatch(
                    route: route.description, node: path, built: node.name,
                    builtRoute: carried.description)
                FlowController._discardRefusedBuild(node, madeSince: mark)
                throw error
            }
        } else {
            node.route = route
        }
        return node
    }
}
