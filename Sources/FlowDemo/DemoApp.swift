import FlowKit

/// The demo app as a session of commands: the binary and the tests both drive this type, so
/// they run the same code.
///
///     let app = try DemoApp.shipped()
///     print(app.start().joined(separator: "\n"))
///     print(app.run("login alice wonderland").joined(separator: "\n"))
///
/// The tree it runs:
///
///     app                  AppRoot (FlowSwitch): login flow or main flow
///       login              LoginFlow
///         form             LoginScreen
///       main               MainFlow, owns the UserSession (SessionKey)
///         stack            CatalogStack (FlowStack)
///           list           ListScreen
///           detail         DetailScreen, pushed on BookSelected
///
/// Each command's output is a list of lines: messages, trace lines when tracing, and the
/// focused screen's panel when it differs from the last one drawn. Nothing in the output
/// depends on time or memory addresses.
@MainActor
public final class DemoApp {
    /// The commands every screen accepts.
    public static let globalCommands = ["tree", "trace", "help", "quit"]

    /// The runtime holding the tree.
    public let runtime: FlowRuntime
    /// Counts the demo's live `FlowController` instances.
    public let liveNodes: LiveNodeCounter
    /// Whether FlowKit's trace lines are being printed.
    public private(set) var isTracing = false
    /// Whether `quit` ran: the runtime is stopped and further commands do nothing.
    public private(set) var hasQuit = false

    private let console = DemoConsole()
    private var lastPanel: DemoPanel?

    /// Creates the app. Nothing runs until ``start()``.
    ///
    /// - Parameters:
    ///   - catalog: The books of the list screen.
    ///   - accounts: Who may sign in.
    ///   - lockout: The login lockout rule.
    ///   - clock: The lockout's clock; `nil` uses ``DemoClockKey``'s default (the system's).
    public init(
        catalog: CatalogStore, accounts: [Account] = Account.shipped,
        lockout: LockoutPolicy = .standard, clock: (any DemoClock)? = nil
    ) {
        let counter = LiveNodeCounter()
        let root = AppRoot(counter: counter)
        root.dependencies.set(console, for: ConsoleKey.self)
        root.dependencies.set(
            AuthService(accounts: accounts, policy: lockout), for: AuthServiceKey.self)
        root.dependencies.set(catalog, for: CatalogStoreKey.self)
        if let clock { root.dependencies[DemoClockKey.self] = clock }
        liveNodes = counter
        do {
            runtime = try FlowRuntime(root: root)
        } catch {
            preconditionFailure("DemoApp: a new root is always accepted: \(error)")
        }
    }

    /// Creates the app with the catalog shipped as a resource.
    ///
    /// - Throws: ``CatalogError`` or a decoding error if the resource is broken.
    public static func shipped(clock: (any DemoClock)? = nil) throws -> DemoApp {
        DemoApp(catalog: try CatalogStore.shipped(), clock: clock)
    }

    /// Starts the runtime and returns the greeting and the first panel.
    public func start() -> [String] {
        do {
            try runtime.start()
        } catch {
            preconditionFailure("DemoApp.start: \(error)")
        }
        console.write([
            "FlowKit demo: the app is a tree of FlowControllers. Type 'help' for help.",
            "",
        ])
        drawPanel(force: true)
        return console.take()
    }

    /// The prompt for interactive mode: the focused path, e.g. `app/main/stack/list> `.
    public var prompt: String {
        (runtime.focusedNode?.path ?? "flowdemo") + "> "
    }

    /// Runs one command and returns its output lines.
    ///
    /// Global commands: `tree`, `trace`, `help`, `quit`; `back` where a stack can pop. Other
    /// commands go to the focused screen. An unknown command prints a one-line hint and
    /// changes nothing. Blank input does nothing.
    public func run(_ line: String) -> [String] {
        guard !hasQuit else { return ["The demo has quit."] }
        let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let first = words.first else { return [] }
        let command = first.lowercased()
        let arguments = Array(words.dropFirst())
        switch command {
        case "help":
            console.write(helpLines())
            drawPanel(force: true)
        case "tree":
            showTree()
        case "trace":
            toggleTrace()
        case "quit", "exit":
            return quit()
        case "back" where canGoBack:
            goBack()
        default:
            guard let screen = focusedScreen,
                screen.perform(command, arguments: arguments)
            else {
                return [unknownCommandHint(first)]
            }
        }
        drawPanel(force: false)
        return console.take()
    }

