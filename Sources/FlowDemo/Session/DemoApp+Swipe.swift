import FlowKit

extension DemoApp {
    /// `swipe [n%]`: the platform's swipe back on the focused screen's stack
    /// (``FlowTransitions/beginInteractivePop(on:)``), or, while one is in progress, moves it
    /// to n%. Beginning asks the exit guards of what the swipe would close: a refusal (an
    /// unsaved rating) is printed and no swipe begins. While the swipe runs nothing changes
    /// in the tree; `release` commits it, `cancel` cancels it.
    func swipe(_ argument: String?) {
        var progress: Int?
        if let argument {
            let digits = argument.hasSuffix("%") ? String(argument.dropLast()) : argument
            guard let percent = Int(digits), (0...100).contains(percent) else {
                console.write(
                    "Refused: give how far to swipe, from 0% to 100%; usage: swipe [n%].",
                    style: .error)
                return
            }
            progress = percent
        }
        if let gesture {
            guard let progress else {
                console.write(
                    "A swipe back is in progress already (\(percent(gesture))): 'swipe <n>%' "
                        + "moves it, 'release' or 'cancel' ends it.", style: .notice)
                return
            }
            gesture.update(progress: Double(progress) / 100)
            console.write("Swiped back \(percent(gesture)).")
            return
        }
        if let node = runtime.focusedNode, let stack = node.parent as? FlowStack,
            stack.top === node, let split = collapsedSplit(holding: stack)
        {
            return beginCompactSwipe(closing: node, in: split, progress: progress)
        }
        guard let node = runtime.focusedNode, let stack = node.parent as? FlowStack,
            stack.top === node, stack.entries.count > 1
        else {
            let covered = runtime.focusedNode?.isPresented ?? false
            console.write(
                covered
                    ? "swipe: a sheet covers the stack; 'close' dismisses it."
                    : "swipe: nothing to go back to here.", style: .error)
            return
        }
        do {
            let started = try transitions.beginInteractivePop(on: stack)
            gesture = started
            if let progress { started.update(progress: Double(progress) / 100) }
            console.write(
                "Swipe back begun on \(stack.path) (\(percent(started))): 'release' closes "
                    + "\(title(of: node)), 'cancel' keeps it.")
        } catch FlowError.exitRefused(_, let reason) {
            console.write(
                "Refused: the swipe back would close \(title(of: node)): \(reason).",
                style: .error)
        } catch FlowError.gestureNotPossible(_, let reason) {
            console.write(
                "Refused: no swipe back on \(stack.path) now (\(reason)); try again once the "
                    + "screen has caught up.", style: .error)
        } catch {
            console.write("Could not swipe back: \(error)", style: .error)
        }
    }

    /// `release` (commit) or `cancel`: ends the swipe in progress. A committed swipe pops
    /// the screen as the platform did it (``FlowStack/platformDidPop(to:)``, not echoed to the
    /// terminal); a cancelled one changes nothing.
    func endSwipe(committing: Bool) {
        let name = committing ? "release" : "cancel"
        guard let gesture else {
            console.write("\(name): no swipe in progress; 'swipe' begins one.", style: .error)
            return
        }
        let closing = runtime.focusedNode.map(title(of:)) ?? "the screen"
        let path = gesture.containerPath
        self.gesture = nil
        if committing {
            gesture.commit()
            console.write("Released at \(percent(gesture)): the swipe back closed \(closing).")
        } else {
            gesture.cancel()
            console.write(
                "Cancelled at \(percent(gesture)): \(closing) stays on \(path).")
        }
    }

    /// The panel line of a swipe in progress.
    var swipeLine: String? {
        guard let gesture else { return nil }
        return "Swiping back: \(percent(gesture)) ('release' closes this screen, 'cancel' "
            + "keeps it)"
    }

    /// `swipe` on the top of a collapsed split's one stack: the platform's swipe back there,
    /// which pops that stack (``compactBack(in:)``) when released. The exit guard of the
    /// screen it would close decides first.
    private func beginCompactSwipe(
        closing node: FlowController, in split: FlowSplit, progress: Int?
    ) {
        let compact = split.compactStack
        guard compact.count > 1, compact.last === node else {
            console.write("swipe: nothing to go back to here.", style: .error)
            return
        }
        if case .refuse(let reason) = node.shouldExit() {
            console.write(
                "Refused: the swipe back would close \(title(of: node)): \(reason).",
                style: .error)
            return
        }
        guard transitions.isIdle else {
            console.write(
                "Refused: no swipe back on \(split.path) now (a transition runs); try again "
                    + "once the screen has caught up.", style: .error)
            return
        }
        let started = CompactSwipe(on: split.path) { [weak self, weak split] in
            guard let self, let split else { return }
            self.compactBack(in: split)
        }
        gesture = started
        if let progress { started.update(progress: Double(progress) / 100) }
        console.write(
            "Swipe back begun on \(split.path), collapsed into one stack "
                + "(\(percent(started))): 'release' closes \(title(of: node)), 'cancel' keeps it.")
    }

    private func percent(_ gesture: any DemoSwipe) -> String {
        "\(Int((gesture.progress * 100).rounded()))%"
    }

    /// A screen's title, or its node's name.
    func title(of node: FlowController) -> String {
        (node as? any DemoScreen)?.title ?? node.name
    }

    /// What the terminal shows while it has not caught up with the tree (a transition or a
    /// swipe runs, or it refused a step): each stack's entries and each presentation it
    /// shows. Nothing once it shows the tree.
    func onScreenLines() -> [String] {
        guard !hasQuit, runtime.isRunning, let root = runtime.root else { return [] }
        let busy =
            screen.running.map { $0.title }
            + (gesture.map { ["swipe back at \(percent($0))"] } ?? [])
        guard !busy.isEmpty || !transitions.isShowingTree else { return [] }
        let waiting = transitions.offScreenPresentations.map {
            "\($0.path) waits for its presenter to come on screen"
        }
        let why =
            !busy.isEmpty
            ? busy.joined(separator: "; ")
            : waiting.isEmpty ? "a step was refused" : waiting.joined(separator: "; ")
        var lines = ["On screen, still catching up with the tree (" + why + "):"]
        var pending = [root]
        var visited: [FlowController] = []
        while let node = pending.popLast() {
            visited.append(node)
            pending += node.children.reversed()
            if let presented = node.presentedChild { pending.append(presented) }
        }
        for node in visited {
            if let stack = node as? FlowStack {
                let entries = transitions.shownEntries(of: stack)
                guard !entries.isEmpty else { continue }
                let names = entries.map { screen.name(of: $0, in: runtime) }
                lines.append("  \(stack.path): \(names.joined(separator: ", "))")
            }
            if let presented = transitions.shownPresented(by: node) {
                lines.append("  \(node.path) presents \(screen.name(of: presented, in: runtime))")
            }
        }
        // No stack shows an entry and nothing is presented yet (the screen is still showing
        // the first flows, which hold no stack): one line that says what it waits for, never
        // a heading over nothing.
        if lines.count == 1 {
            return [
                "Still catching up with the tree (" + why + "): no stack or sheet on screen yet."
            ]
        }
        return lines
    }
}
