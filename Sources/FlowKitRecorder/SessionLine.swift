/// One line of a session file being written: a JSON object, built by appending its fields in
/// order into one byte buffer (no intermediate dictionary, no encoder, no string per number:
/// a record costs its own bytes and one string at the end).
struct SessionLine {
    private(set) var bytes: [UInt8] = []
    private var isFirst = true

    /// Starts an object whose first field is `"k"` (the record's kind).
    init(_ kind: String) {
        bytes.reserveCapacity(256)
        raw("{\"k\":\"")
        bytes.append(contentsOf: kind.utf8)
        bytes.append(0x22)
        isFirst = false
    }

    /// Starts an object with no field yet.
    init() {
        bytes.reserveCapacity(128)
        bytes.append(0x7B)
    }

    /// Appends `text` as it is (ASCII JSON syntax).
    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private mutating func key(_ name: StaticString) {
        if !isFirst { bytes.append(0x2C) }
        isFirst = false
        bytes.append(0x22)
        raw(name)
        raw("\":")
    }

    mutating func field(_ name: StaticString, _ value: String) {
        key(name)
        string(value)
    }

    mutating func field(_ name: StaticString, _ value: Int) {
        key(name)
        integer(value)
    }

    mutating func field(_ name: StaticString, _ value: UInt64) {
        key(name)
        unsigned(value)
    }

    mutating func field(_ name: StaticString, _ value: Bool) {
        key(name)
        raw(value ? "true" : "false")
    }

    /// A time in seconds, to the microsecond.
    mutating func field(_ name: StaticString, seconds: Double) {
        key(name)
        let micros = Int((seconds * 1_000_000).rounded())
        if micros < 0 { bytes.append(0x2D) }
        let magnitude = micros.magnitude
        unsigned(UInt64(magnitude / 1_000_000))
        var fraction = magnitude % 1_000_000
        guard fraction != 0 else { return }
        bytes.append(0x2E)
        var digits = 6
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        var divisor: UInt = 1
        for _ in 1..<digits { divisor *= 10 }
        while divisor > 0 {
            bytes.append(0x30 + UInt8(fraction / divisor % 10))
            divisor /= 10
        }
    }

    mutating func field(_ name: StaticString, strings: [String]) {
        key(name)
        bytes.append(0x5B)
        for (index, value) in strings.enumerated() {
            if index > 0 { bytes.append(0x2C) }
            string(value)
        }
        bytes.append(0x5D)
    }

    mutating func field(_ name: StaticString, ids: [UInt64]) {
        key(name)
        bytes.append(0x5B)
        for (index, value) in ids.enumerated() {
            if index > 0 { bytes.append(0x2C) }
            unsigned(value)
        }
        bytes.append(0x5D)
    }

    /// Starts a field whose value the caller writes (with `raw(_:)`, `string(_:)`,
    /// `unsigned(_:)`, `json(_:)`).
    mutating func open(_ name: StaticString) {
        key(name)
    }

    /// A field whose value is JSON already (an object or array made elsewhere).
    mutating func field(_ name: StaticString, json: String) {
        key(name)
        bytes.append(contentsOf: json.utf8)
    }

    /// Appends JSON text as it is.
    mutating func json(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Appends `value` in decimal.
    mutating func unsigned(_ value: UInt64) {
        if value < 10 {
            bytes.append(0x30 + UInt8(value))
            return
        }
        var digits: (UInt64, Int) = (1, 1)
        while value / digits.0 >= 10 {
            digits.0 *= 10
            digits.1 += 1
        }
        var divisor = digits.0
        while divisor > 0 {
            bytes.append(0x30 + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }

    mutating func integer(_ value: Int) {
        if value < 0 { bytes.append(0x2D) }
        unsigned(UInt64(value.magnitude))
    }

    /// Appends `value` as a JSON string literal.
    mutating func string(_ value: String) {
        bytes.append(0x22)
        for unit in value.utf8 {
            switch unit {
            case 0x22: raw("\\\"")
            case 0x5C: raw("\\\\")
            case 0x0A: raw("\\n")
            case 0x0D: raw("\\r")
            case 0x09: raw("\\t")
            case 0..<0x20:
                raw("\\u00")
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                bytes.append(hex[Int(unit >> 4)])
                bytes.append(hex[Int(unit & 0xF)])
            default: bytes.append(unit)
            }
        }
        bytes.append(0x22)
    }

    /// The finished object, as text.
    mutating func close() -> String {
        bytes.append(0x7D)
        return String(decoding: bytes, as: UTF8.self)
    }
}
