import FlowDemo
import Testing

@Suite("Key decoding")
struct KeyDecodingTests {
    @Test("Arrow keys, Home, End and Delete decode whole, even split across reads")
    func escapeSequences() {
        var decoder = TerminalKeyDecoder()
        var keys: [TerminalKey] = []
        let chunks: [[UInt8]] = [
            [0x1B], [0x5B], [0x44, 0x1B, 0x5B, 0x43, 0x1B], [0x4F, 0x48, 0x1B, 0x5B],
        ]
        for chunk in chunks {
            keys += decoder.feed(chunk)
        }
        keys += decoder.feed(Array("3~\u{1B}[F\u{1B}[1;5A".utf8))

        #expect(keys == [.left, .right, .home, .delete, .end, .up])
    }

    @Test("An OSC title sequence, function keys and Alt-keys are swallowed, never typed")
    func swallowed() {
        var decoder = TerminalKeyDecoder()
        let keys = decoder.feed(Array("a\u{1B}]0;pwned\u{07}\u{1B}[15~\u{1B}xb".utf8))

        #expect(keys == [.character("a"), .ignored, .ignored, .ignored, .character("b")])
    }

    @Test("Control keys map to editing keys; UTF-8 characters arrive whole")
    func controls() {
        var decoder = TerminalKeyDecoder()
        let bytes: [UInt8] =
            [0x03, 0x04, 0x0D, 0x7F, 0x15, 0x17, 0x01, 0x05, 0x00] + Array("ë".utf8)
        var keys = decoder.feed(Array(bytes.dropLast()))
        keys += decoder.feed(Array(bytes.suffix(1)))

        #expect(
            keys == [
                .interrupt, .endOfInput, .enter, .backspace, .clearLine, .deleteWord, .home, .end,
                .ignored, .character("ë"),
            ])
    }
}

@Suite("Line editor")
struct LineEditorTests {
    /// Feeds `text` to `editor` and returns the lines submitted.
    func type(_ text: String, into editor: inout LineEditor) -> [LineEditor.Action] {
        var decoder = TerminalKeyDecoder()
        return decoder.feed(Array(text.utf8)).map { editor.handle($0) }
    }

    @Test("Arrow keys move the cursor instead of garbling the line")
    func arrowKeys() {
        var editor = LineEditor()
        let actions = type("filter dickns\u{1B}[D\u{1B}[De\u{1B}[F!\u{7F}\r", into: &editor)

        #expect(actions.last == .submit("filter dickens"))
        #expect(editor.line.isEmpty && editor.cursor == 0)
    }

    @Test("Up and Down walk the history and come back to the draft")
    func history() {
        var editor = LineEditor()
        _ = type("tree\rnext\rpa", into: &editor)
        _ = type("\u{1B}[A", into: &editor)
        let newest = editor.line
        _ = type("\u{1B}[A", into: &editor)
        let older = editor.line
        let bell = editor.handle(.up)
        _ = type("\u{1B}[B\u{1B}[B", into: &editor)

        #expect([newest, older] == ["next", "tree"])
        #expect(bell == .bell)
        #expect(editor.line == "pa")
        #expect(editor.history == ["tree", "next"])
    }

    @Test("Ctrl-C interrupts; Ctrl-D ends the input even mid-line, keeping the line unrun")
    func interruptAndEnd() {
        var editor = LineEditor()
        let interrupt = type("sel\u{03}", into: &editor).last
        let end = type("\u{04}", into: &editor).last

        #expect(interrupt == .interrupt)
        #expect(end == .endOfInput)
        #expect(editor.line == "sel")
    }

    @Test("A full line rings the bell instead of growing; control characters are never inserted")
    func capacity() {
        var editor = LineEditor(capacity: 3)
        let actions = type("abcd", into: &editor)

        #expect(actions == [.redraw, .redraw, .redraw, .bell])
        #expect(editor.handle(.character("\u{1B}")) == .bell)
        #expect(editor.line == "abc")
    }

    @Test(
        "The drawn line fits the terminal: the prompt shortens, long text scrolls",
        arguments: [
            12, 20, 40, 80,
        ])
    func renderingFits(columns: Int) {
        var editor = LineEditor()
        _ = type(String(repeating: "x", count: 150) + "\u{1B}[H\u{1B}[C", into: &editor)
        let prompt = "app/main/tabs/catalog/book/detail> "

        for _ in 0..<3 {
            let drawn = editor.render(prompt: prompt, columns: columns, colored: false)
            let shown = drawn.split(separator: "\u{1B}").first.map(String.init) ?? ""
            #expect(drawn.hasPrefix("\r"))
            #expect(DemoText.width(shown.dropFirst()) < columns, "\(drawn)")
            _ = editor.handle(.end)
        }
        #expect(
            editor.render(prompt: "a> ", columns: 80, colored: false).hasPrefix("\ra> xxx"))
    }
}
