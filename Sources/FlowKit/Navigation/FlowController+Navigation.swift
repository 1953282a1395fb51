extension FlowController {
    /// Moves the focus below this node to `path`, a list of routes starting with a child of
    /// this node, with the least change: nodes already on the way are kept, and only what
    /// lies below the last kept node exits; the rest is built from factories and enters.
    ///
    ///     // from app/main/stack/detail (modal "share" presented):
    ///     try runtime.navigate(to: ["main", "stack", "list"])
    ///     // exits share, then detail; list becomes the focus
    ///
    /// Every route is a ``FlowStep/Placement/child`` step; use
    /// ``navigate(to:history:historyDefault:reentering:)-([FlowStep],_,_,_)`` to push or
    /// present along the way.
    ///
    /// - Parameters:
    ///   - path: Routes from a child of this node down to the target.
    ///   - history: Restore the target's recorded history (shallow or deep) below it instead
    ///     of keeping or defaulting; with no record, `historyDefault` (or the initial route)
    ///     is entered.
    ///   - historyDefault: The child route entered when `history` finds no record.
    ///   - reentering: `true` makes this an external transition: everything below this node
    ///     exits first and the whole path is entered anew, even parts already on it (not on
    ///     a ``FlowParallel`` or a ``FlowTabs``, whose regions or tabs are fixed:
    ///     ``FlowError/regionsAreFixed(container:)``, ``FlowError/tabsAreFixed(container:)``).
    /// - Throws: See ``navigate(to:history:historyDefault:reentering:)-([FlowStep],_,_,_)``.
    public func navigate(
        to path: [FlowRoute], history: FlowHistoryDepth? = nil,
        historyDefault: FlowRoute? = nil, reentering: Bool = false
    ) throws {
        try navigate(
            to: path.map { FlowStep($0) }, history: history, historyDefault: historyDefault,
            reentering: reentering)
    }

    /// Moves the focus below this node along `path`, whose steps say how each node is shown
    /// (a child, an entry pushed on the same stack, or presented), in one transaction.
    ///
    ///     try main.navigate(to: [
    ///         .child("stack"), .child(Screen.list), .push(Screen.detail(id: 7)),
    ///         .present("share"),
    ///     ])
    ///
    /// Nodes already on the way are kept and only what lies below the last kept node changes:
    /// at each step a node with the step's route is kept where the step would put it;
    /// otherwise what is there exits (innermost first) and a new node is built from a factory
    /// (see ``FlowStep/Placement``). Below the last step, kept nodes keep what they have and
    /// new nodes enter their defaults (history, then initial routes). Factories run inside
    /// the change (its check phase), and every new node's entry guard decides: a path never
    /// reaches a guarded node without its guard. Called from a lifecycle hook, the navigation
    /// is queued behind the change being applied.
    ///
    /// - Throws: ``FlowError/unknownRoute(route:node:)`` for a route no factory builds, a
    ///   factory error, ``FlowError/pushOutsideStack(node:route:)``, a guard's refusal
    ///   (``FlowError/redirected(node:to:)`` if it redirected), ``FlowError/notInTree(node:)``,
    ///   ``FlowError/containerExited(container:)``, or, for a root step, a reentering
    ///   navigation or a history restore that would replace fixed children,
    ///   ``FlowError/regionsAreFixed(container:)`` (a ``FlowParallel``) or
    ///   ``FlowError/tabsAreFixed(container:)`` (a ``FlowTabs``); the tree is then unchanged.
    public func navigate(
        to path: [FlowStep], history: FlowHistoryDepth? = nil,
        historyDefault: FlowRoute? = nil, reentering: Bool = false
    ) throws {
        // The call itself, to queue it or to keep it as a redirected intent.
        let again: @MainActor @Sendable () throws -> Void = {
            try self.navigate(
                to: path, history: history, historyDefault: historyDefault, reentering: reentering)
        }
        try _change(
            .navigate, again: again,
            describe: { "navigate \(self.path) to \(path.pathDescription)" },
            validate: {
                try self._requireTree()
                return true
            }
        ) { change in
            change.replacesIntentFrom = self
            _ = try self._planNavigation(
                to: path, history: history, historyDefault: historyDefault,
                reentering: reentering, in: &change)
        }
    }

    /// Moves along several paths below this node in one transaction, with one exit set and
    /// one entry set: each path is planned as by
    /// ``navigate(to:history:historyDefault:reentering:)-([FlowStep],_,_,_)``, after the
    /// ones before it (so a later path sees what an earlier one planned). What exits exits in
    /// the reverse of the tree's entry order and what enters enters in entry order, whichever
    /// order the paths come in. Paths into the columns of a ``FlowSplit`` change several
    /// columns at once; the focus ends on the last path's target.
    ///
    ///     // a deep link that picks poetry in the list and shows poem 7 beside it:
    ///     try runtime.navigate(toEach: [
    ///         [.child("split"), .child("content"), .child(Genre.poetry)],
    ///         [.child("split"), .child("detail"), .child(Screen.poem(7))],
    ///     ])
    ///
    /// - Throws: The errors of ``navigate(to:history:historyDefault:reentering:)-([FlowStep],_,_,_)``;
    ///   the tree is then unchanged.
    public func navigate(toEach paths: [[FlowStep]]) throws {
        try _navigate(
            toEach: paths.map { FlowNavigationTarget(from: self, to: $0) },
            again: { try self.navigate(toEach: paths) })
    }

    /// Shows the global route `route`, registered on this node or an ancestor with
    /// ``registerGlobal(_:placement:factory:)-(FlowRoute,_,_)``: presented over the focused node below this
    /// one (or pushed onto the stack nearest to it, if the registration says so).
    ///
    ///     try detail.open("settings")   // from any depth: presented over the focus
    ///
    /// If a node with the route is already on the focused path, nothing changes.
    ///
    /// - Throws: ``FlowError/unknownGlobalRoute(route:node:)``, a factory error, a guard's
    ///   refusal, ``FlowError/notInTree(node:)``; the tree is then unchanged.
    public func open(_ route: FlowRoute) throws {
        try _change(
            .open, again: { try self.open(route) },
            describe: { "open \(route) from \(self.path)" },
            validate: {
                try self._requireTree()
                return true
            }
        ) { change in
            change.replacesIntentFrom = self
            try self._planOpen(route, in: &change)
        }
    }

    // MARK: Internals

    /// Plans showing the global route `route` over the focused node below this one.
    private func _planOpen(_ route: FlowRoute, in change: inout _Transaction) throws {
        var focused = self
        while let next = focused.focusedChild { focused = next }
        var onPath: FlowController? = focused
        while let node = onPath {
            if node.route == route { return }  // already shown
            if node === self { break }
            onPath = node.parent
        }
        guard let (_, global) = focused._nearestGlobalRoute(route) else {
            throw FlowError.unknownGlobalRoute(route: route.description, node: focused.path)
        }
        switch global.placement {
        case .present:
            let node = try focused._build(route, with: global.factory, joining: focused)
            change.present(node, by: focused)
        case .push:
            var candidate: FlowController? = focused
            while let current = candidate, !(current is FlowStack) { candidate = current.parent }
            guard let stack = candidate as? FlowStack else {
                throw FlowError.pushOutsideStack(node: focused.path, route: route.description)
            }
            let node = try focused._build(route, with: global.factory, joining: stack)
            change.append(node, to: stack)
        }
    }

    /// Pops, in every entered stack the path passes through, the entries above the top-most
    /// one on the path, so the path's end is focused.
    private func _popAbove(_ visited: [FlowController], in change: inout _Transaction) {
        var handled: [FlowStack] = []
        for node in visited.reversed() {
            guard let stack = node._effectiveParent as? FlowStack, stack.state == .entered,
                !handled.contains(where: { $0 === stack })
            else { continue }
            handled.append(stack)
            let entries = change.plannedChildren(of: stack)
            guard let index = _index(of: node, in: entries) else { continue }
            for entry in entries[(index + 1)...].reversed() { change.remove(entry, from: stack) }
        }
    }

    /// Plans `path` from this node (see ``navigate(to:history:historyDefault:reentering:)-([FlowStep],_,_,_)``)
    /// and returns the node it reaches.
    func _planNavigation(
        to path: [FlowStep], history: FlowHistoryDepth?, historyDefault: FlowRoute?,
        reentering: Bool, in change: inout _Transaction
    ) throws -> FlowController {
        if reentering {
            // Regions and tabs are fixed: they cannot exit and enter anew.
            try _requireReplaceableChildren()
            change.removeContent(of: self)
        }
        var node = self
        var isNew = false
        var visited: [FlowController] = []
        visited.reserveCapacity(path.count)
        defer { _popAbove(visited, in: &change) }
        for step in path {
            if let container = node._container(for: step), container.state != .entered {
                // A new part of the tree is built structurally; it is linked to its container
                // prospectively, so errors name the paths it would have had.
                var scratch = _Transaction.makeOffline(kind: .navigate, domain: container)
                defer { _Transaction.recycleOffline(scratch) }
                let (next, _) = try node._planStep(step, in: &scratch)
                container._applyOffline(scratch)
                node = next
                isNew = true
            } else {
                (node, isNew) = try node._planStep(step, in: &change)
            }
            visited.append(node)
        }
        let restore = history.map { _Restore(depth: $0, fallback: historyDefault) }
        if !isNew && (restore != nil || (reentering && node === self)) {
            // A kept node gets new content: its history or its defaults (not a parallel or
            // tab container, whose regions or tabs are fixed).
            try node._requireReplaceableChildren()
            if !reentering || node !== self { change.removeContent(of: node) }
            change.fills.append(_Fill(node: node, restore: restore))
        } else if isNew, let restore {
            change.fills.append(_Fill(node: node, restore: restore))
        }
        return node
    }
}
