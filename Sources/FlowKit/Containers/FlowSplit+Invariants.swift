// A split's invariants: checked at the end of its mutating paths in debug builds, and after
// every step of the model-based random test (Tests/FlowKitTests/ModelBased).

extension FlowSplit {
    /// The broken invariants of this split, each with its values (empty when all hold): its
    /// columns are `[sidebar, detail]` or `[sidebar, content, detail]`, one region each,
    /// fixed as made; each column's parent, and its dispatch link, is the split, and no
    /// column appears twice; the focus index and the preferred compact column are columns;
    /// the layout shows every column expanded and only the top column collapsed; and while
    /// the split is active with nothing presented over it, exactly the columns it shows are
    /// active. An exited split is checked only for what it keeps (its columns left with it).
    func _splitInvariantViolations() -> [String] {
        var violations: [String] = []
        func violation(_ text: String) { violations.append("FlowSplit '\(path)': \(text)") }
        if columns != [.sidebar, .detail] && columns != [.sidebar, .content, .detail] {
            violation("its columns \(columns) are not a split's")
        }
        if !columns.contains(_preferredCompact) {
            violation("the preferred compact column \(_preferredCompact) is not one of \(columns)")
        }
        guard state != .exited else { return violations }
        if _children.count != columns.count {
            violation("\(_children.count) regions for its \(columns.count) columns")
            return violations
        }
        if !columns.indices.contains(_focus) {
            violation("the focus index \(_focus) is not one of its \(columns.count) columns'")
        }
        // The unretained dispatch link is compared by address, never dereferenced (as in
        // FlowTabs+Invariants.swift), so a stale link could not be read through.
        let me = Unmanaged.passUnretained(self).toOpaque()
        for (index, column) in _children.enumerated()
        where column.parent !== self || column._next?.toOpaque() != me {
            violation("its \(columns[index]) column '\(column.name)' has a foreign parent")
        }
        if Set(_children.map(ObjectIdentifier.init)).count != _children.count {
            violation("a column appears twice")
        }
        let shown = _shownRegions
        let expected = _isCollapsed ? 1 : columns.count
        if shown.count != expected || (_isCollapsed && shown.first !== _children[_topColumn]) {
            violation(
                "shows \(shown.map(\.name)) while \(_isCollapsed ? "collapsed" : "expanded")")
        }
        if state == .entered, isActive, _presented == nil {
            for (index, column) in _children.enumerated()
            where column.isActive != shown.contains(where: { $0 === column }) {
                violation(
                    "its \(columns[index]) column is \(column.isActive ? "active" : "inactive") "
                        + "while \(_isCollapsed ? "collapsed" : "expanded") and active")
            }
        }
        return violations
    }
}
