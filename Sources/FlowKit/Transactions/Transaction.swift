/// One transaction: what exits, the new shape of the touched containers, and what enters.
/// Built by the operations (push, switch, navigate …), checked and applied by
/// ``FlowRuntime/_commit(_:)``. The one mechanism behind every change.
///
/// A class, so that passing it through planning costs nothing and a runtime can reuse one
/// (``FlowRuntime/_transact(_:domain:intent:_:)``): its arrays keep their storage
/// between transactions, emptied after each (nothing is kept alive by a pooled change).
@MainActor
final class _Transaction {
    // Unchecked exclusivity on the arrays (the other properties need no attribute: a release
    // build proves their exclusivity itself): a change is FlowKit's own working state,
    // touched only by its planning and commit code on the main actor; each access is a read,
    // an assignment or a short in-place mutation that calls no app code (factories, guards and
    // hooks run between accesses, never inside one; layouts are applied in a local array, see
    // `applyLayouts()`), so accesses never overlap.
    var kind: FlowChange.Kind
    /// The node the change happens in (reported as the change's container).
    var domain: FlowController?
    /// Roots of the subtrees that exit. Planned in any order; put in exit order by
    /// ``orderRemovalsForExit()`` before the change is checked.
    @exclusivity(unchecked)
    var removals: [FlowController] = []
    @exclusivity(unchecked)
    var layouts: [_Layout] = []
    /// Roots of the subtrees that enter, in entry order.
    @exclusivity(unchecked)
    var insertions: [_Insertion] = []
    /// Nodes whose content is built once the exit set (and the history it records) is known.
    @exclusivity(unchecked)
    var fills: [_Fill] = []
    /// The platform already made this change: guards are skipped and the host is not told.
    var isPlatformInitiated = false
    /// Whether a container's kept children change order (a reordering `setStack`).
    var reorders = false
    /// Containers whose selected child the change moves, with the new index: a
    /// ``FlowTabs``'s selected tab, a ``FlowParallel``'s focused region.
    @exclusivity(unchecked)
    var selections: [(container: FlowController, index: Int)] = []
    /// Containers whose arrangement the change sets (``_Arrangement``: a split collapsed or
    /// expanded by the platform, the column a collapsed split shows on top). Every change
    /// reads and empties it (unchecked exclusivity: see the note above the properties, and
    /// Reliability.md's list of unsafe constructs).
    @exclusivity(unchecked)
    var arrangements: [(container: FlowController, arrangement: _Arrangement)] = []
    /// Entering nodes whose entry guard has already decided (a restoration asks each
    /// restored node's guard as it rebuilds it): ``FlowRuntime/_commit(_:)`` does not ask
    /// them again.
    var decidedEntries: Set<ObjectIdentifier> = []
    /// Set once the change has linked every inserted node to its container, which also
    /// dropped their prospective links: ``clearPendingLinks()`` is then not needed (it would
    /// retain and release every inserted node and its container once more).
    var linksApplied = false
    /// The node an app's navigation (`navigate`, `open`, `unwind`) was asked of: once every
    /// check has passed, the change replaces the pending intent unless it happens inside the
    /// redirect's flow (``FlowRuntime/_replacePendingIntent(by:)``). A navigation that throws
    /// leaves the intent as it was.
    var replacesIntentFrom: FlowController?
    /// Whether exit guards are consulted (not for platform changes, nor for `stop()`).
    var consultsExitGuards: Bool { !isPlatformInitiated && kind != .stop }

    init(kind: FlowChange.Kind, domain: FlowController?) {
        self.kind = kind
        self.domain = domain
    }

    /// A spare change for structural changes outside a running tree that are planned (pops,
    /// `setStack`, replacing children, default expansion; a single attach is made without a
    /// change, see ``FlowController/_attachOffline(_:)``): allocating and freeing a change
    /// and its arrays for each cost about half of it. (A running tree keeps its own,
    /// ``FlowRuntime/_pooledTransaction``.)
    static var spareOffline: _Transaction?

