extension FlowChart {
    /// The chart as an SCXML document (W3C SCXML 1.0, the null data model) with the same
    /// meaning: ``FlowChart/init(scxml:)`` reads it back to a chart with the same trace.
    /// What `flowchart scxml CHART.json` prints.
    ///
    ///     <scxml xmlns="http://www.w3.org/2005/07/scxml" … initial="App">
    ///       <flowkit:events>password code</flowkit:events>
    ///       <state id="App" initial="SignIn">
    ///         <state id="SignIn" initial="Credentials"> …
    ///
    /// The root state is the document's one top-level state; each transition is written in
    /// its source state, in the chart's order (`type="internal"`, `<raise>` and, in format 3,
    /// its descriptors, targets and `cond` as the chart says; a `false` guard as
    /// `cond="false"`); every compound state names its `initial` (format 3's lists
    /// included); format 3's `onentry` and `onexit` raise in `<onentry>` and `<onexit>`; the
    /// events to feed the chart go in FlowKit's `<events>` element
    /// (``scxmlEventsNamespace``). Read back, the chart is in format 3, whose descriptors
    /// match as the format-1 or -2 chart's event names did (the check below).
    ///
    /// - Throws: A ``FlowChartError`` if the chart is rejected; ``SCXMLError`` with
    ///   ``SCXMLError/Reason/notExpressible(_:)`` when an event name cannot be an SCXML
    ///   event (white space, `*`, an empty part between dots), or when SCXML's prefix match
    ///   would let a transition take an event the chart's exact match does not (a
    ///   transition on `error` and an event `error.send`).
    public func scxmlDocument() throws -> String {
        try validate()
        try _checkSCXMLEvents()
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<scxml xmlns="\#(FlowChart.scxmlNamespace)" "#
                + #"xmlns:flowkit="\#(FlowChart.scxmlEventsNamespace)" version="1.0" "#
                + #"datamodel="null""# + (name.map { #" name="\#(Self._escaped($0))""# } ?? "")
                + #" initial="\#(root.id)">"#,
        ]
        if !events.isEmpty {
            lines.append(
                "  <flowkit:events>\(events.map(Self._escaped).joined(separator: " "))"
                    + "</flowkit:events>")
        }
        var bySource: [String: [Transition]] = [:]
        for transition in transitions {
            bySource[transition.source, default: []].append(transition)
        }
        func write(_ node: Node, indent: String) {
            let inner = indent + "  "
            var content: [String] = []
            for transition in bySource[node.id] ?? [] {
                var attributes = ""
                if let event = transition.event {
                    attributes += #" event="\#(Self._escaped(event))""#
                }
                if !transition.guard {
                    attributes += #" cond="false""#
                } else if let cond = transition.cond {
                    attributes += #" cond="\#(Self._escaped(Self._scxmlCondition(cond)))""#
                }
                if let target = transition.target { attributes += #" target="\#(target)""# }
                if transition.isInternal { attributes += #" type="internal""# }
                if transition.raise.isEmpty {
                    content.append("\(inner)<transition\(attributes)/>")
                } else {
                    content.append("\(inner)<transition\(attributes)>")
                    for event in transition.raise {
                        content.append(#"\#(inner)  <raise event="\#(Self._escaped(event))"/>"#)
                    }
                    content.append("\(inner)</transition>")
                }
            }
            for (element, raised) in [("onentry", node.onEntry), ("onexit", node.onExit)]
            where !raised.isEmpty {
                content.append("\(inner)<\(element)>")
                for event in raised {
                    content.append(#"\#(inner)  <raise event="\#(Self._escaped(event))"/>"#)
                }
                content.append("\(inner)</\(element)>")
            }
            switch node.kind {
            case .history:
                let depth = node.history == .deep ? "deep" : "shallow"
                lines.append(#"\#(indent)<history id="\#(node.id)" type="\#(depth)">"#)
                lines.append(#"\#(inner)<transition target="\#(node.default ?? "")"/>"#)
                lines.append("\(indent)</history>")
                return
            case .final where content.isEmpty:
                lines.append(#"\#(indent)<final id="\#(node.id)"/>"#)
                return
            case .final:
                lines.append(#"\#(indent)<final id="\#(node.id)">"#)
                lines.append(contentsOf: content)
                lines.append("\(indent)</final>")
                return
            case .parallel, .state:
                let element = node.kind == .parallel ? "parallel" : "state"
                let initial = node.initial.map { #" initial="\#($0)""# } ?? ""
                let open = #"\#(indent)<\#(element) id="\#(node.id)"\#(initial)"#
                if content.isEmpty, node.children.isEmpty {
                    lines.append(open + "/>")
                    return
                }
                lines.append(open + ">")
                lines.append(contentsOf: content)
                for child in node.children { write(child, indent: inner) }
                lines.append("\(indent)</\(element)>")
            }
        }
        write(root, indent: "  ")
        lines.append("</scxml>")
        return lines.map { $0 + "\n" }.joined()
    }

    /// Refuses event names SCXML cannot carry, and (in formats 1 and 2, whose transitions
    /// match event names exactly) transitions SCXML's prefix match would let take more.
    func _checkSCXMLEvents() throws {
        func refuse(_ why: String) -> SCXMLError {
            SCXMLError(.notExpressible(why), element: nil, line: 0, column: 0)
        }
        var occurring = Set(events)
        for transition in transitions { occurring.formUnion(transition.raise) }
        var pending = [root]
        while let node = pending.popLast() {
            if !node.children.isEmpty { occurring.insert("done.state.\(node.id)") }
            occurring.formUnion(node.onEntry)
            occurring.formUnion(node.onExit)
            pending.append(contentsOf: node.children)
        }
        let exact = (formatNumber ?? 1) < 3
        let names = exact ? occurring.union(transitions.compactMap(\.event)) : occurring
        if let name = names.sorted().first(where: { !Self._isSCXMLEventName($0) }) {
            throw refuse(
                "the event name '\(name)' is not an SCXML event name (no white space, "
                    + "no '*', no empty part between dots)")
        }
        guard exact else { return }
        for event in Set(transitions.compactMap(\.event)).sorted() {
            if let longer = occurring.sorted().first(where: { $0.hasPrefix(event + ".") }) {
                throw refuse(
                    "a transition on '\(event)' would also take '\(longer)' in SCXML, which "
                        + "matches events by prefix")
            }
        }
    }

    /// `cond` with every `In('ID')` (or `In("ID")`) in the null data model's form `In(ID)`
    /// (SCXML's Appendix B.1; Qt SCXML reads only that form). Ids are plain words, so the
    /// reader reads it back to the chart's `In('ID')`.
    static func _scxmlCondition(_ cond: String) -> String {
        cond.replacing(/In\(\s*(?:'([^']*)'|"([^"]*)")\s*\)/) { match in
            "In(\(match.1 ?? match.2 ?? ""))"
        }
    }

    /// Whether `name` can be an SCXML event's name: tokens separated by dots, none empty,
    /// without white space or `*`.
    static func _isSCXMLEventName(_ name: String) -> Bool {
        !name.contains(where: { $0.isWhitespace || $0 == "*" })
            && !name.split(separator: ".", omittingEmptySubsequences: false).contains(
                where: \.isEmpty)
    }

    /// `text` with XML's special characters escaped, for an attribute or element text.
    static func _escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default: result.append(character)
            }
        }
        return result
    }
}
