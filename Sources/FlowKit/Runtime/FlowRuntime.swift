import Observation

/// Owns a FlowController tree: its root, the run-to-completion event queue, the trace and the
/// host. An app creates one, the way a window holds its root view controller; tests create as
/// many as they like (there are no globals).
///
///     let app = FlowSwitch(name: "app", initial: LoginFlow())
///     let runtime = try FlowRuntime(root: app, host: myHost)
///     try runtime.start()            // enters app, then login, outermost first
///     runtime.send(Refresh())        // from the focused leaf up
@MainActor
public final class FlowRuntime: Observable {
    /// The root node, or `nil` after ``stop()``.
    @exclusivity(unchecked)
    public internal(set) var root: FlowController?

    /// The host told about every change FlowKit makes.
    public let host: (any FlowHost)?

    /// The structured log of what happened.
    public let trace: FlowTrace

    /// Called with every event that no node handled (after the trace records it), unless the
    /// ``FlowApp`` of the runtime's scene has a handler for it.
    public var onUnhandledEvent: (@MainActor (any FlowEvent, _ origin: FlowController) -> Void)?

    /// Called with every error that has no caller to throw to (after the trace records it as
    /// `failed …`): a change a lifecycle hook asked for that failed when its turn came.
    ///
    ///     runtime.onError = { failure in log.error("\(failure)") }
    ///
    /// Errors are never dropped silently: without a sink they are still in the trace.
    public var onError: (@MainActor (FlowFailure) -> Void)?

    /// Whether ``start()`` has run and ``stop()`` has not.
    @exclusivity(unchecked)
    public internal(set) var isRunning = false

    // Unchecked exclusivity (root, running flag, focused path, scratch buffers, queue, phase):
    // every change or dispatch touches these, and the checks measured 3% of a push + pop
    // (callgrind). (The pooled change, depth, check mark, releasing flag and pending intent
    // dropped the attribute: a release build proves their exclusivity itself.) As on
    // FlowController, every access to them is a copy, an assignment or a short in-place
    // mutation that calls no app code (the phase's observer only updates the internal
    // registry), so accesses never overlap and the dynamic check could never fire. The rest
    // (history, hosts, sinks) keeps Swift's checks: unchecking it saved nothing measurable.

    /// The nodes on the focused path, root first.
    ///
    /// Observable (see <doc:Hosting>): reading it inside `withObservationTracking` (or a
    /// SwiftUI view) registers for the next change of focus.
    public var focusedPath: [FlowController] {
        _observation().access(self, keyPath: \.focusedPath)
        return _focusedPath
    }

    /// Storage of ``focusedPath``, written only by ``_updateFocus()``.
    @exclusivity(unchecked)
    var _focusedPath: [FlowController] = []

    /// Every active node, in entry order, while activation branches (a ``FlowParallel`` is
    /// entered); empty otherwise, when the focused path is the whole active configuration.
    /// Written only by ``_updateActivation()``.
    var _activeConfiguration: [FlowController] = []

    /// How many entered nodes branch activation (``FlowController/_branchesActivation``):
    /// counted as they enter and exit, so that a tree without one pays a single test for
    /// the general activation path.
    var _branchingNodes = 0

    /// The registrar of ``focusedPath``, made when it is first read.
    var _observationRegistrar: _Observation?

    var _history: [String: [FlowRoute]] = [:]
    @exclusivity(unchecked)
    var _scratch = _ScratchBuffers()
    /// The change object transactions reuse (see ``_transact(_:domain:intent:_:)``);
    /// `nil` while one is in use.
    var _pooledTransaction: _Transaction?
    @exclusivity(unchecked)
    var _queue = _FIFO<_Pending>()
    /// How many dispatches or changes are under way; events sent while it is non-zero wait.
    var _depth = 0
    /// Where the current change is: being checked (guards and factories run; other changes
    /// are refused), being applied (hooks, host and observers run; other changes are queued),
    /// or none.
    @exclusivity(unchecked)
    var _phase = _Phase.idle {
        didSet {
            if oldValue == .idle && _phase != .idle { _RuntimeActivity.busyRuntimes += 1 }
            if oldValue != .idle && _phase == .idle { _RuntimeActivity.busyRuntimes -= 1 }
            // Not while the runtime tears itself down in `deinit`: a reference to it must not
            // be stored anywhere then (changes asked for meanwhile find no runtime and throw).
            if oldValue != .applying && _phase == .applying && !_isReleasing {
                _RuntimeActivity.applying.append(Unmanaged.passUnretained(self))
            }
            if oldValue == .applying && _phase != .applying && !_isReleasing {
                if _RuntimeActivity.applying.last?.toOpaque()
                    == Unmanaged.passUnretained(self).toOpaque()
                {
                    _RuntimeActivity.applying.removeLast()  // the usual case: innermost
                    return
                }
                var index = _RuntimeActivity.applying.count
                while index > 0 {
                    index -= 1
                    if _RuntimeActivity.applying[index].toOpaque()
                        == Unmanaged.passUnretained(self).toOpaque()
                    {
                        _RuntimeActivity.applying.remove(at: index)
                        break
                    }
                }
            }
        }
    }
    /// Set while the runtime tears its tree down in `deinit`: the host is not told (it would
    /// receive a runtime that is going away).
    var _isReleasing = false
    /// The first node serial of the change being checked: nodes at or above it were made by
    /// app code during the check (route factories). See ``_discardBuilt(_:)``.
    var _checkMark: UInt64 = 0
    /// How the `run` calls of this tree ended (see ``_RunStatistics``).
    var _runStatistics = _RunStatistics()
    /// Tasks this runtime's changes woke that have not run yet: a `run` or `result(of:)`
    /// resumed but not yet past its `await`, a node's task started but not yet begun. See
    /// ``settle()``.
    var _pendingWakeups = 0
    /// Set once ``start()`` (or a restoration) has entered the tree.
    var _wasStarted = false
    /// The change a guard redirected, waiting for the redirect's flow to finish.
    var _pendingIntent: _PendingIntent?
    var _intentCount = 0
    /// Set while a redirect is being performed: its own guards cannot keep another intent.
    var _isRedirecting = false
    /// The scene this runtime runs, if it belongs to a ``FlowApp``: read only where the tree
    /// ends (the root's scope as it enters, an event that went past the root), never on a
    /// hot path.
    weak var _scene: FlowScene?

