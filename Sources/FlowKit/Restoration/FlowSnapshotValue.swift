/// A JSON-like value: how a ``FlowSnapshot`` stores route values and saved node states
/// without knowing their types when it is decoded.
///
/// FlowKit converts any `Encodable` value to a `FlowSnapshotValue` (with an encoder of its
/// own, so the core needs no Foundation) and back to any `Decodable` type once restoration
/// knows which type to ask for. It encodes as the plain JSON it looks like:
///
///     let value: FlowSnapshotValue = .object(["detail": .object(["id": .int(7)])])
///     // {"detail":{"id":7}}
///
/// Decoding refuses values nested deeper than ``FlowSnapshot/maximumNesting`` coding levels
/// (a `DecodingError`), so a hostile document cannot exhaust the stack.
public enum FlowSnapshotValue: Codable, Sendable, Hashable {
    /// No value (`nil`).
    case null
    /// A Boolean.
    case bool(Bool)
    /// An integer (every fixed-width integer type that fits in 64 signed bits).
    case int(Int64)
    /// A floating-point number.
    case double(Double)
    /// A string.
    case string(String)
    /// An ordered list (unkeyed containers: arrays, sets, tuples of synthesized enums).
    case array([FlowSnapshotValue])
    /// String keys and values (keyed containers: structs, enums with associated values).
    case object([String: FlowSnapshotValue])

    /// Encodes `value` as a snapshot value.
    ///
    ///     let value = try FlowSnapshotValue(encoding: Screen.detail(id: 7))
    ///
    /// - Throws: `EncodingError` if `value` cannot be encoded (an integer out of the
    ///   64-bit signed range), and what the value's own `encode(to:)` throws.
    public init(encoding value: some Encodable) throws {
        self = try _SnapshotValueEncoder.encode(value)
    }

    /// Decodes a value of `type` from this snapshot value.
    ///
    ///     let screen = try value.decode(Screen.self)
    ///
    /// - Throws: `DecodingError` if this value does not have the shape `type` expects.
    public func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        try _SnapshotValueDecoder.decode(type, from: self)
    }

    /// Decodes a snapshot value from any decoder, as the JSON value it is.
    ///
    /// - Throws: `DecodingError` if the input is not a JSON-like value or is nested deeper
    ///   than ``FlowSnapshot/maximumNesting`` coding levels.
    public init(from decoder: any Decoder) throws {
        if decoder.codingPath.count >= FlowSnapshot.maximumNesting {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription:
                        "nested deeper than \(FlowSnapshot.maximumNesting) coding levels"))
        }
        // Each failed probe is a thrown error, which some decoders make expensively, so the
        // order puts what snapshots hold most (objects for enum routes and structs, strings,
        // integers) first; `null` is checked without throwing.
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let object = try? decoder.container(keyedBy: _SnapshotCodingKey.self) {
            var items: [String: FlowSnapshotValue] = [:]
            items.reserveCapacity(object.allKeys.count)
            for key in object.allKeys {
                items[key.stringValue] = try object.decode(FlowSnapshotValue.self, forKey: key)
            }
            self = .object(items)
        } else if let value = try? single.decode(String.self) {
            self = .string(value)
        } else if let value = try? single.decode(Int64.self) {
            self = .int(value)
        } else if var array = try? decoder.unkeyedContainer() {
            var items: [FlowSnapshotValue] = []
            if let count = array.count { items.reserveCapacity(count) }
            while !array.isAtEnd { items.append(try array.decode(FlowSnapshotValue.self)) }
            self = .array(items)
        } else if let value = try? single.decode(Double.self) {
            self = .double(value)
        } else {
            self = .bool(try single.decode(Bool.self))
        }
    }

    /// Encodes the value as the JSON value it is.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
