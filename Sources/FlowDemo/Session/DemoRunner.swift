/// The demo's read–run–draw loop for each kind of input, kept out of the binary so the tests
/// drive it with scripted input.
///
/// - ``DemoTerminal/Input/piped``: lines are split from the bytes, sanitised, echoed and
///   run; an unfinished last line runs too. No input at all runs the walkthrough.
/// - ``DemoTerminal/Input/lines``: a terminal in line mode: a prompt, then each line runs.
/// - ``DemoTerminal/Input/editor``: keys go to a ``LineEditor``; each command clears the
///   screen and draws its output and the panel (the tree's focused screen). While the
///   terminal shows a transition (``DemoApp/screen``, `--animate`), the line above the
///   prompt shows its progress (`⟶ push detail ▓▓▓▓░░░░`) until it has caught up; keys are
///   read and commands run as usual meanwhile.
///
/// In the piped and line modes nothing waits for a transition: they end as the clock goes,
/// and `tree` shows what the terminal still shows.
///
/// In every mode an interrupt (Ctrl-C, SIGINT, SIGTERM, SIGHUP) quits as `quit` does, and
/// the end of input quits on a fresh line; a half-typed line on a terminal is not run. A
/// resize (SIGWINCH) re-reads the screen's width when the layout follows the terminal
/// (`layoutWidth`, no `--width`): the catalog's split collapses or expands
/// (``DemoApp/resizeStep(to:)``), and the screen is drawn again.
@MainActor
public final class DemoRunner {
    private let app: DemoApp
    private var renderer: DemoRenderer
    private let columns: () -> Int?
    private let layoutWidth: (() -> Int?)?
    private let write: (String) -> Void
    private var decoder = TerminalKeyDecoder()
    private var editor = LineEditor()
    private var screen = DemoOutput()
    /// Whether the line above the prompt is a transition's progress (editor mode).
    private var isProgressShown = false
    /// The progress line drawn last, so that a frame that would not change it draws nothing.
    private var drawnProgress = ""

    /// Creates a runner.
    ///
    /// - Parameters:
    ///   - app: A new app (the runner starts it).
    ///   - terminal: What the input and output are.
    ///   - columns: The terminal's width now (asked before each drawing, so a resized
    ///     terminal is fitted); `nil` keeps the width in `terminal`.
    ///   - layoutWidth: The screen's width after a resize, asked on each
    ///     ``DemoInputEvent/resize``; `nil` (the default, and with `--width`): a resize
    ///     changes no layout.
    ///   - write: Writes text to standard output.
    public init(
        app: DemoApp, terminal: DemoTerminal, columns: @escaping () -> Int? = { nil },
        layoutWidth: (() -> Int?)? = nil, write: @escaping (String) -> Void
    ) {
        self.app = app
        renderer = DemoRenderer(terminal: terminal)
        self.columns = columns
        self.layoutWidth = layoutWidth
        self.write = write
    }

    /// Runs until `quit`, the end of input or an interrupt.
    public func run(_ input: some DemoInputSource) async {
        switch renderer.terminal.input {
        case .piped: await runPiped(input)
        case .lines: await runLines(input)
        case .editor: await runEditor(input)
        }
    }

    /// The app's output for a resize, if the layout follows the terminal's width.
    private func resizeLayout() async -> DemoOutput? {
        guard let layoutWidth, let width = layoutWidth() else { return nil }
        return await app.resizeStep(to: width)
    }

    private func emit(_ output: DemoOutput, echo: Bool) {
        if renderer.terminal.columns != nil, let width = columns() {
            renderer.terminal.columns = width
        }
        write(renderer.render(output, echo: echo))
        if renderer.terminal.clearsScreen && output.panel != nil { isProgressShown = false }
    }

    // MARK: Piped

    private func runPiped(_ input: some DemoInputSource) async {
        var splitter = DemoLineSplitter()
        var isStarted = false
        func startIfNeeded() async {
            if !isStarted { emit(await app.startStep(), echo: false) }
            isStarted = true
        }
        while true {
            switch input.next() {
            case .bytes(let bytes):
                await startIfNeeded()
                for line in splitter.feed(bytes) {
                    if let output = await app.pipedStep(line) { emit(output, echo: true) }
                    if app.hasQuit { return }
                }
            case .endOfInput:
                guard isStarted else {
                    write(await app.walkthrough().map { $0 + "\n" }.joined())
                    return
                }
                if let line = splitter.finish(), let output = await app.pipedStep(line) {
                    emit(output, echo: true)
                }
                emit(await app.endOfInputStep(), echo: false)
                return
            case .interrupt:
                await startIfNeeded()
                emit(await app.interruptStep(), echo: false)
                return
            case .resize:
                guard isStarted, let output = await resizeLayout() else { continue }
                emit(output, echo: false)
            }
        }
    }

    // MARK: A terminal in line mode