    /// Creates a runtime for `root`. Nothing is entered until ``start()``.
    ///
    /// - Throws: ``FlowError/alreadyAttached(node:parent:)`` if `root` has a parent or is
    ///   another runtime's root; ``FlowError/nodeExited(node:)`` if it was exited.
    public init(
        root: FlowController, host: (any FlowHost)? = nil, trace: FlowTrace = FlowTrace()
    ) throws {
        switch root.state {
        case .exited:
            throw FlowError.nodeExited(node: root.path)
        case .entered:
            throw FlowError.alreadyAttached(
                node: root.path, parent: root.parent?.path ?? "its runtime (root)")
        case .created:
            break
        }
        if let parent = root._effectiveParent {
            throw FlowError.alreadyAttached(node: root.path, parent: parent.path)
        }
        if root._runtime != nil {
            throw FlowError.alreadyAttached(node: root.path, parent: "its runtime (root)")
        }
        self.root = root
        self.host = host
        self.trace = trace
        root._runtime = self
    }

    /// A runtime released without ``stop()`` stops itself: its tree exits innermost first
    /// (exit hooks run, tasks are cancelled) and is released, so nothing it owned leaks. The
    /// `deinit` is isolated to the main actor, so this happens there even when the last
    /// reference is dropped on another thread. The host is not told (the runtime it would be
    /// handed is going away); the trace records the `stop`. Events still queued are dropped
    /// and traced.
    isolated deinit {
        guard isRunning, let root, _phase == .idle else { return }
        _isReleasing = true
        var change = _Transaction(kind: .stop, domain: nil)
        change.removals.append(root)
        _phase = .checking
        // A stop consults no guard and builds nothing, so it cannot fail.
        try? _commit(&change)
        _phase = .idle
        while let pending = _queue.popFirst() {
            if case .event(let event, let origin) = pending, trace.isEnabled {
                trace._event(.dropped, event, origin)
            }
        }
    }

    /// The focused leaf: the end of ``focusedPath``.
    public var focusedNode: FlowController? { focusedPath.last }

    /// Every active node, in entry order (parents before children, regions in order): the
    /// focused path and, below each ``FlowParallel`` (``FlowSplit``) on it, the focused
    /// paths of the regions shown beside the focused one. Without a parallel container it is
    /// ``focusedPath``. A node is in it exactly when its ``FlowController/isActive`` is set.
    ///
    /// Observable: reading it registers for the next change of the focused path or of the
    /// active nodes.
    public var activeNodes: [FlowController] {
        let registrar = _observation()
        registrar.access(self, keyPath: \.focusedPath)
        registrar.access(self, keyPath: \.activeNodes)
        return _activeConfiguration.isEmpty ? _focusedPath : _activeConfiguration
    }

    /// The registrar, made on first use.
    func _observation() -> _Observation {
        if let registrar = _observationRegistrar { return registrar }
        let registrar = _Observation()
        _observationRegistrar = registrar
        return registrar
    }

    /// The live node with identity `id`, or `nil` if no node of this runtime's tree has it
    /// (it was never attached here, or it exited).
    ///
    /// - Complexity: O(*n*) in the number of nodes of the tree.
    public func node(id: FlowNodeID) -> FlowController? {
        guard let root else { return nil }
        var pending: [FlowController] = [root]
        while let node = pending.popLast() {
            if node._serial == id.rawValue { return node }
            pending.append(contentsOf: node._children)
            if let presented = node._presented { pending.append(presented) }
        }
        return nil
    }

