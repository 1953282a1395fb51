/// The transition pipeline between the tree and a platform whose transitions take time.
///
/// The tree stays the intent: changes are synchronous transactions, as always. What the
/// platform has *shown* is tracked per container, and whenever the platform is ready the next
/// legal steps are worked out from what it shows to what the tree is now (never a replay of
/// every change in between), handed to the ``FlowTransitionHost`` and acknowledged by it:
///
///     let transitions = FlowTransitions(host: navigationHost)
///     let runtime = try FlowRuntime(root: app, host: transitions)
///     try runtime.start()
///     try stack.push(detail)   // the tree changes now; the platform animates
///     try stack.push(more)     // while it animates: shown later, with the push before it
///     await transitions.settled()   // the platform shows [list, detail, more]
///
/// A host without time (tests, the recording host) does not need it: pass it to the runtime
/// directly, as before.
///
/// The rules, in order (see <doc:Hosting>): a presented node that is no longer in the tree
/// is dismissed before anything below it changes, and nothing inside it changes first; a
/// step never removes a node that presents or in which a step runs (its sheet is dismissed
/// first); a node is presented once its presenter is on screen (``isOnScreen(_:)``: the top
/// entry of its stack, in the shown tab, nothing running around it, nothing of its layer
/// presenting above it); a container's children change in one step, or one entry at a time
/// (``FlowTransitionRules/stackSteps``), popping back to the common entries before pushing;
/// one step per container at a time, one modal transition at a time where the rules say so.
/// A node that entered and left while the platform was busy never reaches it; a step never
/// shows a node that already left; a node the platform shows is removed by a later step once
/// it left the tree.
///
/// Interactive gestures (``beginInteractivePop(on:)``, ``beginInteractiveDismiss(of:)``)
/// ask the exit guards when they begin, change nothing while they run, and on commit make the
/// platform's change (``FlowStack/platformDidPop(to:)``, ``FlowController/platformDidDismiss()``).
@MainActor
public final class FlowTransitions: FlowHost {
    /// The platform side.
    public let host: any FlowTransitionHost
    /// The platform's rules (the host's, read once).
    public let rules: FlowTransitionRules

    weak var _runtime: FlowRuntime?
    /// What the platform shows, by node: the children and presented node it shows.
    var _shown: [FlowNodeID: _ShownNode] = [:]
    var _shownRoot: FlowNodeID?
    /// The steps the platform is performing, by the node they happen in.
    var _inFlight: [FlowNodeID: _StepInFlight] = [:]
    var _nextToken = 0
    /// Steps the platform refused, by container: not asked again until the tree changes.
    var _refused: [FlowNodeID: FlowTransitionStep] = [:]
    /// The interactive gesture in progress, if any.
    var _gesture: _Gesture?
    var _waiters: [CheckedContinuation<Void, Never>] = []
    var _isCatchingUp = false
    var _needsCatchUp = false
    /// Set while this pipeline makes a platform change whose effect on what is shown it has
    /// already noted (a gesture's commit, ``platformDidPop(_:toShownEntry:)``): see
    /// ``platformDidChange(_:in:)``.
    var _isNotingOwnPlatformChange = false
    /// Every step handed to the host, for tests and tools (the most recent 1,000).
    public private(set) var performedSteps: [FlowTransitionStep] = []

    /// Creates the pipeline for `host`. Pass it as the runtime's host.
    public init(host: any FlowTransitionHost) {
        self.host = host
        rules = host.transitionRules
    }

    // MARK: FlowHost

    /// Takes a committed change: the tree moved, so the platform has something to catch up
    /// with. While the container it happened in is in a transition, this only notes it
    /// (constant time), and the platform catches up when that transition ends.
    public func apply(_ change: FlowChange, in runtime: FlowRuntime) {
        _runtime = runtime
        if change.kind == .stop {
            _stop(in: runtime)
            return
        }
        if !_refused.isEmpty { _refused.removeAll() }
        if change.kind != .start, let id = change.containerID, _isBusy(around: id) {
            _needsCatchUp = true
            if runtime.trace._isRecordingSession {
                runtime.trace._tellSession { $0.transitionDidCoalesce(change) }
            }
            return
        }
        _catchUp()
    }

