/// A node's identity: unique among all nodes made in the process, never reused.
///
/// Names are path components and repeat (two `detail` entries on one stack); identities
/// don't. ``FlowChange`` reports them beside paths, ``FlowRuntime/node(id:)`` finds the live
/// node, and SwiftUI can use them as the values of a `NavigationStack` path or a `TabView`
/// selection (see <doc:Hosting>).
public struct FlowNodeID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The number behind the identity: nodes made later have larger numbers.
    public let rawValue: UInt64

    /// Wraps a raw identity (for example one a host stored).
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    public static func < (lhs: FlowNodeID, rhs: FlowNodeID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// `#42`.
    public var description: String { "#\(rawValue)" }
}

extension FlowController: Identifiable {
    /// The node's identity, unique in the process (see ``FlowNodeID``). It never changes.
    public nonisolated var id: FlowNodeID { FlowNodeID(rawValue: _serial) }
}
