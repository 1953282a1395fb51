import FlowKit
import FlowKitLinks

extension DemoApp {
    var focusedScreen: (any DemoScreen)? {
        runtime.focusedNode as? any DemoScreen
    }

    /// Whether the focused screen sits on a stack above another entry, so a platform back
    /// button would show.
    var canGoBack: Bool { canGoBack(at: runtime.focusedNode) }

    /// Whether `node` is the top of a stack above another entry: of its own stack, or of the
    /// one stack a collapsed split shows.
    func canGoBack(at node: FlowController?) -> Bool {
        guard let node, let stack = node.parent as? FlowStack, stack.top === node else {
            return false
        }
        if let split = collapsedSplit(holding: stack) {
            let compact = split.compactStack
            return compact.count > 1 && compact.last === node
        }
        return stack.entries.count > 1
    }

    func isAvailable(_ command: DemoCommand) -> Bool {
        isAvailable(command, at: runtime.focusedNode)
    }

    /// Whether the screen `node` takes `command`.
    func isAvailable(_ command: DemoCommand, at node: FlowController?) -> Bool {
        if command.isGlobal || command.isGesture { return true }
        if command.name == "back" { return canGoBack(at: node) }
        if command.name == "tab" { return visibleTabs(at: node) != nil }
        if command.name == "close" {
            return node?.isPresented == true || windows.scenes.count > 1
        }
        guard let screen = node as? any DemoScreen else { return false }
        return screen.commandNames.contains(command.name)
            || screen.unlistedCommandNames.contains(command.name)
    }

    /// The platform's back button: the terminal pops the screen itself and tells FlowKit,
    /// exactly as a navigation bar's back button would (in a collapsed split, the pop of its
    /// one stack, which FlowKit maps onto the columns). A screen whose exit guard refuses
    /// (an unsaved rating) hides the button, as an app does: `back` is refused.
    func goBack() {
        guard let node = runtime.focusedNode, let stack = node.parent as? FlowStack else {
            return
        }
        if case .refuse(let reason) = node.shouldExit() {
            console.write("Refused: back would close \(title(of: node)): \(reason).", style: .error)
            return
        }
        if let split = collapsedSplit(holding: stack) { return compactBack(in: split) }
        do {
            try stack.platformDidPop()
        } catch {
            console.write("Could not go back: \(error)", style: .error)
        }
    }

    /// The platform's close button on a sheet: the terminal dismisses it and tells FlowKit.
    /// `open <link>`: a deep link, mapped to a path by ``DemoLinks`` and navigated in one
    /// transaction. Logged out, the main flow's guard sends the user to the login screen
    /// first; the link is kept and carried on once they have signed in. A link to a book
    /// replaces what the catalog's book column shows (its last step is a `.root` step), as a
    /// selection does, in the same transaction.
    func openLink(_ link: String?) {
        guard let link else {
            console.write("Refused: give a link; usage: open <link>.", style: .error)
            return
        }
        do {
            routeLink(link, steps: try links.steps(for: link))
        } catch {
            console.write("Cannot open \(link): \(error).", style: .error)
        }
    }

