// A tab container's invariants: checked at the end of its mutating paths in debug builds, and
// after every step of the model-based random test (Tests/FlowKitTests/ModelBased).

extension FlowTabs {
    /// The broken invariants of this tab container, each with its values (empty when all
    /// hold): the selection is a tab's index (0 with no tabs); every tab's parent, and its
    /// dispatch link, is the container; no tab appears twice; an entered container's tabs
    /// are entered. An exited container is not checked: its tabs left with it.
    func _tabsInvariantViolations() -> [String] {
        var violations: [String] = []
        guard state != .exited else { return violations }
        let valid = _children.isEmpty ? _selection == 0 : _children.indices.contains(_selection)
        if !valid {
            violations.append(
                "FlowTabs '\(path)': the selection \(_selection) is not the index of one of its "
                    + "\(_children.count) tabs")
        }
        // The unretained dispatch link is compared by address, never dereferenced.
        let me = Unmanaged.passUnretained(self).toOpaque()
        for tab in _children where tab.parent !== self || tab._next?.toOpaque() != me {
            violations.append("FlowTabs '\(path)': the tab '\(tab.name)' has a foreign parent")
        }
        if Set(_children.map(ObjectIdentifier.init)).count != _children.count {
            violations.append("FlowTabs '\(path)': a tab appears twice")
        }
        if state == .entered, let tab = _children.first(where: { $0.state != .entered }) {
            violations.append(
                "FlowTabs '\(path)': the tab '\(tab.name)' is \(tab.state), the container entered")
        }
        return violations
    }
}
