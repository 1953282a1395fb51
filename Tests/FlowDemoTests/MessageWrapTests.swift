import FlowDemo
import Testing

/// Messages printed outside panels on a terminal are wrapped at spaces to its width, so the
/// terminal never breaks a word (an 80-column terminal cut `'release'` into `'rele` and
/// `ase'`); piped output keeps one line per message, as transcripts are compared line by line.
@MainActor
@Suite("Messages wrapped to the terminal")
struct MessageWrapTests {
    let swipeBegun =
        "Swipe back begun on app/main/tabs/catalog, collapsed into one stack (0%): "
        + "'release' closes Persuasion, 'cancel' keeps it."

    let terminal = DemoTerminal(
        input: .editor, usesColor: false, clearsScreen: false, columns: 80, usesUnicode: false)

    @Test("On an 80-column terminal a long message wraps at a space, indented by two")
    func wrapsAtSpaces() {
        let output = DemoOutput(command: "swipe", lines: [DemoLine(swipeBegun, style: .plain)])
        let text = DemoRenderer(terminal: terminal).render(output, echo: false)

        #expect(
            text == """
                Swipe back begun on app/main/tabs/catalog, collapsed into one stack (0%):
                  'release' closes Persuasion, 'cancel' keeps it.

                """)
    }

    @Test("A trace line goes on under its own indent; colours wrap each line; wide text counts two")
    func traceLinesColoursAndWideText() {
        let trace =
            "  trace: intent replayed navigate app to main / tabs / catalog / book / root "
            + "detail(id: 12) (app/login finished)"
        #expect(
            DemoRenderer.wrap(trace, width: 80) == [
                "  trace: intent replayed navigate app to main / tabs / catalog / book / root",
                "    detail(id: 12) (app/login finished)",
            ])
        var coloured = terminal
        coloured.usesColor = true
        let text = DemoRenderer(terminal: coloured).render(
            DemoOutput(lines: [DemoLine(swipeBegun, style: .success)]), echo: false)
        #expect(text.split(separator: "\n").count == 2)
        #expect(text.split(separator: "\n").allSatisfy { $0.hasPrefix("\u{1B}[32m") })
        // Eleven wide characters take 22 cells: at 20 the line breaks at the space.
        #expect(DemoRenderer.wrap("源氏物語 源氏物語源氏", width: 20) == ["源氏物語", "  源氏物語源氏"])
    }

    @Test("Piped output keeps each message on one line, whatever its length")
    func pipedStaysOneLine() {
        let output = DemoOutput(lines: [DemoLine(swipeBegun, style: .plain)])
        #expect(DemoRenderer(terminal: .plain).render(output, echo: false) == swipeBegun + "\n")
    }

    @Test("The runner on an 80-column terminal prints the swipe's message wrapped")
    func runnerWrapsTheSwipe() async throws {
        let app = try makeApp()
        var written = ""
        let runner = DemoRunner(
            app: app,
            terminal: DemoTerminal(
                input: .lines, usesColor: false, clearsScreen: false, columns: 80,
                usesUnicode: false),
            write: { written += $0 })
        await runner.run(
            ScriptedInput([.text("login alice wonderland\nselect 3\nswipe\ncancel\nquit\n")]))

        #expect(
            written.contains(
                "Swipe back begun on app/main/tabs/catalog, collapsed into one stack (0%):\n"
                    + "  'release' closes Persuasion, 'cancel' keeps it.\n"))
        // (The prompt is written before each line is read, with no newline: scripted input
        // is not echoed, so it shares a line with the next output here, not on a terminal.)
    }
}

/// `tree` while the screen catches up lists what each stack shows, under a heading; with no
/// stack entry or sheet on screen yet it says so in one line, never a heading over nothing.
@MainActor
@Suite("tree while the screen catches up")
struct CatchingUpTests {
    @Test("Before any stack is on screen, tree says what it waits for in one line")
    func nothingOnScreenYet() async throws {
        let clock = ManualDemoClock()
        let app = try DemoApp.shipped(clock: clock, transitionTime: .milliseconds(250))
        _ = await app.start()
        let lines = await app.run("tree")

        #expect(
            lines.last
                == "Still catching up with the tree (start): no stack or sheet on screen yet.")
        #expect(!lines.contains { $0.hasPrefix("On screen, still catching up") })
        // Signing in during the next transitions: the app root's switch to the main flow
        // holds no stack either until it is shown.
        for _ in 0..<10 where app.screen.isAnimating {
            clock.advance(by: .milliseconds(250))
            app.screen.catchUp()
        }
        _ = await app.run("login alice wonderland")
        let signingIn = await app.run("tree")
        #expect(
            signingIn.last
                == "Still catching up with the tree (show main): no stack or sheet on screen yet.")
    }
}
