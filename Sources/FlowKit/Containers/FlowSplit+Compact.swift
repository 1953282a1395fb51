// A split's compact layout: the one stack it is shown as when the platform collapses it,
// collapse and expand, and the compact pop mapped back onto the columns.

extension FlowSplit {
    /// What a collapsed split shows as one stack, bottom first: each shown column's entries
    /// (a ``FlowStack`` column contributes its entries, any other column itself), from the
    /// sidebar up to the column on top (see ``preferredCompactColumn``). The same list
    /// whether or not the split is collapsed now, so a host can prepare it.
    ///
    /// Reading it tracks the columns' entries and the preferred column.
    public var compactStack: [FlowController] {
        _ = preferredCompactColumn
        // Every column's entries are read through the observable accessor: which column is
        // on top depends on whether the later ones show something.
        for column in regions { _ = column.children }
        var entries: [FlowController] = []
        // An exited split has no columns left.
        guard !_children.isEmpty else { return entries }
        for index in 0..._topColumn {
            entries.append(contentsOf: Self._compactEntries(of: regions[index]))
        }
        return entries
    }

    /// Tells FlowKit that the platform now shows the split collapsed into one stack (the
    /// window became compact). Nothing exits or enters: only the column on top of
    /// ``compactStack`` stays active (the others resign, innermost first), and it gets the
    /// focus. The host is not told through ``FlowHost/apply(_:in:)`` (it made the change);
    /// the trace records it (kind ``FlowChange/Kind/platformCollapse``). Collapsing a
    /// collapsed split does nothing.
    ///
    /// - Throws: ``FlowError/containerExited(container:)`` if the split exited.
    public func platformDidCollapse() throws {
        try _change(
            .platformCollapse, again: { try self.platformDidCollapse() },
            validate: {
                try self._requireNotExited()
                return !self._isCollapsed
            }
        ) { change in
            change.arrange(self, collapsed: true)
        }
    }

    /// Tells FlowKit that the platform shows the split's columns again (the window became
    /// regular). Nothing exits or enters: every column becomes active again, with the
    /// content it had, and the focus stays on the column that was on top. Expanding an
    /// expanded split does nothing.
    ///
    /// - Throws: ``FlowError/containerExited(container:)`` if the split exited.
    public func platformDidExpand() throws {
        try _change(
            .platformExpand, again: { try self.platformDidExpand() }, whenQueued: { 0 },
            validate: { () -> Int? in
                try self._requireNotExited()
                return self._isCollapsed ? self._effectiveFocus : nil
            }
        ) { change, top in
            change.arrange(self, collapsed: false)
            change.select(top, in: self)
        }
    }

    /// Tells FlowKit that the platform popped the collapsed split's stack
    /// (``compactStack``) back to `entry` on its own (the back button, a swipe). The pop is
    /// mapped onto the columns: in `entry`'s column the entries above it are popped; every
    /// later ``FlowStack`` column is cleared (popping the detail's root clears the detail);
    /// `entry`'s column is then on top (``preferredCompactColumn``). The removed subtrees are
    /// torn down as by ``FlowStack/platformDidPop(to:)``: no guard is asked, and the host is
    /// not told (it made the change). One change, kind ``FlowChange/Kind/platformPop``.
    ///
    /// - Returns: The removed entries, top-most first (none when the call is queued behind
    ///   the change being applied: the pop then runs as the next transaction).
    /// - Throws: ``FlowError/splitLayoutMismatch(split:reason:)`` if the split is not
    ///   collapsed; ``FlowError/notInStack(stack:node:)`` if `entry` is not in
    ///   ``compactStack``.
    @discardableResult
    public func platformDidPopCompact(to entry: FlowController) throws -> [FlowController] {
        try _change(
            .platformPop, again: { try self.platformDidPopCompact(to: entry) },
            whenQueued: { (removed: [], column: 0) },
            validate: { try self._compactPop(to: entry) }
        ) { change, pop in
            for (node, container) in pop.removed { change.remove(node, from: container) }
            change.arrange(self, preferred: pop.column)
        }?.removed.map(\.node) ?? []
    }

    /// What a compact pop to `entry` removes (top-most first, with their stacks) and the
    /// column it lands in; `nil` if it changes nothing.
    private func _compactPop(
        to entry: FlowController
    ) throws -> (removed: [(node: FlowController, container: FlowController)], column: Int)? {
        try _requireNotExited()
        guard _isCollapsed else {
            throw FlowError.splitLayoutMismatch(split: path, reason: "is not collapsed")
        }
        let top = _topColumn
        var landing: (column: Int, position: Int)?
        for index in 0...top {
            let entries = Self._compactEntries(of: _children[index])
            if let position = _lastIndex(of: entry, in: entries) {
                landing = (index, position)
            }
        }
        guard let landing else {
            throw FlowError.notInStack(stack: path, node: entry.path)
        }
        var removed: [(node: FlowController, container: FlowController)] = []
        for index in stride(from: top, through: landing.column, by: -1) {
            let column = _children[index]
            guard let stack = column as? FlowStack else { continue }
            let keep = index == landing.column ? landing.position + 1 : 0
            for node in stack._children[keep...].reversed() { removed.append((node, stack)) }
        }
        guard !removed.isEmpty || landing.column != top else { return nil }
        return (removed, landing.column)
    }

    // MARK: Internals

    /// Sets the arrangement, telling observers.
    final func _setArrangement(collapsed: Bool, preferred: Column) {
        _setPreferredCompact(preferred)
        guard collapsed != _isCollapsed else { return }
        if let registrar = _observationRegistrar {
            registrar.withMutation(of: self, keyPath: \.isCollapsed) { _isCollapsed = collapsed }
        } else {
            _isCollapsed = collapsed
        }
    }

    final func _setPreferredCompact(_ column: Column) {
        guard column != _preferredCompact else { return }
        if let registrar = _observationRegistrar {
            registrar.withMutation(of: self, keyPath: \.preferredCompactColumn) {
                _preferredCompact = column
            }
        } else {
            _preferredCompact = column
        }
    }

    /// What `column` contributes to the compact stack: a stack's entries, else itself.
    static func _compactEntries(of column: FlowController) -> [FlowController] {
        column is FlowStack ? column._children : [column]
    }

    /// Whether `column` adds anything to the compact stack: a stack with entries, or any
    /// other node. Reads in place, allocating and releasing nothing: it is asked on the way
    /// of the focused path (``FlowController/_continues(into:)``), where a callee that may
    /// release would make every caller retain its arguments.
    static func _showsSomething(_ column: FlowController) -> Bool {
        !(column is FlowStack) || !column._children.isEmpty
    }

    /// The index of the column on top of the compact stack: the last column up to the
    /// preferred one that shows something (the sidebar counts even when empty; 0 for an
    /// exited split, whose columns left).
    var _topColumn: Int {
        var index = min(_preferredIndex, max(_children.count - 1, 0))
        while index > 0, !Self._showsSomething(_children[index]) { index -= 1 }
        return index
    }
}
