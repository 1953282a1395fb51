import FlowKit

/// What a runtime's platform shows, as far as a gesture or a tap needs it: read from
/// FlowTransitions before the operation (see ``FuzzWorld/shownAnswer(_:)``). The model does not
/// plan transitions: what the platform shows is its input here, and the runner checks the
/// pipeline itself after every step (no illegal platform call; once idle, shown = tree).
enum FuzzShownAnswer {
    /// No platform, or no such node of the kind the operation needs.
    case absent
    /// The gesture cannot begin (the reason FlowKit gives).
    case notPossible(String)
    /// A swipe can begin: the entry the platform shows below its top.
    case pop(newTop: FuzzID)
    /// A drag can begin: the node the platform shows presented.
    case dismiss(presented: FuzzID)
    /// A tap on back: the entry the platform shows below its top (`nil`: it shows one entry
    /// or none).
    case tap(newTop: FuzzID?)
    /// The user cannot tap back now: a transition of the stack or a gesture runs. For a tab:
    /// the tab bar shows no such tab, or it or the tab is in a transition, or a gesture runs.
    case busy
    /// A tap on a tab: the tab the tab bar shows there, if the tree still has it; and the
    /// entry the platform pops its stack to, when the tap reselects the tab the tab bar shows
    /// and that tab is a stack showing more than one entry (`UITabBarController` pops it to
    /// its root). `reselects`: the tab bar showed that tab selected before the tap.
    case tabTap(tab: FuzzID?, popsTo: FuzzID?, reselects: Bool)
    /// Whether the platform shows the tab a tab container selects as selected (for a
    /// platform selection of it: if not, the tap selects it for the platform and nothing pops;
    /// `true` without a platform).
    case selection(shown: Bool)
}

// The platform operations: the clock, interactive gestures, the back button.
extension FuzzModel {
    func performOnPlatform(_ op: FuzzOp) throws {
        switch op {
        case .advance, .runUntilIdle, .updateGesture:
            // Transitions end and the next ones start: nothing the tree, hooks or trace see
            // (the runner checks the platform).
            return
        case .swipeBack(let r, let x), .dragDown(let r, let x):
            guard hasPlatform(r), let node = nodes[x] else { return }
            var isDismissal = true
            if case .swipeBack = op {
                guard node.kind == .stack else { return }
                isDismissal = false
            }
            try beginGesture(in: r, on: x, isDismissal: isDismissal, answer: shown(op))
        case .releaseGesture(let r), .cancelGesture(let r):
            guard hasPlatform(r) else { return }
            guard let gesture = runtimes[r]!.gesture else {
                journal.append(FuzzExpect("skip \(op)"))
                return
            }
            var committed = false
            if case .releaseGesture = op { committed = true }
            endGesture(gesture, in: r, committed: committed)
        case .tapBack(let r, let s):
            guard hasPlatform(r), let node = nodes[s], node.kind == .stack else { return }
            switch shown(op) {
            case .busy:
                journal.append(FuzzExpect("skip \(op)"))
            case .tap(let newTop?):
                // The platform pops what it shows on top, then tells FlowKit where it is now
                // (nothing, if that entry left the tree).
                guard node.children.contains(newTop) else { return }
                try perform(.platformPopTo(s, newTop), context: .top)
            default:
                return
            }
        case .tapTab(let r, let t, _):
            guard hasPlatform(r), let node = nodes[t], node.kind == .tabs else { return }
            switch shown(op) {
            case .busy:
                journal.append(FuzzExpect("skip \(op)"))
            case .tabTap(let tab?, let popsTo, let reselects):
                // The tab bar shows the tab, then tells FlowKit; a reselected stack the
                // platform popped to its root is told to FlowTransitions
                // (`platformDidPop(_:toShownEntry:)`), which pops the tree to that entry if
                // the tree still has it below its top.
                guard node.children.contains(tab) else { return }
                tapReselects = reselects
                defer { tapReselects = nil }
                try perform(.platformSelect(t, tab), context: .top)
                if let popsTo, let stack = nodes[tab], stack.kind == .stack,
                    stack.children.contains(popsTo), stack.children.last != popsTo
                {
                    try perform(.platformPopTo(tab, popsTo), context: .top)
                }
            default:
                return
            }
        default:
            preconditionFailure("not a platform operation: \(op)")
        }
    }