    /// A link that selects another tab while a sheet covers the tab bar: the sheet is
    /// dismissed first (the app's own `dismiss()`), as a tab bar app does when a link takes it
    /// elsewhere. FlowKit keeps a tab's content when another tab is selected, sheets
    /// included, so without this the sheet would stay presented in the tab the link left and
    /// reappear over it when that tab is selected again.
    func dismissSheetLeftBehind(by steps: [FlowStep]) {
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
    func openAbout() {
        do {
            try runtime.open("about")
        } catch {
            console.write("Cannot show about: \(error)", style: .error)
        }
    }

    func closeSheet() {
        guard let presenter = runtime.focusedNode?.parent else { return }
        do {
            try presenter.platformDidDismiss()
        } catch {
            console.write("Could not close: \(error)", style: .error)
        }
    }

    /// `tree`, or `tree ids` (also `--ids`) with each node's identity.
    func tree(option: String?) {
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
    /// identities, each line ends in its node's identity (`* detail #42`). While the terminal
    /// has not caught up with the tree (a transition or a swipe runs), what it shows follows
    /// (``onScreenLines()``).
    func showTree(withIdentities: Bool) {
        let lines = runtime.treeDescription(showingIdentities: withIdentities)
            .split(separator: "\n").map(String.init)
        let inTree = lines.count
        console.write(lines)
        var marks = "* marks the focused path"
        if lines.contains(where: { $0.trimmingWhitespace.hasPrefix("+ ") }) {
            marks += ", + the other active nodes"
        }
        if withIdentities { marks += ", #n is a node's identity" }
        var counted = "\(inTree) in the tree"
        if windows.scenes.count > 1 {
            let trees = connectedWindows.compactMap(\.runtime).filter(\.isRunning)
            let all = trees.reduce(0) {
                $0 + $1.treeDescription().split(separator: "\n").count
            }
            counted = "\(inTree) in this window's tree, \(all) in the \(trees.count) windows' trees"
        }
        console.write("FlowController instances alive: \(liveNodes.alive) (\(counted); \(marks))")
        console.write(splitTreeLines())
        console.write(onScreenLines())
    }

    /// The tab container whose bar is on screen: the nearest one above the focused node,
    /// unless a sheet presented on the way covers it.
    var visibleTabs: MainTabs? { visibleTabs(at: runtime.focusedNode) }

    /// The tab container whose bar is on screen over `start`.
    func visibleTabs(at start: FlowController?) -> MainTabs? {
        var node = start
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
    func selectTab(named name: String?) {
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
        let kept = previous.flatMap(Self.keptContent(of:))
        if tab === previous, let split = tab as? FlowSplit, split.isCollapsed {
            return popCollapsedToRoot(split, title: title)
        }
        do {
            try tabs.select(tab)
        } catch {
            console.write("Could not select \(title): \(error)", style: .error)
            return
        }
        if tab !== previous {
            var message = "\(title) selected: nothing exited or entered"
            if let previous, let kept {
                message += "; \(MainTabs.title(of: previous)) keeps \(kept)"
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

    /// What a tab keeps while another is selected, in words: `its stack: list, detail`, or
    /// for a split `its columns: books (list), book (detail)`; `nil` for a screen.
    static func keptContent(of tab: FlowController) -> String? {
        if let stack = tab as? FlowStack {
            return "its stack: " + stack.entries.map(\.name).joined(separator: ", ")
        }
        guard let split = tab as? FlowSplit else { return nil }
        let columns = split.regions.map { column in
            let entries = (column as? FlowStack)?.entries.map(\.name) ?? [column.name]
            let shown = entries.isEmpty ? "empty" : entries.joined(separator: ", ")
            return "\(column.name) (\(shown))"
        }
        return "its columns: " + columns.joined(separator: ", ")
    }

    /// Stops every window's runtime (each tree exits, innermost first).
    func stopRuntime() {
        for scene in connectedWindows {
            guard let runtime = scene.runtime, runtime.isRunning else { continue }
            do {
                try runtime.stop()
            } catch {
                console.write("Could not stop the runtime: \(error)", style: .error)
            }
        }
    }

    /// The commands of the focused screen, `back` first and `tab` last where they apply (the
    /// platform's back button and tab bar); while a swipe is in progress, the swipe's.
    var localCommands: [DemoCommand] { localCommands(at: runtime.focusedNode) }

    /// The commands of the screen `node` (see ``localCommands``); none for another column's
    /// screen while a swipe is in progress.
    func localCommands(at node: FlowController?) -> [DemoCommand] {
        if gesture != nil {
            return node === runtime.focusedNode ? DemoCommand.all.filter(\.isGesture) : []
        }
        guard let screen = node as? any DemoScreen else { return [] }
        let back = canGoBack(at: node) ? ["back"] : []
        let tab = visibleTabs(at: node) != nil ? ["tab"] : []
        return (back + screen.commandNames + tab).compactMap(DemoCommand.named)
    }

    func unknownCommandHint(_ word: String) -> String {
        let here = localCommands.map(\.name) + Self.globalCommands
        return "Unknown command '\(DemoInput.shortened(word, to: 24))'. Try: "
            + here.joined(separator: ", ") + "."
    }

    /// The commands this screen takes that its panel does not list: the screen's unlisted
    /// ones, and `swipe` where a swipe back can begin.
    var unlistedCommands: [DemoCommand] {
        guard gesture == nil, let screen = focusedScreen else { return [] }
        let swipe = canGoBack ? ["swipe"] : []
        return (screen.unlistedCommandNames + swipe).compactMap(DemoCommand.named)
    }

    /// `help`: the commands of this screen and the global ones, each with what it does, then
    /// those the panel does not list, then the window commands (aligned on their own).
    func helpLines() -> [String] {
        let local = localCommands
        let global = DemoCommand.all.filter { $0.isGlobal && !$0.isWindow }
        let unlisted = unlistedCommands
        let window = DemoCommand.all.filter(\.isWindow)
        func rows(_ commands: [DemoCommand], width: Int) -> [String] {
            commands.map { command in
                "  " + command.usage + String(repeating: " ", count: width - command.usage.count)
                    + "   " + command.summary
            }
        }
        let column = (local + global + unlisted).map(\.usage.count).max() ?? 0
        let title = focusedScreen?.title ?? "this screen"
        let also =
            unlisted.isEmpty
            ? [] : ["Also here (not on the panel):"] + rows(unlisted, width: column)
        let windowColumn = window.map(\.usage.count).max() ?? 0
        return ["Commands on this screen (\(title)):"] + rows(local, width: column)
            + ["Anywhere:"] + rows(global, width: column) + also
            + ["Windows (each a tree of its own; the panel shows a window bar once there are two):"]
            + rows(window, width: windowColumn)
    }
}
