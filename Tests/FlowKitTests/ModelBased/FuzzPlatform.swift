import FlowKitTesting

@testable import FlowKit

// The real side of the platform operations, what the model reads of what a platform shows,
// and the platform's invariants.
extension FuzzWorld {
    /// The live gesture of runtime `r` (begun, not ended, not forgotten by a stop).
    func liveGesture(_ r: Int) -> FlowInteractiveTransition? {
        guard let slot = runtimes[r], let gesture = slot.gesture, !gesture.hasEnded,
            slot.transitions?._gesture != nil
        else { return nil }
        return gesture
    }

    /// Whether the user cannot touch the shown container `id` (its back button, its tab bar):
    /// a sheet the platform shows covers it (presented over it, or by a node inside it: a
    /// UIKit sheet covers the bars of the controllers it is presented from), or a
    /// presentation or dismissal is moving (UIKit takes no touches then).
    func isUnderSheet(_ id: FlowNodeID, in t: FlowTransitions) -> Bool {
        if t._isCovered(id) || t._inFlight.values.contains(where: { $0.step.isModal }) {
            return true
        }
        var pending = [id]
        while let node = pending.popLast() {
            guard let shown = t._shown[node] else { continue }
            if shown.presented != nil { return true }
            pending.append(contentsOf: shown.children)
        }
        return false
    }

    /// Whether runtime `r`'s pipeline has a step in flight in the container `id`.
    func hasStepInFlight(_ r: Int, at id: FuzzID) -> Bool {
        guard let identity = flowIDs[id] else { return false }
        return runtimes[r]?.transitions?._inFlight[identity] != nil
    }

    /// What the platform shows for `op`, read before it runs (FlowKit's own preconditions of
    /// a gesture, in its order; the tester's id of the node concerned).
    func shownAnswer(_ op: FuzzOp) -> FuzzShownAnswer {
        func fuzzID(_ id: FlowNodeID) -> FuzzID { fuzzIDs[id.rawValue] ?? -2 }
        switch op {
        case .swipeBack(let r, let s):
            guard let t = runtimes[r]?.transitions, let stack = node(s) as? FlowStack else {
                return .absent
            }
            guard let shown = t._shown[stack.id], shown.children.count >= 2 else {
                return .notPossible("nothing to pop")
            }
            if t._gesture != nil { return .notPossible("another gesture runs") }
            if t._inFlight[stack.id] != nil { return .notPossible("a transition runs") }
            if t._isCovered(stack.id) || shown.presented != nil
                || t._shown[shown.children.last!]?.presented != nil
            {
                return .notPossible("a presentation covers it")
            }
            return .pop(newTop: fuzzID(shown.children[shown.children.count - 2]))
        case .dragDown(let r, let p):
            guard let t = runtimes[r]?.transitions, let presenter = node(p) else { return .absent }
            guard let presented = t._shown[presenter.id]?.presented else {
                return .notPossible("nothing presented")
            }
            if t._gesture != nil { return .notPossible("another gesture runs") }
            if t._inFlight[presenter.id] != nil { return .notPossible("a transition runs") }
            return .dismiss(presented: fuzzID(presented))
        case .tapTab(let r, let t, let index):
            guard let transitions = runtimes[r]?.transitions, let platform = runtimes[r]?.platform,
                let tabs = node(t) as? FlowTabs
            else { return .absent }
            let shown = platform.shownChildren(of: tabs)
            guard let selected = platform.shownSelection(of: tabs), shown.indices.contains(index),
                transitions._inFlight[tabs.id] == nil, transitions._inFlight[shown[index]] == nil,
                transitions._gesture == nil, !isUnderSheet(tabs.id, in: transitions)
            else { return .busy }
            let tab = tabs.tabs.first { $0.id == shown[index] }
            var popsTo: FuzzID?
            if selected == index, let stack = tab as? FlowStack {
                let entries = platform.shownChildren(of: stack)
                if entries.count > 1 { popsTo = fuzzID(entries[0]) }
            }
            return .tabTap(
                tab: tab.map { FuzzWorld.id(of: $0) ?? -2 }, popsTo: popsTo,
                reselects: selected == index)
        case .platformSelect(let t, _):
            // What the tab bar shows: its selection against where it shows the tree's
            // selected tab (at the tree's index if it does not show that tab).
            guard let tabs = node(t) as? FlowTabs, let runtime = tabs._runtime,
                let slot = runtimes.values.first(where: { $0.runtime === runtime }),
                let platform = slot.platform, let selected = platform.shownSelection(of: tabs),
                tabs.tabs.indices.contains(tabs.selectedIndex)
            else { return .selection(shown: true) }
            let tab = tabs.tabs[tabs.selectedIndex].id
            let shownIndex =
                platform.shownChildren(of: tabs).firstIndex(of: tab) ?? tabs.selectedIndex
            return .selection(shown: selected == shownIndex)
        case .tapBack(let r, let s):
            guard let t = runtimes[r]?.transitions, let stack = node(s) as? FlowStack else {
                return .absent
            }
            if t._inFlight[stack.id] != nil || t._gesture != nil { return .busy }
            if isUnderSheet(stack.id, in: t) { return .busy }
            let shown = t.shownEntries(of: stack)
            return .tap(newTop: shown.count >= 2 ? fuzzID(shown[shown.count - 2]) : nil)
        default:
            return .absent
        }
    }

