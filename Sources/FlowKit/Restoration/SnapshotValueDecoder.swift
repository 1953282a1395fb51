// A `Decoder` that reads any `Decodable` value back from a `FlowSnapshotValue`. Numbers
// convert where no precision is lost (an integral double to an integer, an integer to a
// double), as JSONDecoder does; everything else must have the shape the type asks for.
//
// Every route of a restored tree is decoded here, so the common steps allocate nothing they
// can avoid: a coding path is kept as the path of the container it belongs to plus the key or
// index below it (`_CodingPath`), and made into `[any CodingKey]` only when it is read (by a
// type that asks for it, or for an error, which carries the same path it always did).

/// Converts ``FlowSnapshotValue`` back to `Decodable` values.
enum _SnapshotValueDecoder {
    static func decode<Value: Decodable>(
        _ type: Value.Type, from value: FlowSnapshotValue, at codingPath: [any CodingKey] = []
    ) throws -> Value {
        try decode(type, from: value, at: _CodingPath(codingPath))
    }

    static func decode<Value: Decodable>(
        _ type: Value.Type, from value: FlowSnapshotValue, at path: _CodingPath
    ) throws -> Value {
        if Value.self == FlowSnapshotValue.self { return value as! Value }
        return try Value(from: _ValueDecoder(value: value, path: path))
    }

    static func mismatch(
        _ type: Any.Type, _ value: FlowSnapshotValue, at codingPath: [any CodingKey]
    ) -> DecodingError {
        DecodingError.typeMismatch(
            type,
            DecodingError.Context(
                codingPath: codingPath,
                debugDescription: "expected \(type), found \(value.kindDescription)"))
    }

    static func bool(_ value: FlowSnapshotValue, at path: _CodingPath) throws -> Bool {
        guard case .bool(let bool) = value else { throw mismatch(Bool.self, value, at: path.keys) }
        return bool
    }

    static func string(_ value: FlowSnapshotValue, at path: _CodingPath) throws -> String {
        guard case .string(let string) = value else {
            throw mismatch(String.self, value, at: path.keys)
        }
        return string
    }

    static func double(_ value: FlowSnapshotValue, at path: _CodingPath) throws -> Double {
        switch value {
        case .double(let double): return double
        case .int(let int): return Double(int)
        default: throw mismatch(Double.self, value, at: path.keys)
        }
    }

    /// Inlined into each caller, so that every integer type converts without generic calls.
    @inline(__always)
    static func integer<Integer: FixedWidthInteger>(
        _ type: Integer.Type, _ value: FlowSnapshotValue, at path: _CodingPath
    ) throws -> Integer {
        let result: Integer?
        switch value {
        case .int(let int): result = Integer(exactly: int)
        case .double(let double): result = Integer(exactly: double)
        default: throw mismatch(type, value, at: path.keys)
        }
        guard let result else { throw overflow(type, value, at: path) }
        return result
    }

    static func overflow(
        _ type: Any.Type, _ value: FlowSnapshotValue, at path: _CodingPath
    ) -> DecodingError {
        DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: path.keys, debugDescription: "\(value) does not fit in \(type)"))
    }
}

extension FlowSnapshotValue {
    /// `an object`, `a string` …: for error messages.
    var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a Boolean"
        case .int: return "an integer"
        case .double: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

struct _ValueDecoder: Decoder {
    let value: FlowSnapshotValue
    let path: _CodingPath
    var codingPath: [any CodingKey] { path.keys }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let items) = value else {
            throw _SnapshotValueDecoder.mismatch([String: Any].self, value, at: path.keys)
        }
        return KeyedDecodingContainer(_KeyedValueDecoding<Key>(items: items, path: path))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else {
            throw _SnapshotValueDecoder.mismatch([Any].self, value, at: path.keys)
        }
        return _UnkeyedValueDecoding(items: items, codingPath: path.keys)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        _SingleValueDecoding(value: value, path: path)
    }
}

