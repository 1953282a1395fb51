import FlowDemo
import Testing

/// Input for ``DemoRunner`` from a script: the events in order, then the end of input.
@MainActor
final class ScriptedInput: DemoInputSource {
    private var events: [DemoInputEvent]

    init(_ events: [DemoInputEvent]) {
        self.events = events
    }

    func next() -> DemoInputEvent {
        events.isEmpty ? .endOfInput : events.removeFirst()
    }
}

extension DemoInputEvent {
    /// `text` as the bytes a terminal or a pipe would send.
    static func text(_ text: String) -> DemoInputEvent { .bytes(Array(text.utf8)) }
}

/// The demo's loops driven in-process: the same code as the binary, with scripted input.
@MainActor
@Suite("Runner")
struct RunnerTests {
    /// Runs a new app on `terminal` with `events` and returns everything written.
    func run(
        _ events: [DemoInputEvent], on terminal: DemoTerminal
    ) async throws -> (String, DemoApp) {
        let app = try makeApp()
        var written = ""
        let runner = DemoRunner(app: app, terminal: terminal, write: { written += $0 })
        await runner.run(ScriptedInput(events))
        return (written, app)
    }

    let editor = DemoTerminal(
        input: .editor, usesColor: false, clearsScreen: true, columns: 60, usesUnicode: false)

