// An `Encoder` that turns any `Encodable` value into a `FlowSnapshotValue` (the core has no
// Foundation, so no JSONEncoder). Containers write into reference-typed slots, so nested
// containers and super-encoders can be filled in any order, as the Encoder protocol allows.

/// Converts `Encodable` values to ``FlowSnapshotValue``.
enum _SnapshotValueEncoder {
    /// Encodes `value`. A value that encodes nothing becomes an empty object (as JSON does
    /// for a nested value).
    static func encode(_ value: some Encodable) throws -> FlowSnapshotValue {
        if let value = value as? FlowSnapshotValue { return value }
        let slot = _EncodingSlot()
        try value.encode(to: _ValueEncoder(slot: slot, codingPath: []))
        return slot.value
    }

    /// Encodes `value` into a new slot at `codingPath`.
    static func slot(
        for value: some Encodable, at codingPath: [any CodingKey]
    ) throws -> _EncodingSlot {
        let slot = _EncodingSlot()
        if let value = value as? FlowSnapshotValue {
            slot.content = .value(value)
        } else {
            try value.encode(to: _ValueEncoder(slot: slot, codingPath: codingPath))
        }
        return slot
    }

    /// An integer as a snapshot value, or an error if it does not fit in 64 signed bits.
    static func integer(
        _ value: some BinaryInteger, at codingPath: [any CodingKey]
    ) throws -> FlowSnapshotValue {
        guard let exact = Int64(exactly: value) else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "\(value) does not fit in a 64-bit signed integer"))
        }
        return .int(exact)
    }
}

/// Where one encoded value goes: filled by a container (or left empty).
final class _EncodingSlot {
    enum Content {
        case empty
        case value(FlowSnapshotValue)
        case object(_EncodingObject)
        case array(_EncodingArray)
    }

    var content = Content.empty

    /// The finished value.
    var value: FlowSnapshotValue {
        switch content {
        case .empty: return .object([:])
        case .value(let value): return value
        case .object(let object): return .object(object.items.mapValues(\.value))
        case .array(let array): return .array(array.items.map(\.value))
        }
    }

    /// The object this slot holds, made if it holds none yet.
    func object() -> _EncodingObject {
        if case .object(let object) = content { return object }
        let object = _EncodingObject()
        content = .object(object)
        return object
    }

    /// The array this slot holds, made if it holds none yet.
    func array() -> _EncodingArray {
        if case .array(let array) = content { return array }
        let array = _EncodingArray()
        content = .array(array)
        return array
    }
}

final class _EncodingObject {
    var items: [String: _EncodingSlot] = [:]

    func set(_ value: FlowSnapshotValue, for key: String) {
        let slot = _EncodingSlot()
        slot.content = .value(value)
        items[key] = slot
    }
}

final class _EncodingArray {
    var items: [_EncodingSlot] = []

    func append(_ value: FlowSnapshotValue) {
        let slot = _EncodingSlot()
        slot.content = .value(value)
        items.append(slot)
    }
}

/// A coding key made from a string or an index (array positions, `super`).
struct _SnapshotCodingKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }

    static let `super` = _SnapshotCodingKey(stringValue: "super")
}

struct _ValueEncoder: Encoder {
    let slot: _EncodingSlot
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(
            _KeyedValueEncoding<Key>(object: slot.object(), codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        _UnkeyedValueEncoding(array: slot.array(), codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        _SingleValueEncoding(slot: slot, codingPath: codingPath)
    }
}

struct _KeyedValueEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let object: _EncodingObject
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { object.set(.null, for: key.stringValue) }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
        object.set(.bool(value), for: key.stringValue)
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
        object.set(.string(value), for: key.stringValue)
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        object.set(.double(value), for: key.stringValue)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        object.set(.double(Double(value)), for: key.stringValue)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws {
        object.set(.int(Int64(value)), for: key.stringValue)
    }
    mutating func encode(_ value: Int64, forKey key: Key) throws {
        object.set(.int(value), for: key.stringValue)
    }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try integer(value, key) }

