/// What the platform shows, and what of it is on screen: UIKit's "the view is in the window
/// hierarchy". Only a node on screen presents (UIKit refuses to present from a view controller
/// whose view is not in the window hierarchy, or that presents already).
extension FlowTransitions {
    /// Whether what the platform shows is the tree: every container's children, presented
    /// node and selection (a platform that is idle shows the tree, unless it refused a step,
    /// or a presentation waits for its presenter to come on screen:
    /// ``offScreenPresentations``).
    public var isShowingTree: Bool {
        guard let runtime = _runtime, runtime.isRunning, let root = runtime.root else {
            return _shownRoot == nil
        }
        guard _shownRoot == root.id else { return false }
        var pending = [root]
        var count = 0
        while let node = pending.popLast() {
            count += 1
            guard let shown = _shown[node.id] else { return false }
            if shown.children != node._children.map(\.id) { return false }
            if shown.presented != node._presented?.id { return false }
            if let tabs = node as? FlowTabs, shown.selected != tabs._selectedIndex { return false }
            pending.append(contentsOf: node._children)
            if let presented = node._presented { pending.append(presented) }
        }
        return count == _shown.count
    }

    /// The identities of the entries the platform shows for `stack` (empty if it shows none).
    public func shownEntries(of stack: FlowStack) -> [FlowNodeID] {
        _shown[stack.id]?.children ?? []
    }

    /// The identity of the node the platform shows presented by `node`, if any.
    public func shownPresented(by node: FlowController) -> FlowNodeID? {
        _shown[node.id]?.presented
    }

    /// Whether the platform shows `node` (it may have left the tree, and be removed by a step
    /// that is issued or running).
    public func isShown(_ node: FlowController) -> Bool { _shown[node.id] != nil }

    /// Whether the platform shows `node` on screen, so that it may present: it is shown, and
    /// every container on its way from the root shows it (the top entry of a stack, the
    /// selected tab of a tab container, a visible column of a split: all columns expanded,
    /// the one on top collapsed), none of them is in a transition or a gesture or still has
    /// children (or a tab) to show that the tree has, and no node
    /// of its layer above it presents (a presentation covers its presenter's whole subtree).
    ///
    /// A presentation whose presenter is not on screen waits until it is: see
    /// ``offScreenPresentations``.
    public func isOnScreen(_ node: FlowController) -> Bool {
        var current = node.id
        guard _shown[current] != nil else { return false }
        while let parent = _shown[current]?.parent {
            guard let shown = _shown[parent], !_isRunningStep(in: parent) else { return false }
            if shown.presented != current {
                guard shown.presented == nil, let index = shown.children.firstIndex(of: current)
                else { return false }
                let live = _liveNode(parent)
                if live?._presented != nil { return false }
                if let live, !_showsTree(of: live, shown: shown) { return false }
                if !_showsOnScreen(index, of: live, shown: shown) { return false }
            }
            current = parent
        }
        return current == _shownRoot
    }

    /// The nodes the tree presents whose presenter the platform shows but not on screen
    /// (``isOnScreen(_:)``): a covered stack entry, a node in an unselected tab or a hidden
    /// column, a node under another presentation. A platform cannot present from there, so
    /// each waits until its presenter comes on screen; meanwhile ``isShowingTree`` is false
    /// even when the platform is idle.
    public var offScreenPresentations: [FlowController] {
        guard let runtime = _runtime, runtime.isRunning, let root = runtime.root else {
            return []
        }
        var result: [FlowController] = []
        var pending = [root]
        while let node = pending.popLast() {
            pending.append(contentsOf: node._children.reversed())
            guard let presented = node._presented else { continue }
            if let shown = _shown[node.id], shown.presented != presented.id, !isOnScreen(node) {
                result.append(presented)
            } else {
                pending.append(presented)
            }
        }
        return result
    }

    /// Where the tab `tabs` selects stands among the tabs the platform shows (the platform
    /// tapped it there, even if a change of the tabs' order is still to be shown); the
    /// tree's index if the platform does not show it.
    func _shownIndex(ofSelectedTabOf tabs: FlowTabs) -> Int {
        let index = tabs._selectedIndex
        guard tabs._children.indices.contains(index),
            let shown = _shown[tabs.id]?.children.firstIndex(of: tabs._children[index].id)
        else { return index }
        return shown
    }

    /// Whether a step runs in the shown node `id`, or a gesture there.
    func _isRunningStep(in id: FlowNodeID) -> Bool {
        _inFlight[id] != nil || _gesture?.container == id
    }

    /// Whether the platform shows `node`'s children (and, for a tab container, its selection)
    /// as the tree has them: until then its next step removes or covers some of them.
    func _showsTree(of node: FlowController, shown: _ShownNode) -> Bool {
        guard shown.children.elementsEqual(node._children.lazy.map(\.id)) else { return false }
        if let tabs = node as? FlowTabs { return shown.selected == tabs._selectedIndex }
        return true
    }

    /// Whether the container `node` (live; `nil` if it left the tree) shows its shown child
    /// at `index` on screen when it is itself on screen.
    func _showsOnScreen(_ index: Int, of node: FlowController?, shown: _ShownNode) -> Bool {
        switch node {
        case is FlowStack:
            return index == shown.children.count - 1
        case is FlowTabs:
            return index == shown.selected
        case let parallel as FlowParallel:
            let id = shown.children[index]
            return parallel._shownRegions.contains { $0.id == id }
        default:
            return true
        }
    }

    /// The live node `id`, if the runtime has it.
    func _liveNode(_ id: FlowNodeID) -> FlowController? {
        guard let runtime = _runtime, runtime.isRunning else { return nil }
        return runtime.node(id: id)
    }

    /// The top-most presentation shown within the layer of the shown node `layer` (its
    /// embedded subtree, not what it presents), if any; `.running` if a step or a gesture
    /// runs there first.
    func _topPresentation(within layer: FlowNodeID) -> _LayerPresentation {
        var pending = [layer]
        while let id = pending.popLast() {
            guard let shown = _shown[id] else { continue }
            if _isRunningStep(in: id) { return .running }
            if let presented = shown.presented {
                return .shown(presenter: id, presented: presented)
            }
            pending.append(contentsOf: shown.children)
        }
        return .none
    }
}

/// What a layer presents, for a dismissal or a removal that must wait for it.
enum _LayerPresentation {
    /// Nothing is presented in the layer, and nothing runs there.
    case none
    /// A step or a gesture runs in the layer.
    case running
    /// `presenter`, a node of the layer, shows `presented`.
    case shown(presenter: FlowNodeID, presented: FlowNodeID)
}
