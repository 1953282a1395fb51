extension FlowRuntime {
    /// Builds default children (history or initial routes) below every childless node of a
    /// new subtree, so that the entry set is known before anything enters. The subtree's root
    /// is linked to its container prospectively, so paths are the ones it will have.
    func _expandDefaults(
        of root: FlowController, history: (String) -> [FlowRoute]?,
        expanded: inout [FlowController]
    ) throws {
        if root._isLeaf {
            // A single new node (with extras: the caller skips one without): no work list
            // to allocate unless it has routes to build.
            let routes = root._defaultRoutes(restore: nil) { history(root.path) }
            guard !routes.isEmpty else { return }
        }
        var pending: [FlowController] = [root]
        while let node = pending.popLast() {
            // A leaf without extras has neither an initial route nor a history policy.
            if node._isLeaf && node._extras != nil
                && (_RuntimeActivity.pendingBranches == 0 || !_isPendingBranch(node))
            {
                let routes = node._defaultRoutes(restore: nil) { history(node.path) }
                if !routes.isEmpty {
                    expanded.append(node)
                    try node._buildOffline(along: routes)
                }
            }
            pending.append(contentsOf: node._children)
            if let presented = node._presented { pending.append(presented) }
        }
    }

    /// Builds the content of a fill: below a kept node, as new insertions; below a new node,
    /// structurally (it enters with its insertion).
    func _fill(
        _ fill: _Fill, in change: inout _Transaction, history: (String) -> [FlowRoute]?,
        expanded: inout [FlowController]
    ) throws {
        let node = fill.node
        if node.state == .entered {
            let routes = node._defaultRoutes(restore: fill.restore) { history(node.path) }
            guard let first = routes.first else { return }
            let (child, _) = try node._planStep(toward: first, in: &change)
            try child._buildOffline(along: Array(routes.dropFirst()))
            // Planned after every path of the change: put where it enters (before a later
            // region's nodes, say).
            change.orderInsertionsForEntry()
        } else {
            let routes = node._defaultRoutes(restore: fill.restore) { history(node.path) }
            guard !routes.isEmpty else { return }
            if node._isLeaf { expanded.append(node) }
            try node._buildOffline(along: routes)
        }
    }
}

extension FlowController {
    /// The routes of the focused path below this node, as far as they have routes.
    func _focusedRoutes() -> [FlowRoute] {
        var routes: [FlowRoute] = []
        var node = focusedChild
        while let current = node, let route = current.route {
            routes.append(route)
            node = current.focusedChild
        }
        return routes
    }

    /// The routes to build below this childless node when it enters: an explicit restore,
    /// else its own history policy, else its initial route.
    func _defaultRoutes(
        restore: _Restore?, recorded: () -> [FlowRoute]?
    ) -> [FlowRoute] {
        if let restore {
            if let routes = recorded(), !routes.isEmpty {
                return restore.depth == .deep ? routes : [routes[0]]
            }
            if let fallback = restore.fallback { return [fallback] }
            return initialRoute.map { [$0] } ?? []
        }
        switch history {
        case .shallow, .deep:
            if let routes = recorded(), !routes.isEmpty {
                return history == .deep ? routes : [routes[0]]
            }
        case .none, .recorded:
            break
        }
        return initialRoute.map { [$0] } ?? []
    }

    /// Builds `routes` below this node, which is not in a running tree, one level each.
    func _buildOffline(along routes: [FlowRoute]) throws {
        var node = self
        for route in routes {
            var scratch = _Transaction.makeOffline(kind: .navigate, domain: node)
            defer { _Transaction.recycleOffline(scratch) }
            let (next, _) = try node._planStep(toward: route, in: &scratch)
            node._applyOffline(scratch)
            node = next
        }
    }

    /// Detaches this node's children after a failed check (they were added by expansion).
    func _detachChildrenOffline() {
        for child in _children { child._setParent(nil) }
        _setContent([], presented: _presented)
    }
}
