/// A tab container: every tab stays entered, one is selected (on the focused path).
///
///     let tabs = FlowTabs(
///         name: "tabs",
///         tabs: [
///             FlowStack(name: "catalog", route: "catalog", root: ListScreen()),
///             FlowStack(name: "favourites", route: "favourites", root: FavouritesScreen()),
///         ])
///     try tabs.select(tabs.tabs[1])   // catalog resigns active, favourites becomes active
///
/// Selecting a tab moves activation only: nothing exits or enters, no guard runs, and each
/// tab keeps its own content (a tab's stack stays as deep as it was). A stack in a tab that
/// is not selected can still be popped (by code or by the platform); its entries are torn
/// down as usual.
///
/// The platform's own tab taps come in through ``platformDidSelect(_:)`` (or a write to
/// ``selectionBinding``): the same change, not echoed to the host. With
/// ``reselectionPopsToRoot``, selecting the tab that is already selected pops the tab's stack
/// to its bottom entry, as tab bars usually do.
///
/// A navigation path step (``FlowStep/Placement/child``) whose route is a tab's route selects
/// that tab; tabs are never built or removed by navigation: a ``FlowStep/Placement/root``
/// step at the container, a reentering navigation from it or a history restore of it throws
/// ``FlowError/tabsAreFixed(container:)`` and changes nothing.
open class FlowTabs: FlowController {
    /// Whether selecting the tab that is already selected pops that tab's stack to its bottom
    /// entry (the tab itself if it is a ``FlowStack``, else the first stack on its focused
    /// path). Off by default.
    ///
    /// Asked by ``select(_:)``, the pop consults exit guards and is reported to the host (kind
    /// `select`). Through ``platformDidSelect(_:)`` the pop of a tab that is itself a
    /// ``FlowStack`` is a platform change: no guards, not reported (a `UITabBarController`
    /// pops its navigation controller itself; leave this off there and let the navigation
    /// delegate report the pop instead); a stack deeper in the tab, which no tab bar pops,
    /// is popped by FlowKit (``FlowStack/popToRoot()``: guards asked, reported to the host).
    /// A platform tap on the tab the tree selects while the platform still shows another tab
    /// selected (a selection made in code, not shown yet: ``FlowHost/platformShowsSelection(of:in:)``
    /// answers `false`) is a selection for the platform, and pops nothing.
    public var reselectionPopsToRoot = false

    override func _invariantViolations() -> [String] { _tabsInvariantViolations() }

    /// Storage of ``selectedIndex``; written only through ``_setSelectedIndex(_:)``.
    var _selection = 0

    override var _selectedIndex: Int { _selection }

    /// Creates a tab container with its tabs.
    ///
    /// - Parameters:
    ///   - name: The path component shown in traces; not empty and without `/`.
    ///   - route: The identifier used to rebuild the container in paths and history.
    ///   - tabs: The tabs, in display order; nodes that were never in a tree.
    ///   - selected: The index of the tab selected first.
    /// - Precondition: every tab is fresh and appears once; `selected` is a valid index
    ///   (or 0 with no tabs). Use ``setTabs(_:selecting:)`` for input that may be invalid.
    public init(
        name: String, route: FlowRoute? = nil, tabs: [FlowController] = [], selected: Int = 0
    ) {
        super.init(name: name, route: route)
        do {
            try setTabs(tabs, selecting: selected)
        } catch {
            preconditionFailure("FlowTabs(tabs:selected:): \(error)")
        }
        _checkInvariants()
    }

    /// The tabs, in display order (the same as ``FlowController/children``). Observable.
    public var tabs: [FlowController] { children }

    /// The index of the selected tab in ``tabs`` (0 when there are none).
    ///
    /// Observable (see <doc:Hosting>): reading it inside `withObservationTracking` (or a
    /// SwiftUI view) registers for the next selection change.
    public var selectedIndex: Int {
        _observation().access(self, keyPath: \.selectedIndex)
        return _selectedIndex
    }

    /// The selected tab, or `nil` if there are no tabs. Observable.
    public var selectedTab: FlowController? {
        let index = selectedIndex
        let tabs = tabs
        return tabs.indices.contains(index) ? tabs[index] : nil
    }

    /// The selected tab (whatever is presented over the container), or `nil` with no tabs.
    var _selectedTab: FlowController? {
        _children.indices.contains(_selectedIndex) ? _children[_selectedIndex] : nil
    }

