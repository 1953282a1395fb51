extension FlowController {
    /// Plans one step of a path below this node and returns the node the path continues
    /// from, and whether it is new. See ``FlowStep/Placement``.
    func _planStep(
        _ step: FlowStep, in change: inout _Transaction
    ) throws -> (node: FlowController, isNew: Bool) {
        switch step.placement {
        case .child:
            return try _planStep(toward: step.route, in: &change)
        case .present:
            if let presented = change.plannedPresented(of: self) {
                if presented.route == step.route { return (presented, false) }
                change.remove(presented, from: self)
            }
            let node = try _makePresented(step.route)
            change.present(node, by: self)
            return (node, true)
        case .root:
            // A root step replaces the children: not a parallel container's regions, nor
            // a tab container's tabs.
            try _requireReplaceableChildren()
            if let presented = change.plannedPresented(of: self) {
                change.remove(presented, from: self)
            }
            let children = change.plannedChildren(of: self)
            if let bottom = children.first, bottom.route == step.route {
                for entry in children.dropFirst().reversed() { change.remove(entry, from: self) }
                return (bottom, false)
            }
            let node = try _makeChild(step.route)
            for old in children.reversed() { change.remove(old, from: self) }
            change.append(node, to: self)
            return (node, true)
        case .push:
            guard let stack = _effectiveParent as? FlowStack else {
                throw FlowError.pushOutsideStack(node: path, route: step.route.description)
            }
            let entries = change.plannedChildren(of: stack)
            guard let index = _lastIndex(of: self, in: entries) else {
                throw FlowError.pushOutsideStack(node: path, route: step.route.description)
            }
            if index + 1 < entries.count, entries[index + 1].route == step.route {
                return (entries[index + 1], false)  // what is above it goes at the path's end
            }
            for entry in entries[(index + 1)...].reversed() { change.remove(entry, from: stack) }
            let entry = try stack._makeChild(step.route)
            change.append(entry, to: stack)
            return (entry, true)
        }
    }

    /// The node a step changes: the previous node's stack for a push, else the node itself.
    func _container(for step: FlowStep) -> FlowController? {
        step.placement == .push ? _effectiveParent : self
    }

    /// Builds a node for this node to present: its own factories first, then the global
    /// routes of its ancestors.
    func _makePresented(_ route: FlowRoute) throws -> FlowController {
        if let factory = _factory(for: route) {
            return try _build(route, with: factory, joining: self)
        }
        if let (_, global) = _nearestGlobalRoute(route) {
            return try _build(route, with: global.factory, joining: self)
        }
        throw FlowError.unknownRoute(route: route.description, node: path)
    }

    /// Plans one step of a route path below this node and returns the node the path
    /// continues from, and whether it is new. A presented node with the route is kept;
    /// otherwise the presented node is dismissed and the step continues among the embedded
    /// children (``_planEmbeddedStep(toward:in:)``).
    func _planStep(
        toward route: FlowRoute, in change: inout _Transaction
    ) throws -> (node: FlowController, isNew: Bool) {
        if let presented = change.plannedPresented(of: self) {
            if presented.route == route { return (presented, false) }
            change.remove(presented, from: self)
        }
        return try _planEmbeddedStep(toward: route, in: &change)
    }
}
