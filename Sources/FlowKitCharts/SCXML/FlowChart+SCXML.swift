import Foundation

extension FlowChart {
    /// The SCXML namespace, `http://www.w3.org/2005/07/scxml`. The reader accepts SCXML
    /// elements in it or in no namespace; the writer puts them in it.
    public static let scxmlNamespace = "http://www.w3.org/2005/07/scxml"

    /// FlowKit's namespace in SCXML documents, `urn:flowkit:charts`. Its one element,
    /// `<events>`, a child of `<scxml>`, lists the events ``events`` feeds the chart
    /// (separated by white space); other SCXML tools skip it as a foreign element.
    public static let scxmlEventsNamespace = "urn:flowkit:charts"

    /// Reads a chart from an SCXML document (W3C SCXML 1.0, the null data model) and
    /// validates it.
    ///
    ///     let chart = try FlowChart(scxml: Data(contentsOf: url))
    ///     print(try chart.trace(), terminator: "")
    ///
    /// `<state>`, `<parallel>`, `<final>` and `<history>` become the chart's nodes (ids are
    /// kept; a state without `initial` starts in its first child state, as in SCXML), each
    /// `<transition>` a transition of its parent state, `<raise>` its raised events. When the
    /// document has one top-level `<state>` or `<parallel>`, that state is the chart's root;
    /// otherwise the top-level states are wrapped in a root state whose id is `scxml`. The
    /// events to feed the chart come from FlowKit's `<events>` element
    /// (``scxmlEventsNamespace``), if any. Docs/SCXML.md lists what is accepted, what is
    /// refused and the limits.
    ///
    /// - Throws: ``SCXMLError``, naming the element and its line and column: for a document
    ///   that is not well-formed UTF-8 XML, has a `<!DOCTYPE`, is over a limit
    ///   (``FlowChart/SCXMLLimit``, ``FlowChart/Limit``), uses an element or attribute
    ///   FlowKit does not run (a data model, `<send>`, `<script>`, an ECMAScript `cond`, …),
    ///   or describes a chart the format rejects (``SCXMLError/Reason/invalidChart(_:)``).
    public init(scxml data: Data) throws {
        self = try _SCXMLReader.read(data)
    }

    /// Whether `data` looks like an SCXML document rather than JSON: its first character
    /// other than white space (or a byte order mark) is `<`. `flowchart` uses it to pick the
    /// reader.
    public static func looksLikeSCXML(_ data: Data) -> Bool {
        for byte in data.prefix(4_096) {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"),
                0xEF, 0xBB, 0xBF:
                continue
            default:
                return byte == UInt8(ascii: "<")
            }
        }
        return false
    }
}
