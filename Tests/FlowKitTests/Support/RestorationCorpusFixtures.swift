import Foundation
import Testing

@testable import FlowKit

/// A corrupt or hostile snapshot document, made from a valid one.
struct HostileSnapshot: CustomStringConvertible, Sendable {
    /// What the document must give: a `DecodingError` when decoded, or a
    /// `FlowSnapshotError` of this case when restored.
    enum Outcome: Equatable, Sendable {
        case decodingError
        case snapshotError(String)
        /// Either one (a truncated document may still parse as another shape).
        case anyTypedError
    }

    let name: String
    let data: Data
    let outcome: Outcome
    /// A document made in memory, restored without JSON (`data` is then unused).
    var snapshot: FlowSnapshot?
    var routeTypes: [any (Codable & Hashable & Sendable).Type] = [LoginStep.self]

    var description: String { name }
}

/// The name of a ``FlowSnapshotError`` case.
func caseName(_ error: FlowSnapshotError) -> String {
    switch error {
    case .notEncodable: return "notEncodable"
    case .unsupportedVersion: return "unsupportedVersion"
    case .tooDeep: return "tooDeep"
    case .tooLarge: return "tooLarge"
    case .impossibleShape: return "impossibleShape"
    case .mismatch: return "mismatch"
    case .unknownRoute: return "unknownRoute"
    case .invalidRoute: return "invalidRoute"
    case .buildFailed: return "buildFailed"
    case .stateRejected: return "stateRejected"
    }
}

/// One step of a path into a JSON-like value.
enum ValueStep {
    case key(String)
    case index(Int)
}

extension FlowSnapshotValue {
    /// Changes the value at `path` with `body` (a missing key starts as `null`).
    mutating func edit(_ path: ArraySlice<ValueStep>, _ body: (inout FlowSnapshotValue) -> Void) {
        guard let step = path.first else { return body(&self) }
        switch (step, self) {
        case (.key(let key), .object(var items)):
            var item = items[key] ?? .null
            item.edit(path.dropFirst(), body)
            items[key] = item
            self = .object(items)
        case (.index(let index), .array(var items)):
            items[index].edit(path.dropFirst(), body)
            self = .array(items)
        default:
            Issue.record("no \(step) in \(self.kindDescription)")
        }
    }
}

/// Paths to the nodes of the saved fixture app's snapshot.
enum NodePath {
    static let root: [ValueStep] = [.key("root")]
    static let main = root + [.key("children"), .index(0)]
    static let tabs = main + [.key("children"), .index(0)]
    static let catalog = tabs + [.key("children"), .index(0)]
    static let list = catalog + [.key("children"), .index(0)]
    static let detail = catalog + [.key("children"), .index(1)]
    static let review = catalog + [.key("children"), .index(3)]
    static let share = review + [.key("presented")]
    static let search = tabs + [.key("children"), .index(1)]
}

/// A snapshot in format 1's long form, as FlowKit wrote whole snapshots before format 2
/// (the nodes, routes and history entries still encode so on their own).
struct LegacySnapshotDocument: Encodable {
    let snapshot: FlowSnapshot

    init(_ snapshot: FlowSnapshot) {
        self.snapshot = snapshot
    }

    private enum CodingKeys: String, CodingKey {
        case version, root, history
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(1, forKey: .version)
        try container.encode(snapshot.root, forKey: .root)
        try container.encode(snapshot.history, forKey: .history)
    }
}
