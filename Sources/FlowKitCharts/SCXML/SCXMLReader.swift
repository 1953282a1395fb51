import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads an SCXML document into a ``FlowChart`` with Foundation's `XMLParser`: one frame per
/// open element, the chart's nodes built as their elements close, transitions in document
/// order. The element rules are in `SCXMLReader+Elements.swift`; the first refusal stops
/// the parser.
final class _SCXMLReader: NSObject, XMLParserDelegate {
    /// Where the parser was when it reported an element: libxml2 reports the end of the
    /// start tag, so ``_SCXMLReader/tagStart(_:)`` finds its `<` when an error needs it.
    struct Place: Equatable {
        var line: Int
        var column: Int
    }

    /// What an open element is.
    enum Role: Equatable {
        case scxml, state, parallel, final, history, initial, transition, onentry, onexit
        case raise, log, events
        /// An element of another namespace (an editor's layout, …), skipped with its
        /// content.
        case foreign
    }

    /// An open element.
    final class Frame {
        let role: Role
        let name: String
        let place: Place
        var id: String?
        var initialAttribute: String?
        /// The target of an `<initial>`'s or a `<history>`'s transition.
        var defaultTarget: String?
        var hasDefaultTransition = false
        var hasInitialElement = false
        var children: [FlowChart.Node] = []
        var historyDepth: FlowChart.Node.HistoryDepth = .shallow
        /// For a state: the events its `<onentry>` and `<onexit>` raise, in order.
        var onEntry: [String] = []
        var onExit: [String] = []
        /// For a transition of a state: its index in ``_SCXMLReader/transitions``.
        var transition: Int?
        var text = ""

        init(_ role: Role, name: String, place: Place) {
            self.role = role
            self.name = name
            self.place = place
        }
    }

    let data: Data
    var frames: [Frame] = []
    var failure: SCXMLError?
    /// The XML parser's first complaint (its code) and where.
    var parseError: (Int, Place)?
    var root: FlowChart.Node?
    var chartName: String?
    var transitions: [FlowChart.Transition] = []
    var events: [String] = []
    var hasEvents = false
    var stateCount = 0
    /// Where each node's element starts (every occurrence of an id, in document order).
    var nodePlaces: [String: [Place]] = [:]
    /// Where each transition's element starts, by index.
    var transitionPlaces: [Place] = []
    var scxmlPlace = Place(line: 1, column: 1)
    weak var parser: XMLParser?

    private init(data: Data) {
        self.data = data
    }

    /// `data` with each CR LF pair and each lone CR made a LF.
    static func normalizedLineEnds(_ data: Data) -> Data {
        guard data.contains(0x0D) else { return data }
        var normalized = Data()
        normalized.reserveCapacity(data.count)
        var afterCR = false
        for byte in data {
            if byte == 0x0A && afterCR {
                afterCR = false
                continue
            }
            afterCR = byte == 0x0D
            normalized.append(afterCR ? 0x0A : byte)
        }
        return normalized
    }

    static func read(_ data: Data) throws -> FlowChart {
        guard data.count <= FlowChart.SCXMLLimit.bytes.value else {
            throw SCXMLError(.overLimit(.bytes), element: nil, line: 0, column: 0)
        }
        // Line ends as XML 1.0 (section 2.11) has a parser read them, before anything counts
        // lines: XMLParser's own line numbers drift after a CR.
        let data = normalizedLineEnds(data)
        try checkText(data)
        let reader = _SCXMLReader(data: data)
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        reader.parser = parser
        _ = parser.parse()
        if let failure = reader.failure { throw reader.located(failure) }
        if let (code, place) = reader.parseError {
            throw SCXMLError(
                .malformedXML(_SCXMLReader.describeParserError(code)), element: nil,
                line: place.line, column: place.column)
        }
        if let error = parser.parserError {
            let code = (error as NSError).code
            throw SCXMLError(
                .malformedXML(_SCXMLReader.describeParserError(code)), element: nil,
                line: parser.lineNumber, column: parser.columnNumber)
        }
        guard let root = reader.root else {
            throw SCXMLError(.notSCXML, element: nil, line: 0, column: 0)
        }
        let chart = FlowChart(
            format: FlowChart.structureFormatIdentifier,
            name: reader.chartName, root: root, transitions: reader.transitions,
            events: reader.events)
        do {
            try chart.validate()
        } catch let error as FlowChartError {
            let (element, place) = reader.place(of: error)
            throw reader.located(
                SCXMLError(
                    .invalidChart(error), element: element, line: place.line,
                    column: place.column))
        }
        return chart
    }