    /// Runs a platform operation as the user and the platform would: a swipe during a
    /// transition of its stack is asked of FlowKit directly (the platform's recognizer does
    /// not start one; FlowKit must refuse), a tap on back during a transition or a gesture
    /// is skipped (the platform ignores it).
    func runOnPlatform(_ op: FuzzOp) throws {
        switch op {
        case .advance(let r, let ms):
            runtimes[r]?.platform?.advance(by: ms)
        case .runUntilIdle(let r):
            runtimes[r]?.platform?.runUntilIdle()
        case .swipeBack(let r, let s):
            guard let platform = runtimes[r]?.platform, let t = runtimes[r]?.transitions,
                let stack = node(s) as? FlowStack
            else { return }
            let gesture =
                t._inFlight[stack.id] != nil
                ? try t.beginInteractivePop(on: stack) : try platform.swipeBack(on: stack, in: t)
            runtimes[r]?.gesture = gesture
            runtimes[r]?.gestureContainer = stack
        case .dragDown(let r, let p):
            guard let platform = runtimes[r]?.platform, let t = runtimes[r]?.transitions,
                let presenter = node(p)
            else { return }
            let gesture = try platform.dragDown(sheetOf: presenter, in: t)
            runtimes[r]?.gesture = gesture
            runtimes[r]?.gestureContainer = presenter
        case .updateGesture(let r, let percent):
            guard let gesture = liveGesture(r) else { return }
            gesture.update(progress: Double(percent) / 100)
            if gesture.progress != Double(min(max(percent, 0), 100)) / 100 {
                journal.append("progress \(gesture.progress) after \(op)")
            }
        case .releaseGesture(let r), .cancelGesture(let r):
            guard let platform = runtimes[r]?.platform else { return }
            guard let gesture = liveGesture(r) else {
                journal.append("skip \(op)")
                return
            }
            if case .cancelGesture = op {
                platform.cancel(gesture)
            } else if let container = runtimes[r]?.gestureContainer {
                platform.release(gesture, on: container)
            } else {
                // The container was freed: nothing of it is on screen to change.
                gesture.commit()
            }
            runtimes[r]?.gesture = nil
            if !gesture.hasEnded { journal.append("gesture not ended after \(op)") }
        case .tapBack(let r, let s):
            guard let platform = runtimes[r]?.platform, let t = runtimes[r]?.transitions,
                let stack = node(s) as? FlowStack
            else { return }
            if case .busy = shownAnswer(op) {
                journal.append("skip \(op)")
                return
            }
            try platform.tapBack(on: stack, in: t)
        case .tapTab(let r, let t, let index):
            guard let platform = runtimes[r]?.platform, let transitions = runtimes[r]?.transitions,
                let tabs = node(t) as? FlowTabs
            else { return }
            if case .busy = shownAnswer(op) {
                journal.append("skip \(op)")
                return
            }
            try platform.tapTab(at: index, of: tabs, in: transitions)
        default:
            preconditionFailure("not a platform operation: \(op)")
        }
    }

