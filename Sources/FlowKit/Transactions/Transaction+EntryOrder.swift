// A transaction's entry order when its insertions were not planned in it: the paths of
// `navigate(toEach:)` given in any order, and content a history restore builds below a kept
// node once the exit set is known (after every path was planned).

extension _Transaction {
    /// Puts the insertions in entry order, the one order every change enters in: the tree's
    /// entry order (pre-order, embedded children in order, the presented node last) as the
    /// change leaves it. Entry guards are asked, entry hooks run and ``FlowChange/entered``
    /// lists in that order whichever way planning found the insertions (several targets in
    /// any order, a restored history filled in after the other targets).
    ///
    /// Called only where planning can leave them out of order (`navigate(toEach:)` with
    /// several targets, a fill below a kept node): one path's insertions are in entry order.
    ///
    /// - Complexity: O(*i* log *i* · *d* + *i* · *d* · *c*) for *i* insertions at depth *d*
    ///   whose ancestors have at most *c* planned children; nothing for a single insertion.
    func orderInsertionsForEntry() {
        guard insertions.count > 1 else { return }
        var keyed: [(key: [Int], index: Int)] = []
        keyed.reserveCapacity(insertions.count)
        for index in insertions.indices {
            keyed.append((_plannedEntryOrderKey(of: insertions[index].node), index))
        }
        keyed.sort {
            $0.key.lexicographicallyPrecedes($1.key) || ($0.key == $1.key && $0.index < $1.index)
        }
        guard !keyed.indices.elementsEqual(keyed.map(\.index)) else { return }
        let planned = insertions
        for (position, entry) in keyed.enumerated() { insertions[position] = planned[entry.index] }
    }

    /// `node`'s place in the entry order of the tree as this change leaves it: its position
    /// among its (planned) parent's planned children at each level from the root down (a
    /// presented node after every embedded child).
    private func _plannedEntryOrderKey(of node: FlowController) -> [Int] {
        var key: [Int] = []
        var current = node
        while let parent = current._effectiveParent {
            let children = plannedChildren(of: parent)
            if plannedPresented(of: parent) === current {
                key.append(children.count)
            } else {
                key.append(_index(of: current, in: children) ?? children.count)
            }
            current = parent
        }
        key.reverse()
        return key
    }
}
