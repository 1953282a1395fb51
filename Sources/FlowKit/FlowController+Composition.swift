extension FlowController {
    /// Makes `child` this node's only embedded child; any current children exit first (a
    /// switch). A flow embeds its navigation stack this way.
    ///
    ///     final class MainFlow: FlowController {
    ///         let stack = FlowStack(name: "stack", root: ListScreen())
    ///         init() {
    ///             super.init(name: "main")
    ///             try! embed(stack)    // not yet in a tree: structural only
    ///         }
    ///     }
    ///
    /// On a node that is in a running tree this is a transaction: the old children exit
    /// (guards may refuse), then `child` enters with its defaults.
    ///
    /// - Throws: ``FlowError`` if `child` is attached elsewhere, was exited, or is an ancestor
    ///   of this node; if a guard refuses; if this node was exited.
    public func embed(_ child: FlowController) throws {
        try _replaceChildren(with: child, kind: .embed)
    }

    /// Presents `node` modally over this node. The presented node's next responder is this
    /// node. This node stays on the focused path (the path continues into `node`); what it
    /// embeds stays entered but becomes inactive until the dismissal.
    ///
    /// One node presents at most one node at a time; to stack modals, present from the
    /// presented node.
    ///
    /// - Throws: ``FlowError/alreadyPresenting(presenter:presented:)`` if this node already
    ///   presents a node; the attach errors of ``embed(_:)``; a guard's refusal.
    public func present(_ node: FlowController) throws {
        try _validateNewChildren([node])
        if let presented = presentedChild {
            throw FlowError.alreadyPresenting(presenter: path, presented: presented.path)
        }
        try _change(.present) { change in change.present(node, by: self) }
    }

    /// Dismisses the node this node presents, with its whole subtree.
    ///
    /// - Returns: The dismissed node (exited).
    /// - Throws: ``FlowError/nothingPresented(presenter:)`` if nothing is presented; a guard's
    ///   refusal (then nothing changes).
    @discardableResult
    public func dismiss() throws -> FlowController {
        guard let presented = presentedChild else {
            throw FlowError.nothingPresented(presenter: path)
        }
        try _change(.dismiss) { change in change.remove(presented, from: self) }
        return presented
    }

    /// Tells FlowKit that the platform dismissed the node this node presents (a swipe-down,
    /// a system alert closing). The subtree is torn down exactly like ``dismiss()``, guards are
    /// not consulted (it already happened on screen) and the host is not told.
    ///
    /// - Returns: The dismissed node (exited).
    /// - Throws: ``FlowError/nothingPresented(presenter:)`` if nothing is presented.
    @discardableResult
    public func platformDidDismiss() throws -> FlowController {
        guard let presented = presentedChild else {
            throw FlowError.nothingPresented(presenter: path)
        }
        try _change(.platformDismiss, platform: true) { change in
            change.remove(presented, from: self)
        }
        return presented
    }

    /// Registers how to build the child for `route`, for navigation paths, initial routes and
    /// history. The node built must carry `route`.
    ///
    ///     stack.register("detail") { DetailScreen() }   // DetailScreen uses route "detail"
    ///
    /// Factories are released when this node exits. A factory runs in the check phase of the
    /// change that needs its node, before guards decide; if the change is refused, the node it
    /// built is discarded. Keep factories free of side effects beyond building the node.
    public func register(
        _ route: FlowRoute, factory: @escaping @MainActor () -> FlowController
    ) {
        guard state != .exited else { return }
        _factories[route] = factory
    }

    /// Whether a factory is registered for `route` on this node.
    public func hasFactory(for route: FlowRoute) -> Bool {
        _factories[route] != nil
    }

    // MARK: Internals shared by every container

    /// Plans a change with `plan` and applies it: as a transaction when this node is in a
    /// running tree, structurally when it is not yet (composition before attaching).
    func _change(
        _ kind: FlowChange.Kind, platform: Bool = false,
        _ plan: (inout _Change) throws -> Void
    ) throws {
        switch state {
        case .exited:
            throw FlowError.containerExited(container: path)
        case .created:
            var change = _Change(kind: kind, domain: self)
            try plan(&change)
            _applyOffline(change)
        case .entered:
            guard let runtime = _runtime, runtime.isRunning else {
                throw FlowError.notInTree(node: path)
            }
            var change = _Change(kind: kind, domain: self)
            change.isPlatformInitiated = platform
            try plan(&change)
            if change.isEmpty { return }
            try runtime._run(change)
        }
    }

    func _replaceChildren(with child: FlowController, kind: FlowChange.Kind) throws {
        try _validateNewChildren([child])
        try _change(kind) { change in
            for old in change.plannedChildren(of: self).reversed() {
                change.remove(old, from: self)
            }
            change.append(child, to: self)
        }
    }

    /// Checks that `nodes` may join this node: each is new (never entered), has no parent,
    /// is not this node or an ancestor of it, and appears once.
    func _validateNewChildren(_ nodes: [FlowController]) throws {
        if state == .exited { throw FlowError.containerExited(container: path) }
        var seen = Set<ObjectIdentifier>(minimumCapacity: nodes.count > 1 ? nodes.count : 0)
        for node in nodes {
            if node.state == .exited { throw FlowError.nodeExited(node: node.path) }
            if let parent = node.parent {
                throw FlowError.alreadyAttached(node: node.path, parent: parent.path)
            }
            if node._runtime != nil {
                throw FlowError.alreadyAttached(node: node.path, parent: "its runtime (root)")
            }
            // Only a node with children can be an ancestor of this one.
            if !(node.children.isEmpty && node.presentedChild == nil), isDescendant(of: node) {
                throw FlowError.wouldCreateCycle(node: node.path, parent: path)
            }
            if nodes.count > 1 && !seen.insert(ObjectIdentifier(node)).inserted {
                throw FlowError.duplicateNode(node: node.path)
            }
        }
    }

    /// Builds the child for `route` with this node's factory.
    func _makeChild(_ route: FlowRoute) throws -> FlowController {
        guard let factory = _factories[route] else {
            throw FlowError.unknownRoute(route: route.description, node: path)
        }
        let node = factory()
        precondition(
            node.route == route,
            "The factory for route \(route) on '\(path)' built '\(node.name)' with route "
                + "\(node.route.map(String.init(describing:)) ?? "nil"); it must carry \(route)")
        precondition(
            node.state == .created && node.parent == nil && node._runtime == nil,
            "The factory for route \(route) on '\(path)' returned a node that is already in use")
        return node
    }
}