    /// `spare` made ready for a change of `kind` in `domain`, or a new change if there is no
    /// spare. The caller clears its spare while the change is in use, so that a change made
    /// meanwhile (from an observer or a route factory) gets a new one.
    @inline(__always)
    static func reusing(
        _ spare: _Transaction?, kind: FlowChange.Kind, domain: FlowController?
    ) -> _Transaction {
        guard let change = spare else { return _Transaction(kind: kind, domain: domain) }
        change.kind = kind
        change.domain = domain
        return change
    }

    /// Ends a change from ``reusing(_:kind:domain:)``: drops its prospective links and its
    /// nodes (a kept change never keeps a node alive), then returns it if it is worth keeping
    /// as the spare. The caller stores the result: dropping the nodes may run `deinit`s, so
    /// no access to the spare's storage may be open meanwhile. Those `deinit`s (app code) run
    /// inside the access to this change's arrays (unchecked): legal, because nothing else
    /// reaches this change then (it is a local of `_transact`, out of the pool), and a change
    /// one of them asks for gets a change of its own. Tested by
    /// `ResponderChainTests.releaseOfAPoppedNodeAsksForChanges` under AddressSanitizer.
    @inline(__always)
    static func emptiedForReuse(_ change: _Transaction) -> _Transaction? {
        if !change.linksApplied { change.clearPendingLinks() }
        change.reset()
        return change.isWorthKeeping ? change : nil
    }

    /// A change for a structural change outside a running tree. (Never inlined: it is off
    /// the path of a change in a running tree, and inlined it changed how the optimiser
    /// inlined `_perform` into every operation, adding retains to that path.)
    @inline(never)
    static func makeOffline(kind: FlowChange.Kind, domain: FlowController) -> _Transaction {
        reusing(spareOffline.take(), kind: kind, domain: domain)
    }

    /// Ends a change from ``makeOffline(kind:domain:)``.
    static func recycleOffline(_ change: _Transaction) {
        spareOffline = emptiedForReuse(change)
    }

    /// Whether an emptied change is worth keeping for reuse: not when a rare large change
    /// (a deep link or a restoration of thousands of nodes) left its arrays with a capacity
    /// that reuse would keep allocated for good.
    var isWorthKeeping: Bool {
        removals.capacity <= 64 && layouts.capacity <= 64 && insertions.capacity <= 64
            && fills.capacity <= 64 && selections.capacity <= 64 && arrangements.capacity <= 64
    }

    /// Empties the change for reuse: every node reference is dropped, array storage is kept.
    func reset() {
        domain = nil
        if replacesIntentFrom != nil { replacesIntentFrom = nil }
        _empty(&removals)
        _empty(&layouts)
        _empty(&insertions)
        _empty(&fills)
        _empty(&selections)
        if !arrangements.isEmpty { arrangements.removeAll(keepingCapacity: true) }
        if !decidedEntries.isEmpty { decidedEntries.removeAll() }
        isPlatformInitiated = false
        reorders = false
        linksApplied = false
    }

    var isEmpty: Bool {
        removals.isEmpty && insertions.isEmpty && fills.isEmpty && !reorders
            && selections.isEmpty && arrangements.isEmpty
    }

    /// Clears the prospective-parent links of the planned insertions: called when the
    /// change is applied (the real links replace them) or abandoned.
    func clearPendingLinks() {
        for insertion in insertions { insertion.node._pendingParent = nil }
    }

    /// Whether the focused path or the active nodes can be different after this change: only
    /// if it starts or stops the tree, reshapes an active container or a region of an active
    /// ``FlowParallel`` (a hidden column of a collapsed split comes on top when it gets
    /// entries), or moves a selection or an arrangement. Changes below a covered node (a
    /// stack entry that is not the top) leave the focus where it is.
    var mayMoveFocus: Bool {
        if domain == nil { return true }
        for index in layouts.indices {
            let container = layouts[index].container
            if container.isActive { return true }
            // A column a collapsed split hides can come on top when it gets entries.
            if let parent = container._parent, parent._branchesActivation, parent.isActive {
                return true
            }
        }
        for selection in selections where selection.container.isActive { return true }
        for planned in arrangements where planned.container.isActive { return true }
        return false
    }

