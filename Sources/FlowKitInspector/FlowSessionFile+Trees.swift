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
                for (index, row) in nodes.enumerated() {
                    guard let id = (row[0] as? NSNumber)?.uint64Value else { continue }
                    let parent = (row[2] as? NSNumber)?.uint64Value
                    let node = ReplayNode(
                        name: row[1] as? String ?? "", parent: parent,
                        isPresented: (row[4] as? NSNumber)?.intValue == 1)
                    current.nodes[id] = node
                    if index == 0 {
                        if full { current.root = id }
                    } else if let parent {
                        current.nodes[parent]?.children.append(id)
                    }
                }
                if full && nodes.isEmpty { current.root = nil }
                tree = current
                trees[runtime] = current
            }
            guard let tree else {
                result.append((runtime, nil))
                continue
            }
            let focus = Set(((object["focus"] as? [NSNumber]) ?? []).map(\.uint64Value))
            let active = Set(((object["active"] as? [NSNumber]) ?? []).map(\.uint64Value))
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
}
