/// Several paths in one change (``FlowRuntime/navigate(toEach:)-([FlowNavigationTarget])``):
/// what one path plans inside a subtree that another path removes.
extension _Transaction {
    /// Takes the planned insertion at `index` out of the plan: its node has not entered and
    /// never will. What a factory built for it is released as a refused build's nodes are
    /// (``FlowRuntime/_discardBuilt(_:madeSince:)``), even if its handlers capture it; a node
    /// the app made before the change is kept. The caller has taken it out of its container's
    /// layout (or drops that layout).
    @inline(never)
    func dropInsertion(at index: Int) {
        let node = insertions[index].node
        let container = insertions[index].container
        insertions.remove(at: index)
        node._pendingParent = nil
        if let mark = container?._runtime?._checkMark {
            FlowController._discardBuilt([node], madeSince: mark)
        }
    }

    /// Drops what the paths of a navigation planned inside a subtree that another of its
    /// paths removes (whichever path comes first), so that the subtree exits as a whole,
    /// each of its nodes once, and nothing enters it:
    ///
    /// - a node planned to join a container anywhere inside it never enters: it is dropped
    ///   (``dropInsertion(at:)``), with what was built below it;
    /// - a removal inside it is dropped: the subtree's own exit exits that node, once;
    /// - the layouts, selections, arrangements and fills planned for nodes inside it are
    ///   dropped (its containers are not re-shaped on their way out).
    ///
    /// One path alone never plans inside what it removes (it goes down the tree, removing
    /// below where it is), so only a navigation with several paths calls this, once they are
    /// all planned.
    ///
    /// - Complexity: O((*r* + *p*) · *d*) for *r* removals and *p* other planned items at
    ///   depth *d*.
    func dropPlansInsideRemovals() {
        guard !removals.isEmpty else { return }
        var removed = Set<ObjectIdentifier>(minimumCapacity: removals.count)
        for node in removals { removed.insert(ObjectIdentifier(node)) }
        // Whether `node` is in a removed subtree: it or a real or prospective ancestor is a
        // removal, or was dropped (discarded nodes are marked exited).
        func isRemoved(_ node: FlowController?) -> Bool {
            var current = node
            while let candidate = current {
                if candidate.state == .exited || removed.contains(ObjectIdentifier(candidate)) {
                    return true
                }
                current = candidate._effectiveParent
            }
            return false
        }
        var index = insertions.count
        while index > 0 {
            index -= 1
            if let container = insertions[index].container, isRemoved(container) {
                dropInsertion(at: index)
            }
        }
        removals.removeAll { isRemoved($0._effectiveParent) }
        layouts.removeAll { isRemoved($0.container) }
        selections.removeAll { isRemoved($0.container) }
        arrangements.removeAll { isRemoved($0.container) }
        fills.removeAll { isRemoved($0.node) }
    }
}
