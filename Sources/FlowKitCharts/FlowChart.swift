/// A statechart in the `flowkit-hsm-case/1` format (or `flowkit-hsm-case/2`, which adds
/// parallel states, or `flowkit-hsm-case/3`, which adds the rest of SCXML's structure):
/// nested states, transitions on events, history and final states, and a list of events to
/// feed it.
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

    /// The identifier of format 3, `flowkit-hsm-case/3`: format 2 plus the rest of SCXML's
    /// structure without a data model (eventless transitions, `In()` conditions, event
    /// descriptors, several targets, parallel states in parallel states, deep and history
    /// initials, deep history defaults, `raise` on entry and exit), run with SCXML's
    /// Appendix D as described in <doc:ChartFormat>.
    public static let structureFormatIdentifier = "flowkit-hsm-case/3"

    /// The format identifier in the file, if any. A chart naming another format than
    /// ``formatIdentifier``, ``parallelFormatIdentifier`` or ``structureFormatIdentifier`` is
    /// rejected.
    public var format: String?

    /// The format's number: 1 when ``format`` is missing or ``formatIdentifier``, 2 for
    /// ``parallelFormatIdentifier``, 3 for ``structureFormatIdentifier``, `nil` for any other
    /// value (which ``validate()`` rejects).
    public var formatNumber: Int? {
        switch format {
        case nil, FlowChart.formatIdentifier?: 1
        case FlowChart.parallelFormatIdentifier?: 2
        case FlowChart.structureFormatIdentifier?: 3
        default: nil
        }
    }

    /// Whether the chart is in format 2 or 3, where parallel states are allowed.
    public var allowsParallelStates: Bool { (formatNumber ?? 1) >= 2 }

    /// The chart's name, for people; it does not affect the semantics.
    public var name: String?

    /// The root state: an ordinary state that is part of the configuration.
    public var root: Node

    /// The transitions, in document order.
    public var transitions: [Transition]

    /// The external events to feed the chart, in order.
    public var events: [String]

    /// Creates a chart in `format` (format 1 unless told otherwise; a chart with parallel
    /// states needs ``parallelFormatIdentifier``, one with format 3's constructs
    /// ``structureFormatIdentifier``).
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
