/// Why an SCXML document was refused: what is wrong, and where.
///
///     do { _ = try FlowChart(scxml: data) } catch let error as SCXMLError { print(error) }
///     // "line 7, column 9: <send> is not supported: it sends events outside the chart …"
///
/// Every refusal names the element it is about (``element``, without a namespace prefix)
/// and the line and column where that element's start tag begins (both counted from 1, the
/// column in characters). A document that is not well-formed XML is located where the XML
/// parser stopped. Docs/SCXML.md lists what is accepted and what is refused.
public struct SCXMLError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong with the document.
    public enum Reason: Equatable, Sendable {
        /// The text is not well-formed XML (the parser's complaint).
        case malformedXML(String)
        /// The document has a document type declaration (`<!DOCTYPE`), refused so that no
        /// entity is ever declared or expanded.
        case documentType
        /// The document is not UTF-8 text, or declares another encoding.
        case encoding(String)
        /// The document is over one of the reader's limits (``FlowChart/SCXMLLimit``).
        case overLimit(FlowChart.SCXMLLimit)
        /// The document's root element is not `<scxml>`.
        case notSCXML
        /// An element FlowKit does not run (a data model, executable content other than
        /// `<raise>` and `<log>`, invocations, or an element SCXML does not have); the
        /// text says why.
        case unsupportedElement(String)
        /// An element where SCXML does not allow it, too many of it, or missing a part it
        /// needs (a `<history>` without its default `<transition>`, …); the text says which.
        case invalidStructure(String)
        /// An attribute FlowKit does not accept on this element, with why.
        case unsupportedAttribute(name: String, String)
        /// An attribute the element needs is missing.
        case missingAttribute(String)
        /// An attribute value FlowKit does not accept (a `cond` outside the null data
        /// model's, a history `type` that is neither `shallow` nor `deep`, …).
        case invalidValue(attribute: String, value: String, String)
        /// Text inside an element that has none.
        case unexpectedText
        /// The chart the document describes breaks a rule of the chart format (an unknown
        /// target, a duplicate id, …), located at the element the rule is about.
        case invalidChart(FlowChartError)
        /// The chart cannot be written as SCXML with the same meaning (``FlowChart/scxmlDocument()``).
        case notExpressible(String)
    }

    /// What is wrong.
    public let reason: Reason
    /// The element the refusal is about (`transition`, `send`, …), if any.
    public let element: String?
    /// The line of the element's start tag (from 1); 0 when the refusal has no place.
    public let line: Int
    /// The column of the element's `<`, in characters (from 1); 0 when the refusal has no
    /// place.
    public let column: Int

    /// Creates an error.
    public init(_ reason: Reason, element: String?, line: Int, column: Int) {
        self.reason = reason
        self.element = element
        self.line = line
        self.column = column
    }

    public var description: String {
        let place = line > 0 ? "line \(line), column \(column): " : ""
        let tag = element.map { "<\($0)>" } ?? "the document"
        switch reason {
        case .malformedXML(let detail):
            return "\(place)not well-formed XML: \(detail)"
        case .documentType:
            return "\(place)a document type declaration (<!DOCTYPE) is not accepted; "
                + "SCXML documents need none, and entities are never expanded"
        case .encoding(let detail):
            return "\(place)\(detail); SCXML documents are read as UTF-8"
        case .overLimit(let limit):
            return "\(place)\(tag) is over the SCXML reader's limit of \(limit.value) "
                + "\(limit.counted)"
        case .notSCXML:
            return "\(place)the root element is \(tag), not <scxml>"
        case .unsupportedElement(let why):
            return "\(place)\(tag) is not supported: \(why)"
        case .invalidStructure(let why):
            return "\(place)\(tag) \(why)"
        case .unsupportedAttribute(let name, let why):
            return "\(place)attribute '\(name)' of \(tag) is not supported: \(why)"
        case .missingAttribute(let name):
            return "\(place)\(tag) needs the attribute '\(name)'"
        case .invalidValue(let attribute, let value, let why):
            return "\(place)\(tag) \(attribute)=\"\(value)\" is not accepted: \(why)"
        case .unexpectedText:
            return "\(place)\(tag) cannot contain text"
        case .invalidChart(let error):
            return "\(place)\(tag): \(error)"
        case .notExpressible(let why):
            return "the chart cannot be written as SCXML: \(why)"
        }
    }
}
