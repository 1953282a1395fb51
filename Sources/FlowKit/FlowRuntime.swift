/// Owns a FlowController tree: its root, the run-to-completion event queue, the trace and the
/// host. An app creates one, the way a window holds its root view controller; tests create as
/// many as they like (there are no globals).
///
///     let app = FlowSwitch(name: "app", initial: LoginFlow())
///     let runtime = FlowRuntime(root: app, host: myHost)
///     try runtime.start()            // enters app, then login, outermost first
///     runtime.send(Refresh())        // from the focused leaf up
@MainActor
public final class FlowRuntime {
    /// The root node, or `nil` after ``stop()``.
    @exclusivity(unchecked)
    public internal(set) var root: FlowController?

    /// The host told about every change FlowKit makes.
    public let host: (any FlowHost)?

    /// The structured log of what happened.
    public let trace: FlowTrace

    /// Called with every event that no node handled (after the trace records it).
    public var onUnhandledEvent: (@MainActor (any FlowEvent, _ origin: FlowController) -> Void)?

    /// Whether ``start()`` has run and ``stop()`` has not.
    @exclusivity(unchecked)
    public internal(set) var isRunning = false

    /// The nodes on the focused path, root first.
    @exclusivity(unchecked)
    public internal(set) var focusedPath: [FlowController] = []

    @exclusivity(unchecked)
    var _history: [String: [FlowRoute]] = [:]
    @exclusivity(unchecked)
    var _scratch = _ScratchBuffers()
    @exclusivity(unchecked)
    var _queue = _FIFO<_PendingEvent>()
    /// How many dispatches or changes are under way; events sent while it is non-zero wait.
    @exclusivity(unchecked)
    var _depth = 0
    /// Whether a change is being applied (hooks and guards run); new changes are refused.
    @exclusivity(unchecked)
    var _isApplying = false
    private var _wasStarted = false

    /// Creates a runtime for `root`. Nothing is entered until ``start()``.
    ///
    /// - Precondition: `root` has no parent and belongs to no other runtime.
    public init(root: FlowController, host: (any FlowHost)? = nil, trace: FlowTrace = FlowTrace()) {
        precondition(
            root.parent == nil && root._runtime == nil && root.state == .created,
            "FlowRuntime: the root '\(root.name)' is already attached somewhere")
        self.root = root
        self.host = host
        self.trace = trace
        root._runtime = self
    }

    /// The focused leaf: the end of ``focusedPath``.
    public var focusedNode: FlowController? { focusedPath.last }

    /// Enters the root and its subtree (outermost first, with default children), then reports
    /// a `start` change.
    ///
    /// - Throws: ``FlowError/runtimeAlreadyStarted`` on a second call; a guard's refusal or a
    ///   missing route factory, in which case nothing was entered.
    public func start() throws {
        guard !_wasStarted, let root else { throw FlowError.runtimeAlreadyStarted }
        var change = _Change(kind: .start, domain: nil)
        change.insertions.append(_Insertion(node: root, container: nil))
        try _run(change)
        _wasStarted = true
    }

    /// Exits the whole tree (innermost first) and releases it. The runtime cannot start again.
    ///
    /// Exit guards are not consulted: the app is going away.
    public func stop() throws {
        guard isRunning, let root else { throw FlowError.runtimeNotStarted }
        var change = _Change(kind: .stop, domain: nil)
        change.removals.append(root)
        try _run(change)
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
            let candidates = node.children + (node.presentedChild.map { [$0] } ?? [])
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
    /// path is marked with `*` and presented nodes with `^`.
    ///
    ///     * app
    ///       * main
    ///         * stack
    ///             list
    ///           * detail
    public func treeDescription() -> String {
        guard let root, isRunning else { return "" }
        var lines: [String] = []
        func visit(_ node: FlowController, depth: Int) {
            let mark = node.isActive ? "* " : "  "
            let presented = node.isPresented ? "^" : ""
            lines.append(String(repeating: "  ", count: depth) + mark + presented + node.name)
            for child in node.children { visit(child, depth: depth + 1) }
            if let presented = node.presentedChild { visit(presented, depth: depth + 1) }
        }
        visit(root, depth: 0)
        return lines.joined(separator: "\n")
    }
}

/// Arrays a change reuses instead of allocating new ones each time.
struct _ScratchBuffers {
    var exitSet: [FlowController] = []
    var entrySet: [FlowController] = []
    var stack: [FlowController] = []
    var path: [FlowController] = []

}

/// Empties `array` (releasing its nodes) and stores its storage in `buffer` for next time.
/// Callers take a buffer with `swap(&local, &buffer)`, which moves it without a copy.
func _recycle(_ array: inout [FlowController], in buffer: inout [FlowController]) {
    if !array.isEmpty { array.removeAll(keepingCapacity: true) }
    swap(&array, &buffer)
}

/// An event waiting for its turn. `origin == nil` means "the focused leaf at delivery".
struct _PendingEvent {
    let event: any FlowEvent
    let origin: FlowController?
}
