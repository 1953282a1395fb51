extension FlowChart {
    /// A limit a chart must stay within, so that loading, checking and running a chart
    /// someone else wrote stays bounded in time and memory. Real charts stay far below every
    /// one (the examples and test charts have at most 15 states, 5 levels, 11 transitions
    /// and 17 events).
    ///
    /// ``FlowChart/init(json:)`` enforces ``bytes`` before it reads the text;
    /// ``FlowChart/validate()`` (and so ``FlowChartMachine/init(chart:)``,
    /// ``FlowChart/trace()`` and the diagram) the others: ``transitions`` and ``events`` first,
    /// ``states`` and ``nesting`` as it walks the states. A chart over a limit is rejected
    /// with ``FlowChartError/overLimit(_:)``. Running is bounded too:
    /// ``FlowChartMachine/transitionLimit`` and ``FlowChartMachine/raisedEventLimit`` per
    /// external event.
    public enum Limit: String, CaseIterable, Sendable, Equatable {
        /// The JSON text: at most 1,048,576 bytes (1 MiB).
        case bytes
        /// The nodes (states, final states and history nodes, the root included): at most
        /// 10,000.
        case states
        /// How deep states nest: at most 32 levels, the root's included (a root with
        /// children and no grandchildren has 2).
        case nesting
        /// The transitions: at most 10,000.
        case transitions
        /// The external events to feed the chart (``FlowChart/events``): at most 1,000.
        case events

        /// The limit's value.
        public var value: Int {
            switch self {
            case .bytes: 1_048_576
            case .states: 10_000
            case .nesting: 32
            case .transitions: 10_000
            case .events: 1_000
            }
        }

        /// What the limit counts, for messages: "bytes of JSON", "levels of nesting", ….
        var counted: String {
            switch self {
            case .bytes: "bytes of JSON"
            case .states: "states"
            case .nesting: "levels of nesting"
            case .transitions: "transitions"
            case .events: "events"
            }
        }
    }
}
