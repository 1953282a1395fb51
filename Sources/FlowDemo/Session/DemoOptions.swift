/// The command-line options of `flowdemo`.
public struct DemoOptions: Equatable, Sendable {
    /// `--help`: print ``DemoOptions/helpText`` and exit.
    public var showHelp = false
    /// `--walkthrough`: run the built-in walkthrough whatever standard input is.
    public var forceWalkthrough = false
    /// `--state FILE` (or `--state=FILE`): restore the navigation from FILE at start, if it
    /// exists, and save it there at quit.
    public var stateFile: String?
    /// `--animate MS` (or `--animate=MS`): how long a transition takes on the terminal, in
    /// milliseconds (0 to ``maxAnimationMilliseconds``; 0: none). `nil`: the default, 250 on
    /// an interactive terminal and none otherwise (``animationMilliseconds(interactive:)``).
    public var animationMilliseconds: Int?
    /// `--width N` (or `--width=N`): the screen's width in columns, fixed (``minWidth`` to
    /// ``maxWidth``), whatever the terminal is and however it is resized. `nil`: the
    /// terminal's width, followed live as it is resized; ``DemoTerminal/fallbackColumns``
    /// when output is not a terminal (``width(terminalColumns:)``).
    public var width: Int?
    /// `--record FILE` (or `--record=FILE`): record the session to FILE (FlowKitRecorder's JSON
    /// lines, with snapshots), for `flowinspect FILE` to show as a page.
    public var recordFile: String?

    /// The narrowest `--width` accepted.
    public static let minWidth = 20
    /// The widest `--width` accepted.
    public static let maxWidth = 1_000

    /// The screen's width to start with: ``width`` if given, else `terminalColumns` (the
    /// width standard output reports, `nil` when it is not a terminal), else
    /// ``DemoTerminal/fallbackColumns``, so a transcript is the same wherever it is taken.
    public func width(terminalColumns: Int?) -> Int {
        width ?? terminalColumns ?? DemoTerminal.fallbackColumns
    }

    /// The longest `--animate` accepted, in milliseconds.
    public static let maxAnimationMilliseconds = 5_000
    /// The transition time on an interactive terminal without `--animate`.
    public static let defaultAnimationMilliseconds = 250

    /// The transition time to use: ``animationMilliseconds`` if given, else
    /// ``defaultAnimationMilliseconds`` on an interactive terminal and 0 for piped input
    /// (transcripts stay the same from run to run).
    public func animationMilliseconds(interactive: Bool) -> Int {
        animationMilliseconds ?? (interactive ? Self.defaultAnimationMilliseconds : 0)
    }

