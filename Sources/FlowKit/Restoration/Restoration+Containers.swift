// Restoring containers whose children are fixed by the app: a tab container's tabs, a
// parallel container's regions (a split's columns). They are matched one to one, never
// built, and their selection (and a split's layout) is restored with them.

extension _Restoration {
    func restoreTabs(_ tabs: FlowTabs, from stored: FlowSnapshot.Node) throws {
        let list = tabs._children
        guard list.count == stored.children.count else {
            throw FlowSnapshotError.mismatch(
                path: tabs.path,
                reason: "the snapshot has \(stored.children.count) tabs, the app \(list.count)")
        }
        for (index, tab) in list.enumerated() where !matches(tab, stored.children[index]) {
            throw FlowSnapshotError.mismatch(
                path: tabs.path,
                reason:
                    "tab \(index) is '\(stored.children[index].name)' in the snapshot, "
                    + "'\(tab.name)' in the app (names, kinds and routes must match)")
        }
        selections.append((tabs, tabs._selectedIndex))
        tabs._setSelectedIndex(stored.selectedTab ?? 0)
        for (index, tab) in list.enumerated() {
            // A tab cannot be left out: its guard's refusal fails the restoration.
            try restoreState(of: tab, from: stored.children[index])
            if let reason = refusal(of: tab) {
                throw FlowError.entryRefused(node: tab.path, reason: reason)
            }
            restoredCount += 1
            try restoreContent(of: tab, from: stored.children[index])
        }
    }

    /// Restores a parallel container's fixed regions (a split's columns) in place, their
    /// focus and, for a split, its layout.
    func restoreRegions(of parallel: FlowParallel, from stored: FlowSnapshot.Node) throws {
        let list = parallel._children
        guard list.count == stored.children.count else {
            throw FlowSnapshotError.mismatch(
                path: parallel.path,
                reason:
                    "the snapshot has \(stored.children.count) regions, the app \(list.count)")
        }
        for (index, region) in list.enumerated() where !matches(region, stored.children[index]) {
            throw FlowSnapshotError.mismatch(
                path: parallel.path,
                reason:
                    "region \(index) is '\(stored.children[index].name)' in the snapshot, "
                    + "'\(region.name)' in the app (names, kinds and routes must match)")
        }
        selections.append((parallel, parallel._focus))
        parallel._setSelectedIndex(stored.focusedRegion ?? 0)
        if let split = parallel as? FlowSplit {
            if stored.preferredColumn.map(split.columns.contains) == false {
                throw FlowSnapshotError.mismatch(
                    path: split.path,
                    reason: "the split has no \(stored.preferredColumn!) column")
            }
            splitLayouts.append((split, split._isCollapsed, split._preferredCompact))
            split._setLayout(
                collapsed: stored.collapsed ?? false,
                preferred: stored.preferredColumn ?? split._preferredCompact)
        }
        for (index, region) in list.enumerated() {
            // A region cannot be left out: its guard's refusal fails the restoration.
            try restoreState(of: region, from: stored.children[index])
            if let reason = refusal(of: region) {
                throw FlowError.entryRefused(node: region.path, reason: reason)
            }
            restoredCount += 1
            try restoreContent(of: region, from: stored.children[index])
        }
    }
}
