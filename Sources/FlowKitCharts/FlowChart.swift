/// A statechart in the `flowkit-hsm-case/1` format: nested states, transitions on events,
/// history and final states, and a list of events to feed it.
///
///     let chart = try FlowChart(json: data)
///     print(try chart.trace(), terminator: "")   // "start\nenter App\n…"
///
/// A chart is only a description. ``FlowChartMachine`` builds an ordinary FlowKit
/// `FlowController` tree from it (one node per state) and drives it with FlowKit's own
/// navigation and event machinery; ``trace()`` prints what happened in the trace format
/// described in <doc:ChartFormat>.
///
/// Decoding accepts any chart that is well-formed JSON of the right shape; ``validate()``
/// applies the format's rules (unique ids, valid `initial`s, no parallel states, …) and every
/// operation that runs or draws a chart validates it first.
public struct FlowChart: Codable, Sendable, Equatable {
    /// The format identifier this model reads: `flowkit-hsm-case/1`.
    public static let formatIdentifier = "flowkit-hsm-case/1"

    /// The format identifier in the file, if any. A chart naming another format is rejected.
    public var format: String?

    /// The chart's name, for people; it does not affect the semantics.
    public var name: String?

    /// The root state: an ordinary state that is part of the configuration.
    public var root: Node

    /// The transitions, in document order.
    public var transitions: [Transition]

    /// The external events to feed the chart, in order.
    public var events: [String]

    /// Creates a chart.
    public init(
        name: String? = nil, root: Node, transitions: [Transition] = [], events: [String] = []
    ) {
        self.format = FlowChart.formatIdentifier
        self.name = name
        self.root = root
        self.transitions = transitions
        self.events = events
    }

    private enum CodingKeys: String, CodingKey {
        case format, name, root, transitions, events
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decodeIfPresent(String.self, forKey: .format)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        root = try container.decode(Node.self, forKey: .root)
        transitions = try container.decodeIfPresent([Transition].self, forKey: .transitions) ?? []
        events = try container.decodeIfPresent([String].self, forKey: .events) ?? []
    }
}
