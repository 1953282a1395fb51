/// A statechart in the `flowkit-hsm-case/1` format (or `flowkit-hsm-case/2`, which adds
/// parallel states): nested states, transitions on events, history and final states, and a
/// list of events to feed it.
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
/// applies the format's rules (unique ids, valid `initial`s, parallel states only in format 2,
/// …) and every operation that runs or draws a chart validates it first.
public struct FlowChart: Codable, Sendable, Equatable {
    /// The identifier of format 1, `flowkit-hsm-case/1`: one active path, no parallel
    /// states. A chart without a `format` is read as format 1.
    public static let formatIdentifier = "flowkit-hsm-case/1"

    /// The identifier of format 2, `flowkit-hsm-case/2`: format 1 plus parallel states
    /// (``Node/Kind/parallel``), run with the SCXML rules described in <doc:ChartFormat>.
    public static let parallelFormatIdentifier = "flowkit-hsm-case/2"

    /// The format identifier in the file, if any. A chart naming another format than
    /// ``formatIdentifier`` or ``parallelFormatIdentifier`` is rejected.
    public var format: String?

    /// Whether the chart is in format 2 (``parallelFormatIdentifier``), where parallel
    /// states are allowed.
    public var allowsParallelStates: Bool { format == FlowChart.parallelFormatIdentifier }

    /// The chart's name, for people; it does not affect the semantics.
    public var name: String?

    /// The root state: an ordinary state that is part of the configuration.
    public var root: Node

    /// The transitions, in document order.
    public var transitions: [Transition]

    /// The external events to feed the chart, in order.
    public var events: [String]

    /// Creates a chart in `format` (format 1 unless told otherwise; a chart with parallel
    /// states needs ``parallelFormatIdentifier``).
    public init(
        format: String = FlowChart.formatIdentifier, name: String? = nil, root: Node,
        transitions: [Transition] = [], events: [String] = []
    ) {
        self.format = format
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
