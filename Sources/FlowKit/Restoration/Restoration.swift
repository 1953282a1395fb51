// One restoration: rebuilds the tree a snapshot describes below a runtime's root, in the
// check phase of the restoring `start` change, and can undo everything it did.
//
// The walk is pre-order (a node, its embedded children in order, then its presented node),
// the order in which nodes enter. Each snapshot child is matched by position against the
// node's current (offline, init-composed) child: same name, kind and route means it is
// reused; otherwise it is built by the node's factories. A restored node gets its saved
// state, then its entry guard decides, once; the change's commit does not ask again.
// Every node is visited once and route types are looked up in one table, so the work is
// linear in the number of nodes.

/// A restoration in progress (see the comment above).
@MainActor
final class _Restoration {
    private let runtime: FlowRuntime
    private let snapshot: FlowSnapshot
    /// The route value types known so far, by `String(reflecting:)` name.
    var types: [String: any (Decodable & Hashable & Sendable).Type] = [:]
    /// The types `learn` has seen (route types or not).
    var seenTypes = Set<ObjectIdentifier>()
    /// The last route type found by name, with the type as ``FlowSnapshotValueConvertible``
    /// (`nil` if it is not): a tree's routes are mostly of a few types, and comparing a name
    /// is cheaper than hashing it. Never stale: `types` only grows.
    var lastType:
        (
            name: String, type: any (Decodable & Hashable & Sendable).Type,
            convertible: (any (FlowSnapshotValueConvertible & Hashable & Sendable).Type)?
        )?
    /// Nodes whose entry guard allowed them. Each stays in the tree until the commit (a node
    /// is left out only before its guard allows it), so no identity here outlives its node.
    private(set) var decided = Set<ObjectIdentifier>()
    /// The content of every node whose content was rebuilt, as it was before.
    private var compositions:
        [(node: FlowController, children: [FlowController], presented: FlowController?)] = []
    /// Tab selections and regions' focus, as they were before.
    var selections: [(container: FlowController, index: Int)] = []
    /// Split arrangements (collapsed or not, the preferred column), as they were before.
    var splitArrangements: [(split: FlowSplit, collapsed: Bool, preferred: FlowSplit.Column)] =
        []
    /// Nodes route factories built (in the tree or not).
    private var built: [FlowController] = []
    /// Nodes taken out of the app's composition (not matched, or refused).
    private var dropped: [FlowController] = []
    private(set) var skipped: [FlowRestoreReport.Skipped] = []
    /// The app's schema (``FlowRuntime/snapshotSchema``), and the snapshot's (0 if none).
    let schema: FlowSnapshotSchema?
    let snapshotSchema: Int
    var restoredCount = 0
    /// The first node serial of the restoring change: older nodes are the app's.
    private var mark: UInt64 = 0
    /// The stored history not read yet (each path is read once).
    private var storedHistory: [String: [FlowSnapshot.Route]]
    private var history: [String: [FlowRoute]] = [:]
    /// The tabs whose content is set aside for a lazy restoration (`nil`: restore it all).
    var deferred: [_LazyRestoration.Branch]?

    init(
        runtime: FlowRuntime, snapshot: FlowSnapshot,
        routeTypes: [any (Codable & Hashable & Sendable).Type]
    ) {
        self.runtime = runtime
        self.snapshot = snapshot
        schema = runtime.snapshotSchema
        snapshotSchema = snapshot.schema ?? 0
        var stored: [String: [FlowSnapshot.Route]] = [:]
        for entry in snapshot.history { stored[entry.path] = entry.routes }
        storedHistory = stored
        for type in _builtInRouteTypes + routeTypes { learn(type) }
        for type in schema?.knownRouteTypes ?? [] { learn(type) }
    }

    /// Makes room for `count` nodes in the sets and lists that grow by one per node.
    func reserveCapacity(_ count: Int) {
        decided.reserveCapacity(count)
        built.reserveCapacity(count)
    }