    @Test("Piped: an interrupt while waiting for input quits as quit does")
    func pipedInterrupt() async throws {
        let (written, app) = try await run(
            [.text("login bob builder\nsel"), .interrupt, .text("ect 1\n")], on: .plain)

        #expect(
            written.hasSuffix(
                """
                > login bob builder
                Signed in as Bob: the app root shows the main flow.
                """ + "\n" + bookPanelText(user: "Bob")
                    + """
                    (interrupted: quitting as 'quit' does)
                    Quitting: the runtime stops and every node exits, innermost first.
                    FlowController instances still alive: 0 (12 created in this run).

                    """))
        #expect(!written.contains("> sel"))
        #expect(app.hasQuit && app.liveNodes.alive == 0)
    }

    @Test("Piped: input ending mid-line runs that line, then ends on a fresh line")
    func pipedEndMidLine() async throws {
        let (written, _) = try await run([.text("tree\ntr"), .text("ee")], on: .plain)

        #expect(
            written.hasSuffix(
                """
                > tree
                * app
                  * login
                    * form
                FlowController instances alive: 3 (3 in the tree; * marks the focused path)
                (end of input)
                Quitting: the runtime stops and every node exits, innermost first.
                FlowController instances still alive: 0 (3 created in this run).

                """))
        #expect(written.components(separatedBy: "> tree\n").count == 3)
    }

    @Test("Piped: no input at all runs the walkthrough")
    func pipedWalkthrough() async throws {
        let (written, _) = try await run([], on: .plain)
        #expect(written == expectedWalkthrough + "\n")
    }

    @Test("Terminal: each command clears the screen and shows the echo, messages and panel")
    func clearsPerStep() async throws {
        let (written, _) = try await run(
            [.text("login bob builder\r"), .text("back\r")], on: editor)
        let screens = written.components(separatedBy: DemoRenderer.clearScreen)

        #expect(screens.count == 4)  // before the first clear, start, login, back
        #expect(screens[3].hasPrefix("> back\nback: already at the list.\n+-- Books ---"))
        #expect(
            screens[3].contains(
                "| app/main/tabs/catalog/books/list" + String(repeating: " ", count: 24)))
        #expect(screens[3].contains("| Tabs: [Catalog] Favourites Profile"))
    }

    @Test("Terminal: Ctrl-C quits as quit does, on a fresh line after ^C")
    func ctrlC() async throws {
        let (written, app) = try await run(
            [.text("login bob builder\rsel\u{03}select 1\r")], on: editor)

        #expect(
            written.hasSuffix(
                "sel\u{1B}[K\r\u{1B}[32C^C\n"
                    + """
                    (interrupted: quitting as 'quit' does)
                    Quitting: the runtime stops and every node exits, innermost
                      first.
                    FlowController instances still alive: 0 (12 created in this
                      run).

                    """))
        #expect(!written.contains("> select 1"))
        #expect(app.liveNodes.alive == 0)
    }

    @Test("Terminal: a signal while waiting for a key quits the same way")
    func signalInEditor() async throws {
        let (written, app) = try await run([.text("tr"), .interrupt], on: editor)

        #expect(written.hasSuffix("tr\u{1B}[K\r\u{1B}[18C^C\n" + editorQuitTail))
        #expect(app.hasQuit)
    }

    @Test("Terminal: Ctrl-D mid-line ends on a fresh line and says the line was not run")
    func ctrlDMidLine() async throws {
        let (written, _) = try await run([.text("sel\u{04}")], on: editor)

        #expect(
            written.hasSuffix(
                "sel\u{1B}[K\r\u{1B}[19C\n"
                    + "(end of input; the unfinished line 'sel' was not run)\n"
                    + editorQuitTail.split(separator: "\n", maxSplits: 1)[1]))
    }

    @Test("Terminal: an arrow key edits the line; an escape sequence never reaches the screen")
    func arrowKeysInTheLoop() async throws {
        let (written, _) = try await run(
            [
                .text("login bob builder\r"),
                .text("filter dickns\u{1B}[D\u{1B}[De\u{1B}]0;x\u{07}\r"),
            ],
            on: editor)

        #expect(written.contains("> filter dickens\n6 of 64 books match \"dickens\".\n"))
        #expect(!written.contains("]0;"))
    }

    @Test("Terminal: a line over the limit is refused with a message")
    func longLineInEditor() async throws {
        let (written, app) = try await run(
            [.text(String(repeating: "a", count: 250) + "\r")], on: editor)

        #expect(
            written.contains(
                "Refused: the line has 250 characters; a command has at most\n  200."))
        #expect(app.hasQuit)  // the script then ends: end of input quits
    }

    @Test("A terminal read a line at a time prompts, and ends on a fresh line")
    func linesMode() async throws {
        let (written, _) = try await run(
            [.text("tree\n"), .text("tr"), .endOfInput], on: DemoTerminal(input: .lines))

        #expect(
            written.hasSuffix(
                "app/login/form> * app\n  * login\n    * form\n"
                    + "FlowController instances alive: 3 (3 in the tree; * marks the focused path)\n"
                    + "app/login/form> \n(end of input; the unfinished line 'tr' was not run)\n"
                    + quitTail(created: 3).split(separator: "\n", maxSplits: 1)[1]))
    }

    /// The interrupt note and quit lines on the 60-column ``editor`` terminal, where the
    /// messages wrap at spaces (3 nodes created).
    let editorQuitTail = """
        (interrupted: quitting as 'quit' does)
        Quitting: the runtime stops and every node exits, innermost
          first.
        FlowController instances still alive: 0 (3 created in this
          run).

        """

    /// The interrupt note and quit lines.
    func quitTail(created: Int) -> String {
        """
        (interrupted: quitting as 'quit' does)
        Quitting: the runtime stops and every node exits, innermost first.
        FlowController instances still alive: 0 (\(created) created in this run).

        """
    }

    /// The first page of the list for `user`, as transcript text.
    func bookPanelText(user: String) -> String {
        """
        +-- Books --------------------------------------------------------------
        | app/main/tabs/catalog/books/list
        | Tabs: [Catalog] Favourites Profile
        |
        | Signed in as \(user); books opened this session: 0
        | Filter: none (64 books)
        |
        |   1. Pride and Prejudice - Jane Austen, 1813
        |   2. Emma - Jane Austen, 1815
        |   3. Persuasion - Jane Austen, 1817
        |   4. Sense and Sensibility - Jane Austen, 1811
        |   5. Great Expectations - Charles Dickens, 1861
        |   6. A Tale of Two Cities - Charles Dickens, 1859
        |   7. Oliver Twist - Charles Dickens, 1838
        |   8. David Copperfield - Charles Dickens, 1850
        |
        | Page 1 of 8
        |
        | Here: next, prev, page <n>, filter [text], select <n>, logout, tab <name>
        | Anywhere: open, about, tree, trace, help, quit
        +-----------------------------------------------------------------------

        """
    }
}
