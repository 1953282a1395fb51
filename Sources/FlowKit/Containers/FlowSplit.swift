/// A split view: two or three columns (a sidebar, an optional content column, a detail),
/// all entered and, when the split is expanded, all active at once. One column has the focus.
///
///     let split = FlowSplit(
///         name: "split",
///         sidebar: FlowStack(name: "sidebar", root: SidebarScreen()),
///         detail: FlowStack(name: "detail"))
///     try split.show(DetailScreen(item: item), in: .detail)  // the old detail exits
///     try split.focus(.detail)                               // only the focus moves
///
/// A split is a ``FlowParallel`` whose regions are its columns, so everything said there
/// holds: every column is entered; the focused path runs through the focused column (where
/// ``FlowRuntime/send(_:)`` starts and ``FlowController/open(_:)`` presents); moving the
/// focus moves nothing else; events sent from any column bubble up through the split.
///
/// **Selection drives the detail.** ``show(_:in:)`` replaces what a column shows as one
/// change (what it showed exits and is released), and ``show(_:clearing:)`` changes several
/// columns in one transaction, with one exit set and one entry set. A column is typically a
/// ``FlowStack``: showing a node makes it the stack's only entry, and the user pushes from
/// there.
///
/// **Collapse and expand are facts of the host.** When the window becomes narrow, the host
/// calls ``platformDidCollapse()``: the split is then shown as one stack,
/// ``compactStack`` (the sidebar's entries, then the content's, then the detail's, up to
/// the ``preferredCompactColumn``), and only the column on top of it is active (and
/// focused). A pop in that stack comes back through ``platformDidPopCompact(to:)``, which
/// maps it onto the columns: entries of the column it lands in are popped, and the columns
/// after it are cleared (popping the detail's root clears the detail, as a split view does).
/// ``platformDidExpand()`` shows the columns again, with the same nodes. Nothing exits or
/// enters on collapse or expand; only activation changes.
///
/// For SwiftUI's `NavigationSplitView` and UIKit's `UISplitViewController`, see the
/// adapters in <doc:Hosting>.
open class FlowSplit: FlowParallel {
    override func _invariantViolations() -> [String] { _splitInvariantViolations() }

    /// A column of a split.
    public enum Column: String, Hashable, Sendable, Codable, CaseIterable, Comparable {
        /// The leading column: a list of sections or sources.
        case sidebar
        /// The middle column of a three-column split: the list of what the sidebar chose.
        case content
        /// The trailing column: the item chosen.
        case detail

        /// Columns in display order: sidebar, content, detail.
        public static func < (lhs: Column, rhs: Column) -> Bool {
            lhs.order < rhs.order
        }

        var order: Int {
            switch self {
            case .sidebar: 0
            case .content: 1
            case .detail: 2
            }
        }
    }

    /// The split's columns, in display order: `[.sidebar, .detail]` or
    /// `[.sidebar, .content, .detail]`.
    public let columns: [Column]

    /// Storage of ``isCollapsed``; written only through ``_setCollapsed(_:)``.
    var _isCollapsed = false
    /// Storage of ``preferredCompactColumn``.
    var _preferredCompact: Column

