// What restoration checks before it builds anything: the version, the size, the depth and
// the shape of the snapshot, and that its root fits the runtime's. The walk recurses only
// after checking the depth, so a snapshot made in code (not decoded, hence not depth-limited)
// cannot exhaust the stack either; a node's path is made only for the error that names it.

extension FlowSnapshot {
    /// Checks everything that needs no node but `root` (the runtime's root), and returns the
    /// number of nodes.
    @MainActor
    @discardableResult
    func _validate(onto root: FlowController) throws -> Int {
        guard Self.supportedVersions.contains(version) else {
            throw FlowSnapshotError.unsupportedVersion(
                found: version, supported: Self.formatVersion)
        }
        guard self.root.name == root.name else {
            throw FlowSnapshotError.mismatch(
                path: root.name,
                reason: "the snapshot's root is '\(self.root.name)', the runtime's '\(root.name)'")
        }
        let kind = Node.Kind(of: root)
        guard self.root.kind == kind else {
            throw FlowSnapshotError.mismatch(
                path: root.name,
                reason:
                    "the snapshot's root is a \(self.root.kind.rawValue), the runtime's a "
                    + kind.rawValue)
        }
        var count = 1
        do {
            try self.root._validateSubtree(depth: 1, isColumn: false, count: &count)
        } catch let invalid as _InvalidShape {
            throw FlowSnapshotError.impossibleShape(
                path: invalid.names.reversed().joined(separator: "/"), reason: invalid.reason)
        }
        var routes = 0
        var paths = Set<String>()
        for entry in history {
            guard !entry.path.isEmpty, paths.insert(entry.path).inserted else {
                throw FlowSnapshotError.impossibleShape(
                    path: entry.path, reason: "two history entries (or one without a path)")
            }
            routes += entry.routes.count
            guard routes <= Self.maximumNodeCount else {
                throw FlowSnapshotError.tooLarge(limit: Self.maximumNodeCount)
            }
        }
        return count
    }
}

/// A node of the wrong shape: the reason, and the names from the node up to the root (each
/// level adds its own as the error passes it, so no path is made unless one is wrong).
struct _InvalidShape: Error {
    var names: [String]
    let reason: String
}

extension FlowSnapshot.Node {
    /// Checks this node and its subtree (`depth` is this node's, `count` the nodes so far),
    /// in the order of a stack of pending nodes: the presented node first, then the children
    /// last to first. Recursive, but never deeper than ``FlowSnapshot/maximumDepth`` levels,
    /// so a snapshot made in code (not decoded, hence not depth-limited) cannot exhaust the
    /// stack either.
    ///
    /// - Throws: `_InvalidShape`, `FlowSnapshotError.tooDeep`, `FlowSnapshotError.tooLarge`.
    func _validateSubtree(depth: Int, isColumn: Bool, count: inout Int) throws {
        guard depth <= FlowSnapshot.maximumDepth else {
            throw FlowSnapshotError.tooDeep(limit: FlowSnapshot.maximumDepth)
        }
        do {
            try _validateShape(isColumn: isColumn)
            let presented = self.presented
            count += children.count + (presented == nil ? 0 : 1)
            guard count <= FlowSnapshot.maximumNodeCount else {
                throw FlowSnapshotError.tooLarge(limit: FlowSnapshot.maximumNodeCount)
            }
            try presented?._validateSubtree(depth: depth + 1, isColumn: false, count: &count)
            try Self._validateChildren(
                children, depth: depth + 1, areColumns: kind == .split, count: &count)
        } catch var invalid as _InvalidShape {
            invalid.names.append(name)
            throw invalid
        }
    }

    /// Checks `children` and their subtrees, last to first. A leaf (most nodes) is checked
    /// in place: reading its parts from the list copies none of its other parts.
    private static func _validateChildren(
        _ children: [Self], depth: Int, areColumns: Bool, count: inout Int
    ) throws {
        guard children.isEmpty || depth <= FlowSnapshot.maximumDepth else {
            throw FlowSnapshotError.tooDeep(limit: FlowSnapshot.maximumDepth)
        }
        var index = children.count
        while index > 0 {
            index -= 1
            guard children[index].children.isEmpty, children[index]._isUnpresenting,
                children[index].kind == .node, children[index].selectedTab == nil,
                children[index].focusedRegion == nil, children[index].collapsed == nil,
                children[index].preferredColumn == nil, _isValidNodeName(children[index].name)
            else {
                try children[index]._validateSubtree(
                    depth: depth, isColumn: areColumns, count: &count)
                continue
            }
        }
    }

    /// Checks this node's own shape (not its children's); `isColumn` for a split's column
    /// (a column stack may be empty: a detail with nothing selected).
    ///
    /// - Throws: `_InvalidShape` (its path is added by the callers).
    func _validateShape(isColumn: Bool = false) throws {
        func impossible(_ reason: String) -> _InvalidShape {
            _InvalidShape(names: [], reason: reason)
        }
        if !_isValidNodeName(name) {
            throw impossible("the name '\(name)' is empty or contains '/'")
        }
        switch kind {
        case .stack:
            if children.isEmpty && !isColumn { throw impossible("an empty stack") }
        case .node, .switch:
            if children.count > 1 {
                throw impossible(
                    "a \(kind.rawValue) with \(children.count) embedded children (at most one)")
            }
        case .tabs:
            guard let selectedTab else { throw impossible("a tab container without a selection") }
            let valid =
                children.isEmpty ? selectedTab == 0 : children.indices.contains(selectedTab)
            if !valid {
                throw impossible("selected tab \(selectedTab) of \(children.count) tabs")
            }
        case .parallel, .split:
            guard let focusedRegion else { throw impossible("a \(kind.rawValue) without a focus") }
            if !children.indices.contains(focusedRegion) {
                throw impossible("focused region \(focusedRegion) of \(children.count) regions")
            }
            if kind == .split {
                guard children.count == 2 || children.count == 3 else {
                    throw impossible("a split with \(children.count) columns (2 or 3)")
                }
                if children.count == 2, preferredColumn == .content {
                    throw impossible("a two-column split preferring its content column")
                }
            }
        }
        if kind != .tabs, let selectedTab {
            throw impossible("a tab selection (\(selectedTab)) on a \(kind.rawValue)")
        }
        if kind != .parallel && kind != .split, let focusedRegion {
            throw impossible("a focused region (\(focusedRegion)) on a \(kind.rawValue)")
        }
        if kind != .split && (collapsed != nil || preferredColumn != nil) {
            throw impossible("a split's layout on a \(kind.rawValue)")
        }
    }
}
