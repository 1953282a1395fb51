/// A container of parallel regions (a statechart's orthogonal regions, SCXML `<parallel>`):
/// every region is entered and every region is *active* at once; one of them has the focus.
///
///     let parallel = FlowParallel(
///         name: "player",
///         regions: [PlaybackFlow(), LyricsFlow()])
///     try parallel.focus(parallel.regions[1])   // only the focus moves
///
/// The focused path (``FlowRuntime/focusedPath``) stays one path: it runs through the focused
/// region, so events the app sends without an origin (``FlowRuntime/send(_:)``) start there,
/// and ``FlowController/open(_:)`` presents over its focused leaf. The other regions' own
/// focused paths are active too (``FlowController/isActive``, ``FlowRuntime/activeNodes``):
/// their nodes got ``FlowController/didBecomeActive()`` when they came into view, and a push
/// in any region makes the old top resign as usual. Moving the focus between regions moves
/// only the focus: nothing exits, enters or resigns active, and no guard runs. Events sent
/// from a node in any region bubble up through the container as usual.
///
/// A node presented over the container covers every region: while it is shown, only it and
/// its focused path are active below the container.
///
/// The regions are fixed when the container is made (a ``FlowSplit``'s columns, a chart's
/// regions); their content changes like any node's. A navigation path step
/// (``FlowStep/Placement/child``) whose route is a region's route focuses that region and
/// continues into it; regions are never built or removed by navigation (a
/// ``FlowStep/Placement/root`` step at the container, a reentering navigation from it or a
/// history restore of it throws ``FlowError/regionsAreFixed(container:)``).
open class FlowParallel: FlowController {
    /// Storage of ``focusedIndex``; written only through ``_setSelectedIndex(_:)``.
    var _focus = 0

    /// Creates a container with its regions.
    ///
    /// - Parameters:
    ///   - name: The path component shown in traces; not empty and without `/`.
    ///   - route: The identifier used to rebuild the container in paths and history.
    ///   - regions: The regions, in order; nodes that were never in a tree. Not empty.
    ///   - focused: The index of the region focused first.
    /// - Precondition: `regions` is not empty, every region is fresh and appears once, and
    ///   `focused` is a valid index.
    public init(
        name: String, route: FlowRoute? = nil, regions: [FlowController], focused: Int = 0
    ) {
        precondition(!regions.isEmpty, "FlowParallel(regions:): needs at least one region")
        precondition(
            regions.indices.contains(focused),
            "FlowParallel(regions:focused:): \(focused) is not a region's index")
        super.init(name: name, route: route)
        _branchesActivation = true
        do {
            try _validateNewChildren(regions)
        } catch {
            preconditionFailure("FlowParallel(regions:): \(error)")
        }
        for region in regions { _attachOffline(_OfflineAttach(region, presenting: false)) }
        _focus = focused
    }

    /// The regions, in order (the same as ``FlowController/children``). Observable.
    public var regions: [FlowController] { children }

    /// The index of the focused region in ``regions``.
    ///
    /// On a collapsed ``FlowSplit`` this is not the column that has the focus (the top of the
    /// compact stack, ``FlowSplit/focusedColumn``): it keeps its value until the split
    /// expands, which moves it to that column.
    ///
    /// Observable (see <doc:Hosting>): reading it inside `withObservationTracking` (or a
    /// SwiftUI view) registers for the next focus change.
    public var focusedIndex: Int {
        _observation().access(self, keyPath: \.focusedIndex)
        return _focus
    }

    /// The region at ``focusedIndex`` (on a collapsed ``FlowSplit``, not necessarily the
    /// column that has the focus: see there), or `nil` once the container has exited (its
    /// regions left with it). Observable.
    public var focusedRegion: FlowController? {
        let index = focusedIndex
        let regions = children
        return regions.indices.contains(index) ? regions[index] : nil
    }

    /// Moves the focus to `region`: the focused path continues through it from now on.
    /// Nothing exits, enters or resigns active (every region stays active), and no guard
    /// runs. The host is told (kind ``FlowChange/Kind/focus``).
    ///
    /// Focusing the focused region does nothing.
    ///
    /// - Throws: ``FlowError/notARegion(container:node:)`` if `region` is not one of
    ///   ``regions``; ``FlowError/containerExited(container:)`` if this container exited.
    public func focus(_ region: FlowController) throws {
        try _focus(.focus, again: { try self.focus(region) }) { region }
    }

