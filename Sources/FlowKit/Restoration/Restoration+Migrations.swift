// Reading stored routes and states through the app's schema (FlowSnapshotSchema) before the
// node they describe is built, and what a route or state that cannot be read costs: the node
// is left out like one whose guard refused (`_LeftOut`), except where nothing can be left
// out (the root, a tab, a region), where the restoration fails with the typed error. Also the
// route types a restoration knows: learned from the nodes, found by name.

/// A stored route or state that cannot be read: its node is left out with `reason`, or, where
/// a node cannot be left out, the restoration fails with `error`.
struct _LeftOut: Error {
    let error: FlowSnapshotError
    let reason: String
}

extension _Restoration {
    /// The stored route as a route: its type found among the known ones (then the schema's
    /// renamed ones), its value migrated from the snapshot's schema and decoded.
    ///
    /// - Throws: `_LeftOut` for an unknown type, a value that does not decode, a route a
    ///   migration dropped or a migration that threw. `path` (the node's, for errors) is
    ///   made only then.
    func resolve(
        _ stored: FlowSnapshot.Route, at path: @autoclosure () -> String
    ) throws -> FlowRoute {
        guard let (type, convertible) = routeTypeEntry(named: stored.type) else {
            throw _LeftOut(
                error: .unknownRoute(path: path(), type: stored.type),
                reason: "its route type \(stored.type) is unknown")
        }
        var value = stored.value
        if let steps = schema?.routeSteps[ObjectIdentifier(type)] {
            do {
                switch try FlowSnapshotSchema.run(steps, on: value, from: snapshotSchema) {
                case .value(let migrated):
                    value = migrated
                case .dropped(let version):
                    let reason =
                        "its route (\(stored.type)) was dropped by its migration to "
                        + "schema \(version)"
                    throw _LeftOut(
                        error: .invalidRoute(path: path(), type: stored.type, reason: reason),
                        reason: reason)
                }
            } catch let error as _MigrationError {
                let reason = "its route (\(stored.type)): \(error)"
                throw _LeftOut(
                    error: .invalidRoute(path: path(), type: stored.type, reason: reason),
                    reason: reason)
            }
        }
        do {
            if let convertible { return try _convertedRoute(convertible, from: value) }
            return try _decodeRoute(type, from: value)
        } catch {
            let name = String(reflecting: type)
            throw _LeftOut(
                error: .invalidRoute(path: path(), type: stored.type, reason: "\(error)"),
                reason: "its route does not decode as \(name): \(_shortReason(error))")
        }
    }

    /// `stored`'s saved state for `node`, migrated from the snapshot's schema; `nil` when a
    /// migration dropped it.
    ///
    /// - Throws: `_LeftOut` when a migration threw.
    func migratedState(
        _ state: FlowSnapshotValue, of node: FlowController
    ) throws -> FlowSnapshotValue? {
        guard let steps = schema?.stateSteps[ObjectIdentifier(type(of: node))] else {
            return state
        }
        do {
            switch try FlowSnapshotSchema.run(steps, on: state, from: snapshotSchema) {
            case .value(let migrated): return migrated
            case .dropped: return nil
            }
        } catch let error as _MigrationError {
            let reason = "its saved state: \(error)"
            throw _LeftOut(error: .stateRejected(path: node.path, reason: reason), reason: reason)
        }
    }

    /// The stored history routes for `path`, up to the first one that cannot be read (the
    /// rest is left out and reported).
    func resolveHistory(_ stored: [FlowSnapshot.Route], at path: String) -> [FlowRoute] {
        var routes: [FlowRoute] = []
        routes.reserveCapacity(stored.count)
        for (index, route) in stored.enumerated() {
            do {
                routes.append(try resolve(route, at: path))
            } catch {
                let reason = (error as? _LeftOut)?.reason ?? "\(error)"
                reportSkipped(
                    path: path,
                    reason:
                        "its recorded history was cut before route \(index + 1) of "
                        + "\(stored.count): \(reason)")
                break
            }
        }
        return routes
    }

    /// Runs `body`, turning a `_LeftOut` into its typed error (where nothing can be left
    /// out).
    func failingLeftOut<Result>(_ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch let leftOut as _LeftOut {
            throw leftOut.error
        }
    }
}

extension _Restoration {
    // MARK: Route types

    /// Learns the value types of the routes `node` registers (exact routes, families,
    /// global routes): the types its snapshot children and their descendants may have.
    func learnTypes(of node: FlowController) {
        guard let extras = node._extras else { return }
        for route in extras.factories.keys { learn(type(of: route.base)) }
        for route in extras.globals.keys { learn(type(of: route.base)) }
        for type in extras.familyTypes.values { learn(type) }
    }

    /// The route type named `name`: a known one, else one the schema renamed; with the type
    /// as ``FlowSnapshotValueConvertible`` (`nil` if it is not).
    func routeTypeEntry(
        named name: String
    ) -> (
        type: any (Decodable & Hashable & Sendable).Type,
        convertible: (any (FlowSnapshotValueConvertible & Hashable & Sendable).Type)?
    )? {
        if let lastType, lastType.name == name { return (lastType.type, lastType.convertible) }
        guard let type = types[name] ?? schema?.renamed[name] else { return nil }
        let convertible = type as? any (FlowSnapshotValueConvertible & Hashable & Sendable).Type
        lastType = (name, type, convertible)
        return (type, convertible)
    }

    /// Knows `type` by its `String(reflecting:)` name if it can be a route value.
    func learn(_ type: Any.Type) {
        guard seenTypes.insert(ObjectIdentifier(type)).inserted,
            let type = type as? any (Decodable & Hashable & Sendable).Type
        else { return }
        let name = String(reflecting: type)
        if types[name] == nil { types[name] = type }
    }
}

/// Decodes a stored route value as `type` (an opened route type).
func _decodeRoute<Value: Decodable & Hashable & Sendable>(
    _ type: Value.Type, from value: FlowSnapshotValue
) throws -> FlowRoute {
    FlowRoute(try value.decode(type))
}

/// A decoding error in one line for a report: what is wrong, and where in the value.
func _shortReason(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return "\(error)" }
    let what: String
    let context: DecodingError.Context
    switch error {
    case .typeMismatch(_, let found), .valueNotFound(_, let found), .dataCorrupted(let found):
        (what, context) = (found.debugDescription, found)
    case .keyNotFound(let key, let found):
        (what, context) = ("no value for '\(key.stringValue)'", found)
    @unknown default:
        return "\(error)"
    }
    let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }
    return path.isEmpty ? what : "\(what) (at \(path.joined().drop { $0 == "." }))"
}