    /// The platform invariants of every held runtime with a platform: no illegal call; a
    /// platform with nothing running and no gesture is idle (nothing waits forever); once
    /// idle, what FlowTransitions and the platform show is the tree, container by container.
    /// Returns the check that failed and why.
    func platformProblem(_ model: FuzzModel) -> (check: String, message: String)? {
        for (r, expected) in model.runtimes.sorted(by: { $0.key < $1.key })
        where expected.held && expected.platform != nil {
            guard let slot = runtimes[r], let platform = slot.platform,
                let t = slot.transitions, let runtime = slot.runtime
            else { continue }
            func state() -> String {
                "\n  tree:\n" + runtime.treeDescription() + "\n  steps:\n"
                    + platform.performedSteps.suffix(12).map { "    \($0)" }.joined(
                        separator: "\n")
            }
            let illegal = platform.illegalCalls
            if let first = illegal.first {
                return (
                    "illegal platform call (\(Self.illegalKind(first)))",
                    "rt\(r): " + illegal.joined(separator: "; ") + state()
                )
            }
            if !platform.isAnimating && expected.gesture == nil && !t.isIdle {
                return ("platform not idle", "rt\(r): nothing runs, yet not idle" + state())
            }
            guard t.isIdle else { continue }
            guard runtime.isRunning, let root = runtime.root else {
                if !t.isShowingTree {
                    return ("shown is not the tree", "rt\(r): FlowTransitions" + state())
                }
                continue
            }
            // Idle, both records show the tree, except a presentation whose presenter is not
            // on screen (a covered entry, an unselected tab, a hidden column, under another
            // presentation): UIKit cannot present from there, so it waits, on both sides.
            var waiting: Set<FlowNodeID> = []
            var visited = 0
            var pending = [root]
            while let node = pending.popLast() {
                visited += 1
                let children = platform.shownChildren(of: node)
                var presented = platform.shownPresented(by: node)
                var presentedByFlowKit = t.shownPresented(by: node)
                if presented == nil, presentedByFlowKit == nil, let child = node.presentedChild,
                    !t.isOnScreen(node)
                {
                    waiting.insert(child.id)
                    presented = child.id
                    presentedByFlowKit = child.id
                } else if let child = node.presentedChild {
                    pending.append(child)
                }
                let shown = t._shown[node.id]
                if shown?.children != node.children.map(\.id)
                    || presentedByFlowKit != node.presentedChild?.id
                    || (node as? FlowTabs).map({ shown?.selected != $0.selectedIndex }) == true
                {
                    return (
                        "shown is not the tree", "rt\(r): FlowTransitions at \(node.path)" + state()
                    )
                }
                let tabs = node as? FlowTabs
                let selection = tabs.flatMap { platform.shownSelection(of: $0) }
                if children != node.children.map(\.id) || presented != node.presentedChild?.id
                    || (tabs != nil && selection.map { $0 != tabs!.selectedIndex } ?? false)
                {
                    return (
                        "platform shows another tree",
                        "rt\(r): at \(node.path) shows \(children) presenting "
                            + "\(presented.map { "\($0)" } ?? "nothing")"
                            + (selection.map { " selecting tab \($0)" } ?? "") + state()
                    )
                }
                pending.append(contentsOf: node.children)
            }
            if visited != t._shown.count || waiting != Set(t.offScreenPresentations.map(\.id))
                || waiting.isEmpty != t.isShowingTree
            {
                return ("shown is not the tree", "rt\(r): FlowTransitions" + state())
            }
        }
        return nil
    }

    /// What kind of illegal call `message` records, without the step and the nodes (paths,
    /// identities, indices), so that failures differ by the rule broken: `presenting from a
    /// node not on screen (is being swiped back)`.
    static func illegalKind(_ message: String) -> String {
        // "<step>: <why>": the step names its container first.
        let why = message.split(separator: ":", maxSplits: 1).last.map(String.init) ?? message
        let words = why.split(separator: " ").filter { word in
            !word.contains("/") && !word.contains("#") && !word.contains(where: \.isNumber)
                && !word.hasPrefix("[") && !word.hasSuffix("]")
        }
        return words.joined(separator: " ").filter { $0 != "(" && $0 != ")" }
    }

    /// Counts the steps the platforms performed since the last call, by kind.
    func countPlatformSteps() {
        for r in runtimes.keys {
            guard let platform = runtimes[r]?.platform else { continue }
            let steps = platform.performedSteps
            for step in steps[(runtimes[r]!.stepsCounted)...] {
                let kind = "\(step.kind)".split(separator: "(").first ?? ""
                coverage["platform step \(kind)", default: 0] += 1
            }
            runtimes[r]?.stepsCounted = steps.count
        }
    }
}
