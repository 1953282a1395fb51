/// What the demo accepts as a line of input, and how it cleans it before anything echoes it.
///
///     DemoInput.sanitized("filter \u{1B}[Adickens")        // "filter dickens"
///     DemoInput.sanitized("\u{1B}]0;pwned\u{07}quit")      // "quit"
///
/// Terminal escape sequences (CSI such as arrow keys, OSC such as a window title, DCS, SS3)
/// are removed whole; other control characters (C0, DEL, C1) and the bidirectional
/// overrides are removed; a tab becomes a space. What remains is safe to print.
public enum DemoInput {
    /// The longest command line the demo runs, in characters after sanitising; longer lines
    /// are refused with a message.
    public static let maxLineLength = 200

    /// `raw` without escape sequences and control characters; tabs become spaces.
    public static func sanitized(_ raw: String) -> String {
        let scalars = Array(raw.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar.value {
            case 0x1B:
                index = endOfEscape(in: scalars, at: index)
                continue
            case 0x9B:  // CSI as one C1 character
                index = endOfControlSequence(in: scalars, from: index + 1)
                continue
            case 0x90, 0x98, 0x9D, 0x9E, 0x9F:  // DCS, SOS, OSC, PM, APC as C1 characters
                index = endOfString(in: scalars, from: index + 1)
                continue
            case 0x09:
                result.append(" ")
            default:
                if isAllowed(scalar) { result.append(scalar) }
            }
            index += 1
        }
        return String(result)
    }

    /// Whether `scalar` may be printed as typed: not a control character (C0, DEL, C1) and
    /// not a bidirectional override or isolate, which reorder what follows on the screen.
    public static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return false
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: return false
        default: return true
        }
    }

    /// Whether `character` may be inserted by the line editor (see ``isAllowed(_:)``).
    public static func isAllowed(_ character: Character) -> Bool {
        character.unicodeScalars.allSatisfy(isAllowed)
    }

    /// `text` cut to `length` characters with `…` when longer: how long input is quoted back.
    public static func shortened(_ text: String, to length: Int) -> String {
        text.count <= length ? text : String(text.prefix(max(0, length - 1))) + "…"
    }

    /// The index after the escape sequence starting with ESC at `start`.
    private static func endOfEscape(in scalars: [Unicode.Scalar], at start: Int) -> Int {
        let next = start + 1
        guard next < scalars.count else { return next }
        switch scalars[next] {
        case "[": return endOfControlSequence(in: scalars, from: next + 1)
        case "]", "P", "X", "^", "_": return endOfString(in: scalars, from: next + 1)
        case "O": return min(next + 2, scalars.count)  // SS3: one more character
        default:
            // ESC and one printable character (Alt-key, charset selection); a control
            // character after ESC is left for the caller, who drops it anyway.
            return (0x20...0x7E).contains(scalars[next].value) ? next + 1 : next
        }
    }

    /// After CSI: parameters and intermediates, then one final character `@`…`~`.
    private static func endOfControlSequence(in scalars: [Unicode.Scalar], from start: Int) -> Int {
        var index = start
        while index < scalars.count {
            let value = scalars[index].value
            index += 1
            if (0x40...0x7E).contains(value) || !(0x20...0x3F).contains(value) { break }
        }
        return index
    }

    /// After OSC, DCS and the like: everything up to BEL, ESC `\` or ST.
    private static func endOfString(in scalars: [Unicode.Scalar], from start: Int) -> Int {
        var index = start
        while index < scalars.count {
            switch scalars[index].value {
            case 0x07, 0x9C: return index + 1
            case 0x1B:
                return index + 1 < scalars.count && scalars[index + 1] == "\\"
                    ? index + 2 : index + 1
            default: index += 1
            }
        }
        return index
    }
}

/// Splits a byte stream into lines: `\n` ends a line and a `\r` before it is dropped.
///
/// A line longer than ``maxBytes`` is kept to its first ``maxBytes`` bytes and marked
/// ``Line/isCutShort``, so endless input without a newline cannot exhaust memory.
///
///     var splitter = DemoLineSplitter()
///     splitter.feed(Array("quit\r\nne".utf8))   // [Line(text: "quit")]
///     splitter.finish()                         // Line(text: "ne"): the unfinished line
public struct DemoLineSplitter: Sendable {
    /// One line of input.
    public struct Line: Equatable, Sendable {
        /// The line without its line ending, decoded as UTF-8 (invalid bytes become U+FFFD).
        public var text: String
        /// Whether the line was longer than ``DemoLineSplitter/maxBytes`` and was cut.
        public var isCutShort = false

        public init(text: String, isCutShort: Bool = false) {
            self.text = text
            self.isCutShort = isCutShort
        }
    }

    /// The most bytes of one line kept.
    public let maxBytes: Int
    private var pending: [UInt8] = []
    private var isCutShort = false

    /// Creates a splitter keeping at most `maxBytes` bytes of a line.
    public init(maxBytes: Int = 4096) {
        self.maxBytes = maxBytes
    }

    /// Whether bytes of an unfinished line are waiting.
    public var hasPartialLine: Bool { !pending.isEmpty || isCutShort }

    /// The complete lines in `bytes` (with what was pending before).
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [Line] {
        var lines: [Line] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                lines.append(takeLine())
            } else if pending.count < maxBytes {
                pending.append(byte)
            } else {
                isCutShort = true
            }
        }
        return lines
    }

    /// The unfinished line at the end of the input, if there is one.
    public mutating func finish() -> Line? {
        hasPartialLine ? takeLine() : nil
    }

    private mutating func takeLine() -> Line {
        if pending.last == UInt8(ascii: "\r") { pending.removeLast() }
        let line = Line(text: String(decoding: pending, as: UTF8.self), isCutShort: isCutShort)
        pending.removeAll(keepingCapacity: true)
        isCutShort = false
        return line
    }
}
