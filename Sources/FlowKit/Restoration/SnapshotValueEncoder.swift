// An `Encoder` that turns any `Encodable` value into a `FlowSnapshotValue` (the core has no
// Foundation, so no JSONEncoder).
//
// Each container writes into an `_EncodingNode`, a reference, so nested containers and
// super-encoders can be filled in any order, as the Encoder protocol allows. A node stores
// scalars straight into its dictionary or array; a nested container or super-encoder is a
// child node, turned into a value when its parent is finished (bottom-up, once). A node knows
// its parent and its key, so a coding path is built only when something reads it (an error).
// Built-in scalar types (`String`, `Int`, `Bool`, `Double`, a `FlowSnapshotValue`) passed to a
// generic `encode` are stored directly, without a node.

/// Converts `Encodable` values to ``FlowSnapshotValue``.
enum _SnapshotValueEncoder {
    /// Encodes `value`. A value that encodes nothing becomes an empty object (as JSON does
    /// for a nested value).
    static func encode<Value: Encodable>(_ value: Value) throws -> FlowSnapshotValue {
        if let direct = direct(value) { return direct }
        let node = _EncodingNode(parent: nil, key: nil, index: -1)
        try value.encode(to: _ValueEncoder(node: node))
        return node.finish()
    }

    /// `value` as a snapshot value without an encoder, if its type is one of the built-in
    /// scalars or a snapshot value (checked by identity of the type: no dynamic cast for the
    /// others).
    @inline(__always)
    static func direct<Value: Encodable>(_ value: Value) -> FlowSnapshotValue? {
        let type = ObjectIdentifier(Value.self)
        if type == ObjectIdentifier(String.self) {
            return (value as? String).map { .string($0) }
        } else if type == ObjectIdentifier(Int.self) {
            return (value as? Int).map { .int(Int64($0)) }
        } else if type == ObjectIdentifier(Bool.self) {
            return (value as? Bool).map { .bool($0) }
        } else if type == ObjectIdentifier(Double.self) {
            return (value as? Double).map { .double($0) }
        } else if type == ObjectIdentifier(FlowSnapshotValue.self) {
            return value as? FlowSnapshotValue
        }
        return nil
    }

    /// An integer as a snapshot value, or an error if it does not fit in 64 signed bits.
    /// `codingPath` is only called to throw.
    static func integer(
        _ value: some BinaryInteger, at codingPath: () -> [any CodingKey]
    ) throws -> FlowSnapshotValue {
        guard let exact = Int64(exactly: value) else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: codingPath(),
                    debugDescription: "\(value) does not fit in a 64-bit signed integer"))
        }
        return .int(exact)
    }
}

/// Where one encoded value goes: an object, an array or a single value, filled by containers
/// (or left empty), with the nodes of the nested containers and super-encoders opened in it.
final class _EncodingNode {
    enum Shape {
        case empty, value, object, array
    }

    /// The node this one is nested in, `nil` at the top.
    let parent: _EncodingNode?
    /// The key under which the parent holds this node (`nil` at the top and in an array).
    let key: (any CodingKey)?
    /// The position in the parent's array, or -1.
    let index: Int

    var shape = Shape.empty
    var value = FlowSnapshotValue.null
    var object: [String: FlowSnapshotValue] = [:]
    var array: [FlowSnapshotValue] = []
    /// The first nested node, and the others (most values nest at most one container per
    /// level: an enum case's associated values), in the order they were opened.
    var firstNested: _EncodingNode?
    var moreNested: [_EncodingNode] = []

    init(parent: _EncodingNode?, key: (any CodingKey)?, index: Int) {
        self.parent = parent
        self.key = key
        self.index = index
    }

    /// The coding path of this node's value, built from the chain of parents.
    var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var node: _EncodingNode? = self
        while let current = node, let parent = current.parent {
            path.append(current.key ?? _SnapshotCodingKey(intValue: current.index))
            node = parent
        }
        return path.reversed()
    }

    /// The coding path of the value under `key` in this node.
    func codingPath(appending key: any CodingKey) -> [any CodingKey] {
        codingPath + [key]
    }

    /// The finished value; the node is emptied (it is finished once).
    func finish() -> FlowSnapshotValue {
        switch shape {
        case .empty:
            return .object([:])
        case .value:
            return value
        case .object:
            var items = object
            object = [:]
            if let first = firstNested {
                items[first.key!.stringValue] = first.finish()
                for node in moreNested { items[node.key!.stringValue] = node.finish() }
            }
            return .object(items)
        case .array:
            var items = array
            array = []
            if let first = firstNested {
                items[first.index] = first.finish()
                for node in moreNested { items[node.index] = node.finish() }
            }
            return .array(items)
        }
    }

    /// Makes this node hold `shape`, dropping what it held if it held another.
    @inline(__always)
    func become(_ shape: Shape) {
        guard self.shape != shape else { return }
        self.shape = shape
        value = .null
        object = [:]
        array = []
        firstNested = nil
        moreNested = []
    }

    func setValue(_ value: FlowSnapshotValue) {
        become(.value)
        self.value = value
    }

    /// Stores `value` under `name` in this node's object (the last write to a key wins).
    @inline(__always)
    func set(_ value: FlowSnapshotValue, for name: String) {
        if firstNested != nil { removeNested(named: name) }
        object[name] = value
    }

    func append(_ value: FlowSnapshotValue) {
        array.append(value)
    }

    /// A new node nested under `key` in this node's object (replacing what it held there).
    func nested(for key: any CodingKey) -> _EncodingNode {
        let name = key.stringValue
        if firstNested != nil { removeNested(named: name) }
        if !object.isEmpty { object[name] = nil }
        let node = _EncodingNode(parent: self, key: key, index: -1)
        addNested(node)
        return node
    }

    /// A new node appended to this node's array.
    func appendedNested() -> _EncodingNode {
        let node = _EncodingNode(parent: self, key: nil, index: array.count)
        array.append(.null)
        addNested(node)
        return node
    }

    private func addNested(_ node: _EncodingNode) {
        if firstNested == nil {
            firstNested = node
        } else {
            moreNested.append(node)
        }
    }

    /// Forgets the nested node under `name`, if any (a later write to its key replaced it).
    private func removeNested(named name: String) {
        moreNested.removeAll { $0.key!.stringValue == name }
        if let first = firstNested, first.key!.stringValue == name {
            firstNested = moreNested.isEmpty ? nil : moreNested.removeFirst()
        }
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
            try value.encode(to: _ValueEncoder(node: node.nested(for: key)))
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = node.nested(for: key)
        nested.become(.object)
        return KeyedEncodingContainer(_KeyedValueEncoding<NestedKey>(node: nested))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = node.nested(for: key)
        nested.become(.array)
        return _UnkeyedValueEncoding(node: nested)
    }

    mutating func superEncoder() -> any Encoder {
        _ValueEncoder(node: node.nested(for: _SnapshotCodingKey.super))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        _ValueEncoder(node: node.nested(for: key))
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
            try value.encode(to: _ValueEncoder(node: node.appendedNested()))
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = node.appendedNested()
        nested.become(.object)
        return KeyedEncodingContainer(_KeyedValueEncoding<NestedKey>(node: nested))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = node.appendedNested()
        nested.become(.array)
        return _UnkeyedValueEncoding(node: nested)
    }

    mutating func superEncoder() -> any Encoder {
        _ValueEncoder(node: node.appendedNested())
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
