// The JSON reader behind `FlowSnapshot(json:)` (SnapshotJSON.swift): RFC 8259 text to
// `FlowSnapshotValue`s, with the standard library only.

/// A recursive-descent JSON parser; nesting deeper than ``FlowSnapshot/maximumNesting``
/// levels is refused before it can exhaust the stack.
struct _JSONParser {
    let bytes: [UInt8]
    var index = 0
    var depth = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    func corrupt(_ reason: String) -> DecodingError {
        DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: [], debugDescription: "not valid JSON at byte \(index): \(reason)"))
    }

    mutating func parseDocument() throws -> FlowSnapshotValue {
        let value = try parseValue()
        skipSpace()
        guard index == bytes.count else { throw corrupt("text after the value") }
        return value
    }

    mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func parseValue() throws -> FlowSnapshotValue {
        skipSpace()
        guard index < bytes.count else { throw corrupt("the text ends") }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            depth += 1
            defer { depth -= 1 }
            guard depth < FlowSnapshot.maximumNesting else { throw corrupt("nested too deep") }
            index += 1
            var items: [String: FlowSnapshotValue] = [:]
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(items)
            }
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                    throw corrupt("a key is not a string")
                }
                let key = try parseString()
                skipSpace()
                try expect(UInt8(ascii: ":"))
                // The first of duplicate keys counts, as in JSONDecoder.
                let value = try parseValue()
                if let first = items.updateValue(value, forKey: key) { items[key] = first }
                skipSpace()
                if try endOrComma(UInt8(ascii: "}")) { return .object(items) }
            }
        case UInt8(ascii: "["):
            depth += 1
            defer { depth -= 1 }
            guard depth < FlowSnapshot.maximumNesting else { throw corrupt("nested too deep") }
            index += 1
            var items: [FlowSnapshotValue] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(items)
            }
            while true {
                items.append(try parseValue())
                skipSpace()
                if try endOrComma(UInt8(ascii: "]")) { return .array(items) }
            }
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        default:
            return try parseNumber()
        }
    }

    mutating func expect(_ byte: UInt8) throws {
        guard index < bytes.count, bytes[index] == byte else {
            throw corrupt("expected '\(Character(Unicode.Scalar(byte)))'")
        }
        index += 1
    }

    /// After a value in a container: `true` at its end, `false` after a comma.
    mutating func endOrComma(_ end: UInt8) throws -> Bool {
        guard index < bytes.count else { throw corrupt("the text ends") }
        if bytes[index] == end {
            index += 1
            return true
        }
        try expect(UInt8(ascii: ","))
        return false
    }

    mutating func literal(_ word: StaticString) throws {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw corrupt("the text ends") }
        let matches = word.withUTF8Buffer { expected in
            bytes[index..<(index + count)].elementsEqual(expected)
        }
        guard matches else { throw corrupt("an unknown word") }
        index += count
    }

    /// A number as RFC 8259 writes it: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    /// (no leading zeros, no `+`, digits on both sides of the point), as JSONDecoder reads.
    mutating func parseNumber() throws -> FlowSnapshotValue {
        let start = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        // Up to 18 digits cannot overflow: such an integer is read without making a String.
        var magnitude: Int64 = 0
        while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 {
            if index - integerStart < 18 {
                magnitude = magnitude &* 10 &+ Int64(bytes[index] &- UInt8(ascii: "0"))
            }
            index += 1
        }
        let digits = index - integerStart
        guard digits > 0 else { throw corrupt("not a value") }
        guard digits == 1 || bytes[integerStart] != UInt8(ascii: "0") else {
            throw corrupt("a number with a leading zero")
        }
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            try fractionDigits()
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            index += 1
            if index < bytes.count,
                bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
            {
                index += 1
            }
            try fractionDigits()
        }
        if isInteger, digits <= 18 {
            return .int(bytes[start] == UInt8(ascii: "-") ? -magnitude : magnitude)
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let value = Int64(text) { return .int(value) }
        guard let value = Double(text), value.isFinite else {
            throw corrupt("the number \(text) does not fit")
        }
        return .double(value)
    }

    /// One or more digits (after a decimal point or an exponent's sign).
    private mutating func fractionDigits() throws {
        let start = index
        while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
        guard index > start else { throw corrupt("a number without digits") }
    }

    mutating func parseString() throws -> String {
        index += 1  // "
        let start = index
        // The common case: no escapes.
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""),
            bytes[index] != UInt8(ascii: "\\"), bytes[index] >= 0x20
        {
            index += 1
        }
        guard index < bytes.count else { throw corrupt("a string does not end") }
        if bytes[index] == UInt8(ascii: "\"") {
            defer { index += 1 }
            return try validated(bytes[start..<index])
        }
        var scalars = Array(bytes[start..<index])
        while true {
            guard index < bytes.count else { throw corrupt("a string does not end") }
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return try validated(scalars[...])
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { throw corrupt("a string does not end") }
                let escaped = bytes[index]
                index += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"):
                    scalars.append(escaped)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code) {
                        try literal("\\u")
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else {
                            throw corrupt("an unpaired surrogate")
                        }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else {
                        throw corrupt("an unpaired surrogate")
                    }
                    scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
                default:
                    throw corrupt("an unknown escape")
                }
            default:
                guard byte >= 0x20 else { throw corrupt("a control character in a string") }
                scalars.append(byte)
            }
        }
    }

    mutating func hex4() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw corrupt("the text ends") }
        var code: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            index += 1
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw corrupt("not a hexadecimal digit")
            }
            code = code << 4 | UInt32(digit)
        }
        return code
    }

    func validated(_ utf8: ArraySlice<UInt8>) throws -> String {
        guard let text = String(validating: utf8, as: UTF8.self) else {
            throw corrupt("invalid UTF-8")
        }
        return text
    }
}