    /// Tells FlowKit that the platform moved the focus to `region` on its own (the user
    /// clicked into a column, the keyboard focus moved): the same change as ``focus(_:)``,
    /// but the host is not told (it made the change).
    ///
    /// - Throws: The errors of ``focus(_:)``.
    public func platformDidFocus(_ region: FlowController) throws {
        try _focus(.platformFocus, again: { try self.platformDidFocus(region) }) { region }
    }

    // MARK: Internals

    override var _selectedIndex: Int { _focus }

    /// Sets the focused region's index, telling observers.
    override func _setSelectedIndex(_ index: Int) {
        guard index != _focus else { return }
        if let registrar = _observationRegistrar {
            registrar.withMutation(of: self, keyPath: \.focusedIndex) { _focus = index }
        } else {
            _focus = index
        }
    }

    /// The region the focused path continues into when nothing is presented (a collapsed
    /// ``FlowSplit`` shows, and focuses, only its top column).
    var _focusedRegion: FlowController? {
        _children.indices.contains(_focus) ? _children[_focus] : nil
    }

    /// The regions that are shown, and so active, when nothing is presented: all of them
    /// (a collapsed ``FlowSplit`` shows only its top column).
    var _shownRegions: ArraySlice<FlowController> { _children[...] }

    /// The presented node if any, else the focused region.
    override public var focusedChild: FlowController? {
        if let presented = _presented { return presented }
        return _focusedRegion
    }

    override func _continues(into node: FlowController) -> Bool {
        if _presented != nil { return _presented === node }
        let index = _selectedIndexShown
        return index < _children.count && _children[index] === node
    }

    /// The focused region by its index (not the column a collapsed ``FlowSplit`` shows on
    /// top): a change that lays this container out again (a node presented over it or
    /// dismissed) keeps the focus where it was.
    override var _childToKeepSelected: FlowController? {
        _children.indices.contains(_focus) ? _children[_focus] : nil
    }

    override func _childrenWereReshaped(keeping selected: FlowController?) {
        _setSelectedIndex(selected.flatMap { _index(of: $0, in: _children) } ?? 0)
    }

    /// This node, then every shown region's active nodes in order (or, with a node
    /// presented over the container, only that node's).
    override func _appendActive(to nodes: inout [FlowController]) {
        nodes.append(self)
        if let presented = _presented { return presented._appendActive(to: &nodes) }
        for region in _shownRegions { region._appendActive(to: &nodes) }
    }

    /// Moves the focus to the region `resolve` names (`focus`, `platformDidFocus`, a
    /// split's `focus(_ column)`).
    final func _focus(
        _ kind: FlowChange.Kind, again: @autoclosure () -> @MainActor () throws -> Void,
        region resolve: () throws -> FlowController
    ) throws {
        try _change(
            kind, again: again(), whenQueued: { 0 },
            validate: { () -> Int? in
                try self._requireNotExited()
                let region = try resolve()
                guard let index = _index(of: region, in: self._children) else {
                    throw FlowError.notARegion(container: self.path, node: region.path)
                }
                return index != self._selectedIndexShown ? index : nil
            }
        ) { change, index in
            try self._planFocus(index, requiringContent: true, in: &change)
        }
    }

    /// The index of the region the focused path runs through when nothing is presented.
    var _selectedIndexShown: Int { _focus }

    /// Plans the focus moving to the region at `index` (a collapsed ``FlowSplit`` brings
    /// that column on top instead and, with `requiringContent`, refuses one that shows
    /// nothing; a navigation step does not require it, as the path may fill the column).
    func _planFocus(
        _ index: Int, requiringContent: Bool, in change: inout _Transaction
    ) throws {
        change.select(index, in: self)
    }

    override func _planEmbeddedStep(
        toward route: FlowRoute, in change: inout _Transaction
    ) throws -> (node: FlowController, isNew: Bool) {
        let regions = change.plannedChildren(of: self)
        guard let index = regions.firstIndex(where: { $0.route == route }) else {
            throw FlowError.unknownRoute(route: route.description, node: path)
        }
        try _planFocus(index, requiringContent: false, in: &change)
        return (regions[index], false)
    }

    /// The regions are fixed: navigation never builds or removes them.
    override func _requireReplaceableChildren() throws {
        throw FlowError.regionsAreFixed(container: path)
    }
}