    // MARK: Restoring

    /// Rebuilds the snapshot's tree below `root` and the recorded history. Called in the
    /// check phase of the restoring change.
    func restore(_ root: FlowController) throws {
        startCheck()
        try failingLeftOut { try restoreState(of: root, from: snapshot.root) }
        if let reason = refusal(of: root) {
            throw FlowError.entryRefused(node: root.path, reason: reason)
        }
        restoredCount = 1
        try restoreContent(of: root, from: snapshot.root)
        for path in storedHistory.keys.sorted() { _ = try recordedHistory(at: path) }
        runtime._history = history
        for run in snapshot.dropped {
            skipped.append(FlowRestoreReport.Skipped(path: run.path, reason: _droppedReason(run)))
        }
    }

    /// Notes where the check phase of the restoring change begins: older nodes are the app's.
    func startCheck() {
        mark = runtime._checkMark
    }

    /// Knows `types` too (learned by the restoration a lazy one continues).
    func adopt(_ types: [String: any (Decodable & Hashable & Sendable).Type]) {
        self.types.merge(types) { current, _ in current }
    }

    /// Keeps `node`'s content as it is now, to give it back on rollback.
    func recordComposition(of node: FlowController) {
        compositions.append((node, node._children, node._presented))
    }

    /// Rebuilds what `node` (restored, its guard allowed it) embeds and presents.
    func restoreContent(of node: FlowController, from stored: FlowSnapshot.Node) throws {
        learnTypes(of: node)
        // A leaf restored as a leaf (most nodes: screens) keeps its empty content: nothing
        // to record, rebuild or announce.
        if stored.children.isEmpty, stored._isUnpresenting, node._children.isEmpty,
            node._presented == nil, !(node is FlowTabs), !(node is FlowParallel)
        {
            return
        }
        let children = node._children
        let presented = node._presented
        recordComposition(of: node)
        // The content is built in place (so guards and factories below see it), then set
        // once more through `_setContent` so that observers hear of it.
        if let tabs = node as? FlowTabs {
            try restoreTabs(tabs, from: stored)
        } else if let parallel = node as? FlowParallel {
            try restoreRegions(of: parallel, from: stored)
        } else {
            try restoreEmbedded(of: node, from: stored, original: children)
        }
        try restorePresented(of: node, from: stored.presented, original: presented)
        let newChildren = node._children
        let newPresented = node._presented
        node._children = children
        node._presented = presented
        node._setContent(newChildren, presented: newPresented)
    }

    private func restoreEmbedded(
        of node: FlowController, from stored: FlowSnapshot.Node, original: [FlowController]
    ) throws {
        node._children = []
        var consumed = 0
        var lost = false
        // By index: the stored children are read in place, not copied one by one.
        for index in stored.children.indices {
            consumed = index + 1
            let candidate = index < original.count ? original[index] : nil
            if try place(stored.children[index], candidate: candidate, in: node, presenting: false)
                == nil
            {
                for above in stored.children[(index + 1)...] {
                    skipped.append(
                        FlowRestoreReport.Skipped(
                            path: "\(node.path)/\(above.name)",
                            reason: "an entry below it was not restored"))
                }
                lost = true
                break
            }
        }
        if consumed < original.count {
            for child in original[consumed...] { drop(child) }
        }
        if lost && node._children.isEmpty {
            try buildDefaults(of: node)
            // A stack needs an entry: with none restored and no default to build, the tree
            // would hold an empty stack, which no snapshot can describe.
            if node is FlowStack && node._children.isEmpty && !node._isSplitColumn {
                throw FlowSnapshotError.mismatch(
                    path: node.path,
                    reason:
                        "none of the stack's entries was restored and it has no history or "
                        + "initial route to build one from")
            }
        }
    }

