import FlowDemo
import Testing

@Suite("Input sanitising and line splitting")
struct InputTests {
    @Test(
        "Escape sequences and control characters are removed whole, never echoed raw",
        arguments: [
            ("filter \u{1B}[Adickens", "filter dickens"),  // an arrow key
            ("\u{1B}]0;pwned\u{07}quit", "quit"),  // OSC: set the window title (BEL)
            ("\u{1B}]0;pwned\u{1B}\\quit", "quit"),  // OSC ended by ESC \
            ("tr\u{1B}[31mee\u{1B}[0m", "tree"),  // colours
            ("next\u{1B}OA", "next"),  // SS3 arrow
            ("\u{9B}2Jhelp", "help"),  // CSI as a C1 character
            ("\u{9D}0;x\u{9C}help", "help"),  // OSC as a C1 character
            ("se\u{08}lect\u{7F} 1\u{00}\r", "select 1"),  // C0 and DEL
            ("login\talice", "login alice"),  // a tab is a space
            ("filter \u{202E}snekcid", "filter snekcid"),  // a bidi override
            ("\u{1B}Pdevice\u{1B}\\\u{1B}x", ""),  // DCS, then Alt-x
            ("filter Brontë 源氏", "filter Brontë 源氏"),  // ordinary text is kept
        ])
    func sanitising(raw: String, clean: String) {
        #expect(DemoInput.sanitized(raw) == clean)
        #expect(!DemoInput.sanitized(raw).unicodeScalars.contains { !DemoInput.isAllowed($0) })
    }

    @Test("Lines split on LF with CRLF tolerated; an unfinished last line comes at the end")
    func splitting() {
        var splitter = DemoLineSplitter()
        let first = splitter.feed(Array("tree\r\nne".utf8))
        let second = splitter.feed(Array("xt\nquit".utf8))

        #expect(first == [DemoLineSplitter.Line(text: "tree")])
        #expect(second == [DemoLineSplitter.Line(text: "next")])
        #expect(splitter.finish() == DemoLineSplitter.Line(text: "quit"))
        #expect(splitter.finish() == nil)
    }

    @Test("A line longer than the reader keeps is cut short and marked, however long it is")
    func endlessLine() {
        var splitter = DemoLineSplitter(maxBytes: 8)
        let lines = splitter.feed(Array(repeating: UInt8(ascii: "a"), count: 100_000) + [10])

        #expect(lines == [DemoLineSplitter.Line(text: "aaaaaaaa", isCutShort: true)])
    }
}

@MainActor
@Suite("Input the app refuses")
struct RefusedInputTests {
    @Test("A line over the limit is refused with a message and changes nothing")
    func tooLong() async throws {
        let app = try makeApp()
        _ = await app.start()
        let long = "filter " + String(repeating: "x", count: 194)

        #expect(
            await app.echoAndRun(long) == [
                "> filter " + String(repeating: "x", count: 52) + "…",
                "Refused: the line has 201 characters; a command has at most 200.",
            ])
        // 200 characters is not too long: the command runs (and does not apply here).
        #expect(
            await app.run(String(long.dropLast()))
                == ["filter: sign in first; the book list comes after login."])
    }

    @Test("A line the reader cut short is refused even if what is left would fit")
    func cutShort() async throws {
        let app = try makeApp()
        _ = await app.start()
        let output = await app.pipedStep(DemoLineSplitter.Line(text: "tree", isCutShort: true))

        #expect(
            output?.plainLines(echo: true) == [
                "> tree",
                "Refused: the line has more than 4 characters; a command has at most 200.",
            ])
    }

    @Test("Control characters in a command reach neither the echo nor the messages")
    func escapesAreNotEchoed() async throws {
        let app = try makeApp()
        _ = await app.start()
        _ = await app.run("login bob builder")
        var transcript = await app.echoAndRun("fil\u{1B}[Dter \u{1B}]0;pwned\u{07}dickens")
        transcript += await app.echoAndRun("\u{1B}[31mbogus\u{1B}[0m")

        #expect(
            Array(transcript.prefix(2)) == ["> filter dickens", "6 of 64 books match \"dickens\"."])
        #expect(
            transcript.suffix(2) == [
                "> bogus",
                "Unknown command 'bogus'. Try: next, prev, page, filter, select, logout, tab, "
                    + "open, about, tree, trace, help, quit.",
            ])
        #expect(!transcript.joined().unicodeScalars.contains { !DemoInput.isAllowed($0) })
    }

    @Test("Piped blank lines, comments and lines that are only escape codes are skipped")
    func skippedPipedLines() async throws {
        let app = try makeApp()
        _ = await app.start()

        for text in ["", "   ", "# note", "\u{1B}[A", "\t"] {
            #expect(await app.pipedStep(DemoLineSplitter.Line(text: text)) == nil)
        }
        #expect(
            await app.pipedStep(DemoLineSplitter.Line(text: "  tree ")).map(\.command) == "tree")
    }
}
