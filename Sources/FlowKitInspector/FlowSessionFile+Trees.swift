import Foundation

extension FlowSessionFile {
    /// A node of a replayed tree.
    struct ReplayNode {
        var name: String
        var parent: UInt64?
        var isPresented: Bool
        var children: [UInt64] = []
    }

    /// The tree of each step's runtime once the step is over, in the text of
    /// `FlowRuntime.treeDescription()` (`* ` focused, `+ ` active, `^` presented), one per step
    /// record in file order: what the page draws at that step, drawn here by the same rules
    /// (the page's tests compare the two, and both with the recorded runtime).
    ///
    /// A step recorded as a change of its container's subtree after a buffer dropped the steps
    /// before it (no whole tree of its runtime read yet) draws as `nil`.
    public func treeTexts() -> [(runtime: String, text: String?)] {
        var trees: [String: (root: UInt64?, nodes: [UInt64: ReplayNode])] = [:]
        var result: [(runtime: String, text: String?)] = []
        for record in records {
            guard let object = Self.object(Substring(record)), object["k"] as? String == "step",
                let runtime = object["rt"] as? String, let nodes = object["nodes"] as? [[Any]]
            else { continue }
            let full = object["full"] as? Bool ?? false
            var tree = trees[runtime]
            if full { tree = (nil, [:]) }
            if var current = tree {
                Self.apply(object, nodes: nodes, full: full, to: &current)
                tree = current
                trees[runtime] = current
            }
            guard let tree else {
                result.append((runtime, nil))
                continue
            }
            let focus = Set(((object["focus"] as? [NSNumber]) ?? []).map(\.uint64Value))
            // Formats 2 and 3 leave `active` out when the active nodes are the focused path.
            let active = Set(
                ((object["active"] ?? object["focus"]) as? [NSNumber] ?? []).map(\.uint64Value))
            var lines: [String] = []
            var pending: [(UInt64, Int)] = tree.root.map { [($0, 0)] } ?? []
            while let (id, depth) = pending.popLast() {
                guard let node = tree.nodes[id] else { continue }
                let mark = focus.contains(id) ? "* " : active.contains(id) ? "+ " : "  "
                lines.append(
                    String(repeating: "  ", count: depth) + mark + (node.isPresented ? "^" : "")
                        + node.name)
                for child in node.children.reversed() { pending.append((child, depth + 1)) }
            }
            result.append((runtime, lines.joined(separator: "\n")))
        }
        return result
    }

    /// Applies one step to a replayed tree: a whole tree (`full`) replaces it; a delta (a step
    /// with `order`, formats 2 and 3) removes the subtrees that exited, then sets the
    /// container's children to `order` (and its row, when the step's first row is the
    /// container's: format 3 leaves it out when it is unchanged) and adds the subtrees that
    /// entered; otherwise the step's nodes are its container's subtree, which replaces the one
    /// there.
    static func apply(
        _ step: [String: Any], nodes: [[Any]], full: Bool,
        to tree: inout (root: UInt64?, nodes: [UInt64: ReplayNode])
    ) {
        let order = (step["order"] as? [NSNumber])?.map(\.uint64Value)
        var container: UInt64?
        if let order, let change = step["change"] as? [String: Any] {
            container = (change["containerID"] as? NSNumber)?.uint64Value
            for exited in (change["exitedIDs"] as? [NSNumber]) ?? [] {
                let id = exited.uint64Value
                guard let node = tree.nodes[id] else { continue }
                if let parent = node.parent { tree.nodes[parent]?.children.removeAll { $0 == id } }
                var pending = [id]
                while let next = pending.popLast() {
                    pending += tree.nodes.removeValue(forKey: next)?.children ?? []
                }
            }
            if let container { tree.nodes[container]?.children = order }
        }
        for (index, row) in nodes.enumerated() {
            guard let id = (row[0] as? NSNumber)?.uint64Value else { continue }
            let parent = (row[2] as? NSNumber)?.uint64Value
            var node = ReplayNode(
                name: row[1] as? String ?? "", parent: parent,
                isPresented: (row[4] as? NSNumber)?.intValue == 1)
            if index == 0, let order, id == container { node.children = order }
            tree.nodes[id] = node
            if index == 0 {
                if full { tree.root = id }
            } else if let parent, parent != container {
                tree.nodes[parent]?.children.append(id)
            }
        }
        if full && nodes.isEmpty { tree.root = nil }
    }
}
