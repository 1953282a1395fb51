/// An app's snapshot schema: the version of its routes and saved states that it writes into
/// snapshots, and how to read the snapshots its older versions wrote.
///
///     var schema = FlowSnapshotSchema(version: 3)
///     // 3: `Screen` was renamed `Page` (snapshots name it `Bookshelf.Screen`).
///     schema.renameRoute("Bookshelf.Screen", to: Page.self)
///     // 2: `detail(Int)` became `detail(id: Int)`; the settings screen was removed.
///     schema.migrateRoutes(of: Page.self, to: 2, from: ScreenV1.self) { old in
///         switch old {
///         case .detail(let id): return Page.detail(id: id)
///         case .settings: return nil  // dropped: restored like a refused guard
///         }
///     }
///     runtime.snapshotSchema = schema
///
/// ``FlowRuntime/snapshot()`` stamps snapshots with ``version``
/// (``FlowSnapshot/schema``), and ``FlowRuntime/start(restoring:routeTypes:)`` reads each
/// stored route and saved state through the schema before the node it describes is built:
///
/// - A stored route type name is looked up among the known route types, then among the
///   renamed ones (``renameRoute(_:to:)``), whatever the snapshot's schema.
/// - Then the route migrations of that type registered for versions newer than the
///   snapshot's schema run in order of version, each reading the shape the one before wrote
///   (``migrateRoutes(of:to:from:_:)``), and the result is decoded as the type.
/// - A saved state of a ``FlowRestorable`` node goes through the state migrations of the
///   node's class the same way (``migrateStates(of:to:from:_:)``).
///
/// A route that is unknown, does not decode, is dropped by its migration (it returned `nil`)
/// or whose migration threw is treated exactly like a refused guard: a stack entry and the
/// entries above it are left out, a presented node is not presented, an embedded child is
/// left out and its parent gets its defaults; the root and the tabs cannot be left out, so
/// the restoration then fails. A state migration that throws leaves its node out the same
/// way; one that returns `nil` restores the node without a state. Each node left out is in
/// ``FlowRestoreReport/skipped`` with the reason.
///
/// A snapshot without a schema version (made before the app declared one) has version 0:
/// every migration applies. One from a newer schema (an app downgraded) is read as it is.
public struct FlowSnapshotSchema: Sendable {
    /// A route type that a snapshot may store, as restoration decodes it.
    typealias RouteType = any (Decodable & Hashable & Sendable).Type

    /// One change of shape: the version it came with and the conversion of a stored value
    /// from the shape before it (`nil` drops the value).
    struct Step: Sendable {
        let version: Int
        let convert: @Sendable (FlowSnapshotValue) throws -> FlowSnapshotValue?
    }

    /// The schema version the app writes, stamped on every snapshot it makes.
    public let version: Int
    /// Route types by a name older snapshots store them under.
    private(set) var renamed: [String: RouteType] = [:]
    /// Route migrations by the route type's identity, in order of version.
    private(set) var routeSteps: [ObjectIdentifier: [Step]] = [:]
    /// State migrations by the node class's identity, in order of version.
    private(set) var stateSteps: [ObjectIdentifier: [Step]] = [:]

    /// A schema at `version` (the first is 1), without migrations yet.
    public init(version: Int) {
        self.version = version
    }

    /// Reads routes that snapshots store under `oldName` (as `String(reflecting:)` named the
    /// type then: `Bookshelf.Screen`) as `type`: the type was renamed or moved. The type's
    /// route migrations still apply to them.
    ///
    ///     schema.renameRoute("Bookshelf.Screen", to: Page.self)
    ///
    /// - Precondition: `oldName` is not the name of `type` itself and was not renamed to
    ///   another type before.
    public mutating func renameRoute(
        _ oldName: String, to type: (some Codable & Hashable & Sendable).Type
    ) {
        precondition(
            oldName != String(reflecting: type),
            "FlowSnapshotSchema: '\(oldName)' is the name of the type itself")
        precondition(
            renamed[oldName] == nil || renamed[oldName] == type,
            "FlowSnapshotSchema: '\(oldName)' is already renamed to another type")
        renamed[oldName] = type
    }

