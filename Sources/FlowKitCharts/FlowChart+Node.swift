extension FlowChart {
    /// A node of the chart: a state, a parallel state (formats 2 and 3), a final state or a
    /// history pseudo-state.
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
            /// A parallel state (formats 2 and 3): its non-history children are its regions,
            /// all active together (in format 3 a region may itself be a parallel state).
            /// Format 1 rejects it with a clear message.
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
        /// For a compound state: the child entered by default. In format 3, SCXML's
        /// `initial`: one or more ids separated by spaces (``initialTargets``), each a
        /// descendant of the state at any depth, history nodes included (SCXML's `<initial>`
        /// transition to a history state), and several only in different regions of a
        /// parallel descendant.
        public var initial: String?
        /// The children, in document order (states only; the non-history children of a
        /// parallel state are its regions).
        public var children: [Node]
        /// For a history node: shallow or deep.
        public var history: HistoryDepth?
        /// For a history node: the sibling entered when nothing is recorded yet. In format 3,
        /// the targets of SCXML's default `<transition>`: one or more ids separated by spaces
        /// (``defaultTargets``), each a non-history descendant of the history's parent at any
        /// depth, several only in different regions of a parallel state.
        public var `default`: String?
        /// Format 3: events the state raises when it is entered (SCXML's `<raise>` in
        /// `<onentry>`), in order. They are queued right after the state's entry, before
        /// anything entered after it; formats 1 and 2 reject the key.
        public var onEntry: [String]
        /// Format 3: events the state raises when it exits (SCXML's `<raise>` in
        /// `<onexit>`), in order. They are queued as the state exits, after the states
        /// exited before it and before the transitions' own `raise`; formats 1 and 2 reject
        /// the key.
        public var onExit: [String]

        /// ``initial`` split at spaces: the ids a compound state's default entry enters
        /// (one in formats 1 and 2).
        public var initialTargets: [String] { FlowChart._idList(initial) }

        /// ``default`` split at spaces: the ids a history node enters when nothing is
        /// recorded (one in formats 1 and 2).
        public var defaultTargets: [String] { FlowChart._idList(`default`) }

        /// Creates a node.
        public init(
            id: String, kind: Kind = .state, initial: String? = nil, children: [Node] = [],
            history: HistoryDepth? = nil, default: String? = nil, onEntry: [String] = [],
            onExit: [String] = []
        ) {
            self.id = id
            self.kind = kind
            self.initial = initial
            self.children = children
            self.history = history
            self.default = `default`
            self.onEntry = onEntry
            self.onExit = onExit
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
            case onEntry = "onentry"
            case onExit = "onexit"
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            kind = try container.decodeIfPresent(Kind.self, forKey: .kind) ?? .state
            initial = try container.decodeIfPresent(String.self, forKey: .initial)
            children = try container.decodeIfPresent([Node].self, forKey: .children) ?? []
            history = try container.decodeIfPresent(HistoryDepth.self, forKey: .history)
            `default` = try container.decodeIfPresent(String.self, forKey: .default)
            onEntry = try container.decodeIfPresent([String].self, forKey: .onEntry) ?? []
            onExit = try container.decodeIfPresent([String].self, forKey: .onExit) ?? []
        }

        /// Encodes the node; `onentry` and `onexit` only when not empty, so a chart of
        /// format 1 or 2 encodes as before format 3.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(kind, forKey: .kind)
            try container.encodeIfPresent(initial, forKey: .initial)
            try container.encode(children, forKey: .children)
            try container.encodeIfPresent(history, forKey: .history)
            try container.encodeIfPresent(`default`, forKey: .default)
            if !onEntry.isEmpty { try container.encode(onEntry, forKey: .onEntry) }
            if !onExit.isEmpty { try container.encode(onExit, forKey: .onExit) }
        }
    }

    /// The ids in `list`, separated by whitespace (format 3's id lists).
    static func _idList(_ list: String?) -> [String] {
        guard let list else { return [] }
        return list.split(whereSeparator: \.isWhitespace).map(String.init)
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
