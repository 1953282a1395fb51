import FlowKit
import FlowKitLinks

/// The demo app as a session of commands: the binary and the tests both drive this type, so
/// they run the same code.
///
///     let app = try DemoApp.shipped()
///     print(await app.start().joined(separator: "\n"))
///     print(await app.run("login alice wonderland").joined(separator: "\n"))
///
/// The tree it runs:
///
///     app                      AppRoot (FlowSwitch): login flow or main flow
///       login                  LoginFlow, awaited by the app root
///         form                 LoginScreen
///       main                   MainFlow, owns the UserSession (SessionKey); awaited until logout
///         tabs                 MainTabs (FlowTabs): `tab <name>` selects
///           catalog            CatalogSplit (FlowSplit), the Catalog tab
///             books            BookStack (FlowStack), the list column
///               list           ListScreen
///             book             BookStack (FlowStack), the detail column, empty at first
///               detail         DetailScreen, shown on BookSelected (replacing the last)
///                 rate         RatingSheet, presented and awaited by the detail screen
///           favourites         BookStack (FlowStack), the Favourites tab
///             list             FavouritesScreen
///             detail           DetailScreen, pushed on BookSelected
///           profile            ProfileScreen, the Profile tab
///
/// The catalog is a split view: at least ``DemoLayout/splitMinWidth`` columns wide
/// (``layout``) its list and its book are drawn side by side, both active; narrower it is
/// collapsed into one stack (see DemoApp+Split.swift).
///
/// The steps are `async`: the app root and the detail screen await flows in tasks of their
/// own, so after each command the step lets those tasks run (``settle()``) before it takes
/// the output.
///
/// Each step's output is a ``DemoOutput``: messages, trace lines when tracing, and the focused
/// screen's panel. As transcript lines (``run(_:)``, ``echoAndRun(_:)``) the panel appears
/// when it differs from the last one drawn. Nothing in the output depends on memory addresses,
/// and time only through the injected ``DemoClock``.
@MainActor
public final class DemoApp {
    /// The commands every screen accepts.
    public static let globalCommands = DemoCommand.globalNames

    /// The app above the windows: one scene per window, each with a tree of its own, the
    /// dependencies every window sees, and the router for links (see DemoApp+Windows.swift).
    public let windows: FlowApp
    /// The runtime holding the focused window's tree.
    public var runtime: FlowRuntime { windows.focusedScene?.runtime ?? lastRuntime }
    /// The focused window's host: the transition pipeline between its tree and ``screen``.
    public var transitions: FlowTransitions { focusedHosts.transitions }
    /// The terminal as a platform whose transitions take time (none with piped input), as
    /// the focused window shows it.
    public var screen: DemoScreenHost { focusedHosts.screen }
    /// Counts the demo's live `FlowController` instances.
    public let liveNodes: LiveNodeCounter
    /// Whether FlowKit's trace lines are being printed.
    public internal(set) var isTracing = false
    /// Whether `quit` ran: the runtime is stopped and further commands do nothing.
    public internal(set) var hasQuit = false
    /// Where the navigation is restored from at start and saved to at quit (`--state FILE`),
    /// if anywhere. The walkthrough sets it to `nil`: it neither reads nor writes the file.
    public internal(set) var stateFile: DemoStateFile?
    /// The screen's width, which decides whether the catalog's split is collapsed; changed by
    /// ``resizeStep(to:)``.
    public let layout: DemoLayout
    /// Whether ``stateFile`` held something other than a saved state at start (not JSON, not
    /// a snapshot, a directory): then quitting leaves it as it was rather than replace it.
    var keepsStateFile = false

