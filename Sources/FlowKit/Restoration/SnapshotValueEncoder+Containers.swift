// The containers of the snapshot value encoder (SnapshotValueEncoder.swift): each writes into
// an `_EncodingNode`; a nested container or super-encoder writes into a child node.

struct _ValueEncoder: Encoder {
    let node: _EncodingNode
    var codingPath: [any CodingKey] { node.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.become(.object)
        return KeyedEncodingContainer(_KeyedValueEncoding<Key>(node: node))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.become(.array)
        return _UnkeyedValueEncoding(node: node)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        _SingleValueEncoding(node: node)
    }
}

struct _KeyedValueEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: _EncodingNode
    var codingPath: [any CodingKey] { node.codingPath }

    mutating func encodeNil(forKey key: Key) throws { node.set(.null, for: key.stringValue) }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
        node.set(.bool(value), for: key.stringValue)
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
        node.set(.string(value), for: key.stringValue)
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        node.set(.double(value), for: key.stringValue)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        node.set(.double(Double(value)), for: key.stringValue)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws {
        node.set(.int(Int64(value)), for: key.stringValue)
    }
    mutating func encode(_ value: Int64, forKey key: Key) throws {
        node.set(.int(value), for: key.stringValue)
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
        let node = node
        node.set(
            try _SnapshotValueEncoder.integer(value) { node.codingPath(appending: key) },
            for: key.stringValue)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        if let direct = _SnapshotValueEncoder.direct(value) {
            node.set(direct, for: key.stringValue)
        } else {
            try value.encode(to: _ValueEncoder(node: node.nested(for: key, shape: .empty)))
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = node.nested(for: key, shape: .object)
        return KeyedEncodingContainer(_KeyedValueEncoding<NestedKey>(node: nested))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = node.nested(for: key, shape: .array)
        return _UnkeyedValueEncoding(node: nested)
    }

    mutating func superEncoder() -> any Encoder {
        _ValueEncoder(node: node.nested(for: _SnapshotCodingKey.super, shape: .empty))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        _ValueEncoder(node: node.nested(for: key, shape: .empty))
    }
}

struct _UnkeyedValueEncoding: UnkeyedEncodingContainer {
    let node: _EncodingNode
    var codingPath: [any CodingKey] { node.codingPath }
    var count: Int { node.array.count }

    mutating func encodeNil() throws { node.append(.null) }
    mutating func encode(_ value: Bool) throws { node.append(.bool(value)) }
    mutating func encode(_ value: String) throws { node.append(.string(value)) }
    mutating func encode(_ value: Double) throws { node.append(.double(value)) }
    mutating func encode(_ value: Float) throws { node.append(.double(Double(value))) }
    mutating func encode(_ value: Int) throws { node.append(.int(Int64(value))) }
    mutating func encode(_ value: Int64) throws { node.append(.int(value)) }
    mutating func encode(_ value: Int8) throws { try integer(value) }
    mutating func encode(_ value: Int16) throws { try integer(value) }
    mutating func encode(_ value: Int32) throws { try integer(value) }
    mutating func encode(_ value: UInt) throws { try integer(value) }
    mutating func encode(_ value: UInt8) throws { try integer(value) }
    mutating func encode(_ value: UInt16) throws { try integer(value) }
    mutating func encode(_ value: UInt32) throws { try integer(value) }
    mutating func encode(_ value: UInt64) throws { try integer(value) }

    private func integer(_ value: some BinaryInteger) throws {
        let node = node
        node.append(
            try _SnapshotValueEncoder.integer(value) {
                node.codingPath(appending: _SnapshotCodingKey(intValue: node.array.count))
            })
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        if let direct = _SnapshotValueEncoder.direct(value) {
            node.append(direct)
        } else {
            try value.encode(to: _ValueEncoder(node: node.appendedNested(shape: .empty)))
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = node.appendedNested(shape: .object)
        return KeyedEncodingContainer(_KeyedValueEncoding<NestedKey>(node: nested))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = node.appendedNested(shape: .array)
        return _UnkeyedValueEncoding(node: nested)
    }

    mutating func superEncoder() -> any Encoder {
        _ValueEncoder(node: node.appendedNested(shape: .empty))
    }
}

struct _SingleValueEncoding: SingleValueEncodingContainer {
    let node: _EncodingNode
    var codingPath: [any CodingKey] { node.codingPath }

    mutating func encodeNil() throws { node.setValue(.null) }
    mutating func encode(_ value: Bool) throws { node.setValue(.bool(value)) }
    mutating func encode(_ value: String) throws { node.setValue(.string(value)) }
    mutating func encode(_ value: Double) throws { node.setValue(.double(value)) }
    mutating func encode(_ value: Float) throws { node.setValue(.double(Double(value))) }
    mutating func encode(_ value: Int) throws { node.setValue(.int(Int64(value))) }
    mutating func encode(_ value: Int64) throws { node.setValue(.int(value)) }
    mutating func encode(_ value: Int8) throws { try integer(value) }
    mutating func encode(_ value: Int16) throws { try integer(value) }
    mutating func encode(_ value: Int32) throws { try integer(value) }
    mutating func encode(_ value: UInt) throws { try integer(value) }
    mutating func encode(_ value: UInt8) throws { try integer(value) }
    mutating func encode(_ value: UInt16) throws { try integer(value) }
    mutating func encode(_ value: UInt32) throws { try integer(value) }
    mutating func encode(_ value: UInt64) throws { try integer(value) }

    private func integer(_ value: some BinaryInteger) throws {
        let node = node
        node.setValue(try _SnapshotValueEncoder.integer(value) { node.codingPath })
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        if let direct = _SnapshotValueEncoder.direct(value) {
            node.setValue(direct)
        } else {
            try value.encode(to: _ValueEncoder(node: node))
        }
    }
}
