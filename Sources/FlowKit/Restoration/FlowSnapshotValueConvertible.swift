/// A route value that converts itself to and from a ``FlowSnapshotValue`` directly: snapshots
/// store and restore it without running its `Codable` conformance.
///
/// FlowKit stores any `Codable` route value by running its `encode(to:)` and `init(from:)`
/// through coders of its own. For an enum with associated values, most of that is the
/// standard library's machinery: a boxed container per level, found at run time, and the
/// array of keys it converts twice. On the benchmark machine (Docs/Performance.md, "Launch")
/// that costs about 0.7 µs more per route to store, and 1 µs more to read back, than the
/// conversion below: more than the rest of taking or restoring a snapshot. An app whose trees
/// hold many routes of a few types can write the conversion once per type instead:
///
///     enum Screen: Hashable, Sendable, Codable, FlowSnapshotValueConvertible {
///         case list
///         case item(id: Int)
///
///         var snapshotValue: FlowSnapshotValue {
///             switch self {
///             case .list: return .enumCase("list")
///             case .item(let id): return .enumCase("item", ["id": .int(Int64(id))])
///             }
///         }
///
///         init(snapshotValue value: FlowSnapshotValue) throws {
///             guard let (name, fields) = value.enumCase else {
///                 throw value.typeMismatch(Screen.self)
///             }
///             switch name {
///             case "list": self = .list
///             case "item":
///                 guard case .int(let id)? = fields["id"], let id = Int(exactly: id) else {
///                     throw value.typeMismatch(Screen.self)
///                 }
///                 self = .item(id: id)
///             default: throw value.typeMismatch(Screen.self)
///             }
///         }
///     }
///
/// The two members must agree with the type's `Codable` conformance: ``snapshotValue`` is
/// the value `FlowSnapshotValue(encoding:)` makes of the route, and
/// ``init(snapshotValue:)`` reads what `FlowSnapshotValue.decode(_:)` reads (and refuses
/// what it refuses). Snapshots saved before the type adopted the protocol, or read back by
/// a release that drops it, then restore the same; migrations, the size budget and the JSON
/// see the same values. In debug builds FlowKit checks every conversion against the
/// `Codable` one and stops with an assertion naming the type and both values where they
/// differ; release builds run the conversion alone.
///
/// FlowKit uses the two members for route values (a node's route and its recorded
/// history); a node's saved state (``FlowRestorable``) and the values inside a route still go
/// through `Codable`.
public protocol FlowSnapshotValueConvertible: Codable {
    /// This value as a snapshot stores it: the value `FlowSnapshotValue(encoding: self)`
    /// makes.
    var snapshotValue: FlowSnapshotValue { get }

    /// Reads a value back from what a snapshot stored: the value
    /// `snapshotValue.decode(Self.self)` reads.
    ///
    /// - Throws: Any error for a value of another shape (as `init(from:)` would): the
    ///   restoration leaves the node out and reports why, as for a route that does not
    ///   decode.
    init(snapshotValue: FlowSnapshotValue) throws
}

extension FlowSnapshotValue {
    /// An enum case as its synthesized `Codable` conformance stores it: an object whose one
    /// key is the case's name, holding the associated values by label (`_0`, `_1` … for
    /// values without one). A case without associated values holds an empty object.
    ///
    ///     .enumCase("list")                      // {"list": {}}
    ///     .enumCase("item", ["id": .int(7)])     // {"item": {"id": 7}}
    public static func enumCase(
        _ name: String, _ fields: [String: FlowSnapshotValue] = [:]
    ) -> FlowSnapshotValue {
        .object([name: .object(fields)])
    }

    /// This value read as an enum case stored that way (see ``enumCase(_:_:)``): the case's
    /// name and its associated values by label; `nil` for a value of another shape.
    public var enumCase: (name: String, fields: [String: FlowSnapshotValue])? {
        guard case .object(let cases) = self, cases.count == 1, let (name, payload) = cases.first,
            case .object(let fields) = payload
        else { return nil }
        return (name, fields)
    }

    /// The error to throw from ``FlowSnapshotValueConvertible/init(snapshotValue:)`` for a
    /// value that is not a `type`: a `DecodingError` that says what was found, as the
    /// `Codable` path's does.
    ///
    ///     throw value.typeMismatch(Screen.self)
    ///     // "expected Screen, found a string"
    public func typeMismatch(_ type: Any.Type) -> DecodingError {
        _SnapshotValueDecoder.mismatch(type, self, at: [])
    }
}

/// `base` (of the dynamic type `Value`) as a snapshot stores it, through its own conversion.
/// In debug builds, asserts that the conversion agrees with the `Codable` one.
func _convertedSnapshotValue<Value: FlowSnapshotValueConvertible>(
    of base: any Hashable & Sendable, as type: Value.Type
) -> FlowSnapshotValue {
    let route = base as! Value
    let value = route.snapshotValue
    assert(
        _agreesWithCodable(value, of: route),
        "FlowSnapshotValueConvertible: \(Value.self).snapshotValue is \(value), but its "
            + "Codable form is \(String(describing: try? FlowSnapshotValue(encoding: route)))")
    return value
}

/// A stored route value read back as `Value` through its own conversion. In debug builds,
/// asserts that the conversion agrees with the `Codable` one (the same value, or both
/// refuse).
func _convertedRoute<Value: FlowSnapshotValueConvertible & Hashable & Sendable>(
    _ type: Value.Type, from value: FlowSnapshotValue
) throws -> FlowRoute {
    let route: Value
    do {
        route = try Value(snapshotValue: value)
    } catch {
        assert(
            (try? value.decode(Value.self)) == nil,
            "FlowSnapshotValueConvertible: \(Value.self)(snapshotValue:) refused \(value), "
                + "which its Codable conformance reads")
        throw error
    }
    assert(
        (try? value.decode(Value.self)) == route,
        "FlowSnapshotValueConvertible: \(Value.self)(snapshotValue:) read \(value) as "
            + "\(route), but its Codable conformance reads "
            + "\(String(describing: try? value.decode(Value.self)))")
    return FlowRoute(route)
}

/// Whether `value` is what the `Codable` path makes of `route`.
private func _agreesWithCodable(
    _ value: FlowSnapshotValue, of route: some FlowSnapshotValueConvertible
) -> Bool {
    (try? FlowSnapshotValue(encoding: route)) == value
}