    func hasPlatform(_ r: Int) -> Bool {
        runtimes[r]?.held == true && runtimes[r]!.platform != nil
    }

    /// A gesture begins if the platform shows what it needs and the exit guards of what it
    /// would remove from the tree allow it (consulted as a pop or a dismissal would, effects
    /// included: no transaction runs, so an effect's change is made at once).
    private func beginGesture(
        in r: Int, on x: FuzzID, isDismissal: Bool, answer: FuzzShownAnswer
    ) throws {
        // Taken before the guards: an effect may remove the container, which keeps the path
        // it had (its trace records name it in full). An exited container (the platform may
        // still show it) has both forms.
        let paths = paths(x)
        let target: FuzzID
        let before = commits
        defer {
            if commits != before, runtimes[r]?.gesture?.container == x {
                uncertainGesture = (r, x, paths)
            }
        }
        switch answer {
        case .notPossible(let reason):
            throw refusal(x) { .gestureNotPossible(container: $0, reason: reason) }
        case .pop(let newTop) where !isDismissal:
            target = newTop
            let entries = nodes[x]!.children
            if let index = entries.lastIndex(of: newTop) {
                try askExitGuards(of: Array(entries[(index + 1)...]))
            }
        case .dismiss(let presented) where isDismissal:
            target = presented
            if nodes[x]!.presented == presented { try askExitGuards(of: [presented]) }
        default:
            return
        }
        runtimes[r]!.gesture = Gesture(
            container: x, isDismissal: isDismissal, target: target, paths: paths)
        trace.append(
            FuzzExpect(
                options: paths.map {
                    "rt\(r): gesture \(isDismissal ? "dismiss" : "pop") began at \($0)"
                }))
    }

    /// The exit guards of the subtrees of `roots` (bottom first), top-most first, innermost
    /// first; the first that refuses or redirects refuses the gesture.
    private func askExitGuards(of roots: [FuzzID]) throws {
        for node in roots.reversed().flatMap(exitOrder) {
            guard let spec = nodes[node]?.exitGuard else { continue }
            if consult(spec, node, exit: true, paths: [livePath(node)]) { continue }
            var reason = "no"
            if let routes = spec.redirect {
                reason = "redirected to " + routes.map { "r\($0)" }.joined(separator: " / ")
            }
            throw refusal(node) { .exitRefused(node: $0, reason: reason) }
        }
    }

    /// The gesture ends. Cancelled: nothing but its trace record. Committed: the platform's
    /// change of what it showed when the gesture began, if the tree still has it (a pop to the
    /// entry that was below the top, whatever was pushed meanwhile; the dismissal of the node
    /// that was presented), not echoed to the host.
    private func endGesture(_ gesture: Gesture, in r: Int, committed: Bool) {
        runtimes[r]!.gesture = nil
        let kind = gesture.isDismissal ? "dismiss" : "pop"
        trace.append(
            FuzzExpect(
                options: gesture.paths.map {
                    "rt\(r): gesture \(kind) \(committed ? "committed" : "cancelled") at \($0)"
                }))
        guard committed, runtimes[r]!.running, let node = nodes[gesture.container],
            node.state == .entered, node.runtime == r
        else { return }
        let op: FuzzOp
        if gesture.isDismissal {
            guard node.presented == gesture.target else { return }
            op = .platformDismiss(gesture.container)
        } else {
            guard node.children.contains(gesture.target), node.children.last != gesture.target
            else { return }
            op = .platformPopTo(gesture.container, gesture.target)
        }
        do {
            try perform(op, context: .top)
        } catch {
            // FlowTransitions reports it to the runtime (none is expected).
            trace.append(FuzzExpect(prefix: "rt\(r): failed"))
            journal.append(FuzzExpect(prefix: "onError "))
        }
    }
}