    /// Migrates the values of `type`'s routes in snapshots older than schema `version`: a
    /// stored value is decoded as `old` (the shape the schema before `version` wrote) and
    /// `migrate` returns it in the shape of `version`, or `nil` to drop the route.
    ///
    ///     schema.migrateRoutes(of: Page.self, to: 2, from: ScreenV1.self) { old in
    ///         old.id.map { Page.detail(id: $0) }
    ///     }
    ///
    /// Migrations of one type chain: a snapshot of schema 1 read by schema 3 goes through
    /// the migration to 2, then the one to 3 (which decodes what the first returned). The
    /// last one returns the current type; earlier ones may return any `Encodable` copy of
    /// an old shape. A dropped route, or a `migrate` that throws, leaves its node out like a
    /// refused guard (the reason is in the report).
    ///
    /// - Precondition: `version` is from 1 to ``version``, and `type` has no other route
    ///   migration to `version`.
    public mutating func migrateRoutes<Route, Old, New>(
        of type: Route.Type, to version: Int, from old: Old.Type,
        _ migrate: @escaping @Sendable (Old) throws -> New?
    )
    where Route: Codable & Hashable & Sendable, Old: Decodable & Sendable, New: Encodable & Sendable
    {
        add(Self.step(to: version, from: old, migrate), to: &routeSteps, for: type)
    }

    /// Migrates the saved states of `node`'s instances (a ``FlowRestorable`` class) in
    /// snapshots older than schema `version`: a stored state is decoded as `old` and `migrate`
    /// returns it in the shape of `version` (the last migration returns the node's
    /// `SavedState`), or `nil` to restore the node without a state (its guard then decides,
    /// as for a node that saved none).
    ///
    ///     schema.migrateStates(of: MainFlow.self, to: 2, from: SessionV1.self) { old in
    ///         Session(user: old.name, favourites: [])
    ///     }
    ///
    /// Migrations of one class chain as route migrations do. A `migrate` that throws leaves
    /// the node out like a refused guard (the root and the tabs cannot be left out: the
    /// restoration then fails with ``FlowSnapshotError/stateRejected(path:reason:)``). The
    /// node's exact class is matched (not a subclass).
    ///
    /// - Precondition: `version` is from 1 to ``version``, and `node` has no other state
    ///   migration to `version`.
    public mutating func migrateStates<Node, Old, New>(
        of node: Node.Type, to version: Int, from old: Old.Type,
        _ migrate: @escaping @Sendable (Old) throws -> New?
    ) where Node: FlowRestorable, Old: Decodable & Sendable, New: Encodable & Sendable {
        add(Self.step(to: version, from: old, migrate), to: &stateSteps, for: node)
    }

    private func add(_ step: Step, to table: inout [ObjectIdentifier: [Step]], for type: Any.Type) {
        precondition(
            step.version >= 1 && step.version <= self.version,
            "FlowSnapshotSchema: a migration to version \(step.version) in a schema at version "
                + "\(self.version) (it must be from 1 to \(self.version))")
        var steps = table[ObjectIdentifier(type), default: []]
        precondition(
            !steps.contains { $0.version == step.version },
            "FlowSnapshotSchema: two migrations of \(type) to version \(step.version)")
        steps.append(step)
        steps.sort { $0.version < $1.version }
        table[ObjectIdentifier(type)] = steps
    }

    private static func step<Old: Decodable & Sendable, New: Encodable & Sendable>(
        to version: Int, from old: Old.Type, _ migrate: @escaping @Sendable (Old) throws -> New?
    ) -> Step {
        Step(version: version) { value in
            try migrate(try value.decode(Old.self)).map { try FlowSnapshotValue(encoding: $0) }
        }
    }

    /// The route types this schema knows (the targets of renames): restoration knows them
    /// wherever they are stored.
    var knownRouteTypes: [RouteType] { Array(renamed.values) }
}

/// The outcome of running a value through the migrations newer than a snapshot's schema.
enum _Migrated {
    case value(FlowSnapshotValue)
    /// Dropped by the migration to this version.
    case dropped(version: Int)
}

extension FlowSnapshotSchema {
    /// Runs `value` through `steps` newer than `schema` (the snapshot's), in order.
    ///
    /// - Throws: What a migration threw (a value that does not decode as its old shape, or
    ///   the app's own error), wrapped with its version.
    static func run(
        _ steps: [Step], on value: FlowSnapshotValue, from schema: Int
    ) throws -> _Migrated {
        var value = value
        for step in steps where step.version > schema {
            do {
                guard let next = try step.convert(value) else {
                    return .dropped(version: step.version)
                }
                value = next
            } catch {
                throw _MigrationError(version: step.version, underlying: error)
            }
        }
        return .value(value)
    }
}

/// A migration that threw, and the version it migrated to.
struct _MigrationError: Error, CustomStringConvertible {
    let version: Int
    let underlying: any Error

    var description: String { "its migration to schema \(version) failed: \(underlying)" }
}
