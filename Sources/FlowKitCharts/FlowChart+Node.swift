extension FlowChart {
    /// A node of the chart: a state, a parallel state (format 2), a final state or a history
    /// pseudo-state.
    ///
    ///     FlowChart.Node(id: "Main", initial: "List", children: [
    ///         .init(id: "List"), .init(id: "Detail"),
    ///         .history("MainHistory", .deep, default: "List"),
    ///     ])
    public struct Node: Codable, Sendable, Equatable {
        /// What a node is.
        public enum Kind: String, Codable, Sendable, Equatable {
            /// An ordinary state (the default): atomic, or compound when it has children.
            case state
            /// A final state: atomic; entering it queues `done.state.<parent>`.
            case final
            /// A history pseudo-state: never active, a transition target only.
            case history
            /// A parallel state (format 2 only): its non-history children are its regions,
            /// all active together. Format 1 rejects it with a clear message.
            case parallel

            public init(from decoder: any Decoder) throws {
                self = try _decodeKeyword(
                    from: decoder, field: "kind", expected: "state, final, history or parallel")
            }
        }

        /// How much a history pseudo-state restores.
        public enum HistoryDepth: String, Codable, Sendable, Equatable {
            /// The child that was active, then its defaults.
            case shallow
            /// The whole active path that was recorded.
            case deep

            public init(from decoder: any Decoder) throws {
                self = try _decodeKeyword(
                    from: decoder, field: "history", expected: "shallow or deep")
            }
        }

        /// The unique identifier, matching `[A-Za-z_][A-Za-z0-9_]*`.
        public var id: String
        /// What the node is; `.state` when the file leaves it out.
        public var kind: Kind
        /// For a compound state: the child entered by default.
        public var initial: String?
        /// The children, in document order (states only; the non-history children of a
        /// parallel state are its regions).
        public var children: [Node]
        /// For a history node: shallow or deep.
        public var history: HistoryDepth?
        /// For a history node: the sibling entered when nothing is recorded yet.
        public var `default`: String?

        /// Creates a node.
        public init(
            id: String, kind: Kind = .state, initial: String? = nil, children: [Node] = [],
            history: HistoryDepth? = nil, default: String? = nil
        ) {
            self.id = id
            self.kind = kind
            self.initial = initial
            self.children = children
            self.history = history
            self.default = `default`
        }

        /// A parallel state with its regions (and history children), for format 2.
        public static func parallel(_ id: String, _ children: [Node]) -> Node {
            Node(id: id, kind: .parallel, children: children)
        }

        /// A final state.
        public static func final(_ id: String) -> Node {
            Node(id: id, kind: .final)
        }

        /// A history pseudo-state.
        public static func history(
            _ id: String, _ depth: HistoryDepth, default: String
        ) -> Node {
            Node(id: id, kind: .history, history: depth, default: `default`)
        }

        private enum CodingKeys: String, CodingKey {
            case id, kind, initial, children, history, `default`
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            kind = try container.decodeIfPresent(Kind.self, forKey: .kind) ?? .state
            initial = try container.decodeIfPresent(String.self, forKey: .initial)
            children = try container.decodeIfPresent([Node].self, forKey: .children) ?? []
            history = try container.decodeIfPresent(HistoryDepth.self, forKey: .history)
            `default` = try container.decodeIfPresent(String.self, forKey: .default)
        }
    }
}

/// Decodes a string-valued enum, naming the field and the accepted words when it is unknown.
private func _decodeKeyword<Keyword: RawRepresentable<String>>(
    from decoder: any Decoder, field: String, expected: String
) throws -> Keyword {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let keyword = Keyword(rawValue: text) else {
        throw DecodingError.dataCorruptedError(
            in: container, debugDescription: "unknown \(field) '\(text)' (expected \(expected))")
    }
    return keyword
}
