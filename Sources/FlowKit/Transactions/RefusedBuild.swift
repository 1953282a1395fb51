extension FlowRuntime {
    /// Releases the nodes route factories built for the change being checked, which was
    /// refused: in the subtrees of `roots`, every node made during the check. Such a node was
    /// never entered and nobody but the factory's own captures can hold it, so it is marked
    /// exited (it can never be attached) and loses its handlers, guards, factories, tasks and
    /// values, as at exit but without exit hooks or trace records; a handler that captures it
    /// no longer keeps it alive. Nodes the app made stay as they were (only unlinked from a
    /// released parent).
    ///
    /// With `madeSince: 0`, every never-entered node of the subtrees is released (a restoration's
    /// leftovers).
    func _discardBuilt(_ roots: [FlowController], madeSince mark: UInt64? = nil) {
        FlowController._discardBuilt(roots, madeSince: mark ?? _checkMark)
    }
}

extension FlowController {
    /// A node `factory` returned for `route` that the build refuses (it carries another
    /// route, or it is in use): if the factory made it in this call, it is released as a
    /// refused change's nodes are (``FlowRuntime/_discardBuilt(_:madeSince:)``), with the
    /// structure the factory made around it, even if its handlers capture it. A node the app
    /// made before, or one attached below such a node, stays as it was (its owner keeps it).
    static func _discardRefusedBuild(_ node: FlowController, madeSince mark: UInt64) {
        guard node.state == .created, node._runtime == nil, node._serial >= mark else { return }
        var root = node
        while let parent = root._effectiveParent {
            guard parent.state == .created, parent._runtime == nil, parent._serial >= mark
            else { return }
            root = parent
        }
        _discardBuilt([root], madeSince: mark)
    }

    /// See ``FlowRuntime/_discardBuilt(_:madeSince:)``.
    static func _discardBuilt(_ roots: [FlowController], madeSince mark: UInt64) {
        var pending = roots
        while let node = pending.popLast() {
            guard node.state == .created else { continue }
            pending.append(contentsOf: node._children)
            if let presented = node._presented { pending.append(presented) }
            guard node._serial >= mark else { continue }
            for child in node._children where child._parent === node { child._setParent(nil) }
            if let presented = node._presented, presented._parent === node {
                presented._setParent(nil)
            }
            node._setContent([], presented: nil)
            node.state = .exited
            node._extras = nil
            node._handlerBox = nil
            node._handlerFilter = 0
            node._scope = nil
        }
    }
}
