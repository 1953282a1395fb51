/// An embedded navigation stack: its children are the entries, bottom first; the top entry
/// is on the focused path and the ones below stay entered but inactive (covered is not
/// exited).
///
///     let stack = FlowStack(name: "stack", root: ListScreen())
///     try stack.push(DetailScreen(item: item))   // [list, detail]
///     try stack.pop()                             // [list]; detail exited and released
///
/// Popping tears the popped entries' whole subtrees down (exit hooks innermost first, tasks
/// cancelled, handlers and dependency values released). The platform's own pops (back
/// button, swipe) come in through ``platformDidPop(to:)`` and run the same teardown.
///
/// The bottom entry is never popped: ``pop()`` and ``pop(to:)`` keep at least one entry, and
/// only ``setStack(_:)`` can empty the stack.
open class FlowStack: FlowController {
    /// Creates a stack, optionally with a first entry.
    ///
    /// - Precondition: `root` has no parent and has never been in a tree.
    public init(name: String, route: FlowRoute? = nil, root: FlowController? = nil) {
        super.init(name: name, route: route)
        if let root {
            do {
                try push(root)
            } catch {
                preconditionFailure("FlowStack(root:): \(error)")
            }
        }
        _checkInvariants()
    }

    override func _checkInvariants() { _checkStackInvariants() }

    /// The entries, bottom first (the same as ``FlowController/children``).
    public var entries: [FlowController] { children }

    /// The top entry, if any.
    public var top: FlowController? { children.last }

    /// Pushes `node` on top. The old top stays entered but resigns active.
    ///
    /// - Throws: ``FlowError`` if `node` is attached elsewhere, was exited, or is an ancestor
    ///   of the stack; an entry guard's refusal. The stack is then unchanged.
    /// - Complexity: O(*m*) for the *m* nodes that enter.
    public func push(_ node: FlowController) throws {
        try _change(
            .push, again: { try self.push(node) },
            offline: _OfflineAttach(node, presenting: false),
            validate: {
                try self._validateNewChild(node)
                return true
            }
        ) { change in
            change.append(node, to: self)
        }
    }

    /// Pops the top entry.
    ///
    ///     try stack.pop()   // [list, detail] -> [list]
    ///
    /// - Returns: The popped entry (exited).
    /// - Throws: ``FlowError/cannotPopLastEntry(stack:entry:)`` when one entry is left,
    ///   ``FlowError/emptyStack(stack:)`` when none is; a guard's refusal.
    /// - Complexity: O(*n*), where *n* is the number of nodes removed.
    @discardableResult
    public func pop() throws -> FlowController {
        try _popTop(.pop, again: { try self.pop() })
    }

    /// Removes every entry above `entry`, leaving it on top.
    ///
    ///     try stack.pop(to: inbox)   // [inbox, thread, reply] -> [inbox]
    ///
    /// The removed entries exit innermost-first (the top-most subtree first) and are released.
    ///
    /// - Parameter entry: An entry of this stack.
    /// - Returns: The removed entries, topmost first (empty if `entry` is the top).
    /// - Throws: ``FlowError/notInStack(stack:node:)`` if `entry` is not on this stack; a
    ///   guard's refusal. The stack is then unchanged.
    /// - Complexity: O(*n*), where *n* is the number of nodes removed.
    @discardableResult
    public func pop(to entry: FlowController) throws -> [FlowController] {
        try _pop(to: { entry }, kind: .popTo, again: { try self.pop(to: entry) })
    }

    /// Removes every entry above the bottom one.
    ///
    /// - Returns: The removed entries, topmost first.
    /// - Throws: ``FlowError/emptyStack(stack:)`` on an empty stack; a guard's refusal.
    @discardableResult
    public func popToRoot() throws -> [FlowController] {
        try _pop(to: { try self._bottom() }, kind: .popTo, again: { try self.popToRoot() })
    }

    /// Replaces the entries with `nodes`. Current entries that appear in `nodes` stay entered
    /// (in their new order); the others exit, top-most first; new ones enter, bottom first.
    ///
    ///     try stack.setStack([list, settings])   // a deep link
    ///     try stack.setStack([settings, list])   // only reorders: nothing exits or enters
    ///
    /// - Throws: ``FlowError`` if a new node is attached elsewhere, was exited, or appears
    ///   twice; a guard's refusal. The stack is then unchanged.
    public func setStack(_ nodes: [FlowController]) throws {
        try _change(
            .setStack, again: { try self.setStack(nodes) },
            validate: {
                try self._requireNotExited()
                let current = Set(self._children.map(ObjectIdentifier.init))
                try self._validateNewChildren(
                    nodes.filter { !current.contains(ObjectIdentifier($0)) })
                var seen = Set<ObjectIdentifier>()
                for node in nodes where !seen.insert(ObjectIdentifier(node)).inserted {
                    throw FlowError.duplicateNode(node: node.path)
                }
                return true
            }
        ) { change in
            change.setChildren(nodes, of: self)
        }
    }

    /// Tells FlowKit that the platform popped every entry above `entry` on its own (a back
    /// button, a swipe, a long-press on back). The removed subtrees are torn down as by
    /// ``pop(to:)``, but guards are not consulted (the screen already changed) and the host is
    /// not told (it made the change).
    ///
    /// - Returns: The removed entries, topmost first.
    /// - Throws: ``FlowError/notInStack(stack:node:)`` if `entry` is not on this stack.
    @discardableResult
    public func platformDidPop(to entry: FlowController) throws -> [FlowController] {
        try _pop(to: { entry }, kind: .platformPop, again: { try self.platformDidPop(to: entry) })
    }