    override func _continues(into node: FlowController) -> Bool {
        if _presented != nil { return _presented === node }
        return _selectedTab === node
    }

    override var _childToKeepSelected: FlowController? { _selectedTab }

    /// The selection follows the tab that was selected, or goes to the first tab if it left
    /// (a selection the change plans is applied afterwards and wins).
    override func _childrenWereReshaped(keeping selected: FlowController?) {
        _setSelectedIndex(selected.flatMap { _index(of: $0, in: _children) } ?? 0)
    }

    /// The presented node if any, else the selected tab.
    override public var focusedChild: FlowController? {
        if let presented = _presented { return presented }
        return _selectedTab
    }

    /// Selects `tab`: the old tab's focused path resigns active (innermost first), the new
    /// one's becomes active. Nothing exits or enters. The host is told (kind `select`).
    ///
    /// Selecting the selected tab does nothing, unless ``reselectionPopsToRoot`` is set.
    ///
    /// - Throws: ``FlowError/notATab(tabs:node:)`` if `tab` is not one of ``tabs``;
    ///   ``FlowError/containerExited(container:)`` if this container was exited; for a
    ///   reselection pop, a guard's refusal (then nothing changes).
    public func select(_ tab: FlowController) throws {
        try _select(.select, again: { try self.select(tab) }, tab: { tab })
    }

    /// Selects the tab at `index` in ``tabs`` (see ``select(_:)``).
    ///
    /// - Throws: ``FlowError/notATab(tabs:node:)`` if `index` is out of range; the errors
    ///   of ``select(_:)``.
    public func select(at index: Int) throws {
        try _select(.select, again: { try self.select(at: index) }) {
            guard self._children.indices.contains(index) else {
                throw FlowError.notATab(tabs: self.path, node: "tab index \(index)")
            }
            return self._children[index]
        }
    }

    /// Tells FlowKit that the platform selected `tab` on its own (the user tapped it). The
    /// same change as ``select(_:)`` but the host is not told (it made the change) and a
    /// reselection pop (``reselectionPopsToRoot``) of a tab that is a stack consults no
    /// guard; a reselection that pops a stack deeper in the tab is FlowKit's own
    /// ``FlowStack/popToRoot()`` (see ``reselectionPopsToRoot``).
    ///
    /// - Throws: ``FlowError/notATab(tabs:node:)`` if `tab` is not one of ``tabs``;
    ///   ``FlowError/containerExited(container:)`` if this container was exited; a guard's
    ///   refusal of a nested stack's reselection pop (the selection is then unchanged).
    public func platformDidSelect(_ tab: FlowController) throws {
        try _select(.platformSelect, again: { try self.platformDidSelect(tab) }, tab: { tab })
    }

    /// Replaces the tabs. Tabs that stay keep their content and stay entered; the others exit
    /// (last first); new ones enter. The selection moves to `index` if given, else stays on
    /// the selected tab if it remains, else goes to the first tab.
    ///
    /// - Throws: ``FlowError`` if a new tab is attached elsewhere, was exited, or appears
    ///   twice; ``FlowError/notATab(tabs:node:)`` if `index` is out of range; a guard's
    ///   refusal. The container is then unchanged.
    public func setTabs(_ tabs: [FlowController], selecting index: Int? = nil) throws {
        var newIndex = 0
        try _change(
            .setStack, operation: .setTabs, again: { try self.setTabs(tabs, selecting: index) },
            validate: {
                try self._requireNotExited()
                let current = Set(self._children.map(ObjectIdentifier.init))
                try self._validateNewChildren(
                    tabs.filter { !current.contains(ObjectIdentifier($0)) })
                var seen = Set<ObjectIdentifier>()
                for tab in tabs where !seen.insert(ObjectIdentifier(tab)).inserted {
                    throw FlowError.duplicateNode(node: tab.path)
                }
                if let index, !(tabs.isEmpty && index == 0), !tabs.indices.contains(index) {
                    throw FlowError.notATab(tabs: self.path, node: "tab index \(index)")
                }
                newIndex = index ?? self._selectedTab.flatMap { _index(of: $0, in: tabs) } ?? 0
                return
                    !(tabs.elementsEqual(self._children, by: ===)
                    && newIndex == self._selectedIndex)
            }
        ) { change in
            change.setChildren(tabs, of: self)
            change.select(newIndex, in: self)
        }
    }