    private func integer(_ value: some BinaryInteger, _ key: Key) throws {
        object.set(
            try _SnapshotValueEncoder.integer(value, at: codingPath + [key]), for: key.stringValue)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        object.items[key.stringValue] = try _SnapshotValueEncoder.slot(
            for: value, at: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let slot = _EncodingSlot()
        object.items[key.stringValue] = slot
        return KeyedEncodingContainer(
            _KeyedValueEncoding<NestedKey>(object: slot.object(), codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let slot = _EncodingSlot()
        object.items[key.stringValue] = slot
        return _UnkeyedValueEncoding(array: slot.array(), codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        superEncoder(key: _SnapshotCodingKey.super)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        superEncoder(key: key)
    }

    private func superEncoder(key: any CodingKey) -> any Encoder {
        let slot = _EncodingSlot()
        object.items[key.stringValue] = slot
        return _ValueEncoder(slot: slot, codingPath: codingPath + [key])
    }
}

struct _UnkeyedValueEncoding: UnkeyedEncodingContainer {
    let array: _EncodingArray
    let codingPath: [any CodingKey]
    var count: Int { array.items.count }

    private var nextKey: any CodingKey { _SnapshotCodingKey(intValue: array.items.count) }

    mutating func encodeNil() throws { array.append(.null) }
    mutating func encode(_ value: Bool) throws { array.append(.bool(value)) }
    mutating func encode(_ value: String) throws { array.append(.string(value)) }
    mutating func encode(_ value: Double) throws { array.append(.double(value)) }
    mutating func encode(_ value: Float) throws { array.append(.double(Double(value))) }
    mutating func encode(_ value: Int) throws { array.append(.int(Int64(value))) }
    mutating func encode(_ value: Int64) throws { array.append(.int(value)) }
    mutating func encode(_ value: Int8) throws { try integer(value) }
    mutating func encode(_ value: Int16) throws { try integer(value) }
    mutating func encode(_ value: Int32) throws { try integer(value) }
    mutating func encode(_ value: UInt) throws { try integer(value) }
    mutating func encode(_ value: UInt8) throws { try integer(value) }
    mutating func encode(_ value: UInt16) throws { try integer(value) }
    mutating func encode(_ value: UInt32) throws { try integer(value) }
    mutating func encode(_ value: UInt64) throws { try integer(value) }

    private func integer(_ value: some BinaryInteger) throws {
        array.append(try _SnapshotValueEncoder.integer(value, at: codingPath + [nextKey]))
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        array.items.append(try _SnapshotValueEncoder.slot(for: value, at: codingPath + [nextKey]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let path = codingPath + [nextKey]
        let slot = _EncodingSlot()
        array.items.append(slot)
        return KeyedEncodingContainer(
            _KeyedValueEncoding<NestedKey>(object: slot.object(), codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = codingPath + [nextKey]
        let slot = _EncodingSlot()
        array.items.append(slot)
        return _UnkeyedValueEncoding(array: slot.array(), codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let path = codingPath + [nextKey]
        let slot = _EncodingSlot()
        array.items.append(slot)
        return _ValueEncoder(slot: slot, codingPath: path)
    }
}

struct _SingleValueEncoding: SingleValueEncodingContainer {
    let slot: _EncodingSlot
    let codingPath: [any CodingKey]

    private func set(_ value: FlowSnapshotValue) { slot.content = .value(value) }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.bool(value)) }
    mutating func encode(_ value: String) throws { set(.string(value)) }
    mutating func encode(_ value: Double) throws { set(.double(value)) }
    mutating func encode(_ value: Float) throws { set(.double(Double(value))) }
    mutating func encode(_ value: Int) throws { set(.int(Int64(value))) }
    mutating func encode(_ value: Int64) throws { set(.int(value)) }
    mutating func encode(_ value: Int8) throws { try integer(value) }
    mutating func encode(_ value: Int16) throws { try integer(value) }
    mutating func encode(_ value: Int32) throws { try integer(value) }
    mutating func encode(_ value: UInt) throws { try integer(value) }
    mutating func encode(_ value: UInt8) throws { try integer(value) }
    mutating func encode(_ value: UInt16) throws { try integer(value) }
    mutating func encode(_ value: UInt32) throws { try integer(value) }
    mutating func encode(_ value: UInt64) throws { try integer(value) }

    private func integer(_ value: some BinaryInteger) throws {
        set(try _SnapshotValueEncoder.integer(value, at: codingPath))
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        if let value = value as? FlowSnapshotValue {
            set(value)
        } else {
            try value.encode(to: _ValueEncoder(slot: slot, codingPath: codingPath))
        }
    }
}