    /// Tells FlowKit that the platform popped the top entry (the back button).
    ///
    /// - Returns: The popped entry (exited).
    /// - Throws: ``FlowError/cannotPopLastEntry(stack:entry:)`` when one entry is left,
    ///   ``FlowError/emptyStack(stack:)`` when none is.
    @discardableResult
    public func platformDidPop() throws -> FlowController {
        try _popTop(.platformPop, again: { try self.platformDidPop() })
    }

    /// Observable state for a platform's navigation stack: the identities of the entries
    /// above the bottom one (the bottom entry is the stack's root view, which a SwiftUI
    /// `NavigationStack` shows outside its path).
    ///
    ///     NavigationStack(path: $stack.pathBinding) {
    ///         ScreenView(node: stack.entries[0])
    ///             .navigationDestination(for: FlowNodeID.self) { id in
    ///                 ScreenView(node: runtime.node(id: id))
    ///             }
    ///     }
    ///
    /// Reading it tracks ``FlowController/children``. The platform writes a shorter path when
    /// the user goes back (back button, swipe, long-press on back): FlowKit then runs
    /// ``platformDidPop(to:)`` to the entry that is now on top, which tears down exactly the
    /// removed entries and is not echoed to the host. Writing the same path does nothing.
    /// Anything else (a longer or different path) is refused: FlowKit pushes, the platform
    /// only pops. A refused or failed write changes nothing and is reported to
    /// ``FlowRuntime/onError`` and the trace.
    public var pathBinding: [FlowNodeID] {
        get { children.dropFirst().map(\.id) }
        set {
            let current = _children
            let above = current.dropFirst()
            if newValue.count == above.count,
                newValue.elementsEqual(above.lazy.map(\.id))
            {
                return
            }
            guard newValue.count < above.count,
                newValue.elementsEqual(above.prefix(newValue.count).lazy.map(\.id))
            else {
                _reportBindingFailure(
                    .path,
                    FlowError.bindingWriteRefused(
                        node: path,
                        reason: "the platform may only shorten the path (FlowKit pushes)"))
                return
            }
            do {
                try platformDidPop(to: current[newValue.count])
            } catch {
                _reportBindingFailure(.path, error)
            }
        }
    }

    /// The entries above `entry` now, topmost first (none if it is not an entry).
    private func _entries(above entry: FlowController) -> [FlowController] {
        guard let index = _lastIndex(of: entry, in: _children) else { return [] }
        return Array(_children[(index + 1)...].reversed())
    }

    /// The top entry, which `pop()` may remove: there is one below it.
    private func _topAboveAnother() throws -> FlowController {
        try _requireNotExited()
        guard let top = _children.last else { throw FlowError.emptyStack(stack: path) }
        guard _children.count > 1 else {
            throw FlowError.cannotPopLastEntry(stack: path, entry: top.path)
        }
        return top
    }

    /// The bottom entry, which `popToRoot()` pops to.
    private func _bottom() throws -> FlowController {
        try _requireNotExited()
        guard let bottom = _children.first else { throw FlowError.emptyStack(stack: path) }
        return bottom
    }

    /// Pops the top entry (`pop()`, `platformDidPop()`). Queued during a change (from a
    /// hook), it returns the top entry now (a change queued before it may still push), or
    /// throws at once if the stack has none.
    ///
    /// The `Bool` form of `_change` with the entry kept here, not its `whenQueued` form:
    /// this is the hot pop, and the generic form's optional subject cost 160 instructions
    /// per pop (Docs/Performance.md).
    @inline(__always)
    private func _popTop(
        _ kind: FlowChange.Kind, again: @autoclosure () -> @MainActor () throws -> Void
    ) throws -> FlowController {
        if _RuntimeActivity.applyingRuntime != nil {
            // Queued: the top entry now (a change queued before it may still push), or, with
            // none, the error at once and nothing queued.
            let top = try _children.last ?? _topAboveAnother()
            _ = _queueWhileApplying(kind, operation: nil, again: again())
            return top
        }
        var top: FlowController?
        let made = try _change(
            kind, again: again(),
            validate: {
                top = try self._topAboveAnother()
                return true
            }
        ) { change in
            change.remove(top!, from: self)
        }
        return made ? top! : try _topAboveAnother()
    }

    /// Pops above the entry `target` names. Queued during a change (from a hook), it returns
    /// the entries above it now.
    @inline(__always)
    private func _pop(
        to target: () throws -> FlowController, kind: FlowChange.Kind,
        again: @autoclosure () -> @MainActor () throws -> Void
    ) throws -> [FlowController] {
        try _change(
            kind, again: again(),
            whenQueued: { (try? target()).map { self._entries(above: $0) } ?? [] },
            validate: {
                try self._requireNotExited()
                let entry = try target()
                guard let index = _lastIndex(of: entry, in: self._children) else {
                    throw FlowError.notInStack(stack: self.path, node: entry.path)
                }
                let removed = Array(self._children[(index + 1)...].reversed())
                return removed.isEmpty ? nil : removed
            }
        ) { change, removed in
            for node in removed { change.remove(node, from: self) }
        } ?? []
    }

    override func _planEmbeddedStep(
        toward route: FlowRoute, in change: inout _Transaction
    ) throws -> (node: FlowController, isNew: Bool) {
        // The top-most entry with the route; what lies above it is popped once the whole
        // path is planned (a push step after it may keep the entry just above).
        let entries = change.plannedChildren(of: self)
        if let index = entries.lastIndex(where: { $0.route == route }) {
            return (entries[index], false)
        }
        let entry = try _makeChild(route)
        change.append(entry, to: self)
        return (entry, true)
    }
}
