// A `Decoder` that reads any `Decodable` value back from a `FlowSnapshotValue`. Numbers
// convert where no precision is lost (an integral double to an integer, an integer to a
// double), as JSONDecoder does; everything else must have the shape the type asks for.

/// Converts ``FlowSnapshotValue`` back to `Decodable` values.
enum _SnapshotValueDecoder {
    static func decode<Value: Decodable>(
        _ type: Value.Type, from value: FlowSnapshotValue, at codingPath: [any CodingKey] = []
    ) throws -> Value {
        if Value.self == FlowSnapshotValue.self { return value as! Value }
        return try Value(from: _ValueDecoder(value: value, codingPath: codingPath))
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

    static func bool(_ value: FlowSnapshotValue, at codingPath: [any CodingKey]) throws -> Bool {
        guard case .bool(let bool) = value else { throw mismatch(Bool.self, value, at: codingPath) }
        return bool
    }

    static func string(
        _ value: FlowSnapshotValue, at codingPath: [any CodingKey]
    ) throws -> String {
        guard case .string(let string) = value else {
            throw mismatch(String.self, value, at: codingPath)
        }
        return string
    }

    static func double(
        _ value: FlowSnapshotValue, at codingPath: [any CodingKey]
    ) throws -> Double {
        switch value {
        case .double(let double): return double
        case .int(let int): return Double(int)
        default: throw mismatch(Double.self, value, at: codingPath)
        }
    }

    static func integer<Integer: FixedWidthInteger>(
        _ type: Integer.Type, _ value: FlowSnapshotValue, at codingPath: [any CodingKey]
    ) throws -> Integer {
        let result: Integer?
        switch value {
        case .int(let int): result = Integer(exactly: int)
        case .double(let double): result = Integer(exactly: double)
        default: throw mismatch(type, value, at: codingPath)
        }
        guard let result else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: codingPath, debugDescription: "\(value) does not fit in \(type)"))
        }
        return result
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
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let items) = value else {
            throw _SnapshotValueDecoder.mismatch([String: Any].self, value, at: codingPath)
        }
        return KeyedDecodingContainer(
            _KeyedValueDecoding<Key>(items: items, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else {
            throw _SnapshotValueDecoder.mismatch([Any].self, value, at: codingPath)
        }
        return _UnkeyedValueDecoding(items: items, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        _SingleValueDecoding(value: value, codingPath: codingPath)
    }
}

struct _KeyedValueDecoding<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let items: [String: FlowSnapshotValue]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { items.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { items[key.stringValue] != nil }

    private func value(for key: Key) throws -> FlowSnapshotValue {
        guard let value = items[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key,
                DecodingError.Context(
                    codingPath: codingPath, debugDescription: "no value for '\(key.stringValue)'"))
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { try value(for: key) == .null }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try _SnapshotValueDecoder.bool(value(for: key), at: codingPath + [key])
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try _SnapshotValueDecoder.string(value(for: key), at: codingPath + [key])
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try _SnapshotValueDecoder.double(value(for: key), at: codingPath + [key])
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        Float(try _SnapshotValueDecoder.double(value(for: key), at: codingPath + [key]))
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

    private func integer<Integer: FixedWidthInteger>(
        _ type: Integer.Type, _ key: Key
    ) throws -> Integer {
        try _SnapshotValueDecoder.integer(type, value(for: key), at: codingPath + [key])
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try _SnapshotValueDecoder.decode(type, from: value(for: key), at: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try _ValueDecoder(value: value(for: key), codingPath: codingPath + [key])
            .container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try _ValueDecoder(value: value(for: key), codingPath: codingPath + [key])
            .unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        let key = _SnapshotCodingKey.super
        return _ValueDecoder(value: items[key.stringValue] ?? .null, codingPath: codingPath + [key])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        _ValueDecoder(value: items[key.stringValue] ?? .null, codingPath: codingPath + [key])
    }
}

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

    /// The next value and its coding path (the index moves on only once it is decoded).
    private func next(_ type: Any.Type) throws -> (FlowSnapshotValue, [any CodingKey]) {
        let path = codingPath + [_SnapshotCodingKey(intValue: currentIndex)]
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type,
                DecodingError.Context(codingPath: path, debugDescription: "the array has ended"))
        }
        return (items[currentIndex], path)
    }

    mutating func decodeNil() throws -> Bool {
        guard try next(Never.self).0 == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        let (value, path) = try next(type)
        let result = try _SnapshotValueDecoder.bool(value, at: path)
        currentIndex += 1
        return result
    }
    mutating func decode(_ type: String.Type) throws -> String {
        let (value, path) = try next(type)
        let result = try _SnapshotValueDecoder.string(value, at: path)
        currentIndex += 1
        return result
    }
    mutating func decode(_ type: Double.Type) throws -> Double {
        let (value, path) = try next(type)
        let result = try _SnapshotValueDecoder.double(value, at: path)
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

    private mutating func integer<Integer: FixedWidthInteger>(
        _ type: Integer.Type
    ) throws -> Integer {
        let (value, path) = try next(type)
        let result = try _SnapshotValueDecoder.integer(type, value, at: path)
        currentIndex += 1
        return result
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, path) = try next(type)
        let result = try _SnapshotValueDecoder.decode(type, from: value, at: path)
        currentIndex += 1
        return result
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let (value, path) = try next(type)
        let result = try _ValueDecoder(value: value, codingPath: path).container(keyedBy: type)
        currentIndex += 1
        return result
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (value, path) = try next([Any].self)
        let result = try _ValueDecoder(value: value, codingPath: path).unkeyedContainer()
        currentIndex += 1
        return result
    }

    mutating func superDecoder() throws -> any Decoder {
        let (value, path) = try next(Any.self)
        currentIndex += 1
        return _ValueDecoder(value: value, codingPath: path)
    }
}

struct _SingleValueDecoding: SingleValueDecodingContainer {
    let value: FlowSnapshotValue
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { value == .null }

    func decode(_ type: Bool.Type) throws -> Bool {
        try _SnapshotValueDecoder.bool(value, at: codingPath)
    }
    func decode(_ type: String.Type) throws -> String {
        try _SnapshotValueDecoder.string(value, at: codingPath)
    }
    func decode(_ type: Double.Type) throws -> Double {
        try _SnapshotValueDecoder.double(value, at: codingPath)
    }
    func decode(_ type: Float.Type) throws -> Float {
        Float(try _SnapshotValueDecoder.double(value, at: codingPath))
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

    private func integer<Integer: FixedWidthInteger>(_ type: Integer.Type) throws -> Integer {
        try _SnapshotValueDecoder.integer(type, value, at: codingPath)
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try _SnapshotValueDecoder.decode(type, from: value, at: codingPath)
    }
}
