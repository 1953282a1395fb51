extension FlowController {
    /// Dismisses and pops everything that covers `target`, innermost first, in one
    /// transaction, so that `target` becomes the focused node. `target` is this node or one
    /// of its ancestors, or a stack entry covered on the way up.
    ///
    ///     try shareSheet.unwind(to: list)   // dismisses share, pops detail: list is focused
    ///
    /// Exit guards decide as for any change.
    ///
    /// - Throws: ``FlowError/unwindTargetNotFound(target:node:)`` if `target` is not on the
    ///   way up; a guard's refusal; ``FlowError/notInTree(node:)``. Nothing changes then.
    public func unwind(to target: FlowController) throws {
        try _unwind(description: "'\(target.path)'", rerun: { try self.unwind(to: target) }) {
            $0 === target
        }
    }

    /// Unwinds to the nearest node on the way up from this one whose route is `route`
    /// (covered stack entries included, the top-most first). See ``unwind(to:)-(FlowController)``.
    public func unwind(to route: FlowRoute) throws {
        try _unwind(description: "route \(route)", rerun: { try self.unwind(to: route) }) {
            $0.route == route
        }
    }

    /// Unwinds to the nearest node on the way up from this one that can build `route` (it
    /// has a factory for it), so the caller can then show it there.
    ///
    ///     try sheet.unwind(toNodeBuilding: Screen.detail(id: 3))
    public func unwind(toNodeBuilding route: FlowRoute) throws {
        try _unwind(
            description: "the node building \(route)",
            rerun: { try self.unwind(toNodeBuilding: route) }
        ) { $0.hasFactory(for: route) }
    }

    private func _unwind(
        description: String, rerun: @escaping @MainActor () throws -> Void,
        matching isTarget: (FlowController) -> Bool
    ) throws {
        var target = self
        try _change(
            .unwind, again: rerun, domain: target,
            describe: { "unwind from \(self.path) to \(description)" },
            validate: {
                try self._requireTree()
                guard let found = self._unwindTarget(matching: isTarget) else {
                    throw FlowError.unwindTargetNotFound(target: description, node: self.path)
                }
                target = found
                return true
            }
        ) { change in
            change.replacesIntentFrom = self
            // Walk up from the target: at each level, what covers the way down to it goes.
            // Collected bottom-up, removed top-down (what is on top of the screen first).
            var covering: [(node: FlowController, container: FlowController)] = []
            if let presented = target._presented { covering.append((presented, target)) }
            var child = target
            while let parent = child.parent {
                if let stack = parent as? FlowStack,
                    let index = _index(of: child, in: stack._children)
                {
                    for entry in stack._children[(index + 1)...].reversed() {
                        covering.append((entry, stack))
                    }
                }
                if let presented = parent._presented, presented !== child {
                    covering.append((presented, parent))
                }
                child = parent
            }
            for (node, container) in covering.reversed() { change.remove(node, from: container) }
        }
    }

    /// The nearest node from this one up that `isTarget` accepts; at each stack on the way,
    /// the entries below the one the way passes through are candidates too (top-most first).
    private func _unwindTarget(matching isTarget: (FlowController) -> Bool) -> FlowController? {
        var node: FlowController? = self
        var from: FlowController?
        while let current = node {
            if isTarget(current) { return current }
            if let stack = current as? FlowStack, let passed = from,
                let index = _index(of: passed, in: stack._children)
            {
                for entry in stack._children[..<index].reversed() where isTarget(entry) {
                    return entry
                }
            }
            from = current
            node = current.parent
        }
        return nil
    }
}
