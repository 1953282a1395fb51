extension FlowChart {
    /// A transition: on `event` in `source` (or a descendant that does not take it), exit
    /// and enter according to the statechart rules.
    ///
    ///     FlowChart.Transition(source: "Form", event: "submit", target: "Done")
    ///     FlowChart.Transition(source: "List", event: "refresh")   // targetless
    public struct Transition: Codable, Sendable, Equatable {
        /// The state whose active subtree the transition listens in (the root allowed).
        public var source: String
        /// The event name, matched exactly. `nil` (an eventless transition) is rejected.
        public var event: String?
        /// Any node id, history included; `nil` makes the transition targetless: it consumes
        /// the event and nothing exits or enters.
        public var target: String?
        /// Whether the transition is internal (the source stays entered when every target
        /// lies strictly inside it).
        public var isInternal: Bool
        /// A constant guard: `false` means the transition is never enabled.
        public var `guard`: Bool
        /// Events the transition's action queues, in order.
        public var raise: [String]

        /// Creates a transition.
        public init(
            source: String, event: String?, target: String? = nil, isInternal: Bool = false,
            guard: Bool = true, raise: [String] = []
        ) {
            self.source = source
            self.event = event
            self.target = target
            self.isInternal = isInternal
            self.guard = `guard`
            self.raise = raise
        }

        private enum CodingKeys: String, CodingKey {
            case source, event, target
            case isInternal = "internal"
            case `guard`, raise
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            source = try container.decode(String.self, forKey: .source)
            event = try container.decodeIfPresent(String.self, forKey: .event)
            target = try container.decodeIfPresent(String.self, forKey: .target)
            isInternal = try container.decodeIfPresent(Bool.self, forKey: .isInternal) ?? false
            `guard` = try container.decodeIfPresent(Bool.self, forKey: .guard) ?? true
            raise = try container.decodeIfPresent([String].self, forKey: .raise) ?? []
        }
    }
}
