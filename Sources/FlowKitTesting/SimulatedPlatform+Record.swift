import FlowKit

// The simulated platform's record of what it shows: built from the steps it performed and the
// user's changes it made, never from FlowTransitions' own record.

extension SimulatedPlatform {
    /// Compares what the platform shows with `runtime`'s tree, node by node from the root:
    /// each node's children, its presented node, and each tab container's selected tab.
    /// Returns one line per difference (empty when the platform shows the tree), such as
    /// `app/tabs#4: shows tab 2, the tree selects 0`.
    ///
    /// This is the platform's own record, not `FlowTransitions.isShowingTree`: a test that
    /// expects both to hold checks that the pipeline's record matches the screen.
    public func differences(from runtime: FlowRuntime) -> [String] {
        guard runtime.isRunning, let treeRoot = runtime.root else {
            return root.map { ["shows \(name($0)), the runtime shows nothing"] } ?? []
        }
        guard root == treeRoot.id else {
            return ["shows \(root.map(name) ?? "nothing") as the root, the tree \(treeRoot.path)"]
        }
        var result: [String] = []
        var pending = [treeRoot]
        while let node = pending.popLast() {
            let label = "\(node.path)\(node.id)"
            let children = shownChildren[node.id] ?? []
            let treeChildren = node.children.map(\.id)
            if children != treeChildren {
                result.append(
                    "\(label): shows \(list(children)), the tree has \(list(treeChildren))")
            }
            let presented = shownPresented[node.id]
            if presented != node.presentedChild?.id {
                result.append(
                    "\(label): presents \(presented.map { "\($0)" } ?? "nothing"), the tree "
                        + (node.presentedChild.map { "\($0.path)\($0.id)" } ?? "nothing"))
            }
            if let tabs = node as? FlowTabs, let shown = shownSelections[node.id],
                shown != tabs.selectedIndex
            {
                result.append(
                    "\(label): shows tab \(shown), the tree selects \(tabs.selectedIndex)")
            }
            pending.append(contentsOf: node.children.reversed())
            if let presented = node.presentedChild { pending.append(presented) }
        }
        return result
    }

    // MARK: Recording

    /// The embedded subtrees `step` shows, read from the live tree now (as a UIKit host makes
    /// the view controllers of the nodes a step shows when it performs it).
    func subtrees(shownBy step: FlowTransitionStep, in runtime: FlowRuntime) -> [FlowNodeID: Shows]
    {
        var shows: [FlowNodeID: Shows] = [:]
        switch step.kind {
        case .start:
            if let node = runtime.node(id: step.container) { record(node, into: &shows) }
        case .setEntries(let from, let to), .setChildren(let from, let to):
            for id in to where !from.contains(id) {
                if let node = runtime.node(id: id) { record(node, into: &shows) }
            }
        case .present(let id):
            if let node = runtime.node(id: id) { record(node, into: &shows) }
        case .select, .dismiss, .stop:
            break
        }
        return shows
    }

    private func record(_ node: FlowController, into shows: inout [FlowNodeID: Shows]) {
        var pending = [node]
        while let current = pending.popLast() {
            var shown = ShownNode(kind: Self.kind(of: current), path: current.path)
            if let split = current as? FlowSplit { read(split, into: &shown) }
            shows[current.id] = Shows(
                node: shown, children: current.children.map(\.id),
                selection: (current as? FlowTabs)?.selectedIndex)
            pending.append(contentsOf: current.children)
        }
    }

    static func kind(of node: FlowController) -> Kind {
        switch node {
        case is FlowStack: .stack
        case is FlowTabs: .tabs
        case is FlowSplit: .split
        case is FlowParallel: .parallel
        default: .other
        }
    }

    /// Reads the layout the platform reported to `split` (collapsed, and the column on top).
    func read(_ split: FlowSplit, into shown: inout ShownNode) {
        // An exited split has no columns left: keep what was known.
        guard !split.regions.isEmpty else { return }
        shown.collapsed = split.isCollapsed
        shown.topColumn = split.node(for: split.focusedColumn)?.id
    }

    /// Ends `transition`: what the platform shows changes as the step says, then FlowKit is
    /// told. A step in a node the platform no longer shows (a gesture removed it meanwhile)
    /// changes nothing.
    func finish(_ transition: Running) {
        let step = transition.step
        let container = step.container
        guard step.kind == .start || shownNodes[container] != nil else {
            transition.completion.done()
            return
        }
        for (id, shows) in transition.shows {
            shownNodes[id] = shows.node
            setChildren(of: id, to: shows.children)
            if let selection = shows.selection { shownSelections[id] = selection }
        }
        switch step.kind {
        case .start:
            root = container
        case .setEntries(let from, let to):
            for id in from where !to.contains(id) { forget(id) }
            setChildren(of: container, to: to)
        case .setChildren(let from, let to):
            let old = shownChildren[container] ?? from
            for id in from where !to.contains(id) { forget(id) }
            setChildren(of: container, to: to)
            if let selected = shownSelections[container] {
                shownSelections[container] = Self.reselected(selected, from: old, to: to)
            }
        case .select(_, let to):
            shownSelections[container] = to
        case .present(let id):
            shownPresented[container] = id
            shownParent[id] = container
        case .dismiss(let id):
            if shownPresented[container] == id { shownPresented[container] = nil }
            forget(id)
        case .stop:
            break
        }
        transition.completion.done()
    }

    /// `UITabBarController.viewControllers`: the previously selected object if it is still
    /// there, else the same index if valid, else 0.
    static func reselected(_ selected: Int, from old: [FlowNodeID], to new: [FlowNodeID]) -> Int {
        if old.indices.contains(selected), let index = new.firstIndex(of: old[selected]) {
            return index
        }
        return new.indices.contains(selected) ? selected : 0
    }

    func setChildren(of id: FlowNodeID, to children: [FlowNodeID]) {
        shownChildren[id] = children
        for child in children { shownParent[child] = id }
    }

    /// Forgets `id` and everything shown below it.
    func forget(_ id: FlowNodeID) {
        var pending = [id]
        while let node = pending.popLast() {
            shownParent[node] = nil
            shownNodes[node] = nil
            shownSelections[node] = nil
            gestures[node] = nil
            if let children = shownChildren.removeValue(forKey: node) {
                pending.append(contentsOf: children)
            }
            if let presented = shownPresented.removeValue(forKey: node) {
                pending.append(presented)
            }
        }
    }

    func forgetEverything() {
        shownChildren.removeAll()
        shownPresented.removeAll()
        shownParent.removeAll()
        shownNodes.removeAll()
        shownSelections.removeAll()
        gestures.removeAll()
        root = nil
        running.removeAll()
    }

    // MARK: Naming

    /// `app/stack/detail#12`: the path the node had when shown, and its identity.
    func name(_ id: FlowNodeID) -> String {
        if let path = shownNodes[id]?.path { return path + "\(id)" }
        // A node a running step is showing.
        for transition in running {
            if let shows = transition.shows[id] { return shows.node.path + "\(id)" }
        }
        return "\(id)"
    }

    func list(_ ids: [FlowNodeID]) -> String {
        "[" + ids.map(\.description).joined(separator: " ") + "]"
    }
}
