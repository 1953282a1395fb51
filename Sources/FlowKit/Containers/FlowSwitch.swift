/// A container with exactly one active child, replaced as a whole: the app root that swaps
/// the login flow for the main flow, a tab-like switch.
///
///     let app = FlowSwitch(name: "app", initial: LoginFlow())
///     app.on(FlowFinished<User>.self) { [unowned app] done in
///         try app.switch(to: MainFlow(user: done.result))   // login exits, main enters
///         return .handled
///     }
///
/// With a ``FlowController/history`` policy of `.shallow` or `.deep`, a switch that is exited
/// and entered again (and has no child given) returns to the child path it last had, rebuilt
/// from route factories.
open class FlowSwitch: FlowController {
    /// Creates a switch, optionally with its first child.
    ///
    /// - Precondition: `initial` has no parent and has never been in a tree.
    public init(name: String, route: FlowRoute? = nil, initial: FlowController? = nil) {
        super.init(name: name, route: route)
        if let initial {
            do {
                try embed(initial)
            } catch {
                preconditionFailure("FlowSwitch(initial:): \(error)")
            }
        }
    }

    /// The current child.
    public var current: FlowController? { children.first }

    /// Replaces the current child (and its whole subtree) with `node`.
    ///
    /// - Throws: ``FlowError`` if `node` is attached elsewhere, was exited, or is an ancestor
    ///   of the switch; a guard's refusal (then nothing changes).
    public func `switch`(to node: FlowController) throws {
        try _replaceChildren(with: node, kind: .switch, again: { try self.switch(to: node) })
    }

    /// Replaces the current child with the node built for `route` (or keeps the current
    /// child if it already has that route).
    ///
    /// The factory runs inside the change (its check phase), so a factory that asks for
    /// another change gets ``FlowError/changeInProgress(node:)``.
    ///
    /// - Throws: ``FlowError/unknownRoute(route:node:)`` if no factory is registered; a
    ///   factory error (``FlowError/factoryRouteMismatch(route:node:built:builtRoute:)``,
    ///   ``FlowError/factoryNodeInUse(route:node:built:)``); a guard's refusal;
    ///   ``FlowError/containerExited(container:)`` if the switch was exited.
    public func `switch`(to route: FlowRoute) throws {
        try _change(
            .switch, again: { try self.switch(to: route) },
            validate: {
                try self._requireNotExited()
                return self.current?.route != route
            }
        ) { change in
            let child = try self._makeChild(route)
            for old in change.plannedChildren(of: self).reversed() {
                change.remove(old, from: self)
            }
            change.append(child, to: self)
        }
    }
}
