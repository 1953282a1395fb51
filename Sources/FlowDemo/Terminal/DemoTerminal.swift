/// What the demo's output goes to and how it reads input: a description, so choosing plain
/// text, colours, screen clearing and line editing is a pure function the tests can call.
///
///     DemoTerminal.detect(
///         stdinIsTerminal: false, stdoutIsTerminal: false, columns: nil, environment: [:])
///     // .plain: piped in and out, the transcript style, byte for byte
///
/// The rules:
/// - Standard output not a terminal: plain text, no colours, no box fitting.
/// - Standard output a terminal: the panel is fitted to ``columns``; colours unless
///   `NO_COLOR` is set (to anything but the empty string) or `TERM` is `dumb` or unset.
/// - Both a terminal (and `TERM` not `dumb` or unset): the demo's own line editor in raw
///   mode, and a clear screen per step. Otherwise a terminal on standard input is read a line
///   at a time and piped input is a transcript.
public struct DemoTerminal: Equatable, Sendable {
    /// How standard input is read.
    public enum Input: Equatable, Sendable {
        /// Not a terminal: commands one a line, each echoed before its output.
        case piped
        /// A terminal read a line at a time by the terminal driver (output is not a
        /// terminal, or the terminal cannot take escape sequences).
        case lines
        /// A terminal in raw mode, read a key at a time by ``LineEditor``.
        case editor
    }

    /// How standard input is read.
    public var input: Input
    /// Whether output uses ANSI colours.
    public var usesColor: Bool
    /// Whether each step clears the screen before it is drawn.
    public var clearsScreen: Bool
    /// The terminal's width in columns; `nil` when output is not a terminal (nothing is
    /// fitted then).
    public var columns: Int?
    /// Whether the terminal takes UTF-8: box-drawing characters and `…`, else ASCII.
    public var usesUnicode: Bool

    /// Creates a description.
    public init(
        input: Input, usesColor: Bool = false, clearsScreen: Bool = false, columns: Int? = nil,
        usesUnicode: Bool = false
    ) {
        self.input = input
        self.usesColor = usesColor
        self.clearsScreen = clearsScreen
        self.columns = columns
        self.usesUnicode = usesUnicode
    }

    /// Piped in and out: today's transcript, byte for byte.
    public static let plain = DemoTerminal(input: .piped)

    /// Whether output is exactly the plain transcript lines.
    public var isPlain: Bool { columns == nil && !usesColor && !clearsScreen }

    /// The columns used when the terminal does not say.
    public static let fallbackColumns = 80

    /// Describes a terminal from facts the binary gathers.
    ///
    /// - Parameters:
    ///   - stdinIsTerminal: `isatty(0)`.
    ///   - stdoutIsTerminal: `isatty(1)`.
    ///   - columns: The width the terminal reports (`TIOCGWINSZ`), if any.
    ///   - environment: The process environment (`NO_COLOR`, `TERM`, `COLUMNS`, `LC_ALL`,
    ///     `LC_CTYPE`, `LANG`).
    public static func detect(
        stdinIsTerminal: Bool, stdoutIsTerminal: Bool, columns: Int?,
        environment: [String: String]
    ) -> DemoTerminal {
        let term = environment["TERM"] ?? ""
        let canEscape = stdoutIsTerminal && !term.isEmpty && term != "dumb"
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        let input: Input =
            !stdinIsTerminal ? .piped : canEscape ? .editor : .lines
        let reported = columns.flatMap { $0 > 0 ? $0 : nil }
        let width = reported ?? environment["COLUMNS"].flatMap(Int.init) ?? fallbackColumns
        let locale =
            [environment["LC_ALL"], environment["LC_CTYPE"], environment["LANG"]]
            .compactMap { $0 }.first { !$0.isEmpty } ?? ""
        let utf8 = locale.lowercased().contains("utf-8") || locale.lowercased().contains("utf8")
        return DemoTerminal(
            input: input,
            usesColor: canEscape && !noColor,
            clearsScreen: input == .editor,
            columns: stdoutIsTerminal ? max(1, width) : nil,
            usesUnicode: stdoutIsTerminal && utf8)
    }

    /// `…` on a UTF-8 terminal, else `...`.
    var ellipsis: String { usesUnicode ? "…" : "..." }
}
