/// One node of a tree as a session recorder writes it down: who it is, where it hangs, what
/// kind of container it is and the container's selection or arrangement.
///
/// ``FlowController/visitSessionOutline(_:)`` gives a subtree's nodes in the order of
/// ``FlowRuntime/treeDescription(showingIdentities:)``, read without observation tracking (a
/// recorder must not make every node observable).
public struct FlowSessionNode: Sendable, Equatable {
    /// What kind of node it is, as far as the tree's shape goes.
    public enum Kind: String, Sendable, CaseIterable {
        /// A node that is not one of FlowKit's containers (it may still embed and present).
        case node
        /// A ``FlowStack``.
        case stack
        /// A ``FlowSwitch``.
        case `switch`
        /// A ``FlowTabs``.
        case tabs
        /// A ``FlowParallel`` that is not a split.
        case parallel
        /// A ``FlowSplit``.
        case split
    }

    /// The node's identity.
    public let id: FlowNodeID
    /// The node's name.
    public let name: String
    /// The node's parent (its presenter, for a presented node); `nil` for a root.
    public let parent: FlowNodeID?
    /// The node's kind.
    public let kind: Kind
    /// Whether the node is presented by its parent.
    public let isPresented: Bool
    /// A tab container's selected index, a parallel container's or a split's focused region.
    public let selection: Int?
    /// Whether a split is collapsed into one stack; `nil` for other nodes.
    public let isCollapsed: Bool?
}

extension FlowController {
    /// This node as a session recorder writes it down (without its children). Reads no
    /// observable property.
    public var sessionNode: FlowSessionNode {
        var kind = FlowSessionNode.Kind.node
        var selection: Int?
        var collapsed: Bool?
        if self is FlowStack {
            kind = .stack
        } else if self is FlowSwitch {
            kind = .switch
        } else if let tabs = self as? FlowTabs {
            kind = .tabs
            selection = tabs._selectedIndex
        } else if let split = self as? FlowSplit {
            kind = .split
            selection = split._focus
            collapsed = split._isCollapsed
        } else if let parallel = self as? FlowParallel {
            kind = .parallel
            selection = parallel._focus
        }
        var parentID: FlowNodeID?
        var isPresented = false
        if state == .entered, let next = _next {
            // An entered node's unretained link names its live parent (no side-table access).
            assert(_nextIsSound())
            next._withUnsafeGuaranteedRef {
                parentID = $0.id
                isPresented = $0._presented === self
            }
        } else if let parent = _parent {
            parentID = parent.id
            isPresented = parent._presented === self
        }
        return FlowSessionNode(
            id: id, name: name, parent: parentID, kind: kind, isPresented: isPresented,
            selection: selection, isCollapsed: collapsed)
    }

    /// Calls `body` with each node of this subtree: this node first, then, depth first, each
    /// node's embedded children before what it presents (the order of
    /// ``FlowRuntime/treeDescription(showingIdentities:)``). Reads no observable property.
    public func visitSessionOutline(_ body: (FlowSessionNode) -> Void) {
        body(sessionNode)
        guard !_children.isEmpty || _presented != nil else { return }
        var pending: [FlowController] = []
        if let presented = _presented { pending.append(presented) }
        for child in _children.reversed() { pending.append(child) }
        while let node = pending.popLast() {
            body(node.sessionNode)
            if let presented = node._presented { pending.append(presented) }
            for child in node._children.reversed() { pending.append(child) }
        }
    }

    /// Calls `body` with the identity of each node this one embeds, in order, then of the node
    /// it presents (the order of its lines in ``FlowRuntime/treeDescription(showingIdentities:)``).
    /// Reads no observable property.
    public func visitSessionChildren(_ body: (FlowNodeID) -> Void) {
        _children.withUnsafeBufferPointer { children in
            for index in children.indices { body(children[index].id) }
        }
        if let presented = _presented { body(presented.id) }
    }

    /// Whether the node with identity `id` is a child of this node (embedded or presented).
    /// Reads no observable property, and retains no node for it.
    public func hasSessionChild(_ id: FlowNodeID) -> Bool {
        if _presented?.id == id { return true }
        return _children.withUnsafeBufferPointer { children in
            children.contains { $0.id == id }
        }
    }

    /// Calls `body` with each node of the subtree of this node's child (embedded or
    /// presented) with identity `id`, as ``visitSessionOutline(_:)`` does; nothing if it is
    /// no child of this node. Reads no observable property.
    public func visitSessionChild(_ id: FlowNodeID, _ body: (FlowSessionNode) -> Void) {
        let found = _children.withUnsafeBufferPointer { children in
            for index in children.indices where children[index].id == id {
                children[index].visitSessionOutline(body)
                return true
            }
            return false
        }
        if !found, let presented = _presented, presented.id == id {
            presented.visitSessionOutline(body)
        }
    }
}

extension FlowRuntime {
    /// The identities of the focused path's nodes (root first) and of the active nodes, read
    /// without observation tracking (for recorders; see ``focusedPath`` and ``activeNodes``).
    public var sessionFocus: (focused: [FlowNodeID], active: [FlowNodeID]) {
        let active = _activeConfiguration.isEmpty ? _focusedPath : _activeConfiguration
        return (_focusedPath.map(\.id), active.map(\.id))
    }

    /// Calls `focused` with the identity of each node of the focused path (root first), then
    /// `active` with each active node's, without making an array or tracking observation (for
    /// recorders; ``sessionFocus`` gives them as arrays).
    public func visitSessionFocus(
        _ focused: (FlowNodeID) -> Void, active: (FlowNodeID) -> Void
    ) {
        // Indexing the storage reads each identity without retaining its node.
        _focusedPath.withUnsafeBufferPointer { path in
            for index in path.indices { focused(path[index].id) }
        }
        let nodes = _activeConfiguration.isEmpty ? _focusedPath : _activeConfiguration
        nodes.withUnsafeBufferPointer { nodes in
            for index in nodes.indices { active(nodes[index].id) }
        }
    }
}