    /// Notes a change the platform made itself: it shows it already, so what is shown
    /// follows (the popped entries, the dismissed node, the selected tab), and no step is
    /// issued for it.
    public func platformDidChange(_ change: FlowChange, in runtime: FlowRuntime) {
        _runtime = runtime
        // A gesture's commit (or platformDidPop(_:toShownEntry:)) noted what is shown itself,
        // from what the platform removed.
        guard !_isNotingOwnPlatformChange else { return }
        guard let id = change.containerID, _shown[id] != nil else { return }
        if change.kind == .platformPop, let stack = runtime.node(id: id) as? FlowStack,
            let top = stack._children.last, _showsEntries(of: id, upTo: top.id)
        {
            // The platform shows its entries up to the one now on top (what left the tree
            // may differ, if the entries were reordered meanwhile).
        } else {
            // What left is forgotten where the platform showed it: in the container, in a
            // collapsed split's column stacks (a compact pop), in a tab's stack (a tap on the
            // selected tab popping it to its root).
            for node in change.exitedIDs {
                guard let parent = _shown[node]?.parent, var shown = _shown[parent] else {
                    continue
                }
                if shown.presented == node {
                    shown.presented = nil
                } else {
                    shown.children.removeAll { $0 == node }
                }
                _shown[parent] = shown
                _forget(node)
            }
        }
        if change.kind == .platformSelect, let tabs = runtime.node(id: id) as? FlowTabs {
            let shown = _shownIndex(ofSelectedTabOf: tabs)  // read before `_shown` is written
            _shown[id]?.selected = shown
        }
        _catchUp()
    }

    /// Notes that the platform shows the tab `tabs` selects (a tap on the tab the tree
    /// already selects, while a selection made in code was not shown yet).
    public func platformDidShowSelection(of tabs: FlowTabs, in runtime: FlowRuntime) {
        _runtime = runtime
        guard _shown[tabs.id]?.selected != nil else { return }
        let shown = _shownIndex(ofSelectedTabOf: tabs)  // read before `_shown` is written
        _shown[tabs.id]?.selected = shown
        _catchUp()
    }

    /// Whether the platform shows the tab `tabs` selects as selected now (from the record of
    /// what is shown; `true` for tabs it has no record of).
    public func platformShowsSelection(of tabs: FlowTabs, in runtime: FlowRuntime) -> Bool {
        guard let shown = _shown[tabs.id]?.selected else { return true }
        return shown == _shownIndex(ofSelectedTabOf: tabs)
    }

    /// Tells FlowKit that the platform popped `stack` on its own (the back button) back to the
    /// entry `entry` it shows: what is shown follows, and if the tree still has `entry` below
    /// its top, the tree pops to it (``FlowStack/platformDidPop(to:)``, not echoed). Use this
    /// rather than `platformDidPop(to:)` when the platform may show an entry the tree has
    /// already left (its removal still to be shown): then only what is shown changes.
    public func platformDidPop(_ stack: FlowStack, toShownEntry entry: FlowNodeID) throws {
        _showsEntries(of: stack.id, upTo: entry)
        if let node = stack._children.last(where: { $0.id == entry }), stack._children.last !== node
        {
            _isNotingOwnPlatformChange = true
            defer { _isNotingOwnPlatformChange = false }
            try stack.platformDidPop(to: node)
        }
        _catchUp()
    }

    /// Whether the platform is idle: no step is running, no gesture is in progress, and no
    /// step can be issued (what it shows is the tree, unless it refused a step or a
    /// presentation waits for its presenter to come on screen: ``offScreenPresentations``).
    public var isIdle: Bool { _inFlight.isEmpty && _gesture == nil && !_needsCatchUp }

    /// Returns once the platform is idle (see ``isIdle``). Nothing waits forever: a refused
    /// step is not asked again until the tree changes.
    public func settled() async {
        if isIdle { return }
        await withCheckedContinuation { _waiters.append($0) }
    }