    /// `"> "` and the command, then its output: how piped input and the walkthrough show each
    /// command.
    public func echoAndRun(_ line: String) -> [String] {
        ["> " + line] + run(line)
    }

    /// What happens when the input ends without `quit`: a note, then `quit`.
    public func endOfInput() -> [String] {
        hasQuit ? [] : ["(end of input)"] + quit()
    }

    /// Stops the runtime (every node exits, innermost first) and reports how many demo
    /// `FlowController` instances are still alive: 0 unless something leaked.
    public func quit() -> [String] {
        guard !hasQuit else { return [] }
        hasQuit = true
        console.write("Quitting: the runtime stops and every node exits, innermost first.")
        stopRuntime()
        console.write(
            "FlowController instances still alive: \(liveNodes.alive) "
                + "(\(liveNodes.created) created in this run).")
        return console.take()
    }

    /// The output for `commands` fed as piped input: the greeting, then each command echoed
    /// before its output, stopping at `quit` or quitting at the end.
    public func transcript(of commands: [String]) -> [String] {
        var lines = start()
        for command in commands where !hasQuit {
            lines += echoAndRun(command)
        }
        return lines + endOfInput()
    }

    // MARK: Commands

    private var focusedScreen: (any DemoScreen)? {
        runtime.focusedNode as? any DemoScreen
    }

    /// Whether the focused screen sits on a stack above another entry, so a platform back
    /// button would show.
    private var canGoBack: Bool {
        guard let node = runtime.focusedNode, let stack = node.parent as? FlowStack else {
            return false
        }
        return stack.top === node && stack.entries.count > 1
    }

    /// The platform's back button: the terminal pops the screen itself and tells FlowKit,
    /// exactly as a navigation bar's back button would.
    private func goBack() {
        guard let stack = runtime.focusedNode?.parent as? FlowStack else { return }
        do {
            try stack.platformDidPop()
        } catch {
            console.write("Could not go back: \(error)")
        }
    }

    private func showTree() {
        let tree = runtime.treeDescription()
        console.write(tree.split(separator: "\n").map(String.init))
        let inTree = tree.split(separator: "\n").count
        console.write(
            "FlowController instances alive: \(liveNodes.alive) (\(inTree) in the tree; "
                + "* marks the focused path)")
    }

    private var traceObservation: FlowTraceObservation?

    private func toggleTrace() {
        isTracing.toggle()
        if isTracing {
            traceObservation = runtime.trace.addObserver { [console] record in
                console.write("  trace: \(record.description)")
            }
            console.write("Trace on: FlowKit's trace lines follow as they happen.")
        } else {
            if let traceObservation { runtime.trace.removeObserver(traceObservation) }
            traceObservation = nil
            console.write("Trace off.")
        }
    }

    private func stopRuntime() {
        do {
            try runtime.stop()
        } catch {
            console.write("Could not stop the runtime: \(error)")
        }
    }

    private var localCommands: [String] {
        guard let screen = focusedScreen else { return [] }
        return (canGoBack ? ["back"] : []) + screen.commandUsages
    }

    private func unknownCommandHint(_ word: String) -> String {
        let here = (canGoBack ? ["back"] : []) + (focusedScreen?.commandNames ?? [])
        return "Unknown command '\(word)'. Try: "
            + (here + Self.globalCommands).joined(separator: ", ") + "."
    }

    private func helpLines() -> [String] {
        [
            "Commands of this screen are listed under 'Here' in the panel below.",
            "tree: the live FlowController tree; trace: print FlowKit's trace on/off;",
            "help: this text and the panel; quit: stop and count surviving nodes.",
        ]
    }

    // MARK: Drawing

    private func currentPanel() -> DemoPanel? {
        guard let screen = focusedScreen else { return nil }
        return DemoPanel(
            title: screen.title,
            breadcrumb: runtime.focusedPath.map(\.name),
            content: screen.content(),
            localCommands: localCommands,
            globalCommands: Self.globalCommands)
    }

    /// Draws the focused screen's panel if it changed since it was last drawn (or always,
    /// with `force`).
    private func drawPanel(force: Bool) {
        guard let panel = currentPanel() else { return }
        if force || panel != lastPanel {
            console.write(panel.lines)
            lastPanel = panel
        }
    }
}