    /// Parses `arguments` (without the program name).
    ///
    /// A `--` is skipped, so `swift run flowdemo -- --help` works as well as
    /// `swift run flowdemo --help`.
    ///
    /// - Throws: ``DemoOptionsError`` for an argument it does not know, a `--state` without a
    ///   file name (a name starting with `-` is taken for a forgotten one: write `./-name`),
    ///   an `--animate` without a whole number of milliseconds in range, a `--width` without
    ///   a whole number of columns in range, or an option given twice.
    public init(arguments: [String]) throws {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--help", "-h": showHelp = true
            case "--walkthrough": forceWalkthrough = true
            case "--": continue
            case "--state":
                try setStateFile(remaining.popFirst())
            case _ where argument.hasPrefix("--state="):
                try setStateFile(String(argument.dropFirst("--state=".count)))
            case "--animate":
                try setAnimation(remaining.popFirst())
            case _ where argument.hasPrefix("--animate="):
                try setAnimation(String(argument.dropFirst("--animate=".count)))
            case "--record":
                try setRecordFile(remaining.popFirst())
            case _ where argument.hasPrefix("--record="):
                try setRecordFile(String(argument.dropFirst("--record=".count)))
            case "--width":
                try setWidth(remaining.popFirst())
            case _ where argument.hasPrefix("--width="):
                try setWidth(String(argument.dropFirst("--width=".count)))
            default: throw DemoOptionsError.unknownArgument(argument)
            }
        }
    }

    private mutating func setAnimation(_ value: String?) throws {
        guard animationMilliseconds == nil else {
            throw DemoOptionsError.repeatedOption("--animate")
        }
        guard let value, let milliseconds = Int(value),
            (0...Self.maxAnimationMilliseconds).contains(milliseconds)
        else {
            throw DemoOptionsError.badMilliseconds("--animate", value ?? "")
        }
        animationMilliseconds = milliseconds
    }

    private mutating func setWidth(_ value: String?) throws {
        guard width == nil else { throw DemoOptionsError.repeatedOption("--width") }
        guard let value, let columns = Int(value), (Self.minWidth...Self.maxWidth).contains(columns)
        else {
            throw DemoOptionsError.badColumns("--width", value ?? "")
        }
        width = columns
    }

    private mutating func setRecordFile(_ path: String?) throws {
        guard recordFile == nil else { throw DemoOptionsError.repeatedOption("--record") }
        guard let path, !path.isEmpty, !path.hasPrefix("-") else {
            throw DemoOptionsError.missingFile("--record")
        }
        recordFile = path
    }

    private mutating func setStateFile(_ path: String?) throws {
        guard stateFile == nil else { throw DemoOptionsError.repeatedOption("--state") }
        guard let path, !path.isEmpty, !path.hasPrefix("-") else {
            throw DemoOptionsError.missingFile("--state")
        }
        stateFile = path
    }

    /// What `flowdemo --help` prints.
    public static let helpText = """
        flowdemo: the FlowKit demo, a terminal app whose navigation is a FlowController tree.

        USAGE: swift run flowdemo [--help] [--walkthrough] [--state FILE] [--animate MS]
                                  [--width N] [--record FILE]
               (or the built binary, with the same options: .build/debug/flowdemo)

        OPTIONS:
          -h, --help       Show this help and exit.
          --walkthrough    Run the built-in walkthrough, whatever standard input is.
          --state FILE     Restore the navigation saved in FILE, if it exists, and save it
                           there at quit, Ctrl-C and the end of input: the next run starts
                           on the same tab, stacks, book and sheet, signed in, in every
                           window. FILE is JSON;
                           it holds the username, never the password. A FILE that cannot be
                           restored is reported and the app starts fresh; one that cannot be
                           written is reported and the exit status does not change. The
                           walkthrough neither reads nor writes it.
          --animate MS     How long a push, pop, sheet or tab change takes on screen, in
                           milliseconds (0 to 5000; 0: at once). Default: 250 on a terminal,
                           0 for piped input, so transcripts stay the same. Commands typed
                           meanwhile run at once; the screen catches up.
          --width N        The screen's width in columns (20 to 1000), fixed. From 100
                           columns the catalog is a split view: the list and the book
                           side by side, both active; narrower, one stack. Default: the
                           terminal's width, followed live when it is resized (nothing is
                           lost either way); 80 when output is not a terminal.
          --record FILE    Record the session to FILE (JSON lines: every change, event,
                           decision and transition, with snapshots); then
                           'swift run flowinspect FILE -o page.html' writes a page that
                           shows it (Docs/Inspector.md). Works with piped input too.

        MODES:
          A terminal: interactive; each step clears the screen and draws the screen's panel,
          fitted to the terminal's width, in colour unless NO_COLOR is set. Arrow keys,
          Home/End and Backspace edit the line; Up and Down recall earlier commands.
          Ctrl-C quits as 'quit' does; Ctrl-D ends the input (a half-typed line is not run).
          Piped input: one command per line, each echoed as "> command" before its output
          (blank lines and lines starting with # are skipped); quits at the end. Output to
          a pipe or file is plain text.
          Empty input: the built-in walkthrough.
          Exit status: 0, or 1 if any FlowController is still alive after quit.

        THE TREE:
          app (switch) -> login -> form
                       -> main (owns the session) -> tabs -> catalog (split)
                                                              -> books -> list
                                                              -> book [-> detail]
                                                          -> favourites -> list [-> detail]
                                                          -> profile

        COMMANDS (in any case; a command of another screen says why it does not apply):
          login <user> <password>   Sign in (login screen; the username in any case).
          next, prev                Next or previous page of books (list).
          page <n>                  Jump to page n (list).
          filter [text]             Show books whose title, author or genre contains
                                    text; no text clears the filter (list).
          select <n>                Open book n of the list (list).
          back                      The platform back button: pops the detail screen
                                    (collapsed split: back to the list, the book
                                    column cleared; side by side: none at a column's
                                    root).
          swipe [n%]                The platform's swipe back on this stack: begins it
                                    (asking the screen first: an unsaved rating
                                    refuses), or moves it to n%. Meanwhile only the
                                    swipe's commands, tree, trace, help and quit run.
          release, cancel           Let go of the swipe: it commits (the screen closes)
                                    or it is cancelled (nothing changes).
          rate, stars <n>, close    Rate a book in a sheet (detail), or close the sheet.
          stars <n>, save           On the detail itself: an unsaved rating, then save it.
          fav                       Add the book to your favourites (detail).
          tab <name>                Select the tab catalog, favourites or profile; each
                                    tab keeps its own stack; the selected tab again pops
                                    to its root.
          logout                    Sign out, from any screen of a tab.
          open <link>, about        Follow flowdemo://books/<id>; present the about screen.
          tree [ids]                Print the live tree; * marks the focused path, + the
                                    other active nodes (a split's other column); with
                                    ids, each node's identity (#42) after its name.
                                    While a transition or a swipe runs, also what the
                                    screen still shows.
          trace                     Print FlowKit's trace lines as they happen (toggle).
          help, ?                   List the commands of this screen and redraw it.
          quit                      Stop the runtime and count surviving FlowControllers.
          Side by side, a command the focused column's screen does not take goes to the
          other column's screen, and the focus moves there (nothing exits or enters).
          Extra words are refused with the command's usage. Control characters and escape
          sequences are removed from input; lines over 200 characters are refused.

        ACCOUNTS (username / password):
          alice / wonderland
          bob / builder

        LOCKOUT:
          3 wrong attempts in a row lock a user out for 10 seconds; other users can still
          sign in. Attempts while locked are refused without being checked, and the message
          says when the lock ends. Empty fields are refused and never count.
        """
}