    // MARK: Catching up

    /// Whether a step is running in the shown container `id` or one of its shown ancestors
    /// (or in any container, where containers do not animate together).
    func _isBusy(around id: FlowNodeID) -> Bool {
        if _inFlight.isEmpty { return _gesture != nil && _gesture?.container == id }
        if !rules.containersAnimateTogether { return true }
        var current: FlowNodeID? = id
        while let node = current {
            if _inFlight[node] != nil || _gesture?.container == node { return true }
            current = _shown[node]?.parent
        }
        return false
    }

    /// Issues every step the rules allow now (a catch-up pass); again as long as steps complete
    /// at once (a host without animation completes inside `perform`).
    func _catchUp() {
        if _isCatchingUp {
            _needsCatchUp = true
            return
        }
        _isCatchingUp = true
        repeat {
            _needsCatchUp = false
            _catchUpOnce()
        } while _needsCatchUp
        _isCatchingUp = false
        if isIdle && !_waiters.isEmpty {
            let waiters = _waiters
            _waiters = []
            for waiter in waiters { waiter.resume() }
        }
    }

    private func _catchUpOnce() {
        guard let runtime = _runtime, runtime.isRunning, let root = runtime.root else { return }
        guard let shownRoot = _shownRoot else {
            if _inFlight[root.id] == nil {
                _issue(.start, in: root.id, path: root.path, showing: [root], runtime: runtime)
            }
            return
        }
        var pass = _CatchUpPass(transitions: self, runtime: runtime)
        pass.indexLiveTree(from: root)
        pass.visit(shownRoot, covered: false, onScreen: true)
    }

    /// Hands `kind` to the host, remembering the subtrees of `showing` as they are now (what
    /// the platform will show once the step is done).
    func _issue(
        _ kind: FlowTransitionStep.Kind, in container: FlowNodeID, path: String,
        showing nodes: [FlowController] = [], runtime: FlowRuntime
    ) {
        let step = FlowTransitionStep(kind: kind, container: container, containerPath: path)
        if _refused[container] == step { return }
        var snapshots: [FlowNodeID: _ShownNode] = [:]
        for node in nodes {
            _ShownNode.snapshot(node, parent: container, into: &snapshots)
        }
        _nextToken += 1
        _inFlight[container] = _StepInFlight(
            step: step, token: _nextToken, snapshots: snapshots)
        if performedSteps.count >= 1_000 { performedSteps.removeFirst(500) }
        performedSteps.append(step)
        if runtime.trace._isRecordingSession {
            let token = _nextToken
            runtime.trace._tellSession { $0.transitionDidBegin(step, token: token) }
        }
        host.perform(
            step, in: runtime,
            completion: FlowTransitionCompletion(transitions: self, token: _nextToken))
    }

    /// A step's completion: what the platform shows now follows from the step (done), or
    /// stays as it was (failed: reported, and that step is not asked again until the tree
    /// changes). Then the platform catches up.
    func _stepEnded(token: Int, error: (any Error)?) {
        guard let (container, flight) = _inFlight.first(where: { $0.value.token == token })
        else { return }
        _inFlight[container] = nil
        if let trace = _runtime?.trace, trace._isRecordingSession {
            trace._tellSession { $0.transitionDidEnd(flight.step, token: token, error: error) }
        }
        if let error {
            _refused[container] = flight.step
            _runtime?._reportFailure(
                FlowFailure(
                    .transition(flight.step), node: flight.step.containerPath, error: error))
        } else {
            _noteShown(flight)
        }
        _catchUp()
    }

    /// Updates what is shown after `flight` is done. A step whose container the platform no
    /// longer shows (a gesture or the back button removed it meanwhile) shows nothing.
    private func _noteShown(_ flight: _StepInFlight) {
        let id = flight.step.container
        guard flight.step.kind == .start || _shown[id] != nil else { return }
        for (node, snapshot) in flight.snapshots { _shown[node] = snapshot }
        switch flight.step.kind {
        case .start:
            _shownRoot = id
            _shown[id]?.parent = nil
        case .setEntries(let from, let to), .setChildren(let from, let to):
            for old in from where !to.contains(old) { _forget(old) }
            _shown[id]?.children = to
            if let selected = _shown[id]?.selected {
                _shown[id]?.selected = Self._reselection(selected, from: from, to: to)
            }
        case .select(_, let to):
            _shown[id]?.selected = to
        case .present(let node):
            _shown[id]?.presented = node
        case .dismiss(let node):
            if _shown[id]?.presented == node { _shown[id]?.presented = nil }
            _forget(node)
        case .stop:
            break
        }
    }

