/// The command-line options of `flowdemo`.
public struct DemoOptions: Equatable, Sendable {
    /// `--help`: print ``DemoOptions/helpText`` and exit.
    public var showHelp = false
    /// `--walkthrough`: run the built-in walkthrough whatever standard input is.
    public var forceWalkthrough = false

    /// Parses `arguments` (without the program name).
    ///
    /// - Throws: ``DemoOptionsError`` for an argument it does not know.
    public init(arguments: [String]) throws {
        for argument in arguments {
            switch argument {
            case "--help", "-h": showHelp = true
            case "--walkthrough": forceWalkthrough = true
            default: throw DemoOptionsError.unknownArgument(argument)
            }
        }
    }

    /// What `flowdemo --help` prints.
    public static let helpText = """
        flowdemo: the FlowKit demo, a terminal app whose navigation is a FlowController tree.

        USAGE: flowdemo [--help] [--walkthrough]

        OPTIONS:
          -h, --help       Show this help and exit.
          --walkthrough    Run the built-in walkthrough, whatever standard input is.

        MODES:
          A terminal on standard input: interactive; each screen is drawn as a panel.
          Piped input: one command per line, each echoed as "> command" before its output
          (blank lines and lines starting with # are skipped); quits at the end.
          Empty input: the built-in walkthrough.
          Exit status: 0, or 1 if any FlowController is still alive after quit.

        THE TREE:
          app (switch) -> login -> form
                       -> main (owns the session) -> stack -> list [-> detail]

        COMMANDS:
          login <user> <password>   Sign in (login screen).
          next, prev                Next or previous page of books (list).
          filter [text]             Show books whose title, author or genre contains
                                    text; no text clears the filter (list).
          select <n>                Open book n of the list (list).
          back                      The platform back button: pops the detail screen.
          logout                    Sign out, from the list or a detail screen.
          tree                      Print the live tree; * marks the focused path.
          trace                     Print FlowKit's trace lines as they happen (toggle).
          help                      Explain the commands and redraw the screen.
          quit                      Stop the runtime and count surviving FlowControllers.

        ACCOUNTS (username / password):
          alice / wonderland
          bob / builder

        LOCKOUT:
          3 wrong attempts in a row lock sign-in for 10 seconds; attempts while locked are
          refused without being checked. Empty fields are refused and never count.
        """
}

/// A command-line argument `flowdemo` does not understand.
public enum DemoOptionsError: Error, Equatable, CustomStringConvertible {
    /// `argument` is not an option of `flowdemo`.
    case unknownArgument(String)

    public var description: String {
        switch self {
        case .unknownArgument(let argument):
            return "flowdemo: unknown argument '\(argument)'; see flowdemo --help"
        }
    }
}