    /// Enters the root and its subtree (outermost first, with default children), then reports
    /// a `start` change.
    ///
    /// - Throws: ``FlowError/runtimeAlreadyStarted`` on a second call; a guard's refusal or a
    ///   missing route factory, in which case nothing was entered.
    public func start() throws {
        guard !_wasStarted, let root else { throw FlowError.runtimeAlreadyStarted }
        try _change(.start, again: { try self.start() }) {
            try _transact(.start, domain: nil) { change in
                change.insertions.append(_Insertion(node: root, container: nil))
            }
            _wasStarted = true
        }
    }

    /// Lets the tasks this runtime's changes woke run until each has reached its next
    /// suspension, yielding to the main actor meanwhile.
    ///
    /// A change hands results over and starts tasks at once, but the tasks run on later
    /// main-actor turns, and how many turns that takes depends on the scheduler (it varies
    /// from run to run on a busy machine). `settle()` returns once every `run` or
    /// `result(of:)` that a change ended (with a result or an error) has continued past its
    /// `await`, and every task a node started with ``FlowController/task(_:)`` has begun,
    /// including those that these woke in turn:
    ///
    ///     login.finish(with: account)   // the app root's task awaits this in `run`
    ///     await runtime.settle()        // it has resumed and shown the main flow
    ///     #expect(runtime.focusedNode?.path == "app/main/tabs/catalog/list")
    ///
    /// It does not wait for a task suspended on anything else (a timer, the network, another
    /// child flow). A tree whose tasks wake each other forever never settles.
    public func settle() async {
        while _pendingWakeups > 0 { await Task.yield() }
    }

    /// Exits the whole tree (innermost first) and releases it. The runtime cannot start again.
    ///
    /// Exit guards are not consulted: the app is going away. Called from a lifecycle hook,
    /// the stop is queued behind the change being applied.
    ///
    /// - Throws: ``FlowError/runtimeNotStarted`` if the runtime is not running;
    ///   ``FlowError/changeInProgress(node:)`` from a guard or a route factory.
    public func stop() throws {
        try _change(.stop, again: { try self.stop() }) {
            guard isRunning, let root else { throw FlowError.runtimeNotStarted }
            switch _phase {
            case .checking, .applying:
                throw FlowError.changeInProgress(node: root.path)
            case .idle:
                try _transact(.stop, domain: nil) { change in
                    change.removals.append(root)
                }
            }
        }
    }

    /// Sends `event` from the focused leaf at the time the event's turn comes (like a key
    /// press going to the first responder).
    ///
    /// If the runtime has no focused node (not started, or stopped), nothing happens.
    public func send<Event: FlowEvent>(_ event: Event) {
        guard isRunning else { return }
        _send(event, from: nil)
    }

    /// The node at `path` (names joined by `/`, starting with the root's), or `nil`.
    /// Where siblings share a name, the most recently attached one is found.
    public func node(at path: String) -> FlowController? {
        guard let root else { return nil }
        var components = path.split(separator: "/", omittingEmptySubsequences: false)[...]
        guard components.first.map(String.init) == root.name else { return nil }
        components = components.dropFirst()
        var node = root
        for component in components {
            let candidates = node._children + (node._presented.map { [$0] } ?? [])
            guard let next = candidates.last(where: { $0.name == component }) else { return nil }
            node = next
        }
        return node
    }

    /// The route path recorded for the node at `path` when it last exited, if its
    /// ``FlowController/history`` policy records one.
    public func recordedHistory(at path: String) -> [FlowRoute]? {
        _history[path]
    }

    /// Forgets every recorded history.
    public func clearHistory() {
        _history.removeAll()
    }

    /// A text picture of the live tree, one node per line, indented by depth; the focused
    /// path is marked with `*`, other active nodes (the columns of a split shown beside the
    /// focused one) with `+`, and presented nodes with `^`. With `showingIdentities`, each
    /// name is followed by the node's identity (`detail #42`).
    ///
    ///     * app
    ///       * main
    ///         * stack
    ///             list
    ///           * detail
    public func treeDescription(showingIdentities: Bool = false) -> String {
        guard let root, isRunning else { return "" }
        var lines: [String] = []
        let focused = Set(_focusedPath.map(ObjectIdentifier.init))
        func visit(_ node: FlowController, depth: Int) {
            let mark =
                focused.contains(ObjectIdentifier(node)) ? "* " : node.isActive ? "+ " : "  "
            let presented = node.isPresented ? "^" : ""
            let identity = showingIdentities ? " \(node.id)" : ""
            lines.append(
                String(repeating: "  ", count: depth) + mark + presented + node.name + identity)
            for child in node._children { visit(child, depth: depth + 1) }
            if let presented = node._presented { visit(presented, depth: depth + 1) }
        }
        visit(root, depth: 0)
        return lines.joined(separator: "\n")
    }
}
