extension FlowChart {
    /// A limit an SCXML document must stay within before it becomes a chart, so that reading
    /// a document someone else wrote stays bounded in time and memory; the chart it
    /// describes must then stay within the chart format's own limits (``FlowChart/Limit``:
    /// states, nesting, transitions, events), which the reader checks as it goes, stopping at
    /// the first element over one.
    ///
    /// The reader also refuses every document type declaration (`<!DOCTYPE`), so no entity
    /// is declared or expanded (no "billion laughs", no external entity), and reads UTF-8
    /// only, so that this check sees the bytes the XML parser reads.
    public enum SCXMLLimit: String, CaseIterable, Sendable, Equatable {
        /// The document: at most 1,048,576 bytes (1 MiB), checked before it is read.
        case bytes
        /// One attribute's value: at most 4,096 bytes (ids, event names and conditions
        /// are short).
        case attributeBytes
        /// How deep elements nest, elements of other namespaces included: at most 100 levels
        /// (the chart's states nest at most 32 deep, ``FlowChart/Limit/nesting``, and their
        /// content adds at most three).
        case elementNesting
        /// The text of FlowKit's `<events>` element (the events `flowchart trace` feeds the
        /// chart): at most 65,536 bytes.
        case eventText

        /// The limit's value.
        public var value: Int {
            switch self {
            case .bytes: 1_048_576
            case .attributeBytes: 4_096
            case .elementNesting: 100
            case .eventText: 65_536
            }
        }

        /// What the limit counts, for messages.
        var counted: String {
            switch self {
            case .bytes: "bytes of SCXML"
            case .attributeBytes: "bytes in one attribute"
            case .elementNesting: "levels of nested elements"
            case .eventText: "bytes of events"
            }
        }
    }
}
