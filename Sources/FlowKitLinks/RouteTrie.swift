/// The patterns as a trie of segments: a literal edge per distinct literal (a hash lookup),
/// and at most one parameter edge per node.
struct _Trie: Sendable {
    enum Edge {
        case literal(String)
        case parameter(String)
    }

    private struct Node: Sendable {
        var literals: [String: Int] = [:]
        var parameter: (name: String, node: Int)?
        var handler: Int?
    }

    private var nodes: [Node] = [Node()]

    /// Adds a path of edges ending in `handler`; `false` if that shape already has one.
    mutating func insert(_ path: [Edge], handler: Int) -> Bool {
        var current = 0
        for edge in path {
            switch edge {
            case .literal(let text):
                if let next = nodes[current].literals[text] {
                    current = next
                } else {
                    nodes.append(Node())
                    nodes[current].literals[text] = nodes.count - 1
                    current = nodes.count - 1
                }
            case .parameter(let name):
                if let existing = nodes[current].parameter {
                    guard existing.name == name else { return false }
                    current = existing.node
                } else {
                    nodes.append(Node())
                    nodes[current].parameter = (name, nodes.count - 1)
                    current = nodes.count - 1
                }
            }
        }
        guard nodes[current].handler == nil else { return false }
        nodes[current].handler = handler
        return true
    }

    /// The handler for `segments`, literals before parameters at each level, with the
    /// parameters' values. Linear in the number of segments (no backtracking: a literal edge
    /// that matches is taken).
    func find(_ segments: [String], parameters: inout [String: String]) -> Int? {
        var current = 0
        for segment in segments {
            if let next = nodes[current].literals[segment] {
                current = next
            } else if let parameter = nodes[current].parameter {
                parameters[parameter.name] = segment
                current = parameter.node
            } else {
                return nil
            }
        }
        return nodes[current].handler
    }
}