    /// The node reported as the change's container: for a navigation or an unwind, the
    /// deepest node that contains every container the change touches (the transition
    /// domain: the stack an unwind pops, not the entry it unwinds to); otherwise the node the
    /// operation was called on.
    var reportedContainer: FlowController? {
        guard kind == .navigate || kind == .unwind else { return domain }
        // Every container the change touches: reshaped ones and containers whose selection
        // (a tab, a focused region) moves.
        var touched = layouts.map(\.container)
        for selection in selections where _index(of: selection.container, in: touched) == nil {
            touched.append(selection.container)
        }
        guard var found = touched.first else { return domain }
        for container in touched.dropFirst() where !container.isDescendant(of: found) {
            var candidate: FlowController? = found.parent
            while let current = candidate, !container.isDescendant(of: current) {
                candidate = current.parent
            }
            guard let common = candidate else { return domain }
            found = common
        }
        return found
    }

    private func layoutIndex(for container: FlowController) -> Int {
        if let index = _index(of: container, in: layouts) {
            return index
        }
        layouts.append(_Layout(container: container))
        return layouts.count - 1
    }

    /// The children `container` will have after this change (as planned so far).
    func plannedChildren(of container: FlowController) -> [FlowController] {
        if let index = _index(of: container, in: layouts) { return layouts[index].plannedChildren }
        return container._children
    }

    func plannedPresented(of container: FlowController) -> FlowController? {
        if let index = _index(of: container, in: layouts) { return layouts[index].presented }
        return container._presented
    }

    /// Puts the removals in exit order, the one order every change exits in: the exact
    /// reverse of the tree's entry order (pre-order, embedded children in attach order, the
    /// presented node last). What is top-most on screen exits first (a stack's top entry
    /// before the entries below it, a presented node before its presenter's content), and
    /// each removed subtree then exits innermost first, so exit guards are asked, exit hooks
    /// run and ``FlowChange/exited`` lists in that order whichever way planning found the
    /// removals (`unwind` walks up from its target; a navigation pops above a kept entry
    /// after replacing what is below it).
    ///
    /// - Complexity: O(*r* log *r* · *d* + *c*) for *r* removals at depth *d* whose
    ///   ancestors have *c* children in all; nothing for a single removal.
    @inline(__always)
    func orderRemovalsForExit() {
        if removals.count > 1 { _sortRemovalsForExit() }
    }

    @inline(never)
    private func _sortRemovalsForExit() {
        var positions = _ChildPositions()
        var keyed = removals.map { (key: positions.entryOrderKey(of: $0), node: $0) }
        keyed.sort { $1.key.lexicographicallyPrecedes($0.key) }
        for index in keyed.indices { removals[index] = keyed[index].node }
    }

    /// Plans the exit of `node`'s subtree (`node` must be attached to `container`, or be
    /// planned to join it by this change).
    func remove(_ node: FlowController, from container: FlowController) {
        let index = layoutIndex(for: container)
        if layouts[index].presented === node {
            layouts[index].presented = nil
        } else {
            layouts[index].removeChild(node)
        }
        // A node this change inserts (an earlier path of `navigate(toEach:)` built it) has
        // not entered: it leaves the plan instead of exiting, and what a factory built for it
        // is released. Only planned insertions have a prospective link during a change. (A
        // node planned into a container that a later path removes: see
        // `dropPlansInsideRemovals()`.)
        if node._pendingParent != nil,
            let inserted = insertions.firstIndex(where: { $0.node === node })
        {
            dropInsertion(at: inserted)
            return
        }
        removals.append(node)
    }

