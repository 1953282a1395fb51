import FlowDemo
import Testing

@Suite("Terminal description")
struct TerminalDescriptionTests {
    @Test("Piped in and out is plain, whatever the environment says")
    func pipedIsPlain() {
        let terminal = DemoTerminal.detect(
            stdinIsTerminal: false, stdoutIsTerminal: false, columns: nil,
            environment: ["TERM": "xterm-256color", "LANG": "en_US.UTF-8", "COLUMNS": "50"])

        #expect(terminal == .plain)
        #expect(terminal.isPlain)
    }

    @Test("A terminal gets the editor, colours, a clear screen and its width")
    func terminal() {
        let terminal = DemoTerminal.detect(
            stdinIsTerminal: true, stdoutIsTerminal: true, columns: 57,
            environment: ["TERM": "xterm", "LC_ALL": "C.UTF-8"])

        #expect(
            terminal
                == DemoTerminal(
                    input: .editor, usesColor: true, clearsScreen: true, columns: 57,
                    usesUnicode: true))
    }

    @Test("NO_COLOR turns colours off and nothing else; an empty NO_COLOR does not count")
    func noColor() {
        func detect(_ environment: [String: String]) -> DemoTerminal {
            DemoTerminal.detect(
                stdinIsTerminal: true, stdoutIsTerminal: true, columns: 80,
                environment: environment)
        }
        let off = detect(["TERM": "xterm", "NO_COLOR": "1"])
        let empty = detect(["TERM": "xterm", "NO_COLOR": ""])

        #expect(!off.usesColor && off.clearsScreen && off.input == .editor)
        #expect(empty.usesColor)
    }

    @Test("A dumb or unknown terminal is read a line at a time, without escape codes")
    func dumbTerminal() {
        for environment in [["TERM": "dumb"], [:]] {
            let terminal = DemoTerminal.detect(
                stdinIsTerminal: true, stdoutIsTerminal: true, columns: nil,
                environment: environment)
            #expect(terminal.input == .lines)
            #expect(!terminal.usesColor && !terminal.clearsScreen)
            #expect(terminal.columns == DemoTerminal.fallbackColumns)
        }
    }

    @Test("Output to a pipe from a terminal is plain; input piped to a terminal is coloured")
    func mixed() {
        let toPipe = DemoTerminal.detect(
            stdinIsTerminal: true, stdoutIsTerminal: false, columns: nil,
            environment: ["TERM": "xterm"])
        let fromPipe = DemoTerminal.detect(
            stdinIsTerminal: false, stdoutIsTerminal: true, columns: nil,
            environment: ["TERM": "xterm", "COLUMNS": "66"])

        #expect(toPipe.input == .lines && toPipe.isPlain)
        #expect(fromPipe.input == .piped && fromPipe.usesColor && fromPipe.columns == 66)
        #expect(!fromPipe.clearsScreen)
    }
}

@Suite("Text width and fitting")
struct TextFittingTests {
    @Test("Wide characters take two cells, combining marks none")
    func widths() {
        #expect(DemoText.width("Brontë") == 6)
        #expect(DemoText.width("源氏物語") == 8)
        #expect(DemoText.width("e\u{301}") == 1)
        #expect(DemoText.width("📚") == 2)
    }

