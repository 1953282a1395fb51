// A transaction's selections: the child a tab container or a parallel container selects,
// and a split's layout (collapsed or not, the column shown on top when collapsed).

extension _Transaction {
    /// Plans `container` (a ``FlowTabs`` or a ``FlowParallel``) selecting the child at
    /// `index` (of its planned children). Selecting the child that stays selected plans
    /// nothing, and so does selecting it again after another (``FlowController/navigate(toEach:)``
    /// paths through two regions, the last one the focused one): the selection does not move.
    func select(_ index: Int, in container: FlowController) {
        var existing = 0
        while existing < selections.count, selections[existing].container !== container {
            existing += 1
        }
        if existing < selections.count {
            if index == container._selectedIndex && _index(of: container, in: layouts) == nil {
                selections.remove(at: existing)
            } else {
                selections[existing].index = index
            }
        } else if index != container._selectedIndex || _index(of: container, in: layouts) != nil {
            selections.append((container, index))
        }
    }

    /// Plans `split`'s layout: shown collapsed (one stack) or expanded (its columns), and
    /// the column shown on top when collapsed. `nil` keeps what is planned so far.
    func setLayout(
        of split: FlowSplit, collapsed: Bool? = nil, preferred: FlowSplit.Column? = nil
    ) {
        if let index = splitLayouts.firstIndex(where: { $0.split === split }) {
            if let collapsed { splitLayouts[index].collapsed = collapsed }
            if let preferred { splitLayouts[index].preferred = preferred }
            // Set back to the layout the split has: nothing moves.
            if splitLayouts[index].collapsed == split._isCollapsed
                && splitLayouts[index].preferred == split._preferredCompact
            {
                splitLayouts.remove(at: index)
            }
            return
        }
        let layout = (
            split: split, collapsed: collapsed ?? split._isCollapsed,
            preferred: preferred ?? split._preferredCompact
        )
        if layout.collapsed != split._isCollapsed || layout.preferred != split._preferredCompact {
            splitLayouts.append(layout)
        }
    }

    /// The layout `split` will have after this change (as planned so far).
    func plannedLayout(of split: FlowSplit) -> (collapsed: Bool, preferred: FlowSplit.Column) {
        if let layout = splitLayouts.first(where: { $0.split === split }) {
            return (layout.collapsed, layout.preferred)
        }
        return (split._isCollapsed, split._preferredCompact)
    }

    /// Applies the planned selections and split layouts (after the layouts).
    func applySelections() {
        for selection in selections {
            selection.container._setSelectedIndex(selection.index)
        }
        for layout in splitLayouts {
            layout.split._setLayout(collapsed: layout.collapsed, preferred: layout.preferred)
        }
    }
}
