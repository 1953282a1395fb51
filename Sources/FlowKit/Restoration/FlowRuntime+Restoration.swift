extension FlowRuntime {
    /// The whole navigation state as a `Codable` value: every node with its name, kind and
    /// route, every container's children (covered stack entries included), presented nodes,
    /// tab selections, the state of ``FlowRestorable`` nodes, and the recorded history.
    ///
    ///     let data = try JSONEncoder().encode(try runtime.snapshot())
    ///
    /// Taking a snapshot changes nothing. ``FlowRestorable/saveState()`` runs as a guard does:
    /// asking for a navigation change from it throws ``FlowError/changeInProgress(node:)``.
    ///
    /// - Throws: ``FlowError/runtimeNotStarted`` if the runtime is not running;
    ///   ``FlowSnapshotError/notEncodable(path:reason:)`` for a route or a saved state that is
    ///   not `Encodable`, or an empty stack that is not a ``FlowSplit``'s column (it could not
    ///   be restored; a stack presented over a split is not a column);
    ///   ``FlowSnapshotError/tooDeep(limit:)`` and ``FlowSnapshotError/tooLarge(limit:)`` for
    ///   a tree a snapshot may not describe.
    /// - Complexity: O(*n*) in the number of nodes.
    public func snapshot() throws -> FlowSnapshot {
        guard isRunning, let root else { throw FlowError.runtimeNotStarted }
        // Keeps app code (saveState) from changing the tree while it is being read.
        let guarding = _phase == .idle
        if guarding { _phase = .checking }
        defer { if guarding { _phase = .idle } }
        var count = 0
        var types = _SnapshotTypeCache()
        let node = try _snapshot(of: root, depth: 1, count: &count, types: &types)
        var history: [FlowSnapshot.HistoryEntry] = []
        var routes = 0
        for (path, recorded) in _history.sorted(by: { $0.key < $1.key }) {
            routes += recorded.count
            guard routes <= FlowSnapshot.maximumNodeCount else {
                throw FlowSnapshotError.tooLarge(limit: FlowSnapshot.maximumNodeCount)
            }
            history.append(
                FlowSnapshot.HistoryEntry(
                    path: path,
                    routes: try recorded.map { try _storedRoute($0, at: path, types: &types) }))
        }
        return FlowSnapshot(root: node, history: history, schema: snapshotSchema?.version)
    }

    /// Starts the runtime with the tree `snapshot` describes, rebuilt below the root the app
    /// made, in one `start` change (guards, defaults, the host and the trace as for
    /// ``start()``).
    ///
    ///     let snapshot = try JSONDecoder().decode(FlowSnapshot.self, from: data)
    ///     let runtime = try FlowRuntime(root: AppRoot())
    ///     do {
    ///         let report = try runtime.start(restoring: snapshot, routeTypes: [Screen.self])
    ///         for skipped in report.skipped { log("not restored: \(skipped)") }
    ///     } catch {
    ///         try runtime.start()   // nothing changed: start fresh
    ///     }
    ///
    /// The snapshot's root must have the root's name and kind. Below it, each snapshot child
    /// is matched by position against the node's current child: the same name, kind and
    /// route reuse it; otherwise the node is built from its route by the parent's factories
    /// (for a presented node, also the global routes of its ancestors). A ``FlowTabs`` keeps
    /// its tabs (they must match the snapshot's one to one) and gets its selection back.
    /// Current children the snapshot does not have are dropped: they never enter.
    ///
    /// A restored ``FlowRestorable`` node gets its state right after it is built or found,
    /// then its entry guard decides, once. A node whose guard refuses (or redirects) is not
    /// restored and is listed in the report: a stack keeps the entries below it (with none
    /// left it gets its defaults), a presented node is not presented, an embedded child is
    /// left out and its parent gets its defaults (history, else initial route). The root's
    /// and the tabs' guards must allow (they cannot be left out).
    ///
    /// Stored routes and states are read through ``snapshotSchema`` (renamed types,
    /// migrations from the snapshot's schema version) before the node they describe is
    /// built. A node whose route cannot be read (its type unknown, its value not decoding,
    /// dropped by a migration or a migration that threw) is left out in the same way and
    /// reported with the reason; a recorded history is cut before such a route, and reported.
    ///
    /// Route value types are found among `String`, `Int`, `Bool`, `Double`, `routeTypes`,
    /// and the value types of the routes registered on the nodes being restored (exact
    /// routes, families, global routes) and of their current children.
    ///
    /// - Parameters:
    ///   - snapshot: A snapshot, usually decoded from what ``snapshot()`` made.
    ///   - routeTypes: Route value types restoration cannot find on the nodes: types only
    ///     the recorded history uses, types of routes given to nodes in `init`.
    /// - Returns: What was restored and what was left out.
    /// - Throws: ``FlowSnapshotError`` for a snapshot that cannot be restored (version,
    ///   size, shape, tabs that do not match, a route no factory builds, a rejected state);
    ///   ``FlowError/runtimeAlreadyStarted`` if the runtime was started;
    ///   ``FlowError/changeInProgress(node:)`` if called while a change is checked or
    ///   applied; the errors of ``start()`` for the root's or a tab's guard and for the
    ///   defaults built below restored nodes. Then nothing changed: the runtime is not
    ///   started, the root's composition is as it was, everything built was released, and
    ///   ``start()`` can still be called.
    /// - Complexity: O(*n*) in the number of nodes of the snapshot and the app's tree.
    @discardableResult
    public func start(
        restoring snapshot: FlowSnapshot,
        routeTypes: [any (Codable & Hashable & Sendable).Type] = []
    ) throws -> FlowRestoreReport {
        try start(restoring: snapshot, routeTypes: routeTypes, lazily: false)
    }

    /// Starts the runtime with the tree `snapshot` describes, as
    /// ``start(restoring:routeTypes:)`` does, building the content of the tabs that are not
    /// selected only when they are first visited if `lazily` is set.
    ///
    ///     let report = try runtime.start(restoring: snapshot, lazily: true)
    ///     // report.pending: the tabs not built yet
    ///
    /// Lazily, the shown tree is restored in the `start` change, and every tab enters (its
    /// state restored, its guard asked), but the content of a tab that is not selected stays
    /// snapshot data until a change needs it: selecting the tab, a navigation (`navigate`,
    /// `open`, `unwind`: every pending tab), a change asked of the tab or an ancestor of it,
    /// or ``restorePendingBranches()``. Then it is built in a change of its own (kind
    /// ``FlowChange/Kind/restoreBranch``, reported to the host and the trace) with the same
    /// factories, states, guards and entry hooks, and what it leaves out is added to
    /// ``restoreReport``. Once every tab was built, the tree, its snapshot and the report
    /// (in another order) are those of an eager restoration. See <doc:Restoration>.
    ///
    /// - Parameters:
    ///   - snapshot: A snapshot, usually decoded from what ``snapshot()`` made.
    ///   - routeTypes: Route value types restoration cannot find on the nodes.
    ///   - lazily: Whether to build the content of the tabs that are not selected on their
    ///     first visit.
    /// - Returns: What was restored and what was left out; lazily, the tabs not built yet
    ///   are ``FlowRestoreReport/pending``.
    /// - Throws: The errors of ``start(restoring:routeTypes:)``; lazily, errors in a tab not
    ///   built yet come when it is built: the tab then gets the app's own content and the
    ///   report says why.
    /// - Complexity: O(*n*) in the number of nodes restored now.
    @discardableResult
    public func start(
        restoring snapshot: FlowSnapshot,
        routeTypes: [any (Codable & Hashable & Sendable).Type] = [], lazily: Bool
    ) throws -> FlowRestoreReport {
        guard !_wasStarted, let root else { throw FlowError.runtimeAlreadyStarted }
        guard _phase == .idle, _RuntimeActivity.applying.isEmpty else {
            throw FlowError.changeInProgress(node: root.path)
        }
        let count = try snapshot._validate(onto: root)
        let restoration = _Restoration(runtime: self, snapshot: snapshot, routeTypes: routeTypes)
        restoration.reserveCapacity(lazily ? 0 : count)
        let lazy = _LazyRestoration(snapshot: snapshot, routeTypes: routeTypes)
        if lazily { restoration.deferred = [] }
        let history = _history
        _lazy = lazy
        do {
            try _transact(.start, domain: nil) { change in
                try restoration.restore(root)
                lazy.branches = restoration.deferred ?? []
                change.insertions.append(_Insertion(node: root, container: nil))
                change.decidedEntries = restoration.decided
            }
        } catch {
            _history = history
            _lazy = nil
            restoration.rollback()
            throw error
        }
        _wasStarted = true
        restoration.releaseUnused()
        if trace.isEnabled {
            for skipped in restoration.skipped {
                trace.record(.notRestored(node: skipped.path, reason: skipped.reason))
            }
        }
        lazy.types = restoration.types
        lazy.skipped = restoration.skipped
        lazy.restoredCount = restoration.restoredCount
        _RuntimeActivity.pendingBranches += lazy.branches.count
        return lazy.report
    }

    /// The snapshot of `node`'s subtree (`depth` is the node's; `count` the nodes so far;
    /// `types` what this snapshot learned per type).
    private func _snapshot(
        of node: FlowController, depth: Int, count: inout Int, types: inout _SnapshotTypeCache
    ) throws -> FlowSnapshot.Node {
        guard depth <= FlowSnapshot.maximumDepth else {
            throw FlowSnapshotError.tooDeep(limit: FlowSnapshot.maximumDepth)
        }
        count += 1
        guard count <= FlowSnapshot.maximumNodeCount else {
            throw FlowSnapshotError.tooLarge(limit: FlowSnapshot.maximumNodeCount)
        }
        if _RuntimeActivity.pendingBranches != 0, let stored = _pendingContent(of: node) {
            return try _snapshot(ofPending: node, stored: stored, count: &count)
        }
        let facts = types.facts(of: node)
        let kind = facts.kind
        if kind == .stack && node._children.isEmpty && !node._isSplitColumn {
            throw FlowSnapshotError.notEncodable(
                path: node.path, reason: "an empty stack cannot be restored")
        }
        var children: [FlowSnapshot.Node] = []
        children.reserveCapacity(node._children.count)
        for child in node._children {
            children.append(
                try _snapshot(of: child, depth: depth + 1, count: &count, types: &types))
        }
        var presented: FlowSnapshot.Node?
        if let node = node._presented {
            presented = try _snapshot(of: node, depth: depth + 1, count: &count, types: &types)
        }
        var state: FlowSnapshotValue?
        if facts.isRestorable, let restorable = node as? any FlowRestorable {
            state = try _saveState(of: restorable)
        }
        var route: FlowSnapshot.Route?
        if let nodeRoute = node.route {
            route = try _storedRoute(nodeRoute, at: node.path, types: &types)
        }
        var selectedTab: Int?
        var focusedRegion: Int?
        var split: FlowSplit?
        switch kind {
        case .tabs: selectedTab = node._selectedIndex
        case .parallel: focusedRegion = (node as? FlowParallel)?._focus
        case .split:
            split = node as? FlowSplit
            focusedRegion = split?._focus
        case .node, .stack, .switch: break
        }
        return FlowSnapshot.Node(
            name: node.name, kind: kind, route: route, children: children,
            presented: presented, selectedTab: selectedTab, state: state,
            focusedRegion: focusedRegion, collapsed: split.flatMap { $0._isCollapsed ? true : nil },
            preferredColumn: split?._preferredCompact)
    }

    /// `route` as a snapshot stores it; `path` names the node (or history) for errors, and is
    /// only evaluated to throw one.
    private func _storedRoute(
        _ route: FlowRoute, at path: @autoclosure () -> String, types: inout _SnapshotTypeCache
    ) throws -> FlowSnapshot.Route {
        let base = route.base
        let type = types.facts(of: base)
        if let convertible = type.convertible {
            return FlowSnapshot.Route(
                type: type.name, value: _convertedSnapshotValue(of: base, as: convertible))
        }
        guard let encodable = type.encodable else {
            throw FlowSnapshotError.notEncodable(
                path: path(),
                reason: "its route \(route) has a value of type \(type.name), which is "
                    + "not Encodable")
        }
        do {
            return try FlowSnapshot.Route(
                route, base: base, typeName: type.name, encodable: encodable,
                reusing: &types.encodingTop)
        } catch {
            throw FlowSnapshotError.notEncodable(
                path: path(), reason: "its route \(route) does not encode: \(error)")
        }
    }
}