/// A command-line argument `flowdemo` does not understand.
public enum DemoOptionsError: Error, Equatable, CustomStringConvertible {
    /// `argument` is not an option of `flowdemo`.
    case unknownArgument(String)
    /// The option needs a file name and has none.
    case missingFile(String)
    /// The option was given twice.
    case repeatedOption(String)
    /// The option needs a whole number of milliseconds in range, and got the value.
    case badMilliseconds(String, String)
    /// The option needs a whole number of columns in range, and got the value.
    case badColumns(String, String)

    public var description: String {
        switch self {
        case .unknownArgument(let argument):
            return "flowdemo: unknown argument '\(argument)'; see swift run flowdemo --help"
        case .missingFile(let option):
            return
                "flowdemo: \(option) needs a file name (\(option) FILE); see swift run flowdemo --help"
        case .repeatedOption(let option):
            return "flowdemo: \(option) is given twice; see swift run flowdemo --help"
        case .badMilliseconds(let option, let value):
            let given = value.isEmpty ? "nothing" : "'\(value)'"
            return
                "flowdemo: \(option) needs a whole number of milliseconds from 0 to "
                + "\(DemoOptions.maxAnimationMilliseconds) (\(option) MS), not \(given); see "
                + "swift run flowdemo --help"
        case .badColumns(let option, let value):
            let given = value.isEmpty ? "nothing" : "'\(value)'"
            return
                "flowdemo: \(option) needs a whole number of columns from "
                + "\(DemoOptions.minWidth) to \(DemoOptions.maxWidth) (\(option) N), not \(given); "
                + "see swift run flowdemo --help"
        }
    }
}