    /// Creates a split with its columns.
    ///
    /// - Parameters:
    ///   - name: The path component shown in traces; not empty and without `/`.
    ///   - route: The identifier used to rebuild the split in paths and history.
    ///   - sidebar: The sidebar column; typically a ``FlowStack``.
    ///   - content: The middle column of a three-column split, or `nil` for two columns.
    ///   - detail: The detail column; typically a ``FlowStack`` (it can then be empty).
    ///   - focus: The column focused first.
    ///   - preferredCompactColumn: The column shown on top when the split is collapsed (see
    ///     ``preferredCompactColumn``).
    ///   - collapsed: Whether the split starts collapsed (the host knows the window is
    ///     compact before the split enters: it then enters with only its top column active,
    ///     with no activation of the others to take back).
    /// - Precondition: the columns are fresh nodes, each appearing once; `focus` and
    ///   `preferredCompactColumn` are columns of this split.
    public init(
        name: String, route: FlowRoute? = nil, sidebar: FlowController,
        content: FlowController? = nil, detail: FlowController, focus: Column = .sidebar,
        preferredCompactColumn: Column = .detail, collapsed: Bool = false
    ) {
        let columns: [Column] =
            content == nil ? [.sidebar, .detail] : [.sidebar, .content, .detail]
        precondition(
            columns.contains(focus) && columns.contains(preferredCompactColumn),
            "FlowSplit: a two-column split has no content column")
        self.columns = columns
        _preferredCompact = preferredCompactColumn
        let nodes = [sidebar] + (content.map { [$0] } ?? []) + [detail]
        super.init(
            name: name, route: route, regions: nodes, focused: columns.firstIndex(of: focus)!)
        _isCollapsed = collapsed
        _checkInvariants()
    }

    /// The node of `column`, or `nil` if this split has no such column (a two-column split
    /// has no content column) or has exited (its columns left with it).
    public func node(for column: Column) -> FlowController? {
        let regions = regions
        guard let index = columns.firstIndex(of: column), index < regions.count else {
            return nil
        }
        return regions[index]
    }

    /// The column that has the focus: the focused region's column when the split is
    /// expanded, the column on top of ``compactStack`` when it is collapsed (where
    /// ``FlowParallel/focusedIndex`` still names the region focused before the collapse, until
    /// the split expands and it moves to this column). Observable:
    /// collapsed, it tracks what decides the top column (``preferredCompactColumn`` and the
    /// entries of the columns up to it), so a compact pop, a focus move or a column that
    /// empties or fills notifies it.
    public var focusedColumn: Column {
        let observation = _observation()
        observation.access(self, keyPath: \.isCollapsed)
        guard _isCollapsed else {
            // Through the accessor: its key path is `FlowParallel`'s, the one mutations use.
            return columns[focusedIndex]
        }
        // The top column is the last one up to the preferred one that shows something (the
        // sidebar counts even when empty): only those columns' entries decide it.
        observation.access(self, keyPath: \.preferredCompactColumn)
        for column in _children.dropFirst().prefix(_preferredIndex) { _ = column.children }
        return columns[_topColumn]
    }

    /// Whether the platform shows the split collapsed into one stack (see
    /// ``platformDidCollapse()``). Observable.
    public var isCollapsed: Bool {
        _observation().access(self, keyPath: \.isCollapsed)
        return _isCollapsed
    }

    /// The column shown on top when the split is collapsed, if it has something to show
    /// (else the nearest column before it that has): `.detail` by default, like a split
    /// view that shows the selected item in compact width. Observable.
    ///
    /// A binding for the platform (`NavigationSplitView(preferredCompactColumn:)`): a write
    /// while collapsed is the platform bringing that column on top, the change
    /// ``FlowParallel/platformDidFocus(_:)`` makes (not echoed to the host; refused, and
    /// reported to ``FlowRuntime/onError``, for a column that shows nothing); a write while
    /// expanded only decides the next collapse. The app brings a column on top with
    /// `focus(_:)` (given a column). A ``show(_:in:)`` while collapsed into a column after
    /// the preferred one makes that column the preferred one, and a compact pop sets it to
    /// the column it lands in, as `NavigationSplitView` updates its binding.
    ///
    /// A write after the split exited (SwiftUI may write a binding late) changes nothing
    /// and, like any binding write that cannot be made, goes to ``FlowRuntime/onError`` and
    /// the trace (``FlowError/containerExited(container:)``); writing the value it reads
    /// does nothing.
    public var preferredCompactColumn: Column {
        get {
            _observation().access(self, keyPath: \.preferredCompactColumn)
            return _preferredCompact
        }
        set {
            guard columns.contains(newValue), newValue != _preferredCompact else { return }
            // An exited split has no columns left to bring on top.
            if state == .exited {
                _reportBindingFailure(
                    .preferredCompactColumn, FlowError.containerExited(container: path))
            } else if _isCollapsed {
                do {
                    guard let index = columns.firstIndex(of: newValue) else { return }
                    try platformDidFocus(_children[index])
                } catch {
                    _reportBindingFailure(.preferredCompactColumn, error)
                }
            } else {
                _setPreferredCompact(newValue)
            }
        }
    }

