import FlowKit

/// The catalog's split view in the session: which split the focused screen is in, its
/// columns' panels side by side, commands that move the focus between columns, the back
/// button and the swipe of a collapsed split, and resizing.
///
/// - Expanded (at least ``DemoLayout/splitMinWidth`` columns): both columns are active and
///   drawn side by side. A command goes to the focused column's screen; if that screen does
///   not take it and the other column's does, the focus moves there first
///   (`FlowSplit.platformDidFocus(_:)`: nothing exits, enters or resigns active), as a click
///   into the column would. `back` and `swipe` are a column's own stack's: a column's root
///   has none (the book stays until another is selected).
/// - Collapsed: one stack, the list then the book; only its top is active. `back` and
///   `swipe` pop that stack: `FlowSplit.platformDidPopCompact(to:)` maps the pop onto the
///   columns (popping the book column's root clears it, and the list comes back).
extension DemoApp {
    /// The split the focused screen is in, if any.
    var focusedSplit: FlowSplit? {
        var node = runtime.focusedNode
        while let current = node {
            if let split = current as? FlowSplit { return split }
            node = current.parent
        }
        return nil
    }

    /// The focused split, when its columns are drawn side by side: expanded, with nothing
    /// presented over it.
    var expandedSplit: FlowSplit? {
        guard let split = focusedSplit, !split.isCollapsed, split.presentedChild == nil else {
            return nil
        }
        return split
    }

    /// What `column` shows: the leaf of its focused path (the top entry, or the sheet over
    /// it), or the column itself when it is empty.
    func shownLeaf(of column: FlowController) -> FlowController {
        var node = column
        while let next = node.focusedChild { node = next }
        return node
    }

    /// The collapsed split `stack` is a column of, if it is one.
    func collapsedSplit(holding stack: FlowStack) -> FlowSplit? {
        guard let split = stack.parent as? FlowSplit, split.isCollapsed else { return nil }
        return split
    }

    /// Moves the focus of the expanded split to the column whose screen takes `command`, if
    /// the focused one does not; returns whether it did. The platform moved the focus (a
    /// click into the column), so FlowKit is told as a platform fact.
    func focusColumn(taking command: DemoCommand) -> Bool {
        guard gesture == nil, let split = expandedSplit else { return false }
        for column in split.regions where column !== split.focusedRegion {
            guard isAvailable(command, at: shownLeaf(of: column)) else { continue }
            do {
                try split.platformDidFocus(column)
                return true
            } catch {
                console.write("Could not move the focus: \(error)", style: .error)
                return false
            }
        }
        return false
    }

    /// Why `command` does not apply in a split, where the screen's own reason would mislead
    /// (the book at the root of its column has no `back`).
    func splitWhyNot(_ command: DemoCommand) -> String? {
        guard ["back", "swipe"].contains(command.name), let split = expandedSplit,
            split.focusedColumn != .sidebar
        else { return nil }
        return "the split shows its columns side by side and this column has nothing under "
            + "its screen; 'select <n>' on the list shows another book."
    }

    /// The back button of a collapsed split: the platform pops its one stack
    /// (`compactStack`) by one entry and tells FlowKit, which maps the pop onto the columns.
    func compactBack(in split: FlowSplit) {
        let compact = split.compactStack
        guard compact.count > 1 else { return }
        do {
            try split.platformDidPopCompact(to: compact[compact.count - 2])
        } catch {
            console.write("Could not go back: \(error)", style: .error)
        }
    }

    /// The selected tab reselected while it is a collapsed split: as a tab bar pops its
    /// navigation stack, the platform pops the split's one stack to its root, and FlowKit maps
    /// the pop onto the columns (the book column is cleared). The screens it would close are
    /// asked first (an unsaved rating refuses). Expanded, the columns are roots already.
    func popCollapsedToRoot(_ split: FlowSplit, title: String) {
        let compact = split.compactStack
        guard compact.count > 1 else {
            console.write("Already on \(title), at its root.", style: .notice)
            return
        }
        let closing = compact.dropFirst().reversed()
        for node in closing {
            if case .refuse(let reason) = node.shouldExit() {
                console.write(
                    "Refused: reselecting \(title) would close \(self.title(of: node)): \(reason).",
                    style: .error)
                return
            }
        }
        do {
            try split.platformDidPopCompact(to: compact[0])
            console.write(
                "\(title) reselected: popped to its root ("
                    + closing.map(\.name).joined(separator: ", ") + " exited).", style: .success)
        } catch {
            console.write("Could not select \(title): \(error)", style: .error)
        }
    }

    // MARK: Resizing

    /// The screen is now `width` columns wide (`--width`, or SIGWINCH on a terminal): every
    /// split collapses below ``DemoLayout/splitMinWidth`` and expands from it, and says so.
    /// Nothing exits or enters. A swipe in progress is cancelled first, as a platform cancels
    /// its gestures when the window changes size.
    public func resizeStep(to width: Int) async -> DemoOutput {
        guard !hasQuit, width > 0, width != layout.width else { return finish(command: nil) }
        let wasCompact = layout.isCompact
        layout.width = width
        if wasCompact != layout.isCompact, gesture != nil {
            endSwipe(committing: false)
        }
        syncLayout(announcingWidth: true)
        await settle()
        return finish(command: nil)
    }