    /// Refuses what the XML parser must never see: text that is not UTF-8 (another encoding
    /// could hide a `<!DOCTYPE` from this check), an encoding declaration other than UTF-8,
    /// and any document type declaration (so no entity is declared, let alone expanded).
    static func checkText(_ data: Data) throws {
        guard String(validating: data, as: UTF8.self) != nil, !data.contains(0) else {
            throw SCXMLError(
                .encoding("the document is not UTF-8 text"), element: nil, line: 0, column: 0)
        }
        let bytes = [UInt8](data)
        let doctype = Array("<!DOCTYPE".utf8)
        if let offset = firstIndex(of: doctype, in: bytes) {
            let (line, column) = position(ofByte: offset, in: bytes)
            throw SCXMLError(.documentType, element: nil, line: line, column: column)
        }
        // No processing instruction but the XML declaration, which is the document's first
        // thing: Foundation's parser on Linux reads a processing instruction without data as
        // a null C string and crashes (found by the scxml fuzz target).
        let bom = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var search = 0
        while let offset = firstIndex(of: Array("<?".utf8), in: bytes, from: search) {
            let isDeclaration =
                offset == bom && bytes.count > offset + 5
                && bytes[offset + 2..<offset + 5].elementsEqual("xml".utf8)
                && [0x20, 0x09, 0x0A, 0x0D].contains(bytes[offset + 5])
            if !isDeclaration {
                let (line, column) = position(ofByte: offset, in: bytes)
                throw SCXMLError(
                    .malformedXML(
                        "a processing instruction (<?…?>) other than the XML declaration is "
                            + "not accepted"),
                    element: nil, line: line, column: column)
            }
            search = offset + 2
        }
        // The XML declaration, if any, is the document's first thing.
        let text = String(decoding: bytes.prefix(200), as: UTF8.self)
        if text.hasPrefix("<?xml") || text.hasPrefix("\u{FEFF}<?xml"),
            let end = text.range(of: "?>")
        {
            let declaration = text[..<end.lowerBound]
            if let match = declaration.firstMatch(of: /encoding\s*=\s*["']([^"']*)["']/) {
                let encoding = match.1.lowercased()
                guard ["utf-8", "utf8", "us-ascii", "ascii"].contains(encoding) else {
                    throw SCXMLError(
                        .encoding("the document declares the encoding '\(match.1)'"),
                        element: nil, line: 1, column: 1)
                }
            }
        }
    }

    private static func firstIndex(
        of needle: [UInt8], in bytes: [UInt8], from first: Int = 0
    ) -> Int? {
        guard bytes.count >= needle.count, first <= bytes.count - needle.count else { return nil }
        for start in first...(bytes.count - needle.count) where bytes[start] == needle[0] {
            if bytes[start..<start + needle.count].elementsEqual(needle) { return start }
        }
        return nil
    }

    /// The line and column (in characters, from 1) of the byte at `offset`.
    private static func position(ofByte offset: Int, in bytes: [UInt8]) -> (Int, Int) {
        let before = bytes[..<offset]
        let line = before.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        let column =
            String(decoding: bytes[lineStart..<offset], as: UTF8.self)
            .unicodeScalars.count + 1
        return (line, column)
    }

    // MARK: Places

    /// `error` with its place moved from where the parser reported its element (the end of
    /// the start tag) to the `<` that starts the tag.
    func located(_ error: SCXMLError) -> SCXMLError {
        guard error.element != nil, error.line > 0 else { return error }
        let start = tagStart(Place(line: error.line, column: error.column))
        return SCXMLError(
            error.reason, element: error.element, line: start.line, column: start.column)
    }

    /// The `<` of the start tag that ends at `end` (a tag has no `<` inside: attribute
    /// values cannot contain one).
    func tagStart(_ end: Place) -> Place {
        let lines = String(decoding: data, as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false
        ).map { Array($0.unicodeScalars) }
        guard end.line >= 1, end.line <= lines.count else { return end }
        var line = end.line - 1
        var column = min(end.column - 1, lines[line].count - 1)
        while line >= 0 {
            while column >= 0 {
                if lines[line][column] == "<" { return Place(line: line + 1, column: column + 1) }
                column -= 1
            }
            line -= 1
            if line >= 0 { column = lines[line].count - 1 }
        }
        return end
    }

