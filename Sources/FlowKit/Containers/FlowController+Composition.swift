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
        try _replaceChildren(with: child, kind: .embed, again: { try self.embed(child) })
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
        try _change(
            .present, again: { try self.present(node) },
            offline: _OfflineAttach(node, presenting: true),
            validate: {
                try self._validateNewChild(node)
                if let presented = self._presented {
                    throw FlowError.alreadyPresenting(
                        presenter: self.path, presented: presented.path)
                }
                return true
            }
        ) { change in
            change.present(node, by: self)
        }
    }

    /// Dismisses the node this node presents, with its whole subtree.
    ///
    /// - Returns: The dismissed node (exited).
    /// - Throws: ``FlowError/nothingPresented(presenter:)`` if nothing is presented; a guard's
    ///   refusal (then nothing changes); ``FlowError/containerExited(container:)`` if this
    ///   node was exited.
    @discardableResult
    public func dismiss() throws -> FlowController {
        try _dismiss(.dismiss, again: { try self.dismiss() })
    }

    /// Tells FlowKit that the platform dismissed the node this node presents (a swipe-down,
    /// a system alert closing). The subtree is torn down exactly like ``dismiss()``, guards are
    /// not consulted (it already happened on screen) and the host is not told.
    ///
    /// - Returns: The dismissed node (exited).
    /// - Throws: ``FlowError/nothingPresented(presenter:)`` if nothing is presented;
    ///   ``FlowError/containerExited(container:)`` if this node was exited.
    @discardableResult
    public func platformDidDismiss() throws -> FlowController {
        try _dismiss(.platformDismiss, again: { try self.platformDidDismiss() })
    }

    /// Dismisses the presented node (`dismiss()`, `platformDidDismiss()`). Queued during a
    /// change (from a hook), it returns the presented node now, or throws at once if there
    /// is none.
    @inline(__always)
    private func _dismiss(
        _ kind: FlowChange.Kind, again: @autoclosure () -> @MainActor () throws -> Void
    ) throws -> FlowController {
        try _change(
            kind, again: again(), whenQueued: { try self._presentedForDismissal() },
            validate: { try self._presentedForDismissal() }
        ) { change, presented in
            change.remove(presented, from: self)
        }!
    }

    private func _presentedForDismissal() throws -> FlowController {
        try _requireNotExited()
        guard let presented = _presented else {
            throw FlowError.nothingPresented(presenter: path)
        }
        return presented
    }

    // MARK: Validation and replacement shared by every container

    func _requireNotExited() throws {
        if state == .exited { throw FlowError.containerExited(container: path) }
    }

    /// Replaces this node's children with `child` (`embed`, `switch(to:)`).
    @inline(__always)
    func _replaceChildren(
        with child: FlowController, kind: FlowChange.Kind,
        again: @autoclosure () -> @MainActor () throws -> Void
    ) throws {
        try _change(
            kind, again: again(),
            offline: self._children.isEmpty ? _OfflineAttach(child, presenting: false) : nil,
            validate: {
                try self._validateNewChild(child)
                if self._branchesActivation {
                    throw FlowError.regionsAreFixed(container: self.path)
                }
                return true
            }
        ) { change in
            for old in change.plannedChildren(of: self).reversed() {
                change.remove(old, from: self)
            }
            change.append(child, to: self)
        }
    }

    /// Checks that `nodes` may join this node: each is new (never entered), has no parent
    /// (real, or prospective in a change being planned), belongs to no runtime, is not this
    /// node or an ancestor of it, and appears once.
    func _validateNewChildren(_ nodes: [FlowController]) throws {
        try _requireNotExited()
        var seen = Set<ObjectIdentifier>(minimumCapacity: nodes.count > 1 ? nodes.count : 0)
        for node in nodes {
            try _validateAttaching(node)
            if nodes.count > 1 && !seen.insert(ObjectIdentifier(node)).inserted {
                throw FlowError.duplicateNode(node: node.path)
            }
        }
    }

    /// ``_validateNewChildren(_:)`` for one node (no array to allocate).
    func _validateNewChild(_ node: FlowController) throws {
        try _requireNotExited()
        try _validateAttaching(node)
    }

    /// Whether `node` may be attached below this node: fresh, unattached, not an ancestor.
    private func _validateAttaching(_ node: FlowController) throws {
        if node === self { throw FlowError.wouldCreateCycle(node: node.path, parent: path) }
        switch node.state {
        case .exited:
            throw FlowError.nodeExited(node: node.path)
        case .entered:
            throw FlowError.alreadyAttached(
                node: node.path, parent: node.parent?.path ?? "its runtime (root)")
        case .created:
            break
        }
        // `_next` is set together with `_parent` (``_setParent(_:)``), so a node without it has
        // no parent: the `weak` load (a call into the runtime) is made only for one that may.
        if node._next != nil || node._pendingParent != nil, let parent = node._effectiveParent {
            throw FlowError.alreadyAttached(node: node.path, parent: parent.path)
        }
        if node._runtime != nil {
            throw FlowError.alreadyAttached(node: node.path, parent: "its runtime (root)")
        }
        // Only a node with children can be an ancestor of this one.
        if !node._isLeaf && _isWithin(node) {
            throw FlowError.wouldCreateCycle(node: node.path, parent: path)
        }
    }
}