    /// Collapses or expands every split of the tree to match ``layout``; with
    /// `announcingWidth`, says what changed.
    func syncLayout(announcingWidth: Bool = false) {
        guard !hasQuit, runtime.isRunning, let root = runtime.root else { return }
        var changed: [String] = []
        for split in Self.splits(under: root) where split.isCollapsed != layout.isCompact {
            do {
                if layout.isCompact {
                    try split.platformDidCollapse()
                } else {
                    try split.platformDidExpand()
                }
                changed.append(split.name)
            } catch {
                console.write("Could not lay out \(split.path): \(error)", style: .error)
            }
        }
        guard announcingWidth else { return }
        let names = changed.joined(separator: ", ")
        if changed.isEmpty {
            console.write("The screen is \(layout.width) columns wide now.", style: .notice)
        } else if layout.isCompact {
            console.write(
                "The screen is \(layout.width) columns wide now (under "
                    + "\(DemoLayout.splitMinWidth)): \(names) collapses into one stack; nothing "
                    + "exits or enters.", style: .notice)
        } else {
            console.write(
                "The screen is \(layout.width) columns wide now: \(names) shows its columns "
                    + "side by side again; nothing exits or enters.", style: .notice)
        }
    }

    /// The splits at or below `node`, presented nodes included, in tree order.
    static func splits(under node: FlowController) -> [FlowSplit] {
        var found: [FlowSplit] = []
        var pending = [node]
        while let current = pending.popLast() {
            if let split = current as? FlowSplit { found.append(split) }
            if let presented = current.presentedChild { pending.append(presented) }
            pending += current.children.reversed()
        }
        return found
    }

    /// What `tree` says about each split: expanded or collapsed, at which width, what the
    /// collapsed stack shows, and which column has the focus.
    func splitTreeLines() -> [String] {
        guard let root = runtime.root else { return [] }
        return Self.splits(under: root).map { split in
            let focus = split.node(for: split.focusedColumn)?.name ?? "?"
            if split.isCollapsed {
                let stack = split.compactStack.map(\.name).joined(separator: ", ")
                return "Split \(split.name): collapsed (\(layout.width) columns, under "
                    + "\(DemoLayout.splitMinWidth)): one stack (\(stack)), only its top "
                    + "active; focus in \(focus)."
            }
            let columns = split.regions.map(\.name).joined(separator: " and ")
            return "Split \(split.name): expanded (\(layout.width) columns): \(columns) side by "
                + "side, all active while shown; focus in \(focus)."
        }
    }

    // MARK: Drawing

    /// The expanded split's columns as panels side by side, the focused one as
    /// ``currentPanel()`` draws it; `nil` when no expanded split is on screen.
    func currentSplitView() -> DemoSplitView? {
        guard !hasQuit, let split = expandedSplit else { return nil }
        let tabBar = visibleTabs(at: split)?.barText
        let panels = split.regions.enumerated().map { index, column in
            let leaf = shownLeaf(of: column)
            let first = index == 0
            return panel(
                for: leaf, tabBar: first ? tabBar : nil,
                globalCommands: first ? Self.globalCommands : [])
                ?? DemoPanel(
                    title: "Book", path: column.path, tabBar: first ? tabBar : nil,
                    content: ["Nothing selected: 'select <n>' on the list shows a book here."],
                    localCommands: [], globalCommands: first ? Self.globalCommands : [])
        }
        return DemoSplitView(panels: panels, focused: split.focusedIndex, width: layout.width)
    }
}

/// A swipe back in progress: the platform's own (``FlowInteractiveTransition``), or the
/// swipe on a collapsed split's one stack (``CompactSwipe``).
@MainActor
protocol DemoSwipe: AnyObject {
    /// The path of the stack (or collapsed split) it is on.
    var containerPath: String { get }
    /// How far it has gone, from 0 to 1.
    var progress: Double { get }
    /// Moves it to `progress`.
    func update(progress: Double)
    /// Lets go past the point of no return: the screen closes.
    func commit()
    /// Lets go early: nothing changes.
    func cancel()
}

extension FlowInteractiveTransition: DemoSwipe {}

/// A swipe back on a collapsed split's one stack. The exit guard of the screen it would
/// close was asked when it began; while it runs nothing changes; `commit()` runs the pop
/// the platform made (`FlowSplit.platformDidPopCompact(to:)`).
@MainActor
final class CompactSwipe: DemoSwipe {
    let containerPath: String
    private(set) var progress = 0.0
    private var onCommit: (() -> Void)?

    init(on splitPath: String, onCommit: @escaping () -> Void) {
        containerPath = splitPath
        self.onCommit = onCommit
    }

    func update(progress: Double) {
        self.progress = min(max(progress, 0), 1)
    }

    func commit() {
        let action = onCommit
        onCommit = nil
        action?()
    }

    func cancel() {
        onCommit = nil
    }
}