    let console = DemoConsole()
    /// The windows' platform: what the app asked of it, and each window's screen.
    let platform: DemoWindowPlatform
    /// The runtime ``runtime`` gives when no window is focused: before the start, a runtime
    /// that never starts; after, the focused window's last one.
    var lastRuntime: FlowRuntime
    /// The screen and pipeline ``screen`` gives when no window is focused.
    let idleHosts: DemoWindowPlatform.Hosts
    /// Window identities are numbers, never reused in a run.
    var nextWindowNumber = 1
    /// Observes the app's trace while `trace` is on.
    var appTraceObservation: FlowTraceObservation?
    /// The deep links this app follows.
    let links: FlowURLRouter
    var lastPanel: DemoPanel?
    /// The windows' trace observations while `trace` is on.
    var traceObservations: [(WeakRuntime, FlowTraceObservation)] = []
    /// Whether the demo has had more than one window: from then on the window bar shows,
    /// `open` says which window took a link, and the app's trace is printed.
    var showsWindows = false
    /// Who a window connected fresh is signed in as (``makeWindowRoot()``), while it connects.
    var accountForNewWindow: Account?
    /// The swipe back in progress (`swipe`), if any.
    var gesture: (any DemoSwipe)?
    /// The split view drawn last, if the last panel was drawn with its split's columns.
    var lastSplit: DemoSplitView?

    /// Creates the app. Nothing runs until ``start()``.
    ///
    /// - Parameters:
    ///   - catalog: The books of the list screen.
    ///   - accounts: Who may sign in.
    ///   - lockout: The login lockout rule.
    ///   - clock: The lockout's clock and the transitions'; `nil` uses ``DemoClockKey``'s
    ///     default (the system's).
    ///   - stateFile: Where to restore the navigation from at start and save it to at quit.
    ///   - transitionTime: How long the terminal takes to show a push, pop, presentation or
    ///     tab change (``DemoScreenHost``); zero, the default, shows each at once.
    ///   - width: The screen's width in columns (``layout``); the default, 80, collapses the
    ///     catalog's split into one stack.
    public init(
        catalog: CatalogStore, accounts: [Account] = Account.shipped,
        lockout: LockoutPolicy = .standard, clock: (any DemoClock)? = nil,
        stateFile: DemoStateFile? = nil, transitionTime: Duration = .zero,
        width: Int = DemoTerminal.fallbackColumns
    ) {
        let counter = LiveNodeCounter()
        self.stateFile = stateFile
        layout = DemoLayout(width: width)
        links = DemoLinks.router(for: catalog)
        liveNodes = counter
        let clock = clock ?? DemoClockKey.defaultValue
        platform = DemoWindowPlatform(transitionTime: transitionTime, clock: clock)
        let idleScreen = DemoScreenHost(duration: transitionTime, clock: clock)
        idleHosts = DemoWindowPlatform.Hosts(
            screen: idleScreen, transitions: FlowTransitions(host: idleScreen))
        do {
            lastRuntime = try FlowRuntime(root: FlowController(name: "app"))
        } catch {
            preconditionFailure("DemoApp: a new root is always accepted: \(error)")
        }
        windows = FlowApp(name: "flowdemo")
        // What every window's tree sees: the app-wide scope.
        windows.dependencies.set(console, for: ConsoleKey.self)
        windows.dependencies.set(
            AuthService(accounts: accounts, policy: lockout), for: AuthServiceKey.self)
        windows.dependencies.set(catalog, for: CatalogStoreKey.self)
        windows.dependencies.set(layout, for: DemoLayoutKey.self)
        windows.dependencies[DemoClockKey.self] = clock
        windows.routeTypes = DemoStateFile.routeTypes
        windows.host = platform
        windows.onError = { [console] failure in
            console.write("Error: \(failure)", style: .error)
        }
        do {
            try windows.register(DemoWindow.self) { [weak self] _, _ in
                self?.makeWindowRoot() ?? AppRoot(counter: counter)
            }
        } catch {
            preconditionFailure("DemoApp: \(error)")
        }
    }

    /// Sets up a window's new runtime: errors to the console, what happens to a deep link
    /// kept while the user signs in told as it happens, and the trace printed if it is on.
    func configure(_ runtime: FlowRuntime) {
        runtime.onError = { [console] failure in
            console.write("Error: \(failure)", style: .error)
        }
        runtime.trace.addObserver { [console] record in
            guard case .intent(let action, _, let note) = record else { return }
            switch action {
            case .kept: break  // the `open` command says so
            case .replaced:
                console.write("The link opened before is replaced by the new one.", style: .notice)
            case .replayed:
                console.write(
                    "Signed in: carrying on to the link opened before.", style: .success)
            case .dropped:
                console.write("The link opened before is dropped (\(note)).", style: .notice)
            }
        }
        if isTracing { observeTrace(of: runtime) }
    }

