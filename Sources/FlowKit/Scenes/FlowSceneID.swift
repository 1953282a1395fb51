/// The persistent identity of a scene (a window): what the platform calls it across launches
/// (UIKit's `UISceneSession.persistentIdentifier`, a SwiftUI window's restoration id).
///
///     try app.connect("window-1", value: "main")
///
/// A scene's snapshot is stored under its identity, so a scene the system reclaimed comes
/// back with its screens when the platform reconnects it under the same identity (or under
/// a new one, with ``FlowSceneRestoration/storedUnder(_:)``).
public struct FlowSceneID: Hashable, Sendable, Codable, Comparable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The platform's identifier.
    public let rawValue: String

    /// An identity from the platform's identifier.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public static func < (lhs: FlowSceneID, rhs: FlowSceneID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// The identifier itself.
    public var description: String { rawValue }
}