    private func runLines(_ input: some DemoInputSource) async {
        var splitter = DemoLineSplitter()
        emit(await app.startStep(), echo: false)
        write(renderer.prompt(app.prompt))
        while true {
            switch input.next() {
            case .bytes(let bytes):
                for line in splitter.feed(bytes) {
                    emit(await app.step(line.text, isCutShort: line.isCutShort), echo: false)
                    if app.hasQuit { return }
                    write(renderer.prompt(app.prompt))
                }
            case .endOfInput:
                write("\n")
                let unfinished = splitter.finish()?.text ?? ""
                emit(await app.endOfInputStep(unfinishedLine: unfinished), echo: false)
                return
            case .interrupt:
                write("\n")
                emit(await app.interruptStep(), echo: false)
                return
            case .resize:
                guard let output = await resizeLayout(), !output.lines.isEmpty else { continue }
                write("\n")
                emit(output, echo: false)
                write(renderer.prompt(app.prompt))
            }
        }
    }

    // MARK: A terminal with the line editor

    private func runEditor(_ input: some DemoInputSource) async {
        screen = await app.startStep()
        emit(screen, echo: true)
        drawLine()
        while !app.hasQuit {
            let event: DemoInputEvent
            if app.screen.isAnimating {
                guard let next = input.next(waitingAtMost: Self.frameMilliseconds) else {
                    advanceTransition()
                    continue
                }
                event = next
            } else {
                event = input.next()
            }
            switch event {
            case .bytes(let bytes):
                for key in decoder.feed(bytes) where !app.hasQuit {
                    await handle(key)
                }
            case .endOfInput:
                finishLine()
                emit(await app.endOfInputStep(unfinishedLine: editor.line), echo: false)
            case .interrupt:
                finishLine(mark: "^C")
                emit(await app.interruptStep(), echo: false)
            case .resize:
                if let output = await resizeLayout() {
                    emit(output, echo: true)
                    if output.panel != nil { screen = output }
                    drawLine()
                } else {
                    redrawScreen()
                }
            }
        }
    }

    private func handle(_ key: TerminalKey) async {
        switch editor.handle(key) {
        case .redraw:
            drawLine()
        case .bell:
            write("\u{7}")
        case .redrawScreen:
            redrawScreen()
        case .submit(let line):
            write("\n")
            guard !DemoInput.sanitized(line).trimmingWhitespace.isEmpty else {
                drawLine()
                return
            }
            let output = await app.step(line)
            emit(output, echo: true)
            if output.panel != nil { screen = output }
            if !app.hasQuit { drawLine() }
        case .interrupt:
            finishLine(mark: "^C")
            emit(await app.interruptStep(), echo: false)
        case .endOfInput:
            let unfinished = editor.line
            finishLine()
            emit(await app.endOfInputStep(unfinishedLine: unfinished), echo: false)
        }
    }

    /// How often the progress of a transition is redrawn, in milliseconds.
    static let frameMilliseconds = 40

    /// A frame of a transition: the terminal catches up with the clock, and the progress
    /// line is drawn again (or taken away once the terminal has caught up).
    private func advanceTransition() {
        app.screen.catchUp()
        if app.screen.isAnimating && progressText == drawnProgress { return }
        drawLine()
    }

    /// The progress line of the transition the terminal shows, e.g.
    /// `⟶ push detail ▓▓▓▓░░░░ ` (ASCII: `-> push detail [####....] `); empty when none runs.
    private var progressText: String {
        guard let (title, fraction) = app.screen.progress() else { return "" }
        let cells = 8
        let done = Int((fraction * Double(cells)).rounded(.down))
        if renderer.terminal.usesUnicode {
            return "⟶ \(title) " + String(repeating: "▓", count: done)
                + String(repeating: "░", count: cells - done) + " "
        }
        return "-> \(title) [" + String(repeating: "#", count: done)
            + String(repeating: ".", count: cells - done) + "] "
    }

    /// Draws the progress of a transition on the line above the prompt while one runs (and
    /// takes that line away once none does), then the prompt and the line being edited.
    private func drawLine() {
        let width = columns() ?? renderer.terminal.columns ?? DemoTerminal.fallbackColumns
        let progress = progressText
        drawnProgress = progress
        // From the prompt's line up to the progress line, each cleared.
        let up = "\r\u{1B}[K\u{1B}[1A\r"
        if !progress.isEmpty {
            let line = DemoText.fit(progress, width: max(1, width - 1), ellipsis: "")
            write((isProgressShown ? up : "\r") + line + "\u{1B}[K\n")
            isProgressShown = true
        } else if isProgressShown {
            write(up + "\u{1B}[K")
            isProgressShown = false
        }
        write(
            editor.render(
                prompt: app.prompt, columns: width, colored: renderer.terminal.usesColor,
                ellipsis: renderer.terminal.ellipsis))
    }

    /// Leaves the line being edited as it is (cursor at its end, `mark` after it) and moves
    /// to a fresh line.
    private func finishLine(mark: String = "") {
        _ = editor.handle(.end)
        drawLine()
        write(mark + "\n")
    }

    /// Draws the last screen again (Ctrl-L, a resize), then the line being edited.
    private func redrawScreen() {
        emit(screen, echo: true)
        drawLine()
    }
}
