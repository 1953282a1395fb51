import FlowKit
import Foundation

/// What a URL matched: its parameters, typed on access, and its query items.
public struct FlowURLMatch: Sendable {
    /// The URL as given.
    public let url: String
    /// The values of the pattern's `:name` parameters, percent-decoded.
    public let parameters: [String: String]
    /// The query items, percent-decoded (the first of repeated names wins).
    public let query: [String: String]

    /// The parameter `name` as text.
    ///
    /// - Throws: ``FlowURLError/missingParameter(_:)`` if the pattern has no such parameter.
    public func string(_ name: String) throws -> String {
        guard let value = parameters[name] else { throw FlowURLError.missingParameter(name) }
        return value
    }

    /// The parameter `name` as a decimal integer (ASCII digits, optional leading `-`), within
    /// `range` if given.
    ///
    /// - Throws: ``FlowURLError/invalidParameter(name:value:reason:)`` if it is not such a
    ///   number, overflows `Int`, or lies outside `range`.
    public func int(_ name: String, in range: ClosedRange<Int>? = nil) throws -> Int {
        let text = try string(name)
        let digits = text.hasPrefix("-") ? text.dropFirst() : text[...]
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            throw FlowURLError.invalidParameter(name: name, value: text, reason: "not a number")
        }
        guard let value = Int(text) else {
            throw FlowURLError.invalidParameter(name: name, value: text, reason: "too large")
        }
        if let range, !range.contains(value) {
            throw FlowURLError.invalidParameter(
                name: name, value: text,
                reason: "out of range \(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }

    /// The query item `name`, or `nil`.
    public func query(_ name: String) -> String? { query[name] }
}