    /// Creates the app with the catalog shipped as a resource.
    ///
    /// - Throws: ``CatalogError`` or a decoding error if the resource is broken.
    public static func shipped(
        clock: (any DemoClock)? = nil, stateFile: DemoStateFile? = nil,
        transitionTime: Duration = .zero, width: Int = DemoTerminal.fallbackColumns
    ) throws -> DemoApp {
        DemoApp(
            catalog: try CatalogStore.shipped(), clock: clock, stateFile: stateFile,
            transitionTime: transitionTime, width: width)
    }

    // MARK: Steps

    /// Starts the runtime, restored from ``stateFile`` if there is one; the output is the
    /// greeting, what the restoration did, and the first panel.
    public func startStep() async -> DemoOutput {
        let notes = startRuntime()
        await settle()
        syncLayout()
        console.write("FlowKit demo: the app is a tree of FlowControllers. Type 'help' for help.")
        for note in notes { console.write(note.text, style: note.style) }
        console.write("")
        return finish(command: nil, forcePanel: true)
    }

    /// The prompt for interactive mode: the focused path, e.g. `app/main/tabs/catalog/books/list> `.
    public var prompt: String {
        (runtime.focusedNode?.path ?? "flowdemo") + "> "
    }

    /// Runs one command line.
    ///
    /// The line is sanitised first (``DemoInput/sanitized(_:)``): no control or escape
    /// character is run or echoed. A line longer than ``DemoInput/maxLineLength`` (or cut
    /// short by the reader) is refused. Then the first word names the command, in any case:
    /// global commands (`tree`, `trace`, `help` or `?`, `quit`), `back` where a stack can pop,
    /// `tab` where a tab bar shows, the swipe back (`swipe`, `release`, `cancel`), or a
    /// command of the focused screen. A command of another screen says why it does not apply
    /// here; an unknown word gets a hint; extra words are refused with the usage; while a
    /// swipe is in progress only the swipe's commands and `tree`, `trace`, `help` and `quit`
    /// run. None of these change anything. Blank input does nothing.
    ///
    /// First the terminal catches up with the clock (``DemoScreenHost/catchUp()``): the
    /// transitions whose time has come end, and the next ones start.
    ///
    /// - Parameters:
    ///   - line: The line as typed.
    ///   - isCutShort: Whether the reader dropped the end of an over-long line.
    public func step(_ line: String, isCutShort: Bool = false) async -> DemoOutput {
        let clean = DemoInput.sanitized(line)
        let isTooLong = isCutShort || clean.count > DemoInput.maxLineLength
        let echo = isTooLong ? DemoInput.shortened(clean, to: 60) : clean
        guard !hasQuit else {
            return DemoOutput(command: echo, lines: [DemoLine("The demo has quit.")])
        }
        if isTooLong {
            let length = isCutShort ? "more than \(clean.count)" : String(clean.count)
            console.write(
                "Refused: the line has \(length) characters; a command has at most "
                    + "\(DemoInput.maxLineLength).", style: .error)
            return finish(command: echo)
        }
        let words = clean.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let first = words.first else { return DemoOutput(command: echo) }
        let arguments = Array(words.dropFirst())
        guard let command = DemoCommand.named(first) else {
            console.write(unknownCommandHint(first), style: .error)
            return finish(command: echo)
        }
        screen.catchUp()
        if gesture != nil && !command.isGesture && !Self.commandsDuringSwipe.contains(command.name)
        {
            console.write(
                "\(command.name): a swipe back is in progress; 'release' or 'cancel' it first.",
                style: .error)
            return finish(command: echo)
        }
        guard isAvailable(command) || focusColumn(taking: command) else {
            let reason =
                splitWhyNot(command) ?? focusedScreen?.whyNot(command.name)
                ?? "not available here."
            console.write("\(command.name): \(reason)", style: .error)
            return finish(command: echo)
        }
        if let most = command.maxArguments, arguments.count > most {
            console.write("Refused: too many words; usage: \(command.usage).", style: .error)
            return finish(command: echo)
        }
        var forcePanel = false
        switch command.name {
        case "help":
            console.write(helpLines())
            forcePanel = true
        case "tree":
            tree(option: arguments.first)
        case "trace":
            toggleTrace()
        case "quit":
            return await quitStep(command: echo)
        case "back":
            goBack()
        case "close":
            if runtime.focusedNode?.isPresented == true { closeSheet() } else { closeWindow() }
        case "window":
            windowCommand(arguments)
        case "windows":
            listWindows()
        case "reclaim":
            reclaim(arguments.first)
        case "logout"
        where showsWindows && windows.scenes.count > 1
            && !focusRefusesExit:
            signOutEverywhere()
        case "open":
            openLink(arguments.first)
        case "about":
            openAbout()
        case "tab":
            selectTab(named: arguments.first)
        case "swipe":
            swipe(arguments.first)
        case "release":
            endSwipe(committing: true)
        case "cancel":
            endSwipe(committing: false)
        default:
            focusedScreen?.perform(command.name, arguments: arguments)
        }
        processWindowRequests()
        await settle()
        syncLayout()
        return finish(command: echo, forcePanel: forcePanel)
    }