    private func restorePresented(
        of node: FlowController, from stored: FlowSnapshot.Node?, original: FlowController?
    ) throws {
        node._presented = nil
        guard let stored else {
            if let original { drop(original) }
            return
        }
        _ = try place(stored, candidate: original, in: node, presenting: true)
    }

    /// Restores `stored` as `parent`'s next child (or its presented node): reuses
    /// `candidate` if it matches, else builds a node; gives it its state; asks its guard.
    /// Returns the node, or `nil` if its guard refused (it is then taken out again).
    private func place(
        _ stored: FlowSnapshot.Node, candidate: FlowController?, in parent: FlowController,
        presenting: Bool
    ) throws -> FlowController? {
        let child: FlowController
        if let candidate, matches(candidate, stored) {
            child = candidate
        } else if stored.route == nil {
            // Nothing can rebuild a node without a route (a sheet the app presented by
            // instance): it is left out like a node whose guard refuses, not the whole tree.
            if let candidate { drop(candidate) }
            skipped.append(
                FlowRestoreReport.Skipped(
                    path: "\(parent.path)/\(stored.name)",
                    reason: "it has no route and the app composes no node at its place"))
            return nil
        } else {
            if let candidate { drop(candidate) }
            do {
                child = try build(stored, in: parent, presenting: presenting)
            } catch let leftOut as _LeftOut {
                // A route that cannot be read (unknown, undecodable, dropped by a migration)
                // costs its node, as a refused guard does.
                reportSkipped(path: "\(parent.path)/\(stored.name)", reason: leftOut.reason)
                return nil
            }
        }
        child._setParent(parent)
        if presenting {
            parent._presented = child
        } else {
            parent._children.append(child)
        }
        var refused: String?
        do {
            try restoreState(of: child, from: stored)
        } catch let leftOut as _LeftOut {
            refused = leftOut.reason
        }
        if let reason = refused ?? refusal(of: child) {
            skipped.append(FlowRestoreReport.Skipped(path: child.path, reason: reason))
            if presenting {
                parent._presented = nil
            } else {
                parent._children.removeLast()
            }
            child._setParent(nil)
            if child === candidate { dropped.append(child) }
            return nil
        }
        restoredCount += 1
        try restoreContent(of: child, from: stored)
        return child
    }

    /// Whether `node` is the node `stored` describes: same name, kind and route.
    func matches(_ node: FlowController, _ stored: FlowSnapshot.Node) -> Bool {
        guard node.name == stored.name, FlowSnapshot.Node.Kind(of: node) == stored.kind else {
            return false
        }
        switch (node.route, stored.route) {
        case (nil, nil):
            return true
        case (let route?, let storedRoute?):
            // Another type name cannot match, unless the schema renamed it.
            guard route.typeName == storedRoute.type || schema?.renamed[storedRoute.type] != nil
            else { return false }
            learn(type(of: route.base))
            // The stored route as the schema reads it (migrated from the snapshot's schema).
            guard let decoded = try? resolve(storedRoute, at: node.path) else { return false }
            return decoded == route
        default:
            return false
        }
    }

    /// Builds the node `stored` describes with `parent`'s factories (and, for a presented
    /// node, the global routes of its ancestors).
    private func build(
        _ stored: FlowSnapshot.Node, in parent: FlowController, presenting: Bool
    ) throws -> FlowController {
        // The node's path, made only for an error (capturing the name only: capturing
        // `stored` would copy the whole node).
        let name = stored.name
        func path() -> String { "\(parent.path)/\(name)" }
        guard let storedRoute = stored.route else {
            throw FlowSnapshotError.mismatch(
                path: path(),
                reason:
                    "the node has no route, so it restores only onto a node the app composes "
                    + "at its place, and there is none")
        }
        let route = try resolve(storedRoute, at: path())
        let node: FlowController
        do {
            node = presenting ? try parent._makePresented(route) : try parent._makeChild(route)
        } catch let error as FlowError {
            throw FlowSnapshotError.buildFailed(path: path(), error: error)
        }
        built.append(node)
        let kind = FlowSnapshot.Node.Kind(of: node)
        guard kind == stored.kind else {
            throw FlowSnapshotError.impossibleShape(
                path: path(),
                reason:
                    "the snapshot has a \(stored.kind.rawValue) here, but the factory for "
                    + "\(route) builds a \(kind.rawValue)")
        }
        return node
    }

