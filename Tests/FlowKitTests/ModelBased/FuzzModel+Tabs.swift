import FlowKit

// Tab containers and platform bindings.
extension FuzzModel {
    /// The child the focused path continues into: the presented node, else a tab container's
    /// selected tab (none if the index names no tab), a split's focused column (the top of
    /// its compact stack when collapsed), else the last child.
    func focusedChild(_ id: FuzzID) -> FuzzID? {
        let node = nodes[id]!
        if let presented = node.presented { return presented }
        if node.kind == .tabs { return selectedTab(id) }
        if node.kind == .split { return node.children[effectiveFocus(id)] }
        return node.children.last
    }

    func selectedTab(_ id: FuzzID) -> FuzzID? {
        let node = nodes[id]!
        return node.children.indices.contains(node.selected) ? node.children[node.selected] : nil
    }

    /// The stack a reselection of `tab` pops: the tab itself if it is a stack, else the first
    /// stack on its focused path.
    func reselectionStack(_ tab: FuzzID) -> FuzzID? {
        var current: FuzzID? = tab
        while let node = current {
            if nodes[node]!.kind == .stack { return node }
            current = focusedChild(node)
        }
        return nil
    }

    /// Selecting moves activation only; reselecting pops the tab's stack to its bottom entry
    /// when the container says so (guarded unless the platform did it). The platform's
    /// reselection of a tab whose stack lies deeper in it (no tab bar pops that one) is
    /// FlowKit's own `popToRoot()` of that stack, and no selection change (issue 29, 29.e).
    /// A platform selection of the tab the tree selects while the platform shows another tab
    /// selected (a selection made in code, not shown yet) is a selection for the platform:
    /// nothing pops (29.h).
    func select(_ x: FuzzID, in t: FuzzID, platform: Bool, context: Context) throws {
        try exitedCheck(t)
        guard let index = nodes[t]!.children.firstIndex(of: x) else {
            throw refusal(t, x) { .notATab(tabs: $0, node: $1) }
        }
        var popped: [FuzzID] = []
        var stack: FuzzID?
        if index == nodes[t]!.selected {
            guard nodes[t]!.reselectionPops, let found = reselectionStack(x),
                nodes[found]!.children.count > 1
            else { return }
            if platform && !platformShowsSelection(of: t) { return }
            if platform && found != x {
                try perform(.popToRoot(found), context: context)
                return
            }
            stack = found
            popped = nodes[found]!.children.dropFirst().reversed()
        }
        try change(t, platform ? .platformSelect : .select, platform: platform, context: context) {
            change in
            change.selections[t] = index
            if let stack {
                for entry in popped { remove(entry, from: stack, &change) }
            }
        }
    }

    /// Whether the platform shows `t`'s selected tab as selected: the tab bar's state before
    /// a tap being told, else what the platform shows before the operation.
    func platformShowsSelection(of t: FuzzID) -> Bool {
        if let tapReselects { return tapReselects }
        if case .selection(let shown) = shown(.platformSelect(t, t)) { return shown }
        return true
    }

    /// A binding write FlowKit refuses: nothing changes, the error sink and trace of the
    /// runtime whose tree the node is in get it once (if it is in one).
    func refuseBindingWrite(_ node: FuzzID, _ binding: String, reason: String) {
        reportBindingFailure(
            node, binding, paths(node).map { .bindingWriteRefused(node: $0, reason: reason) })
    }

    func reportBindingFailure(_ node: FuzzID, _ binding: String, _ errors: [FlowError]) {
        guard let r = treeRuntimeOf(node) else { return }
        let paths = paths(node)
        trace.append(
            FuzzExpect(
                options: paths.flatMap { path in
                    errors.map { "rt\(r): failed \(binding) at \(path): \($0)" }
                }))
        journal.append(
            FuzzExpect(
                options: paths.flatMap { path in
                    errors.map { "onError \(binding) at \(path) failed: \($0)" }
                }))
    }

    /// What a binding write that FlowKit accepts calls: the platform operation, queued when a
    /// hook or an observer writes (its failure then goes to onError when its turn comes),
    /// else run at once with its failure reported as the binding's.
    func bindingCall(_ op: FuzzOp, _ binding: String, on node: FuzzID, context: Context) {
        if case .deferred(let name) = context, let r = applyingRuntimes.last {
            runtimes[r]!.queue.append(.change(op, context: name))
            return
        }
        do {
            try perform(op, context: context)
        } catch let refusal as FuzzRefusal {
            var candidates = refusal.candidates
            if case .checking = context, let r = runtimeOf(node), runtimes[r]!.applying,
                nodes[node]!.state == .entered
            {
                candidates.append(.changeInProgress(node: livePath(node)))
            }
            reportBindingFailure(node, binding, candidates)
        } catch {
            preconditionFailure("unexpected \(error)")
        }
    }