struct _KeyedValueDecoding<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let items: [String: FlowSnapshotValue]
    let path: _CodingPath
    var codingPath: [any CodingKey] { path.keys }

    var allKeys: [Key] {
        if items.count == 1 { return Key(stringValue: items.first!.key).map { [$0] } ?? [] }
        var keys: [Key] = []
        keys.reserveCapacity(items.count)
        for name in items.keys {
            if let key = Key(stringValue: name) { keys.append(key) }
        }
        return keys
    }

    func contains(_ key: Key) -> Bool { item(key.stringValue) != nil }

    /// The value under `name`. An object of one key (an enum case, a one-field struct) is
    /// read by comparing the name, cheaper than hashing it.
    private func item(_ name: String) -> FlowSnapshotValue? {
        if items.count == 1 {
            let (only, value) = items.first!
            return only == name ? value : nil
        }
        return items[name]
    }

    private func value(for key: Key) throws -> FlowSnapshotValue {
        guard let value = item(key.stringValue) else {
            throw DecodingError.keyNotFound(
                key,
                DecodingError.Context(
                    codingPath: path.keys, debugDescription: "no value for '\(key.stringValue)'"))
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { try value(for: key) == .null }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        let value = try value(for: key)
        if case .bool(let bool) = value { return bool }
        return try _SnapshotValueDecoder.bool(value, at: path.appending(key))
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        let value = try value(for: key)
        if case .string(let string) = value { return string }
        return try _SnapshotValueDecoder.string(value, at: path.appending(key))
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        let value = try value(for: key)
        if case .double(let double) = value { return double }
        return try _SnapshotValueDecoder.double(value, at: path.appending(key))
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        Float(try decode(Double.self, forKey: key))
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(type, key) }

    /// An integer that fits is read without making the key's path.
    @inline(__always)
    private func integer<Integer: FixedWidthInteger>(
        _ type: Integer.Type, _ key: Key
    ) throws -> Integer {
        let value = try value(for: key)
        if case .int(let int) = value, let result = Integer(exactly: int) { return result }
        return try _SnapshotValueDecoder.integer(type, value, at: path.appending(key))
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try _SnapshotValueDecoder.decode(type, from: value(for: key), at: path.appending(key))
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let value = try value(for: key)
        guard case .object(let items) = value else {
            throw _SnapshotValueDecoder.mismatch(
                [String: Any].self, value, at: path.appending(key).keys)
        }
        return KeyedDecodingContainer(
            _KeyedValueDecoding<NestedKey>(items: items, path: path.appending(key)))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try _ValueDecoder(value: value(for: key), path: path.appending(key)).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        let key = _SnapshotCodingKey.super
        return _ValueDecoder(value: items[key.stringValue] ?? .null, path: path.appending(key))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        _ValueDecoder(value: items[key.stringValue] ?? .null, path: path.appending(key))
    }
}

/// Three words, so that it fits in its existential without a box of its own; an element's
/// path (this one and its index) is made only when it is read.
struct _UnkeyedValueDecoding: UnkeyedDecodingContainer {
    let items: [FlowSnapshotValue]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(items: [FlowSnapshotValue], codingPath: [any CodingKey]) {
        self.items = items
        self.codingPath = codingPath
    }

    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    /// The path of the next value.
    private var path: _CodingPath { _CodingPath(codingPath).appending(index: currentIndex) }

    /// The next value (the index moves on only once it is decoded).
    private func next(_ type: Any.Type) throws -> FlowSnapshotValue {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: path.keys, debugDescription: "the array has ended"))
        }
        return items[currentIndex]
    }

    mutating func decodeNil() throws -> Bool {
        guard try next(Never.self) == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        let result = try _SnapshotValueDecoder.bool(next(type), at: path)
        currentIndex += 1
        return result
    }
    mutating func decode(_ type: String.Type) throws -> String {
        let result = try _SnapshotValueDecoder.string(next(type), at: path)
        currentIndex += 1
        return result
    }
    mutating func decode(_ type: Double.Type) throws -> Double {
        let result = try _SnapshotValueDecoder.double(next(type), at: path)
        currentIndex += 1
        return result
    }
    mutating func decode(_ type: Float.Type) throws -> Float {
        Float(try decode(Double.self))
    }
    mutating func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    @inline(__always)
    private mutating func integer<Integer: FixedWidthInteger>(
        _ type: Integer.Type
    ) throws -> Integer {
        let result = try _SnapshotValueDecoder.integer(type, next(type), at: path)
        currentIndex += 1
        return result
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let result = try _SnapshotValueDecoder.decode(type, from: next(type), at: path)
        currentIndex += 1
        return result
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let result = try _ValueDecoder(value: next(type), path: path).container(keyedBy: type)
        currentIndex += 1
        return result
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let result = try _ValueDecoder(value: next([Any].self), path: path).unkeyedContainer()
        currentIndex += 1
        return result
    }

    mutating func superDecoder() throws -> any Decoder {
        let decoder = _ValueDecoder(value: try next(Any.self), path: path)
        currentIndex += 1
        return decoder
    }
}

struct _SingleValueDecoding: SingleValueDecodingContainer {
    let value: FlowSnapshotValue
    let path: _CodingPath
    var codingPath: [any CodingKey] { path.keys }

    func decodeNil() -> Bool { value == .null }

    func decode(_ type: Bool.Type) throws -> Bool {
        try _SnapshotValueDecoder.bool(value, at: path)
    }
    func decode(_ type: String.Type) throws -> String {
        try _SnapshotValueDecoder.string(value, at: path)
    }
    func decode(_ type: Double.Type) throws -> Double {
        try _SnapshotValueDecoder.double(value, at: path)
    }
    func decode(_ type: Float.Type) throws -> Float {
        Float(try _SnapshotValueDecoder.double(value, at: path))
    }
    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    @inline(__always)
    private func integer<Integer: FixedWidthInteger>(_ type: Integer.Type) throws -> Integer {
        try _SnapshotValueDecoder.integer(type, value, at: path)
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try _SnapshotValueDecoder.decode(type, from: value, at: path)
    }
}
