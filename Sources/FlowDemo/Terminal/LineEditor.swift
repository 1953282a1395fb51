/// The demo's line editor for a terminal in raw mode: one line of text with a cursor,
/// history, and a rendering that always fits on one terminal row.
///
/// Keys come from ``TerminalKeyDecoder``, so an arrow key moves the cursor instead of
/// inserting `^[[D`, and no control or escape character is ever inserted or echoed.
///
///     var editor = LineEditor()
///     for key in TerminalKeyDecoder().feed(Array("nexy\u{7F}t\r".utf8)) {
///         if case .submit(let line) = editor.handle(key) { print(line) }   // "next"
///     }
public struct LineEditor: Sendable {
    /// What the caller does after a key.
    public enum Action: Equatable, Sendable {
        /// Redraw the line (``render(prompt:columns:colored:)``).
        case redraw
        /// Run `line`; the editor is empty again and the line is in the history.
        case submit(String)
        /// Ctrl-C: quit.
        case interrupt
        /// Ctrl-D: end of input, even in the middle of a line (the caller reads what was
        /// typed from ``LineEditor/line`` and does not run it).
        case endOfInput
        /// Ctrl-L: redraw the whole screen.
        case redrawScreen
        /// Refused (the line is full, nothing to delete): ring the bell.
        case bell
    }

    /// The most characters the editor holds. Longer lines than ``DemoInput/maxLineLength``
    /// fit, so the demo can refuse them with a message; this bounds a runaway paste.
    public let capacity: Int
    /// The line being edited.
    public private(set) var text: [Character] = []
    /// The cursor, as an index into ``text``.
    public private(set) var cursor = 0
    /// Submitted lines, oldest first (blank lines and repeats are not kept).
    public private(set) var history: [String] = []
    private var historyIndex: Int?
    private var draft: [Character] = []
    private var scroll = 0

    /// Creates an empty editor.
    public init(capacity: Int = 4 * DemoInput.maxLineLength) {
        self.capacity = capacity
    }

    /// The line as a string.
    public var line: String { String(text) }

    /// Applies `key`.
    public mutating func handle(_ key: TerminalKey) -> Action {
        switch key {
        case .character(let character):
            guard DemoInput.isAllowed(character), text.count < capacity else { return .bell }
            text.insert(character, at: cursor)
            cursor += 1
        case .enter:
            let line = self.line
            if !line.trimmingWhitespace.isEmpty, history.last != line { history.append(line) }
            text = []
            cursor = 0
            scroll = 0
            historyIndex = nil
            return .submit(line)
        case .backspace:
            guard cursor > 0 else { return .bell }
            cursor -= 1
            text.remove(at: cursor)
        case .delete:
            guard cursor < text.count else { return .bell }
            text.remove(at: cursor)
        case .left:
            guard cursor > 0 else { return .bell }
            cursor -= 1
        case .right:
            guard cursor < text.count else { return .bell }
            cursor += 1
        case .home: cursor = 0
        case .end: cursor = text.count
        case .up: return recall(older: true)
        case .down: return recall(older: false)
        case .clearLine:
            text = []
            cursor = 0
        case .deleteToEnd:
            text.removeSubrange(cursor...)
        case .deleteWord:
            var start = cursor
            while start > 0, text[start - 1] == " " { start -= 1 }
            while start > 0, text[start - 1] != " " { start -= 1 }
            text.removeSubrange(start..<cursor)
            cursor = start
        case .interrupt:
            return .interrupt
        case .endOfInput:
            return .endOfInput
        case .redraw:
            return .redrawScreen
        case .ignored:
            break
        }
        return .redraw
    }

    private mutating func recall(older: Bool) -> Action {
        guard !history.isEmpty else { return .bell }
        let index: Int?
        switch (historyIndex, older) {
        case (nil, true): index = history.count - 1
        case (nil, false): return .bell
        case (let current?, true):
            guard current > 0 else { return .bell }
            index = current - 1
        case (let current?, false): index = current + 1 < history.count ? current + 1 : nil
        }
        if historyIndex == nil { draft = text }
        historyIndex = index
        text = index.map { Array(history[$0]) } ?? draft
        cursor = text.count
        return .redraw
    }

    /// The bytes that redraw the prompt and the line on the cursor's row, fitted to `columns`:
    /// a long prompt is shortened from the left, a long line scrolls sideways so the cursor
    /// stays visible, and the last column stays free so the terminal never wraps.
    ///
    /// - Parameters:
    ///   - prompt: The prompt, e.g. `app/login/form> `.
    ///   - columns: The terminal's width.
    ///   - colored: Whether to colour the prompt.
    ///   - ellipsis: What marks a shortened prompt (`...` where the terminal is not UTF-8).
    public mutating func render(
        prompt: String, columns: Int, colored: Bool, ellipsis: String = "…"
    ) -> String {
        let usable = max(2, columns - 1)
        var shownPrompt = prompt
        if DemoText.width(prompt) > usable / 2 {
            // Keep the end of the path and the "> ": that is where the user is.
            let keep = max(0, usable / 2 - 1)
            shownPrompt = ellipsis + String(prompt.suffix(max(0, keep - ellipsis.count + 1)))
        }
        let room = max(1, usable - DemoText.width(shownPrompt))
        let widths = text.map(DemoText.width(of:))
        // Scroll just enough to keep the cursor inside the window.
        scroll = min(scroll, cursor)
        while widths[scroll..<cursor].reduce(0, +) >= room, scroll < cursor { scroll += 1 }
        var end = scroll
        var used = 0
        while end < text.count, used + widths[end] < room {
            used += widths[end]
            end += 1
        }
        let visible = String(text[scroll..<end])
        let cursorColumn = DemoText.width(shownPrompt) + widths[scroll..<cursor].reduce(0, +)
        let styledPrompt = colored ? "\u{1B}[36m\(shownPrompt)\u{1B}[0m" : shownPrompt
        let moveToCursor = cursorColumn > 0 ? "\r\u{1B}[\(cursorColumn)C" : "\r"
        return "\r" + styledPrompt + visible + "\u{1B}[K" + moveToCursor
    }
}