    @Test("Fitting cuts with an ellipsis and never exceeds the width", arguments: 0...12)
    func fit(width: Int) {
        for text in ["A Tale of Two Cities", "源氏物語 Genji", "short"] {
            let fitted = DemoText.fit(text, width: width)
            #expect(DemoText.width(fitted) <= width)
            if DemoText.width(text) > width && width > 0 { #expect(fitted.hasSuffix("…")) }
            if DemoText.width(text) <= width { #expect(fitted == text) }
        }
        #expect(DemoText.fit("A Tale of Two Cities", width: 10) == "A Tale of…")
        #expect(DemoText.fit("A Tale of Two Cities", width: 10, ellipsis: "...") == "A Tale ...")
    }
}

@Suite("Panel box and renderer")
struct PanelBoxTests {
    let panel = DemoPanel(
        title: "The Strange Case of Dr Jekyll and Mr Hyde, a very long title indeed",
        path: "app/main/tabs/catalog/book/detail",
        tabBar: "[Catalog] Favourites Profile",
        content: [
            "Filter: \"" + String(repeating: "源", count: 60) + "\" (0 of 64 books)", "",
            "  1. Pride and Prejudice - Jane Austen, 1813",
        ],
        localCommands: ["next", "prev", "page <n>", "filter [text]", "select <n>", "logout"],
        globalCommands: ["tree", "trace", "help", "quit"])

    /// `text` without ANSI control sequences (`ESC [`, parameters, a final letter).
    func visible(_ text: String) -> String {
        var result = ""
        var skipping = false
        for character in text {
            if character == "\u{1B}" {
                skipping = true
            } else if skipping {
                if character.isLetter { skipping = false }
            } else {
                result.append(character)
            }
        }
        return result
    }

    @Test("The box is exactly as wide as the terminal, at every width", arguments: 10...110)
    func boxFits(columns: Int) {
        let expected = min(columns, DemoPanel.maxBoxWidth)
        for (colored, unicode) in [(false, false), (true, true)] {
            let box = panel.box(width: columns, colored: colored, unicode: unicode)
            #expect(box.count == panel.lines.count)
            for line in box {
                #expect(DemoText.width(visible(line)) == expected, "\(line)")
            }
        }
    }

    @Test("Long values end in an ellipsis; the frame stays closed")
    func ellipsis() {
        let box = panel.box(width: 40, colored: false, unicode: false)

        #expect(box.first == "+-- The Strange Case of Dr Jekyll ... -+")
        #expect(box[2] == "| Tabs: [Catalog] Favourites Profile   |")
        #expect(box[4].hasPrefix("| Filter: \"源源源") && box[4].hasSuffix("... |"))
        #expect(box.allSatisfy { $0.hasPrefix("|") || $0.hasPrefix("+") })
        #expect(box.allSatisfy { $0.hasSuffix("|") || $0.hasSuffix("+") })
        #expect(box.last == "+" + String(repeating: "-", count: 38) + "+")
    }

    @Test("A terminal narrower than the smallest box still gets a whole box")
    func tiny() {
        let box = panel.box(width: 3, colored: false, unicode: true)
        #expect(box.allSatisfy { DemoText.width($0) == DemoPanel.minBoxWidth })
    }

    @Test("Plain rendering is the transcript lines, byte for byte")
    func plainRendering() {
        let output = DemoOutput(
            command: "next", lines: [DemoLine("Done.", style: .success)], panel: panel,
            isPanelNew: true)
        let text = DemoRenderer(terminal: .plain).render(output, echo: true)

        #expect(text == (["> next", "Done."] + panel.lines).map { $0 + "\n" }.joined())
        #expect(DemoRenderer(terminal: .plain).render(DemoOutput(), echo: true) == "")
    }

    @Test("Colours follow the line's meaning; NO_COLOR output has no escape code at all")
    func colours() {
        let output = DemoOutput(
            command: "login a b",
            lines: [
                DemoLine("Wrong.", style: .error), DemoLine("Signed in.", style: .success),
                DemoLine("  trace: x", style: .trace),
            ],
            panel: panel, isPanelNew: false)
        let colour = DemoTerminal(
            input: .editor, usesColor: true, clearsScreen: true, columns: 60, usesUnicode: true)
        var noColour = colour
        noColour.usesColor = false

        let coloured = DemoRenderer(terminal: colour).render(output, echo: true)
        let plain = DemoRenderer(terminal: noColour).render(output, echo: true)

        #expect(coloured.hasPrefix(DemoRenderer.clearScreen + "\u{1B}[1m> login a b\u{1B}[0m\n"))
        #expect(coloured.contains("\u{1B}[31mWrong.\u{1B}[0m\n\u{1B}[32mSigned in.\u{1B}[0m\n"))
        #expect(coloured.contains("\u{1B}[2m  trace: x\u{1B}[0m"))
        #expect(plain.hasPrefix(DemoRenderer.clearScreen))
        #expect(plain.unicodeScalars.filter { $0 == "\u{1B}" }.count == 2)  // the clear only
        #expect(visible(coloured) == visible(plain))
        // The cleared screen always shows the current panel, changed or not.
        #expect(plain.contains("┌── The Strange Case of Dr Jekyll and Mr Hyde, a very lo… ─┐"))
    }
}
