// A transaction's selections: the child a tab container or a parallel container selects,
// and a container's arrangement (a split collapsed or not, the column shown on top when
// collapsed). The transaction plans and applies both through the container's own accessors
// (`_selectedIndex`, `_setSelectedIndex(_:)`, `_arrangement`, `_setArrangement(_:)`), so it
// knows no container type.

/// How a container shows its children besides which ones they are: collapsed into one stack
/// or not, and the child shown on top when collapsed (``FlowController/_arrangement``; a
/// ``FlowSplit``'s, whose children are its columns). Other containers have one arrangement.
struct _Arrangement: Equatable {
    var isCollapsed: Bool
    /// The index of the child shown on top when collapsed, if it shows something (else the
    /// nearest one before it that does): a split's preferred compact column.
    var preferred: Int
}

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

    /// Plans `container`'s arrangement: collapsed or not, and the child shown on top when
    /// collapsed (see ``_Arrangement``). `nil` keeps what is planned so far.
    func arrange(_ container: FlowController, collapsed: Bool? = nil, preferred: Int? = nil) {
        let current = container._arrangement
        if let index = arrangements.firstIndex(where: { $0.container === container }) {
            if let collapsed { arrangements[index].arrangement.isCollapsed = collapsed }
            if let preferred { arrangements[index].arrangement.preferred = preferred }
            // Set back to the arrangement the container has: nothing moves.
            if arrangements[index].arrangement == current { arrangements.remove(at: index) }
            return
        }
        let arrangement = _Arrangement(
            isCollapsed: collapsed ?? current.isCollapsed, preferred: preferred ?? current.preferred
        )
        if arrangement != current { arrangements.append((container, arrangement)) }
    }

    /// The arrangement `container` will have after this change (as planned so far).
    func plannedArrangement(of container: FlowController) -> _Arrangement {
        if let planned = arrangements.first(where: { $0.container === container }) {
            return planned.arrangement
        }
        return container._arrangement
    }

    /// Applies the planned selections and arrangements (after the layouts).
    func applySelections() {
        for selection in selections {
            selection.container._setSelectedIndex(selection.index)
        }
        for planned in arrangements {
            planned.container._setArrangement(planned.arrangement)
        }
    }
}