    /// The tab a tab bar shows after its tabs changed from `from` to `to` while it showed the
    /// tab at `selected`: UIKit's `UITabBarController` "remembers the view controller object
    /// that was previously selected and attempts to reselect it. If the selected view
    /// controller is no longer present, it attempts to select the view controller at the same
    /// index in the array as the previous selection. If that index is invalid, it selects the
    /// view controller at index 0."
    static func _reselection(_ selected: Int, from: [FlowNodeID], to: [FlowNodeID]) -> Int {
        if from.indices.contains(selected), let index = to.firstIndex(of: from[selected]) {
            return index
        }
        return to.indices.contains(selected) ? selected : 0
    }

    /// The platform popped the shown stack `id` back to its entry `entry` (the back button, a
    /// committed swipe): what was shown above it is forgotten. Returns whether the platform
    /// showed `entry` there.
    @discardableResult
    func _showsEntries(of id: FlowNodeID, upTo entry: FlowNodeID) -> Bool {
        guard let shown = _shown[id]?.children, let index = shown.lastIndex(of: entry) else {
            return false
        }
        for removed in shown[(index + 1)...] { _forget(removed) }
        _shown[id]?.children = Array(shown[...index])
        return true
    }

    /// Forgets `id` and everything shown below it.
    func _forget(_ id: FlowNodeID) {
        var pending = [id]
        while let node = pending.popLast() {
            guard let shown = _shown.removeValue(forKey: node) else { continue }
            pending.append(contentsOf: shown.children)
            if let presented = shown.presented { pending.append(presented) }
        }
    }

    private func _stop(in runtime: FlowRuntime) {
        let root = _shownRoot
        let rootPath = root.flatMap { _shown[$0]?.path } ?? ""
        _shown.removeAll()
        _shownRoot = nil
        _inFlight.removeAll()
        _gesture = nil
        _needsCatchUp = false
        if let root {
            let step = FlowTransitionStep(kind: .stop, container: root, containerPath: rootPath)
            performedSteps.append(step)
            _nextToken += 1
            if runtime.trace._isRecordingSession {
                let token = _nextToken
                runtime.trace._tellSession { $0.transitionDidBegin(step, token: token) }
            }
            host.perform(
                step, in: runtime,
                completion: FlowTransitionCompletion(transitions: self, token: _nextToken))
        }
        let waiters = _waiters
        _waiters = []
        for waiter in waiters { waiter.resume() }
    }
}

/// What the platform shows of one node.
struct _ShownNode: Equatable {
    /// The node's path when it was shown (it names a node that left the tree).
    var path: String
    var parent: FlowNodeID?
    var children: [FlowNodeID]
    var presented: FlowNodeID?
    var selected: Int?

    /// `node`'s embedded subtree as it is now (no presentation), into `result`.
    @MainActor
    static func snapshot(
        _ node: FlowController, parent: FlowNodeID?, into result: inout [FlowNodeID: _ShownNode]
    ) {
        var pending: [(FlowController, FlowNodeID?)] = [(node, parent)]
        while let (current, parent) = pending.popLast() {
            result[current.id] = _ShownNode(
                path: current.path, parent: parent, children: current._children.map(\.id),
                presented: nil,
                selected: (current as? FlowTabs)?._selectedIndex)
            for child in current._children { pending.append((child, current.id)) }
        }
    }
}

/// A step the platform is performing, and what it will show once done.
struct _StepInFlight {
    let step: FlowTransitionStep
    let token: Int
    let snapshots: [FlowNodeID: _ShownNode]
}
