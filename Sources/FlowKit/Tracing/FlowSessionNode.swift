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
        var parentID: FlowNodeID?
        var isPresented = false
        if state == .entered, let next = _next {
            // An entered node's unretained link names its live parent; taken retained, so a
            // visitor that changes the tree cannot leave it dangling.
            assert(_nextIsSound())
            let parent = next.takeUnretainedValue()
            parentID = parent.id
            isPresented = parent._presented === self
        } else if let parent = _parent {
            parentID = parent.id
            isPresented = parent._presented === self
        }
        return _sessionNode(parent: parentID, isPresented: isPresented)
    }

    /// This node as a session recorder writes it down, its parent and whether it is
    /// presented known already.
    private func _sessionNode(parent: FlowNodeID?, isPresented: Bool) -> FlowSessionNode {
        var kind = FlowSessionNode.Kind.node
        var selection: Int?
        var collapsed: Bool?
        if type(of: self) == FlowController.self {
            // A plain node: no cast needed.
        } else if self is FlowStack {
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
        return FlowSessionNode(
            id: id, name: name, parent: parent, kind: kind, isPresented: isPresented,
            selection: selection, isCollapsed: collapsed)
    }

    /// Calls `body` with each node of this subtree: this node first, then, depth first, each
    /// node's embedded children before what it presents (the order of
    /// ``FlowRuntime/treeDescription(showingIdentities:)``). Reads no observable property.
    public func visitSessionOutline(_ body: @MainActor (FlowSessionNode) -> Void) {
        _visitSessionOutline(first: sessionNode, body)
    }

    /// ``visitSessionOutline(_:)``, this node's own entry given.
    private func _visitSessionOutline(
        first: FlowSessionNode, _ body: @MainActor (FlowSessionNode) -> Void
    ) {
        body(first)
        guard !_children.isEmpty || _presented != nil else { return }
        var pending: [(node: FlowController, parent: FlowNodeID, presented: Bool)] = []
        if let presented = _presented { pending.append((presented, id, true)) }
        for child in _children.reversed() { pending.append((child, id, false)) }
        while let (node, parent, presented) = pending.popLast() {
            body(node._sessionNode(parent: parent, isPresented: presented))
            if let next = node._presented { pending.append((next, node.id, true)) }
            for child in node._children.reversed() { pending.append((child, node.id, false)) }
        }
    }

    /// Calls `body` with the identity of each node this one embeds, in order, then of the node
    /// it presents (the order of its lines in ``FlowRuntime/treeDescription(showingIdentities:)``).
    /// Reads no observable property.
    public func visitSessionChildren(_ body: @MainActor (FlowNodeID) -> Void) {
        let children = _children
        for index in 0..<children.count { body(children[index].id) }
        if let presented = _presented { body(presented.id) }
    }

    /// How many children this node has: the embedded ones, and the one it presents if any
    /// (see ``sessionChildID(at:)``). Reads no observable property.
    public var sessionChildCount: Int { _children.count + (_presented == nil ? 0 : 1) }

    /// The identity of this node's `index`th child (`0..<sessionChildCount`): the embedded
    /// children in order, then the presented node, as ``visitSessionChildren(_:)`` gives them.
    /// Reads no observable property, and retains no node for it. An index out of that range
    /// traps, as an array's subscript does.
    public func sessionChildID(at index: Int) -> FlowNodeID {
        let children = _children
        guard index >= children.count, index == children.count, let presented = _presented else {
            return children[index].id  // an embedded child (or out of range: the array traps)
        }
        return presented.id
    }

    /// Whether the node with identity `id` is a child of this node (embedded or presented).
    /// Reads no observable property, and retains no node for it.
    public func hasSessionChild(_ id: FlowNodeID) -> Bool {
        if _presented?.id == id { return true }
        let children = _children
        for index in 0..<children.count where children[index].id == id { return true }
        return false
    }

    /// Calls `body` with each node of the subtree of this node's child (embedded or
    /// presented) with identity `id`, as ``visitSessionOutline(_:)`` does; nothing if it is
    /// no child of this node. Reads no observable property.
    public func visitSessionChild(_ id: FlowNodeID, _ body: @MainActor (FlowSessionNode) -> Void) {
        let children = _children
        for index in 0..<children.count where children[index].id == id {
            let child = children[index]
            child._visitSessionOutline(
                first: child._sessionNode(parent: self.id, isPresented: false), body)
            return
        }
        if let presented = _presented, presented.id == id {
            presented._visitSessionOutline(
                first: presented._sessionNode(parent: self.id, isPresented: true), body)
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

    /// How many nodes the focused path has (see ``sessionFocusedID(at:)``).
    public var sessionFocusedCount: Int { _focusedPath.count }

    /// The identity of the focused path's `index`th node (`0..<sessionFocusedCount`, root
    /// first), read without a closure, an array or observation tracking.
    public func sessionFocusedID(at index: Int) -> FlowNodeID { _focusedPath[index].id }

    /// Calls `body` with the identity of each node of the focused path (root first), without
    /// making an array or tracking observation (for recorders; ``sessionFocus`` gives arrays).
    public func visitSessionFocusedPath(_ body: @MainActor (FlowNodeID) -> Void) {
        let path = _focusedPath
        for index in 0..<path.count { body(path[index].id) }
    }

    /// Whether the active nodes are just the focused path (no parallel region is active
    /// besides it). Reads no observable property.
    public var sessionActiveIsFocusedPath: Bool { _activeConfiguration.isEmpty }

    /// Calls `body` with the identity of each active node (the focused path's when
    /// ``sessionActiveIsFocusedPath``), without making an array or tracking observation.
    public func visitSessionActiveNodes(_ body: @MainActor (FlowNodeID) -> Void) {
        let nodes = _activeConfiguration.isEmpty ? _focusedPath : _activeConfiguration
        for index in 0..<nodes.count { body(nodes[index].id) }
    }
}