    /// The element a chart rule's error is about, and where it starts.
    func place(of error: FlowChartError) -> (String, Place) {
        func node(_ id: String) -> (String, Place) {
            guard let place = nodePlaces[id]?.last else { return ("scxml", scxmlPlace) }
            return (nodeElement[id] ?? "state", place)
        }
        func transition(_ index: Int) -> (String, Place) {
            index < transitionPlaces.count
                ? ("transition", transitionPlaces[index]) : ("scxml", scxmlPlace)
        }
        switch error {
        case .invalidID(let id), .duplicateID(let id), .invalidRoot(let id, _),
            .childrenOfNonState(let id, _), .parallelState(let id),
            .initialOnParallel(let id, _), .parallelWithoutRegions(let id),
            .missingInitial(let id), .invalidInitial(let id, _), .invalidHistory(let id, _),
            .invalidRegion(_, let id, _), .initialNotDescendant(let id, _):
            return node(id)
        case .eventlessTransition(let index, _), .transitionFromFinal(let index, _),
            .transitionFromHistory(let index, _), .deepHistoryFromInside(let index, _, _, _),
            .invalidEventDescriptor(let index, _), .invalidCondition(let index, _, _):
            return transition(index)
        case .unknownID(_, let context), .conflictingTargets(let context, _, _):
            if let match = context.firstMatch(of: /transitions\[(\d+)\]/),
                let index = Int(match.1)
            {
                return transition(index)
            }
            if let match = context.firstMatch(of: /'([^']*)'/) { return node(String(match.1)) }
            return ("scxml", scxmlPlace)
        default:
            return ("scxml", scxmlPlace)
        }
    }

    /// Each node id's element name (`state`, `parallel`, `final`, `history`).
    var nodeElement: [String: String] = [:]

    // MARK: Parser callbacks

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName: String?, attributes: [String: String] = [:]
    ) {
        guard failure == nil else { return }
        let place = Place(line: parser.lineNumber, column: parser.columnNumber)
        start(elementName, namespace: namespaceURI ?? "", attributes: attributes, at: place)
        if failure != nil { parser.abortParsing() }
    }

    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
        qualifiedName: String?
    ) {
        guard failure == nil, !frames.isEmpty else { return }
        end()
        if failure != nil { parser.abortParsing() }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        guard self.parseError == nil, failure == nil else { return }
        self.parseError = (
            (parseError as NSError).code,
            Place(line: parser.lineNumber, column: parser.columnNumber)
        )
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text(string)
        if failure != nil { parser.abortParsing() }
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        text(String(decoding: CDATABlock, as: UTF8.self))
        if failure != nil { parser.abortParsing() }
    }

    func fail(_ reason: SCXMLError.Reason, _ frame: Frame) {
        fail(reason, element: frame.name, at: frame.place)
    }

    func fail(_ reason: SCXMLError.Reason, element: String?, at place: Place) {
        guard failure == nil else { return }
        failure = SCXMLError(reason, element: element, line: place.line, column: place.column)
    }

    private func text(_ string: String) {
        guard failure == nil, let top = frames.last else { return }
        switch top.role {
        case .foreign: return
        case .events:
            top.text += string
            if top.text.utf8.count > FlowChart.SCXMLLimit.eventText.value {
                fail(.overLimit(.eventText), top)
            }
        default:
            // XML's white space: space, tab, carriage return, line feed.
            let isText = string.utf8.contains {
                $0 != 0x20 && $0 != 0x09 && $0 != 0x0D && $0 != 0x0A
            }
            if isText { fail(.unexpectedText, top) }
        }
    }

    /// A readable name for an `XMLParser` error code (libxml2's), the commonest by name.
    static func describeParserError(_ code: Int) -> String {
        let names: [Int: String] = [
            4: "the document is empty", 5: "the document ends too early",
            9: "an invalid character", 26: "an undeclared entity",
            38: "'<' inside an attribute value", 41: "an attribute without a value",
            42: "an attribute given twice", 73: "'>' expected", 76: "mismatched end tag",
            77: "an unfinished tag",
        ]
        return names[code].map { "\($0) (XML parser error \(code))" }
            ?? "XML parser error \(code)"
    }
}