    /// The commands a swipe in progress lets run: they change no navigation.
    static let commandsDuringSwipe: Set<String> = ["tree", "trace", "help", "quit"]

    /// Lets the tasks a command woke (a `run` returning or throwing, a task a screen started,
    /// and whatever those wake in turn) run on the main actor until they wait again, so that
    /// their output and changes belong to this command: ``FlowKit/FlowRuntime/settle()``.
    /// (A fixed number of yields is not enough: how many main-actor turns a resumed task
    /// takes to run varies with the scheduler, and on a busy machine a command's output used
    /// to land in the next command's.)
    public func settle() async {
        for scene in windows.scenes {
            await scene.runtime?.settle()
        }
        await runtime.settle()
    }

    /// A line of piped input: sanitised and trimmed; `nil` (nothing runs, nothing is echoed)
    /// for a blank line or a comment (`#` first).
    public func pipedStep(_ line: DemoLineSplitter.Line) async -> DemoOutput? {
        let trimmed = DemoInput.sanitized(line.text).trimmingWhitespace
        guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { return nil }
        return await step(String(trimmed), isCutShort: line.isCutShort)
    }

    /// The input ended without `quit`: a note, then `quit`.
    ///
    /// - Parameter unfinishedLine: What was typed on a terminal after the last Enter; it is
    ///   not run, and the note says so.
    public func endOfInputStep(unfinishedLine: String = "") async -> DemoOutput {
        guard !hasQuit else { return DemoOutput() }
        let unfinished = DemoInput.sanitized(unfinishedLine).trimmingWhitespace
        console.write(
            unfinished.isEmpty
                ? "(end of input)"
                : "(end of input; the unfinished line '\(DemoInput.shortened(String(unfinished), to: 40))' was not run)",
            style: .notice)
        return await quitStep(command: nil)
    }

    /// Ctrl-C (or SIGINT, SIGTERM, SIGHUP): a note, then `quit`, with its teardown and count.
    public func interruptStep() async -> DemoOutput {
        guard !hasQuit else { return DemoOutput() }
        console.write("(interrupted: quitting as 'quit' does)", style: .notice)
        return await quitStep(command: nil)
    }

    /// Stops the runtime (every node exits, innermost first) and reports how many demo
    /// `FlowController` instances are still alive: 0 unless something leaked. The count is
    /// taken once the tasks that awaited flows have ended.
    public func quitStep(command: String? = nil) async -> DemoOutput {
        guard !hasQuit else { return DemoOutput(command: command) }
        hasQuit = true
        saveState()
        console.write("Quitting: the runtime stops and every node exits, innermost first.")
        stopRuntime()
        await settle()
        // The tasks that awaited flows end a few main-actor turns after the stop (their
        // `run` throws, then they return and release what they held); give them up to a
        // thousand turns, so that the count below is taken once they have, however busy the
        // machine. Something that leaked stays counted.
        for _ in 0..<1_000 where liveNodes.alive > 0 { await Task.yield() }
        console.write(
            "FlowController instances still alive: \(liveNodes.alive) "
                + "(\(liveNodes.created) created in this run).",
            style: liveNodes.alive == 0 ? .success : .error)
        return DemoOutput(command: command, lines: console.take())
    }

}
