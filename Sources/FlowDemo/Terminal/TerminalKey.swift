/// A key the demo's line editor understands, decoded from a raw-mode terminal's bytes.
public enum TerminalKey: Equatable, Sendable {
    /// A character to insert (never a control character).
    case character(Character)
    /// Enter (CR or LF).
    case enter
    /// Backspace (DEL or Ctrl-H): delete before the cursor.
    case backspace
    /// Delete (`ESC [3~`): delete under the cursor.
    case delete
    /// Arrow keys, Ctrl-B and Ctrl-F.
    case left, right, up, down
    /// Home / End, Ctrl-A / Ctrl-E.
    case home, end
    /// Ctrl-U: clear the line.
    case clearLine
    /// Ctrl-K: delete to the end of the line.
    case deleteToEnd
    /// Ctrl-W: delete the word before the cursor.
    case deleteWord
    /// Ctrl-C.
    case interrupt
    /// Ctrl-D.
    case endOfInput
    /// Ctrl-L: redraw the screen.
    case redraw
    /// Anything else: a control character, an escape sequence the editor does not use, a
    /// function key. It is swallowed whole, never inserted.
    case ignored
}

/// Decodes the bytes a terminal in raw mode sends into ``TerminalKey``s: UTF-8 characters,
/// control characters, and escape sequences (CSI, SS3, OSC and the like, consumed whole so no
/// part of one is ever inserted as text). Bytes may arrive split anywhere.
///
///     var decoder = TerminalKeyDecoder()
///     decoder.feed([0x1B, 0x5B])   // []: an unfinished sequence waits
///     decoder.feed([0x44, 0x61])   // [.left, .character("a")]
public struct TerminalKeyDecoder: Sendable {
    private var pending: [UInt8] = []

    /// Creates a decoder with nothing pending.
    public init() {}

    /// The keys completed by `bytes`.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [TerminalKey] {
        pending += bytes
        var keys: [TerminalKey] = []
        while !pending.isEmpty {
            guard let (key, length) = Self.decode(pending[...]) else { break }
            pending.removeFirst(length)
            keys.append(key)
        }
        return keys
    }

    /// The first key of `bytes` and how many bytes it took; `nil` if the bytes end inside it.
    static func decode(_ bytes: ArraySlice<UInt8>) -> (TerminalKey, Int)? {
        let first = bytes[bytes.startIndex]
        switch first {
        case 0x1B: return decodeEscape(bytes)
        case 0x0D, 0x0A: return (.enter, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0x01: return (.home, 1)
        case 0x02: return (.left, 1)
        case 0x03: return (.interrupt, 1)
        case 0x04: return (.endOfInput, 1)
        case 0x05: return (.end, 1)
        case 0x06: return (.right, 1)
        case 0x0B: return (.deleteToEnd, 1)
        case 0x0C: return (.redraw, 1)
        case 0x0E: return (.down, 1)
        case 0x10: return (.up, 1)
        case 0x15: return (.clearLine, 1)
        case 0x17: return (.deleteWord, 1)
        case 0x09: return (.character(" "), 1)
        case 0x00...0x1F: return (.ignored, 1)
        case 0x20...0x7E: return (.character(Character(Unicode.Scalar(first))), 1)
        default: return decodeUTF8(bytes)
        }
    }

    private static func decodeUTF8(_ bytes: ArraySlice<UInt8>) -> (TerminalKey, Int)? {
        let first = bytes[bytes.startIndex]
        let length: Int
        switch first {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return (.ignored, 1)  // a stray continuation byte or an invalid lead
        }
        let available = bytes.prefix(length)
        for (offset, byte) in available.enumerated() where offset > 0 && byte & 0xC0 != 0x80 {
            return (.ignored, offset)  // broken sequence: drop what came before this byte
        }
        guard available.count == length else { return nil }
        let text = String(decoding: available, as: UTF8.self)
        guard let character = text.first, text.count == 1, DemoInput.isAllowed(character)
        else { return (.ignored, length) }
        return (.character(character), length)
    }

    private static func decodeEscape(_ bytes: ArraySlice<UInt8>) -> (TerminalKey, Int)? {
        let start = bytes.startIndex
        guard bytes.count > 1 else { return nil }
        let kind = bytes[start + 1]
        switch kind {
        case UInt8(ascii: "["):
            var index = start + 2
            while index < bytes.endIndex {
                let byte = bytes[index]
                if (0x40...0x7E).contains(byte) {
                    let parameters = String(decoding: bytes[(start + 2)..<index], as: UTF8.self)
                    return (csiKey(final: byte, parameters: parameters), index - start + 1)
                }
                if !(0x20...0x3F).contains(byte) { return (.ignored, index - start) }
                index += 1
            }
            return nil
        case UInt8(ascii: "O"):
            guard bytes.count > 2 else { return nil }
            return (csiKey(final: bytes[start + 2], parameters: ""), 3)
        case UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "X"), UInt8(ascii: "^"),
            UInt8(ascii: "_"):
            var index = start + 2
            while index < bytes.endIndex {
                if bytes[index] == 0x07 { return (.ignored, index - start + 1) }
                if bytes[index] == 0x1B {
                    guard index + 1 < bytes.endIndex else { return nil }
                    return (.ignored, index - start + (bytes[index + 1] == 0x5C ? 2 : 1))
                }
                index += 1
            }
            return nil
        case 0x20...0x7E:
            return (.ignored, 2)  // Alt and a key
        default:
            return (.ignored, 1)  // a lone Escape: the next byte is a key of its own
        }
    }

    private static func csiKey(final: UInt8, parameters: String) -> TerminalKey {
        switch (Character(Unicode.Scalar(final)), parameters) {
        case ("A", _): return .up
        case ("B", _): return .down
        case ("C", _): return .right
        case ("D", _): return .left
        case ("H", _), ("~", "1"), ("~", "7"): return .home
        case ("F", _), ("~", "4"), ("~", "8"): return .end
        case ("~", "3"): return .delete
        default: return .ignored
        }
    }
}