    /// Plans the exit of everything `container` presents and embeds (presented first, then
    /// children last-attached first).
    func removeContent(of container: FlowController) {
        if let presented = plannedPresented(of: container) {
            remove(presented, from: container)
        }
        for child in plannedChildren(of: container).reversed() {
            remove(child, from: container)
        }
    }

    /// Applies the layouts, each in place, handing its planned nodes over to its container
    /// (a `for` loop would copy each layout, retaining every reference it holds). They are
    /// applied in a local array, moved out of the change and back: applying tells observers,
    /// whose code must not be able to reach the array while a layout in it is being mutated.
    func applyLayouts() {
        var applying: [_Layout] = []
        swap(&applying, &layouts)
        for index in applying.indices {
            applying[index].apply()
        }
        swap(&applying, &layouts)
    }

    /// Links every inserted node to its container, which also drops its prospective link
    /// (by index: a `for` loop copies each insertion, retaining both of its references).
    /// Always inlined: as a call it added 27 instructions to a push + pop.
    @inline(__always)
    func applyLinks() {
        for index in insertions.indices {
            insertions[index].node._setParent(insertions[index].container)
        }
        linksApplied = true
    }

    /// Plans `node` joining `container` as its last embedded child.
    func append(_ node: FlowController, to container: FlowController) {
        let index = layoutIndex(for: container)
        layouts[index].appendChild(node)
        insertions.append(_Insertion(node: node, container: container))
        node._pendingParent = container
    }

    /// Plans `node` being presented by `container`.
    func present(_ node: FlowController, by container: FlowController) {
        let index = layoutIndex(for: container)
        layouts[index].presented = node
        insertions.append(_Insertion(node: node, container: container))
        node._pendingParent = container
    }

    /// Plans `container`'s embedded children to be exactly `children` (entries that are
    /// already children stay; others exit or enter).
    func setChildren(_ children: [FlowController], of container: FlowController) {
        let current = plannedChildren(of: container)
        let kept = Set(children.map(ObjectIdentifier.init))
        for child in current.reversed() where !kept.contains(ObjectIdentifier(child)) {
            remove(child, from: container)
        }
        let index = layoutIndex(for: container)
        layouts[index].materialize()
        layouts[index].children = children
        let existing = Set(current.map(ObjectIdentifier.init))
        let keptInOldOrder = current.filter { kept.contains(ObjectIdentifier($0)) }
        let keptInNewOrder = children.filter { existing.contains(ObjectIdentifier($0)) }
        if !keptInOldOrder.elementsEqual(keptInNewOrder, by: ===) { reorders = true }
        for child in children where !existing.contains(ObjectIdentifier(child)) {
            insertions.append(_Insertion(node: child, container: container))
            child._pendingParent = container
        }
    }
}

/// Positions of nodes among their parents' children, indexed once per parent (a `setStack`
/// that empties a long stack orders its removals in linear time).
@MainActor
private struct _ChildPositions {
    private var byParent: [ObjectIdentifier: [ObjectIdentifier: Int]] = [:]

    /// `node`'s place in the tree's entry order: its position among its parent's children at
    /// each level from the root down (a presented node after every embedded child). One node
    /// enters before another exactly when its key precedes the other's.
    mutating func entryOrderKey(of node: FlowController) -> [Int] {
        var key: [Int] = []
        var current = node
        while let parent = current._parent {
            if parent._presented === current {
                key.append(parent._children.count)
            } else {
                key.append(position(of: current, in: parent))
            }
            current = parent
        }
        key.reverse()
        return key
    }

    private mutating func position(of child: FlowController, in parent: FlowController) -> Int {
        let children = parent._children
        if children.count <= 8 { return _index(of: child, in: children) ?? children.count }
        let id = ObjectIdentifier(parent)
        if byParent[id] == nil {
            var table: [ObjectIdentifier: Int] = [:]
            table.reserveCapacity(children.count)
            for (index, node) in children.enumerated() { table[ObjectIdentifier(node)] = index }
            byParent[id] = table
        }
        return byParent[id]?[ObjectIdentifier(child)] ?? children.count
    }
}
