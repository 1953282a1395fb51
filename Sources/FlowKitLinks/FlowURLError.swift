import FlowKit
import Foundation

/// Why a URL could not be turned into a navigation path. Nothing was navigated.
public enum FlowURLError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The URL is longer than the router accepts.
    case tooLong(length: Int, limit: Int)
    /// The text is not a URL the router accepts (`reason` says what is wrong).
    case malformed(reason: String)
    /// The URL's scheme (or its lack of one) is not the router's.
    case unsupportedScheme(String?)
    /// The URL's host (or its lack of one) is not the router's.
    case unsupportedHost(String?)
    /// A path segment is empty, a dot segment, badly encoded, or hides a separator or
    /// control characters.
    case invalidSegment(String, reason: String)
    /// No pattern matches the path.
    case unmapped(path: String)
    /// A parameter's value is not acceptable (not a number, too large, out of range).
    case invalidParameter(name: String, value: String, reason: String)
    /// A builder asked for a parameter its pattern does not have.
    case missingParameter(String)
    /// A pattern's builder refused the URL for another reason.
    case rejected(url: String, reason: String)
    /// A pattern given to ``FlowURLRouter/add(_:_:)`` is not valid.
    case invalidPattern(String, reason: String)

    /// A sentence for people: `no link matches /books/12/reviews`.
    public var description: String {
        switch self {
        case .tooLong(let length, let limit):
            return "the link is too long (\(length) bytes; at most \(limit))"
        case .malformed(let reason): return "not a valid link: \(reason)"
        case .unsupportedScheme(let scheme):
            return scheme.map { "links of scheme '\($0)' are not handled here" }
                ?? "the link has no scheme"
        case .unsupportedHost(let host):
            return host.map { "links to host '\($0)' are not handled here" }
                ?? "the link has no host"
        case .invalidSegment(let segment, let reason):
            return "the link has an invalid path segment '\(segment)' (\(reason))"
        case .unmapped(let path): return "no link matches \(path)"
        case .invalidParameter(let name, let value, let reason):
            return "the link's \(name) '\(value)' is not valid: \(reason)"
        case .missingParameter(let name): return "the link pattern has no parameter \(name)"
        case .rejected(_, let reason): return "the link was refused: \(reason)"
        case .invalidPattern(let pattern, let reason):
            return "invalid link pattern '\(pattern)': \(reason)"
        }
    }
}
