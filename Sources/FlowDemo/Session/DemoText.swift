/// Display widths and fitting, for text drawn in a terminal's fixed-width cells.
///
///     DemoText.width("Les Misérables")                       // 14
///     DemoText.width("源氏物語")                               // 8: wide characters take two cells
///     DemoText.fit("A Tale of Two Cities", width: 10)          // "A Tale of…"
///
/// Widths follow the usual terminal rules closely enough for a demo: East Asian wide and
/// fullwidth characters and emoji take two cells, combining marks and format characters none,
/// everything else one.
public enum DemoText {
    /// The number of cells `character` takes.
    public static func width(of character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.allSatisfy(isZeroWidth) { return 0 }
        if scalars.contains(where: { $0.value == 0xFE0F }) { return 2 }  // emoji presentation
        return isWide(first) ? 2 : 1
    }

    /// The number of cells `text` takes.
    public static func width(_ text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + width(of: $1) }
    }

    /// `text` if it fits in `width` cells; otherwise its longest prefix that fits together
    /// with `ellipsis`, followed by `ellipsis`. Never wider than `width`.
    ///
    /// - Parameters:
    ///   - text: Text without control characters (see ``DemoInput/sanitized(_:)``).
    ///   - width: The cells available; 0 or less gives the empty string.
    ///   - ellipsis: What marks the cut: `"…"` on a UTF-8 terminal, `"..."` elsewhere.
    public static func fit(_ text: String, width: Int, ellipsis: String = "…") -> String {
        guard width > 0 else { return "" }
        if Self.width(text) <= width { return text }
        let room = width - Self.width(ellipsis)
        guard room >= 0 else { return String(repeating: ".", count: width) }
        var result = ""
        var used = 0
        for character in text {
            let cells = Self.width(of: character)
            if used + cells > room { break }
            result.append(character)
            used += cells
        }
        return result + ellipsis
    }

    /// `text` fitted to `width` cells and padded with spaces to exactly `width` cells.
    public static func pad(_ text: String, to width: Int, ellipsis: String = "…") -> String {
        let fitted = fit(text, width: width, ellipsis: ellipsis)
        return fitted + String(repeating: " ", count: max(0, width - Self.width(fitted)))
    }

    /// `text` broken into lines of at most `width` cells, at spaces where it can be (a word
    /// wider than a line is cut); every line after the first starts with `indent`.
    ///
    ///     DemoText.wrap("Here: rate, fav, logout", width: 12, indent: "  ")
    ///     // ["Here: rate,", "  fav,", "  logout"]
    public static func wrap(_ text: String, width: Int, indent: String = "") -> [String] {
        guard width > Self.width(indent), Self.width(text) > width else { return [text] }
        var lines: [String] = []
        var rest = Substring(text)
        var prefix = ""
        while !rest.isEmpty {
            let room = width - Self.width(prefix)
            if Self.width(rest) <= room {
                lines.append(prefix + rest)
                break
            }
            // The longest prefix of `rest` that fits, then back to its last space.
            var end = rest.startIndex
            var used = 0
            while end < rest.endIndex, used + Self.width(of: rest[end]) <= room {
                used += Self.width(of: rest[end])
                end = rest.index(after: end)
            }
            let cut = rest[..<end].lastIndex(of: " ").map { rest[..<$0] } ?? rest[..<end]
            let line = cut.isEmpty ? rest[..<end] : cut
            lines.append(prefix + line)
            rest = rest[line.endIndex...].drop { $0 == " " }
            prefix = indent
        }
        return lines
    }

    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return true
        default: return scalar.value == 0x200B
        }
    }

    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.isEmojiPresentation { return true }
        let value = scalar.value
        return wideRanges.contains { $0.contains(value) }
    }

    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
        0x4E00...0x9FFF, 0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF,
        0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
        0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
}

extension StringProtocol {
    /// The text without leading and trailing whitespace.
    var trimmingWhitespace: SubSequence {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map(index(after:)) ?? start
        return self[start..<end]
    }
}
