// Restoring containers whose children are fixed by the app: a tab container's tabs, a
// parallel container's regions (a split's columns). They are matched one to one, never
// built, and their selection (and a split's arrangement) is restored with them.

extension _Restoration {
    func restoreTabs(_ tabs: FlowTabs, from stored: FlowSnapshot.Node) throws {
        try matchFixedChildren(of: tabs, with: stored, each: "tab")
        selections.append((tabs, tabs._selectedIndex))
        tabs._setSelectedIndex(stored.selectedTab ?? 0)
        try restoreFixedChildren(of: tabs, from: stored)
    }

    /// Restores a parallel container's fixed regions (a split's columns) in place, their
    /// focus and, for a split, its layout.
    func restoreRegions(of parallel: FlowParallel, from stored: FlowSnapshot.Node) throws {
        try matchFixedChildren(of: parallel, with: stored, each: "region")
        selections.append((parallel, parallel._focus))
        parallel._setSelectedIndex(stored.focusedRegion ?? 0)
        if let split = parallel as? FlowSplit {
            if stored.preferredColumn.map(split.columns.contains) == false {
                throw FlowSnapshotError.mismatch(
                    path: split.path,
                    reason: "the split has no \(stored.preferredColumn!) column")
            }
            splitArrangements.append((split, split._isCollapsed, split._preferredCompact))
            split._setArrangement(
                collapsed: stored.collapsed ?? false,
                preferred: stored.preferredColumn ?? split._preferredCompact)
        }
        try restoreFixedChildren(of: parallel, from: stored)
    }

    /// Checks that `container`'s children and the snapshot's match one to one (same count;
    /// same names, kinds and routes); `each` names one child in the error (`tab`, `region`).
    private func matchFixedChildren(
        of container: FlowController, with stored: FlowSnapshot.Node, each: String
    ) throws {
        let list = container._children
        guard list.count == stored.children.count else {
            throw FlowSnapshotError.mismatch(
                path: container.path,
                reason:
                    "the snapshot has \(stored.children.count) \(each)s, the app \(list.count)")
        }
        for (index, child) in list.enumerated() where !matches(child, stored.children[index]) {
            throw FlowSnapshotError.mismatch(
                path: container.path,
                reason:
                    "\(each) \(index) is '\(stored.children[index].name)' in the snapshot, "
                    + "'\(child.name)' in the app (names, kinds and routes must match)")
        }
    }

    /// Restores each fixed child's state and content. A fixed child cannot be left out: its
    /// guard's refusal fails the restoration.
    private func restoreFixedChildren(
        of container: FlowController, from stored: FlowSnapshot.Node
    ) throws {
        for (index, child) in container._children.enumerated() {
            try failingLeftOut { try restoreState(of: child, from: stored.children[index]) }
            if let reason = refusal(of: child) {
                throw FlowError.entryRefused(node: child.path, reason: reason)
            }
            restoredCount += 1
            if deferred != nil, container is FlowTabs, index != container._selectedIndex,
                _hasContent(child, stored.children[index])
            {
                deferContent(of: child, from: stored.children[index])
                continue
            }
            try restoreContent(of: child, from: stored.children[index])
        }
    }
}

/// Whether restoring `tab` from `stored` builds anything below it (a child, a presented node,
/// defaults): a tab that builds nothing is not set aside.
@MainActor
private func _hasContent(_ tab: FlowController, _ stored: FlowSnapshot.Node) -> Bool {
    !stored.children.isEmpty || stored.presented != nil || !tab._children.isEmpty
        || tab._presented != nil || tab.initialRoute != nil || tab.history != .none
}