    /// Observable state for a platform's tab bar: the selected tab's identity. Reading it
    /// tracks ``selectedIndex``; writing a tab's identity calls ``platformDidSelect(_:)``.
    ///
    ///     TabView(selection: $tabs.selectionBinding) {
    ///         ForEach(tabs.tabs) { tab in TabContent(node: tab).tag(Optional(tab.id)) }
    ///     }
    ///
    /// A write of an identity that is not a tab (or `nil`) changes nothing and is reported
    /// to ``FlowRuntime/onError`` and the trace.
    public var selectionBinding: FlowNodeID? {
        get { selectedTab?.id }
        set {
            guard let id = newValue, let tab = _children.first(where: { $0.id == id }) else {
                _reportBindingFailure(
                    .selection,
                    FlowError.bindingWriteRefused(
                        node: path, reason: "\(newValue.map(\.description) ?? "nil") is not a tab"))
                return
            }
            if tab === focusedChild && !reselectionPopsToRoot { return }
            do {
                try platformDidSelect(tab)
            } catch {
                _reportBindingFailure(.selection, error)
            }
        }
    }

    // MARK: Internals

    /// Selects the tab `resolve` names (`select`, `select(at:)`, `platformDidSelect`); with
    /// ``reselectionPopsToRoot``, selecting the selected tab pops its stack.
    private func _select(
        _ kind: FlowChange.Kind, again: @autoclosure () -> @MainActor () throws -> Void,
        tab resolve: () throws -> FlowController
    ) throws {
        try _change(
            kind, again: again(), whenQueued: { (index: 0, pop: nil) },
            validate: { () -> (index: Int, pop: FlowStack?)? in
                try self._requireNotExited()
                let tab = try resolve()
                guard let index = _index(of: tab, in: self._children) else {
                    throw FlowError.notATab(tabs: self.path, node: tab.path)
                }
                if _RuntimeActivity.pendingBranches != 0 {
                    // A tab a lazy restoration has not built yet: built first, in its own change.
                    try self._runtime?._restoreBranch(tab)
                }
                guard index == self._selectedIndex else { return (index, nil) }
                let stack = self.reselectionPopsToRoot ? Self._stack(in: tab) : nil
                var pops = (stack?._children.count ?? 0) > 1
                if kind._isPlatformInitiated {
                    let runtime = self._runtime.flatMap { $0.isRunning ? $0 : nil }
                    // For a tab bar that showed another tab (a selection made in code, not
                    // shown yet), the tap selected this one: it is no reselection, nothing pops.
                    if pops, let runtime, let host = runtime.host,
                        !host.platformShowsSelection(of: self, in: runtime)
                    {
                        pops = false
                    }
                    if !pops || stack !== tab {
                        // The tree has the tab already; the platform may have shown another.
                        if let runtime {
                            runtime.host?.platformDidShowSelection(of: self, in: runtime)
                        }
                        // A tab bar pops a tab that is a navigation stack, not a stack deeper
                        // in the tab: that pop is FlowKit's own change, shown by the host.
                        if pops, let stack { try stack.popToRoot() }
                        return nil
                    }
                }
                return pops ? (index, stack) : nil
            }
        ) { change, selection in
            change.select(selection.index, in: self)
            if let stack = selection.pop {
                for entry in stack._children.dropFirst().reversed() {
                    change.remove(entry, from: stack)
                }
            }
        }
    }

    /// The tab itself if it is a stack, else the first stack on its focused path.
    private static func _stack(in tab: FlowController) -> FlowStack? {
        var node: FlowController? = tab
        while let current = node {
            if let stack = current as? FlowStack { return stack }
            node = current.focusedChild
        }
        return nil
    }

    /// Sets the selection, telling observers.
    override final func _setSelectedIndex(_ index: Int) {
        guard index != _selection else { return }
        if let registrar = _observationRegistrar {
            registrar.withMutation(of: self, keyPath: \.selectedIndex) { _selection = index }
        } else {
            _selection = index
        }
    }

    override func _planEmbeddedStep(
        toward route: FlowRoute, in change: inout _Transaction
    ) throws -> (node: FlowController, isNew: Bool) {
        let tabs = change.plannedChildren(of: self)
        guard let index = tabs.firstIndex(where: { $0.route == route }) else {
            throw FlowError.unknownRoute(route: route.description, node: path)
        }
        change.select(index, in: self)
        return (tabs[index], false)
    }

    /// The tabs are fixed against navigation, which only selects one
    /// (``setTabs(_:selecting:)`` changes them).
    override func _requireReplaceableChildren() throws {
        throw FlowError.tabsAreFixed(container: path)
    }
}