    /// Builds `node`'s defaults (its history, else its initial route) after the embedded
    /// child the snapshot gave it was not restored. Their guards are asked by the commit.
    private func buildDefaults(of node: FlowController) throws {
        let recorded = try recordedHistory(at: node.path)
        let routes = node._defaultRoutes(restore: nil) { recorded }
        guard let first = routes.first else { return }
        do {
            var change = _Transaction.makeOffline(kind: .navigate, domain: node)
            defer { _Transaction.recycleOffline(change) }
            let (child, _) = try node._planEmbeddedStep(toward: first, in: &change)
            node._applyOffline(change)
            built.append(child)
            try child._buildOffline(along: Array(routes.dropFirst()))
        } catch let error as FlowError {
            throw FlowSnapshotError.buildFailed(path: node.path, error: error)
        }
    }

    /// Gives `node` its saved state, if it has one and takes one.
    func restoreState(of node: FlowController, from stored: FlowSnapshot.Node) throws {
        guard let stored = stored.state, let restorable = node as? any FlowRestorable,
            let state = try migratedState(stored, of: node)
        else { return }
        try _restoreState(of: restorable, from: state)
    }

    /// Asks `node`'s entry guard: `nil` if it allows (it is then decided), else the reason.
    func refusal(of node: FlowController) -> String? {
        switch node.shouldEnter() {
        case .allow:
            decided.insert(ObjectIdentifier(node))
            return nil
        case .refuse(let reason):
            return reason
        case .redirect(let path):
            return "redirected to \(path.pathDescription)"
        }
    }

    /// Reports a node of the snapshot (or a recorded history) left out.
    func reportSkipped(path: String, reason: String) {
        skipped.append(FlowRestoreReport.Skipped(path: path, reason: reason))
    }

    /// Takes `node` out of the app's composition.
    private func drop(_ node: FlowController) {
        node._setParent(nil)
        dropped.append(node)
    }

    // MARK: Routes and history

    /// The snapshot's recorded history for `path`, decoded once.
    private func recordedHistory(at path: String) throws -> [FlowRoute]? {
        if let routes = history[path] { return routes }
        guard let stored = storedHistory[path] else { return nil }
        storedHistory[path] = nil
        let routes = resolveHistory(stored, at: path)
        // A history cut before its first route is none.
        guard !routes.isEmpty else { return nil }
        history[path] = routes
        return routes
    }

    // MARK: Finishing

    /// Undoes everything after a failure: the app's nodes get their content and tab
    /// selections back, and every node built is released.
    func rollback() {
        for node in built { node._setParent(nil) }
        for record in compositions.reversed() where record.node._serial < mark {
            record.node._setContent(record.children, presented: record.presented)
            for child in record.children { child._setParent(record.node) }
            record.presented?._setParent(record.node)
        }
        for selection in selections.reversed() {
            selection.container._setSelectedIndex(selection.index)
        }
        for arrangement in splitArrangements.reversed() {
            arrangement.split._setArrangement(
                collapsed: arrangement.collapsed, preferred: arrangement.preferred)
        }
        runtime._checkMark = mark
        runtime._discardBuilt(built + dropped)
    }

    /// After success: releases what was built but not restored, and the app's nodes the
    /// restored tree does not have (they never entered, and now never will).
    func releaseUnused() {
        runtime._checkMark = mark
        runtime._discardBuilt(built.filter { $0.state == .created })
        runtime._discardBuilt(dropped, madeSince: 0)
    }
}
