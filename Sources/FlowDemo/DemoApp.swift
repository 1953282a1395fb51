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
///           catalog            BookStack (FlowStack), the Catalog tab
///             list             ListScreen
///             detail           DetailScreen, pushed on BookSelected
///               rate           RatingSheet, presented and awaited by the detail screen
///           favourites         BookStack (FlowStack), the Favourites tab
///             list             FavouritesScreen
///             detail           DetailScreen, pushed on BookSelected
///           profile            ProfileScreen, the Profile tab
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

    /// The runtime holding the tree.
    public let runtime: FlowRuntime
    /// Counts the demo's live `FlowController` instances.
    public let liveNodes: LiveNodeCounter
    /// Whether FlowKit's trace lines are being printed.
    public private(set) var isTracing = false
    /// Whether `quit` ran: the runtime is stopped and further commands do nothing.
    public private(set) var hasQuit = false
    /// Where the navigation is restored from at start and saved to at quit (`--state FILE`),
    /// if anywhere. The walkthrough sets it to `nil`: it neither reads nor writes the file.
    public private(set) var stateFile: DemoStateFile?
    /// Whether ``stateFile`` held something other than a saved state at start (not JSON, not
    /// a snapshot, a directory): then quitting leaves it as it was rather than replace it.
    private var keepsStateFile = false

    private let console = DemoConsole()
    /// The deep links this app follows.
    private let links: FlowURLRouter
    private var lastPanel: DemoPanel?

    /// Creates the app. Nothing runs until ``start()``.
    ///
    /// - Parameters:
    ///   - catalog: The books of the list screen.
    ///   - accounts: Who may sign in.
    ///   - lockout: The login lockout rule.
    ///   - clock: The lockout's clock; `nil` uses ``DemoClockKey``'s default (the system's).
    ///   - stateFile: Where to restore the navigation from at start and save it to at quit.
    public init(
        catalog: CatalogStore, accounts: [Account] = Account.shipped,
        lockout: LockoutPolicy = .standard, clock: (any DemoClock)? = nil,
        stateFile: DemoStateFile? = nil
    ) {
        let counter = LiveNodeCounter()
        self.stateFile = stateFile
        links = DemoLinks.router(for: catalog)
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
        runtime.onError = { [console] failure in
            console.write("Error: \(failure)", style: .error)
        }
        // What happens to a deep link kept while the user signs in, told as it happens.
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
    }

    /// Creates the app with the catalog shipped as a resource.
    ///
    /// - Throws: ``CatalogError`` or a decoding error if the resource is broken.
    public static func shipped(
        clock: (any DemoClock)? = nil, stateFile: DemoStateFile? = nil
    ) throws -> DemoApp {
        DemoApp(catalog: try CatalogStore.shipped(), clock: clock, stateFile: stateFile)
    }

    // MARK: Steps

    /// Starts the runtime, restored from ``stateFile`` if there is one; the output is the
    /// greeting, what the restoration did, and the first panel.
    public func startStep() async -> DemoOutput {
        let notes = startRuntime()
        await settle()
        console.write("FlowKit demo: the app is a tree of FlowControllers. Type 'help' for help.")
        for note in notes { console.write(note.text, style: note.style) }
        console.write("")
        return finish(command: nil, forcePanel: true)
    }

    /// Starts the runtime: restored from ``stateFile`` when it holds a state that restores,
    /// else fresh. Returns what to tell the user (nothing without a state file).
    private func startRuntime() -> [(text: String, style: DemoStyle)] {
        var notes: [(text: String, style: DemoStyle)] = []
        if let stateFile {
            switch stateFile.load() {
            case .missing:
                notes.append(
                    (
                        "No saved state in \(stateFile.shownPath) yet: a fresh start; quit saves it there.",
                        .notice
                    ))
            case .unreadable(let reason):
                keepsStateFile = true
                notes.append((Self.couldNotRestore(stateFile, reason), .error))
            case .snapshot(let snapshot):
                do {
                    let report = try runtime.start(
                        restoring: snapshot, routeTypes: DemoStateFile.routeTypes)
                    notes.append((restoredNote(stateFile), .success))
                    if !report.isComplete {
                        let skipped = report.skipped.map { DemoStateFile.oneLine($0.description) }
                        notes.append(
                            (
                                "Not restored (a guard refused): "
                                    + skipped.joined(separator: "; ") + ".", .notice
                            ))
                    }
                    return notes
                } catch {
                    notes.append(
                        (Self.couldNotRestore(stateFile, DemoStateFile.reason(for: error)), .error))
                }
            }
        }
        do {
            try runtime.start()
        } catch {
            preconditionFailure("DemoApp.start: \(error)")
        }
        return notes
    }

    private static func couldNotRestore(_ file: DemoStateFile, _ reason: String) -> String {
        "Could not restore state from \(file.shownPath): \(reason); starting fresh."
    }

    /// What a restored start says: who is signed in, if anyone.
    private func restoredNote(_ file: DemoStateFile) -> String {
        let main = (runtime.root as? AppRoot)?.current as? MainFlow
        guard let session = main?.session else {
            return "Restored the state saved in \(file.shownPath) (nobody is signed in)."
        }
        return "Restored the state saved in \(file.shownPath): \(session.account.displayName) is "
            + "signed in."
    }

    /// The prompt for interactive mode: the focused path, e.g. `app/main/tabs/catalog/list> `.
    public var prompt: String {
        (runtime.focusedNode?.path ?? "flowdemo") + "> "
    }

    /// Runs one command line.
    ///
    /// The line is sanitised first (``DemoInput/sanitized(_:)``): no control or escape
    /// character is run or echoed. A line longer than ``DemoInput/maxLineLength`` (or cut
    /// short by the reader) is refused. Then the first word names the command, in any case:
    /// global commands (`tree`, `trace`, `help` or `?`, `quit`), `back` where a stack can pop,
    /// `tab` where a tab bar shows, or a command of the focused screen. A command of another
    /// screen says why it does not apply here; an unknown word gets a hint; extra words are
    /// refused with the usage. None of these change anything. Blank input does nothing.
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
        guard isAvailable(command) else {
            let reason = focusedScreen?.whyNot(command.name) ?? "not available here."
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
            closeSheet()
        case "open":
            openLink(arguments.first)
        case "about":
            openAbout()
        case "tab":
            selectTab(named: arguments.first)
        default:
            focusedScreen?.perform(command.name, arguments: arguments)
        }
        await settle()
        return finish(command: echo, forcePanel: forcePanel)
    }

    /// Lets the tasks a command woke (a `run` returning or throwing, a task a screen started,
    /// and whatever those wake in turn) run on the main actor until they wait again, so that
    /// their output and changes belong to this command: ``FlowKit/FlowRuntime/settle()``.
    /// (A fixed number of yields is not enough: how many main-actor turns a resumed task
    /// takes to run varies with the scheduler, and on a busy machine a command's output used
    /// to land in the next command's.)
    public func settle() async {
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

    /// Saves the navigation to ``stateFile``, if there is one, and says how it went. A file
    /// that cannot be written is reported and changes nothing else (the exit status stays
    /// 0 unless something leaked). A file that held something else than a saved state at
    /// start (``DemoStateFile/Loaded/unreadable(_:)``) is not replaced: it may be a file the
    /// user named by mistake. One that held a snapshot this app could not restore (another
    /// version, a book that is gone) is.
    private func saveState() {
        guard let stateFile, runtime.isRunning else { return }
        guard !keepsStateFile else {
            console.write(
                "Not saving the state to \(stateFile.shownPath): it held no saved state at start, so "
                    + "it is left as it was.", style: .notice)
            return
        }
        do {
            try stateFile.save(try runtime.snapshot())
            console.write(
                "Saved the state to \(stateFile.shownPath): flowdemo --state \(stateFile.shownPath) "
                    + "starts here.", style: .success)
        } catch {
            console.write(
                "Could not save the state to \(stateFile.shownPath): "
                    + "\(DemoStateFile.reason(for: error)).", style: .error)
        }
    }

    /// Forgets ``stateFile``: the walkthrough neither reads nor writes it.
    func forgetStateFile() {
        stateFile = nil
    }

    // MARK: Transcript lines

    /// Starts the runtime and returns the greeting and the first panel.
    public func start() async -> [String] {
        await startStep().plainLines(echo: false)
    }

    /// Runs one command (see ``step(_:isCutShort:)``) and returns its output lines.
    public func run(_ line: String) async -> [String] {
        await step(line).plainLines(echo: false)
    }

    /// `"> "` and the command, then its output: how piped input and the walkthrough show each
    /// command.
    public func echoAndRun(_ line: String) async -> [String] {
        await step(line).plainLines(echo: true)
    }

    /// What happens when the input ends without `quit`: a note, then `quit`.
    public func endOfInput() async -> [String] {
        await endOfInputStep().plainLines(echo: false)
    }

    /// What Ctrl-C does: a note, then `quit`.
    public func interrupt() async -> [String] {
        await interruptStep().plainLines(echo: false)
    }

    /// Stops the runtime and reports how many demo `FlowController` instances are still alive.
    public func quit() async -> [String] {
        await quitStep().plainLines(echo: false)
    }

    /// The output for `commands` fed as piped input: the greeting, then each command echoed
    /// before its output, stopping at `quit` or quitting at the end.
    public func transcript(of commands: [String]) async -> [String] {
        var lines = await start()
        for command in commands where !hasQuit {
            lines += await echoAndRun(command)
        }
        return lines + (await endOfInput())
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

    private func isAvailable(_ command: DemoCommand) -> Bool {
        if command.isGlobal { return true }
        if command.name == "back" { return canGoBack }
        if command.name == "tab" { return visibleTabs != nil }
        if command.name == "close" { return runtime.focusedNode?.isPresented ?? false }
        return focusedScreen?.commandNames.contains(command.name) ?? false
    }

    /// The platform's back button: the terminal pops the screen itself and tells FlowKit,
    /// exactly as a navigation bar's back button would.
    private func goBack() {
        guard let stack = runtime.focusedNode?.parent as? FlowStack else { return }
        do {
            try stack.platformDidPop()
        } catch {
            console.write("Could not go back: \(error)", style: .error)
        }
    }

    /// The platform's close button on a sheet: the terminal dismisses it and tells FlowKit.
    /// `open <link>`: a deep link, mapped to a path by ``DemoLinks`` and navigated in one
    /// transaction. Logged out, the main flow's guard sends the user to the login screen
    /// first; the link is kept and carried on once they have signed in.
    private func openLink(_ link: String?) {
        guard let link else {
            console.write("Refused: give a link; usage: open <link>.", style: .error)
            return
        }
        do {
            let steps = try links.steps(for: link)
            dismissSheetLeftBehind(by: steps)
            try runtime.navigate(to: steps)
            console.write("Opened \(link).", style: .success)
        } catch let error as FlowURLError {
            console.write("Cannot open \(link): \(error).", style: .error)
        } catch FlowError.redirected {
            console.write(
                "Sign in first: \(link) opens once you have signed in.", style: .notice)
        } catch {
            console.write("Cannot open \(link): \(error)", style: .error)
        }
    }

    /// A link that selects another tab while a sheet covers the tab bar: the sheet is
    /// dismissed first (the app's own `dismiss()`), as a tab bar app does when a link takes it
    /// elsewhere. FlowKit keeps a tab's content when another tab is selected, sheets
    /// included, so without this the sheet would stay presented in the tab the link left and
    /// reappear over it when that tab is selected again.
    private func dismissSheetLeftBehind(by steps: [FlowStep]) {
        // The tabs above the focused node, and the presenter of the outermost sheet below them.
        var presenter: FlowController?
        var node = runtime.focusedNode
        while let current = node, !(current is MainTabs) {
            if current.isPresented { presenter = current.parent }
            node = current.parent
        }
        let tabRoutes = (node as? MainTabs)?.tabs.compactMap(\.route) ?? []
        guard let presenter, let selected = (node as? MainTabs)?.selectedTab,
            let target = steps.first(where: { tabRoutes.contains($0.route) }),
            target.route != selected.route
        else { return }
        do {
            _ = try presenter.dismiss()
        } catch {
            console.write("Could not dismiss the sheet: \(error)", style: .error)
        }
    }

    /// `about`: the app root's global route, presented over the focused screen.
    private func openAbout() {
        do {
            try runtime.open("about")
        } catch {
            console.write("Cannot show about: \(error)", style: .error)
        }
    }

    private func closeSheet() {
        guard let presenter = runtime.focusedNode?.parent else { return }
        do {
            try presenter.platformDidDismiss()
        } catch {
            console.write("Could not close: \(error)", style: .error)
        }
    }

    /// `tree`, or `tree ids` (also `--ids`) with each node's identity.
    private func tree(option: String?) {
        guard let option else { return showTree(withIdentities: false) }
        guard ["ids", "--ids"].contains(option.lowercased()) else {
            console.write(
                "Refused: unknown option '\(DemoInput.shortened(option, to: 24))'; usage: "
                    + "tree [ids].", style: .error)
            return
        }
        showTree(withIdentities: true)
    }

    /// `FlowRuntime.treeDescription(showingIdentities:)` and the live node count; with
    /// identities, each line ends in its node's identity (`* detail #42`).
    private func showTree(withIdentities: Bool) {
        let lines = runtime.treeDescription(showingIdentities: withIdentities)
            .split(separator: "\n").map(String.init)
        let inTree = lines.count
        console.write(lines)
        let marks =
            withIdentities
            ? "* marks the focused path, #n is a node's identity" : "* marks the focused path"
        console.write(
            "FlowController instances alive: \(liveNodes.alive) (\(inTree) in the tree; "
                + "\(marks))")
    }

    /// The tab container whose bar is on screen: the nearest one above the focused node,
    /// unless a sheet presented on the way covers it.
    private var visibleTabs: MainTabs? {
        var node = runtime.focusedNode
        while let current = node {
            if let tabs = current as? MainTabs { return tabs }
            if current.isPresented { return nil }
            node = current.parent
        }
        return nil
    }

    /// `tab <name>`: selects the tab through FlowKit (`FlowTabs.select`). Nothing exits; the
    /// screen shown is the selected tab's top. The selected tab again pops its stack to the
    /// root (`reselectionPopsToRoot`).
    private func selectTab(named name: String?) {
        guard let tabs = visibleTabs else { return }
        let names = tabs.tabs.map(\.name).joined(separator: ", ")
        guard let name else {
            console.write("Refused: name a tab; usage: tab <name> (\(names)).", style: .error)
            return
        }
        guard let tab = tabs.tab(named: name) else {
            console.write(
                "No tab '\(DemoInput.shortened(name, to: 24))': the tabs are \(names).",
                style: .error)
            return
        }
        let title = MainTabs.title(of: tab)
        let previous = tabs.selectedTab
        let stack = tab as? FlowStack
        let popped = tab === previous ? stack?.entries.dropFirst().map(\.name) ?? [] : []
        do {
            try tabs.select(tab)
        } catch {
            console.write("Could not select \(title): \(error)", style: .error)
            return
        }
        if tab !== previous {
            var message = "\(title) selected: nothing exited or entered"
            if let previous = previous as? FlowStack {
                message +=
                    "; \(MainTabs.title(of: previous)) keeps its stack: "
                    + previous.entries.map(\.name).joined(separator: ", ")
            }
            console.write(message + ".", style: .success)
        } else if !popped.isEmpty {
            console.write(
                "\(title) reselected: popped to its root (\(popped.joined(separator: ", ")) "
                    + "exited).", style: .success)
        } else {
            console.write(
                stack == nil ? "Already on \(title)." : "Already on \(title), at its root.",
                style: .notice)
        }
    }

    private var traceObservation: FlowTraceObservation?

    private func toggleTrace() {
        isTracing.toggle()
        if isTracing {
            traceObservation = runtime.trace.addObserver { [console] record in
                console.write("  trace: \(record.description)", style: .trace)
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
            console.write("Could not stop the runtime: \(error)", style: .error)
        }
    }

    /// The commands of the focused screen, `back` first and `tab` last where they apply (the
    /// platform's back button and tab bar).
    private var localCommands: [DemoCommand] {
        guard let screen = focusedScreen else { return [] }
        let back = canGoBack ? ["back"] : []
        let tab = visibleTabs != nil ? ["tab"] : []
        return (back + screen.commandNames + tab).compactMap(DemoCommand.named)
    }

    private func unknownCommandHint(_ word: String) -> String {
        let here = localCommands.map(\.name) + Self.globalCommands
        return "Unknown command '\(DemoInput.shortened(word, to: 24))'. Try: "
            + here.joined(separator: ", ") + "."
    }

    /// `help`: the commands of this screen and the global ones, each with what it does.
    private func helpLines() -> [String] {
        let local = localCommands
        let global = DemoCommand.all.filter(\.isGlobal)
        let column = (local + global).map(\.usage.count).max() ?? 0
        func row(_ command: DemoCommand) -> String {
            "  " + command.usage + String(repeating: " ", count: column - command.usage.count)
                + "   " + command.summary
        }
        let title = focusedScreen?.title ?? "this screen"
        return ["Commands on this screen (\(title)):"] + local.map(row) + ["Anywhere:"]
            + global.map(row)
    }

    // MARK: Drawing

    /// The focused screen's panel now.
    private func currentPanel() -> DemoPanel? {
        guard !hasQuit, let screen = focusedScreen else { return nil }
        return DemoPanel(
            title: screen.title,
            path: runtime.focusedNode?.path ?? "",
            tabBar: visibleTabs?.barText,
            content: screen.content(),
            localCommands: localCommands.map(\.usage),
            globalCommands: Self.globalCommands)
    }

    /// The output of a step: what the nodes wrote, and the panel, new if it changed since it
    /// was last drawn (or always, with `forcePanel`).
    private func finish(command: String?, forcePanel: Bool = false) -> DemoOutput {
        let panel = currentPanel()
        let isNew = panel != nil && (forcePanel || panel != lastPanel)
        if isNew { lastPanel = panel }
        return DemoOutput(command: command, lines: console.take(), panel: panel, isPanelNew: isNew)
    }
}

extension StringProtocol {
    /// The text without leading and trailing whitespace.
    var trimmingWhitespace: SubSequence {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map(index(after:)) ?? start
        return self[start..<end]
    }
}