    /// Moves the focus to `column` (see ``FlowParallel/focus(_:)``). On a collapsed split
    /// it brings `column` on top of ``compactStack`` instead (it sets
    /// ``preferredCompactColumn``): what is shown changes, so the columns above it resign
    /// active, and the host is told (kind ``FlowChange/Kind/focus``).
    ///
    /// - Throws: ``FlowError/notARegion(container:node:)`` if this split has no such column;
    ///   ``FlowError/splitLayoutMismatch(split:reason:)`` for a collapsed split whose
    ///   `column` shows nothing; ``FlowError/containerExited(container:)``.
    public func focus(_ column: Column) throws {
        try _focus(.focus, again: { try self.focus(column) }) {
            guard let index = self.columns.firstIndex(of: column) else {
                throw FlowError.notARegion(container: self.path, node: "column \(column)")
            }
            return self._children[index]
        }
    }

    /// Shows `node` in `column`: it becomes what the column shows (a ``FlowStack`` column's
    /// only entry; any other column's only embedded child, except a ``FlowParallel``, whose
    /// regions are fixed), and what the column showed exits, innermost first, and is
    /// released. One change (kind ``FlowChange/Kind/show``); guards may refuse it. The focus
    /// stays where it is; on a collapsed split, a `column` after the
    /// ``preferredCompactColumn`` becomes the preferred one, so it comes on top (a column
    /// before it gets the node below the columns shown above it).
    ///
    ///     try split.show(DetailScreen(item: item), in: .detail)
    ///
    /// - Throws: ``FlowError/notARegion(container:node:)`` if this split has no such column;
    ///   ``FlowError/regionsAreFixed(container:)`` if the column is a ``FlowParallel`` (a
    ///   nested split: its regions are fixed; show into one of its columns instead); the
    ///   attach errors of ``FlowStack/push(_:)``; a guard's refusal. The split is then
    ///   unchanged.
    public func show(_ node: FlowController, in column: Column) throws {
        var index = 0
        try _change(
            .show, again: { try self.show(node, in: column) },
            validate: {
                index = try self._replaceableIndex(of: column)
                try self._validateNewChild(node)
                return true
            }
        ) { change in
            self._planShowing(node, inColumnAt: index, in: &change)
            self._planBringingOnTop(index, in: &change)
        }
    }

    /// Shows several columns' new content in one transaction: each node in `shown`
    /// becomes what its column shows, and each column in `clearing` is emptied (a
    /// ``FlowStack`` column loses every entry). What the columns showed exits in one exit
    /// set (the top-most column first), and the new nodes enter in one entry set (the
    /// leading column first). A deep link that picks a sidebar item and shows a detail is
    /// one such change.
    ///
    ///     try split.show([.content: BooksList(genre: .poetry), .detail: BookScreen(id: 7)])
    ///
    /// - Throws: ``FlowError/notARegion(container:node:)`` for a column this split lacks or
    ///   a column both shown and cleared; ``FlowError/regionsAreFixed(container:)`` for a
    ///   column, shown or cleared, that is a ``FlowParallel`` (a nested split); the attach
    ///   errors of ``FlowStack/push(_:)``; a guard's refusal. The split is then unchanged.
    public func show(_ shown: [Column: FlowController], clearing: Set<Column> = []) throws {
        var plan: [(index: Int, node: FlowController?)] = []
        try _change(
            .show, again: { try self.show(shown, clearing: clearing) },
            validate: {
                try self._requireNotExited()
                for column in Set(shown.keys).union(clearing).sorted() {
                    let index = try self._replaceableIndex(of: column)
                    if clearing.contains(column) && shown[column] != nil {
                        throw FlowError.notARegion(
                            container: self.path, node: "column \(column), shown and cleared")
                    }
                    plan.append((index, shown[column]))
                }
                try self._validateNewChildren(Array(shown.values))
                return !plan.isEmpty
            }
        ) { change in
            for (index, node) in plan {
                self._planShowing(node, inColumnAt: index, in: &change)
            }
            if let last = plan.last(where: { $0.node != nil }) {
                self._planBringingOnTop(last.index, in: &change)
            }
        }
    }