    /// The selections of a change that move (select another index than the current one).
    func movedSelections(_ change: Change) -> [FuzzID] {
        change.selections.filter { nodes[$0.key]!.selected != $0.value }.map(\.key).sorted()
    }

    /// Whether a planned change changes nothing (FlowKit then commits nothing).
    func isEmpty(_ change: Change) -> Bool {
        return change.changesNoContent && movedSelections(change).isEmpty
            && movedSplitArrangements(change).isEmpty
    }

    /// Applies a change's selections, after its layouts. A tab container whose tabs changed
    /// otherwise (an `embed`) keeps its index while it names a tab,
    /// else selects the first.
    func applySelections(_ change: Change) {
        for (t, index) in change.selections { nodes[t]!.selected = index }
        applySplitArrangements(change)
        for layout in change.layouts
        where nodes[layout.container]!.kind == .tabs && change.selections[layout.container] == nil {
            let node = nodes[layout.container]!
            if !node.children.indices.contains(node.selected) {
                nodes[layout.container]!.selected = 0
            }
        }
    }

    /// Plans `container`'s children to be exactly `list` (kept ones stay, others exit or
    /// enter).
    func setChildren(_ list: [FuzzID], of container: FuzzID, _ change: inout Change) {
        let current = plannedChildren(container, change)
        let kept = Set(list)
        for child in current.reversed() where !kept.contains(child) {
            remove(child, from: container, &change)
        }
        let index = layoutIndex(container, &change)
        change.layouts[index].children = list
        for x in list where !current.contains(x) {
            change.insertions.append((x, container))
        }
        let keptOrder = list.filter { current.contains($0) }
        let oldOrder = current.filter { kept.contains($0) }
        if keptOrder != oldOrder { change.reorders = true }
    }

    func exitedCheck(_ id: FuzzID) throws {
        if nodes[id]!.state == .exited { throw refusal(id) { .containerExited(container: $0) } }
    }

    func entryBelowTop(_ s: FuzzID) throws -> FuzzID {
        let entries = nodes[s]!.children
        guard let top = entries.last else { throw refusal(s) { .emptyStack(stack: $0) } }
        guard entries.count > 1 else {
            throw refusal(s, top) { .cannotPopLastEntry(stack: $0, entry: $1) }
        }
        return entries[entries.count - 2]
    }

    func pop(
        _ s: FuzzID, to entry: FuzzID, kind: FlowChange.Kind, platform: Bool, context: Context
    ) throws {
        guard let index = nodes[s]!.children.firstIndex(of: entry) else {
            throw refusal(s, entry) { .notInStack(stack: $0, node: $1) }
        }
        let removed = Array(nodes[s]!.children[(index + 1)...].reversed())
        guard !removed.isEmpty else { return }
        try change(s, kind, platform: platform, context: context) { change in
            for node in removed { remove(node, from: s, &change) }
        }
    }

    func replaceChildren(
        _ p: FuzzID, with x: FuzzID, kind: FlowChange.Kind, context: Context
    ) throws {
        try validateNew(p, [x])
        if nodes[p]!.kind == .split { throw refusal(p) { .regionsAreFixed(container: $0) } }
        try change(p, kind, context: context) { change in
            for old in plannedChildren(p, change).reversed() { remove(old, from: p, &change) }
            append(x, to: p, &change)
        }
    }

    func validateNew(_ container: FuzzID, _ list: [FuzzID]) throws {
        try exitedCheck(container)
        var seen = Set<FuzzID>()
        for x in list {
            // Every error that applies to the node is accepted: which one comes first is
            // FlowKit's choice.
            let node = nodes[x]!
            var candidates: [FlowError] = []
            if node.state == .exited {
                candidates += refusal(x) { .nodeExited(node: $0) }.candidates
            }
            // A node a change being checked attaches is linked to its container already.
            if let parent = node.parent ?? prospective[x] {
                candidates +=
                    refusal(x, parent) { .alreadyAttached(node: $0, parent: $1) }.candidates
            }
            if node.rootOf != nil {
                candidates +=
                    refusal(x) { .alreadyAttached(node: $0, parent: "its runtime (root)") }
                    .candidates
            }
            if isAncestorOrSelf(x, of: container) {
                candidates +=
                    refusal(x, container) { .wouldCreateCycle(node: $0, parent: $1) }
                    .candidates
            }
            if !candidates.isEmpty { throw FuzzRefusal(candidates: candidates) }
            if list.count > 1 && !seen.insert(x).inserted {
                throw refusal(x) { .duplicateNode(node: $0) }
            }
        }
    }
}
