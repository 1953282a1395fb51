extension FlowChart {
    /// A transition: on `event` in `source` (or a descendant that does not take it), exit
    /// and enter according to the statechart rules.
    ///
    ///     FlowChart.Transition(source: "Form", event: "submit", target: "Done")
    ///     FlowChart.Transition(source: "List", event: "refresh")   // targetless
    ///     // format 3: eventless, guarded by In(), two targets in two regions
    ///     FlowChart.Transition(
    ///         source: "Idle", event: nil, target: "Playing Shown", cond: "In('Ready')")
    public struct Transition: Codable, Sendable, Equatable {
        /// The state whose active subtree the transition listens in (the root allowed).
        public var source: String
        /// The event name, matched exactly in formats 1 and 2, where `nil` (an eventless
        /// transition) is rejected. In format 3, SCXML's `event`: one or more event
        /// descriptors separated by spaces (``descriptors``), each matching by prefix
        /// (``FlowChart/descriptor(_:matches:)``); `nil` makes the transition eventless, and
        /// an empty list is rejected.
        public var event: String?
        /// Any node id, history included; `nil` makes the transition targetless: it consumes
        /// the event and nothing exits or enters. In format 3, SCXML's `target`: one or more
        /// ids separated by spaces (``targets``), several only in different regions of a
        /// parallel state.
        public var target: String?
        /// Whether the transition is internal (the source stays entered when every target
        /// lies strictly inside it).
        public var isInternal: Bool
        /// A constant guard: `false` means the transition is never enabled.
        public var `guard`: Bool
        /// Format 3: SCXML's `cond` without a data model, a ``FlowChart/Condition`` in its
        /// text form (`In('Ready') and not In('Busy')`); the transition is enabled only when
        /// it holds in the configuration at selection time (and ``guard`` is `true`).
        /// `nil`: always. Formats 1 and 2 reject the key.
        public var cond: String?
        /// Events the transition's action queues, in order.
        public var raise: [String]

        /// ``event`` split at spaces: the event descriptors (one in formats 1 and 2; none for
        /// an eventless transition).
        public var descriptors: [String] { FlowChart._idList(event) }

        /// ``target`` split at spaces: the target ids (one in formats 1 and 2; none for a
        /// targetless transition).
        public var targets: [String] { FlowChart._idList(target) }

        /// Creates a transition.
        public init(
            source: String, event: String?, target: String? = nil, isInternal: Bool = false,
            guard: Bool = true, cond: String? = nil, raise: [String] = []
        ) {
            self.source = source
            self.event = event
            self.target = target
            self.isInternal = isInternal
            self.guard = `guard`
            self.cond = cond
            self.raise = raise
        }

        private enum CodingKeys: String, CodingKey {
            case source, event, target
            case isInternal = "internal"
            case `guard`, cond, raise
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            source = try container.decode(String.self, forKey: .source)
            event = try container.decodeIfPresent(String.self, forKey: .event)
            target = try container.decodeIfPresent(String.self, forKey: .target)
            isInternal = try container.decodeIfPresent(Bool.self, forKey: .isInternal) ?? false
            `guard` = try container.decodeIfPresent(Bool.self, forKey: .guard) ?? true
            cond = try container.decodeIfPresent(String.self, forKey: .cond)
            raise = try container.decodeIfPresent([String].self, forKey: .raise) ?? []
        }

        /// Encodes the transition; `cond` only when present, so a chart of format 1 or 2
        /// encodes as before format 3.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(source, forKey: .source)
            try container.encodeIfPresent(event, forKey: .event)
            try container.encodeIfPresent(target, forKey: .target)
            try container.encode(isInternal, forKey: .isInternal)
            try container.encode(`guard`, forKey: .guard)
            try container.encodeIfPresent(cond, forKey: .cond)
            try container.encode(raise, forKey: .raise)
        }
    }

    /// Whether the event descriptor `descriptor` (format 3) matches the event `name`, by
    /// SCXML's rule (section 5.9.3): `*` matches every event; otherwise the descriptor,
    /// without a trailing `.*` or `.`, matches the event with that very name and every event
    /// whose name continues it after a `.`. So `error` (or `error.*`, or `error.`) matches
    /// `error`, `error.send` and `error.send.failed`, but not `errors` nor `err`; and
    /// `done.state` matches every done event.
    ///
    ///     FlowChart.descriptor("error", matches: "error.send")   // true
    ///     FlowChart.descriptor("error", matches: "errors")       // false
    ///     FlowChart.descriptor("*", matches: "anything")         // true
    public static func descriptor(_ descriptor: String, matches name: String) -> Bool {
        if descriptor == "*" { return true }
        let prefix = _normalizedDescriptor(descriptor)
        guard name.utf8.starts(with: prefix.utf8) else { return false }
        let rest = name.utf8.dropFirst(prefix.utf8.count)
        return rest.isEmpty || rest.first == UInt8(ascii: ".")
    }

    /// `descriptor` without a trailing `.*` or `.`.
    static func _normalizedDescriptor(_ descriptor: String) -> String {
        if descriptor.hasSuffix(".*") { return String(descriptor.dropLast(2)) }
        if descriptor.hasSuffix(".") { return String(descriptor.dropLast()) }
        return descriptor
    }

    /// Whether `descriptor` is a well-formed event descriptor (format 3): `*`, or dot-separated
    /// tokens, none empty and none containing `*`, optionally followed by `.*` or `.`.
    public static func isValidDescriptor(_ descriptor: String) -> Bool {
        if descriptor == "*" { return true }
        let body = _normalizedDescriptor(descriptor)
        guard !body.isEmpty else { return false }
        return body.split(separator: ".", omittingEmptySubsequences: false).allSatisfy {
            !$0.isEmpty && !$0.contains("*") && !$0.contains(where: \.isWhitespace)
        }
    }
}