    // MARK: Internals

    /// The index of `column` among the regions.
    private func _index(of column: Column) throws -> Int {
        guard let index = columns.firstIndex(of: column) else {
            try _requireNotExited()
            throw FlowError.notARegion(container: path, node: "column \(column)")
        }
        return index
    }

    /// The index of `column`, whose content a change replaces: a column that is itself a
    /// ``FlowParallel`` (a nested split) keeps its regions, as `embed` on it does.
    private func _replaceableIndex(of column: Column) throws -> Int {
        let index = try _index(of: column)
        try _requireNotExited()
        let node = _children[index]
        if node._branchesActivation { throw FlowError.regionsAreFixed(container: node.path) }
        return index
    }

    /// Plans the column at `index` showing only `node` (nothing for `nil`): what it shows
    /// now exits.
    private func _planShowing(
        _ node: FlowController?, inColumnAt index: Int, in change: inout _Transaction
    ) {
        let column = _children[index]
        for old in change.plannedChildren(of: column).reversed() {
            change.remove(old, from: column)
        }
        if let node { change.append(node, to: column) }
    }

    /// On a collapsed split, a column that gets something to show comes on top (as a list
    /// selection pushes the detail in compact width).
    private func _planBringingOnTop(_ index: Int, in change: inout _Transaction) {
        if _isCollapsed, index > _preferredIndex {
            change.arrange(self, preferred: index)
        }
    }

    var _preferredIndex: Int {
        // `columns` is [sidebar, detail] or [sidebar, content, detail].
        switch _preferredCompact {
        case .sidebar: 0
        case .content: 1
        case .detail: columns.count - 1
        }
    }

    /// The focused column's index: the top of the compact stack when collapsed.
    var _effectiveFocus: Int {
        _isCollapsed ? _topColumn : _focus
    }

    override var _selectedIndexShown: Int { _effectiveFocus }

    /// Collapsed or not, and the preferred column's index.
    override var _arrangement: _Arrangement {
        _Arrangement(isCollapsed: _isCollapsed, preferred: _preferredIndex)
    }

    /// Sets the arrangement a change planned (``_setArrangement(collapsed:preferred:)``).
    override func _setArrangement(_ arrangement: _Arrangement) {
        _setArrangement(
            collapsed: arrangement.isCollapsed, preferred: columns[arrangement.preferred])
    }

    override var _focusedRegion: FlowController? {
        let index = _effectiveFocus
        return _children.indices.contains(index) ? _children[index] : nil
    }

    override var _shownRegions: ArraySlice<FlowController> {
        guard _isCollapsed else { return _children[...] }
        let top = _effectiveFocus
        return _children[top...top]
    }

    /// On a collapsed split, focusing a column (or a navigation step into it) brings it on
    /// top instead: it must show something.
    override func _planFocus(
        _ index: Int, requiringContent: Bool, in change: inout _Transaction
    ) throws {
        guard change.plannedArrangement(of: self).isCollapsed else {
            return change.select(index, in: self)
        }
        if requiringContent && !Self._showsSomething(_children[index]) {
            throw FlowError.splitLayoutMismatch(
                split: path, reason: "is collapsed and its \(columns[index]) column shows nothing")
        }
        change.arrange(self, preferred: index)
    }
}

extension FlowController {
    /// Whether this node is a column of a ``FlowSplit`` (one of its regions, not a node
    /// presented over it): the one place a stack may be empty in a snapshot.
    var _isSplitColumn: Bool {
        guard let split = _parent as? FlowSplit else { return false }
        return split._presented !== self
    }
}
