/// One line of a session file being written: a JSON object, built by appending its fields in
/// order (no intermediate dictionary, no encoder: a record costs its own characters).
struct SessionLine {
    private(set) var text: String
    private var isFirst = true

    /// Starts an object whose first field is `"k"` (the record's kind).
    init(_ kind: String) {
        text = "{\"k\":\""
        text.reserveCapacity(160)
        text += kind
        text += "\""
        isFirst = false
    }

    /// Starts an object with no field yet.
    init() {
        text = "{"
    }

    private mutating func key(_ name: String) {
        if !isFirst { text += "," }
        isFirst = false
        text += "\""
        text += name
        text += "\":"
    }

    mutating func field(_ name: String, _ value: String) {
        key(name)
        Self.appendString(value, to: &text)
    }

    mutating func field(_ name: String, _ value: Int) {
        key(name)
        text += String(value)
    }

    mutating func field(_ name: String, _ value: UInt64) {
        key(name)
        text += String(value)
    }

    mutating func field(_ name: String, _ value: Bool) {
        key(name)
        text += value ? "true" : "false"
    }

    /// A time in seconds, to the microsecond.
    mutating func field(_ name: String, seconds: Double) {
        key(name)
        let micros = Int((seconds * 1_000_000).rounded())
        let whole = micros / 1_000_000
        let fraction = micros % 1_000_000
        text += String(whole)
        if fraction != 0 {
            var digits = String(fraction)
            digits = String(repeating: "0", count: 6 - digits.count) + digits
            while digits.hasSuffix("0") { digits.removeLast() }
            text += "."
            text += digits
        }
    }

    mutating func field(_ name: String, strings: [String]) {
        key(name)
        text += "["
        for (index, value) in strings.enumerated() {
            if index > 0 { text += "," }
            Self.appendString(value, to: &text)
        }
        text += "]"
    }

    mutating func field(_ name: String, ids: [UInt64]) {
        key(name)
        text += "["
        for (index, value) in ids.enumerated() {
            if index > 0 { text += "," }
            text += String(value)
        }
        text += "]"
    }

    /// A field whose value is JSON already (an object or array made elsewhere).
    mutating func field(_ name: String, json: String) {
        key(name)
        text += json
    }

    /// The finished object.
    mutating func close() -> String {
        text += "}"
        return text
    }

    /// Appends `value` as a JSON string literal.
    static func appendString(_ value: String, to text: inout String) {
        text += "\""
        var plain = true
        for unit in value.utf8 where unit < 0x20 || unit == 0x22 || unit == 0x5C {
            plain = false
            break
        }
        if plain {
            text += value
        } else {
            for scalar in value.unicodeScalars {
                switch scalar {
                case "\"": text += "\\\""
                case "\\": text += "\\\\"
                case "\n": text += "\\n"
                case "\r": text += "\\r"
                case "\t": text += "\\t"
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: text.unicodeScalars.append(scalar)
                }
            }
        }
        text += "\""
    }
}
