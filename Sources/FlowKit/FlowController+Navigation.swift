extension FlowController {
    /// Moves the focus below this node to `path`, a list of routes starting with a child of
    /// this node, with the least change: nodes already on the way are kept, and only what
    /// lies below the last kept node exits; the rest is built from factories and enters.
    ///
    ///     // from app/main/stack/detail (modal "share" presented):
    ///     try runtime.navigate(to: ["main", "stack", "list"])
    ///     // exits share, then detail; list becomes the focus
    ///
    /// At each level a presented node with the next route is kept (otherwise it is dismissed);
    /// a ``FlowStack`` pops to its top-most entry with the route or pushes a new one; other
    /// nodes keep their child with the route or replace their children with a new one.
    /// Below the last route, kept nodes keep what they have and new nodes enter their
    /// defaults (history, then initial routes).
    ///
    /// - Parameters:
    ///   - path: Routes from a child of this node down to the target.
    ///   - history: Restore the target's recorded history (shallow or deep) below it instead
    ///     of keeping or defaulting; with no record, `historyDefault` (or the initial route)
    ///     is entered.
    ///   - historyDefault: The child route entered when `history` finds no record.
    ///   - reentering: `true` makes this an external transition: everything below this node
    ///     exits first and the whole path is entered anew, even parts already on it.
    /// Factories run inside the change (its check phase): a factory that asks for another
    /// change gets ``FlowError/changeInProgress(node:)``. Called from a lifecycle hook, the
    /// navigation is queued behind the change being applied.
    ///
    /// - Throws: ``FlowError/unknownRoute(route:node:)`` for a route no factory builds, a
    ///   factory error, a guard's refusal, ``FlowError/notInTree(node:)``, or
    ///   ``FlowError/containerExited(container:)``; the tree is then unchanged.
    public func navigate(
        to path: [FlowRoute], history: FlowHistoryDepth? = nil,
        historyDefault: FlowRoute? = nil, reentering: Bool = false
    ) throws {
        let runtime: FlowRuntime
        switch try _admission() {
        case .offline:
            throw FlowError.notInTree(node: self.path)
        case .queued(let owner):
            owner._enqueueChange("navigate", at: self) {
                try self.navigate(
                    to: path, history: history, historyDefault: historyDefault,
                    reentering: reentering)
            }
            return
        case .live(let owner):
            runtime = owner
        }
        // Planned inside the transaction: factories run in its check phase.
        try runtime._transact(.navigate, domain: self, platform: false) { change in
            try _planNavigation(
                to: path, history: history, historyDefault: historyDefault,
                reentering: reentering, in: &change)
        }
    }

    private func _planNavigation(
        to path: [FlowRoute], history: FlowHistoryDepth?, historyDefault: FlowRoute?,
        reentering: Bool, in change: inout _Change
    ) throws {
        if reentering { change.removeContent(of: self) }
        var node = self
        var isNew = false
        for route in path {
            if isNew {
                // Below a new node the path is built structurally; the node is linked to its
                // container prospectively, so errors name the path it would have had.
                var scratch = _Change(kind: .navigate, domain: node)
                defer { scratch.clearPendingLinks() }
                let (next, _) = try node._planStep(toward: route, in: &scratch)
                node._applyOffline(scratch)
                node = next
            } else {
                (node, isNew) = try node._planStep(toward: route, in: &change)
            }
        }
        let restore = history.map { _Restore(depth: $0, fallback: historyDefault) }
        if !isNew && (restore != nil || (reentering && node === self)) {
            // A kept node gets new content: its history or its defaults.
            if !reentering || node !== self { change.removeContent(of: node) }
            change.fills.append(_Fill(node: node, restore: restore))
        } else if isNew, let restore {
            change.fills.append(_Fill(node: node, restore: restore))
        }
    }
}

extension FlowRuntime {
    /// Moves the focus to `path`, a list of routes starting with a child of the root, with
    /// the least change. See ``FlowController/navigate(to:history:historyDefault:reentering:)``.
    public func navigate(
        to path: [FlowRoute], history: FlowHistoryDepth? = nil,
        historyDefault: FlowRoute? = nil
    ) throws {
        guard let root, isRunning else { throw FlowError.runtimeNotStarted }
        try root.navigate(to: path, history: history, historyDefault: historyDefault)
    }

    /// The routes of the focused path below the root (as far as nodes carry routes): the
    /// path ``navigate(to:history:historyDefault:)`` would return to.
    public var focusedRoutes: [FlowRoute] {
        root?._focusedRoutes() ?? []
    }
}
