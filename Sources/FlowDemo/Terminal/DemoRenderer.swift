/// Turns a step's ``DemoOutput`` into the text written to standard output, for the terminal
/// ``DemoTerminal`` describes.
///
/// Plain (``DemoTerminal/isPlain``): exactly the transcript lines, one a line. On a
/// terminal: coloured messages (unless `NO_COLOR`) wrapped at spaces to the width (a wrapped
/// message goes on indented by two more cells, so the terminal never breaks a word), and the
/// panel as a box fitted to the width; with ``DemoTerminal/clearsScreen`` every step that has
/// a panel starts from a clear screen and always shows the current panel, so the screen reads
/// as the app's current state.
///
///     let renderer = DemoRenderer(terminal: .plain)
///     renderer.render(app.step("next"), echo: true)   // "> next\n+-- Books ---…\n"
public struct DemoRenderer: Sendable {
    /// The terminal drawn for.
    public var terminal: DemoTerminal

    /// Creates a renderer for `terminal`.
    public init(terminal: DemoTerminal) {
        self.terminal = terminal
    }

    /// Moves the cursor home and clears the screen.
    public static let clearScreen = "\u{1B}[H\u{1B}[2J"

    /// The text for `output`, each line ending in `\n`; empty if there is nothing to show.
    ///
    /// - Parameters:
    ///   - output: A step's output.
    ///   - echo: Whether to show `> command` first (piped input and the cleared screen do;
    ///     a terminal read a line at a time already shows what was typed).
    public func render(_ output: DemoOutput, echo: Bool) -> String {
        if terminal.isPlain {
            return output.plainLines(echo: echo).map { $0 + "\n" }.joined()
        }
        let colored = terminal.usesColor
        var lines: [String] = []
        if echo, let command = output.command {
            lines.append(DemoStyle.emphasis.apply(to: "> " + command, colored: colored))
        }
        let width = terminal.columns ?? DemoTerminal.fallbackColumns
        for line in output.lines {
            lines += Self.wrap(line.text, width: width).map {
                line.style.apply(to: $0, colored: colored)
            }
        }
        let showsPanel = terminal.clearsScreen || output.isPanelNew
        if showsPanel, let split = output.split {
            lines += split.box(colored: colored, unicode: terminal.usesUnicode)
        } else if showsPanel, let panel = output.panel {
            lines += panel.box(
                width: terminal.columns ?? DemoTerminal.fallbackColumns, colored: colored,
                unicode: terminal.usesUnicode)
        }
        guard !lines.isEmpty else { return "" }
        let clear = terminal.clearsScreen && output.panel != nil ? Self.clearScreen : ""
        return clear + lines.map { $0 + "\n" }.joined()
    }

    /// `message` broken at spaces into lines of at most `width` cells, each line after the
    /// first indented two cells more than the message (a trace line's two spaces included):
    ///
    ///     DemoRenderer.wrap("Swipe back begun (0%): 'release' closes Persuasion", width: 30)
    ///     // ["Swipe back begun (0%):", "  'release' closes Persuasion"]
    public static func wrap(_ message: String, width: Int) -> [String] {
        let indent = String(message.prefix { $0 == " " }) + "  "
        return DemoText.wrap(message, width: width, indent: indent)
    }

    /// The interactive prompt, e.g. `app/main/tabs/catalog/list> `, coloured on a colour terminal.
    public func prompt(_ prompt: String) -> String {
        terminal.usesColor ? "\u{1B}[36m\(prompt)\u{1B}[0m" : prompt
    }
}
