/// A change a guard redirected, kept to be retried: what it was, and how to ask for it again.
struct _Intent {
    /// What the change was, formatted only when a guard redirects it (never on the hot path).
    private enum Description {
        /// `kind` asked of `node` (most operations): no closure to allocate.
        case operation(FlowChange.Kind, FlowController)
        case custom(@MainActor () -> String)
    }
    private let description: Description
    let run: @MainActor () throws -> Void

    init(
        describe: @escaping @MainActor () -> String, run: @escaping @MainActor () throws -> Void
    ) {
        description = .custom(describe)
        self.run = run
    }

    /// The intent of the operation `kind` asked of `node`, described as `push app/main/stack`.
    init(
        _ kind: FlowChange.Kind, at node: FlowController,
        run: @escaping @MainActor () throws -> Void
    ) {
        description = .operation(kind, node)
        self.run = run
    }

    @MainActor
    func describe() -> String {
        switch description {
        case .operation(let kind, let node): return "\(kind.rawValue) \(node.path)"
        case .custom(let describe): return describe()
        }
    }
}

/// A kept intent with its description formatted once.
struct _KeptIntent {
    let description: String
    let run: @MainActor () throws -> Void
}

/// The pending intent of a runtime: the intent, the redirect that was performed for it, and
/// the node that redirect reached (the flow whose finishing replays the intent).
struct _PendingIntent {
    /// Which intent this is: the redirect performed for it acts on the pending intent (sets
    /// its flow, or drops it when it fails) only while the pending intent is still this one.
    let id: Int
    let intent: _KeptIntent
    let redirect: [FlowStep]
    /// Set once the redirect has been performed.
    var flow: FlowController?
    /// Set when `flow` finished: the replay is queued when it leaves the tree.
    var finished = false
}

/// A guard's redirect, carried from the guard to the transaction that can keep the intent.
struct _Redirect: Error {
    let node: String
    let path: [FlowStep]
}

extension FlowRuntime {
    /// A guard redirected the change described by `intent`: keep it (replacing an older
    /// one), queue the redirect as its own transaction, and tell the caller.
    func _redirect(_ redirect: _Redirect, keeping intent: _Intent?) -> FlowError {
        let target = redirect.path.pathDescription
        guard let intent, !_isRedirecting, let root else {
            // Nothing to retry (start, stop, a redirect of a redirect): a plain refusal.
            return FlowError.entryRefused(node: redirect.node, reason: "redirected to \(target)")
        }
        if let old = _pendingIntent {
            _traceIntent(.replaced, old.intent.description, "a newer change was redirected")
        }
        _intentCount += 1
        let id = _intentCount
        let kept = _KeptIntent(description: intent.describe(), run: intent.run)
        _pendingIntent = _PendingIntent(id: id, intent: kept, redirect: redirect.path)
        _traceIntent(.kept, kept.description, "\(redirect.node) redirected to \(target)")
        _enqueueChange(.redirect, at: root) { [weak self] in
            guard let self else { return }
            guard let root = self.root, self.isRunning else {
                // Skipped (the runtime stopped first): its intent goes with it.
                if self._pendingIntent?.id == id {
                    self._dropIntent("the redirect was skipped: the runtime stopped")
                }
                return
            }
            self._isRedirecting = true
            defer { self._isRedirecting = false }
            do {
                let reached = try self._navigate(
                    from: root, along: redirect.path, history: nil, historyDefault: nil,
                    reentering: false, origin: .redirect)
                if self._pendingIntent?.id == id { self._pendingIntent?.flow = reached }
            } catch {
                // Only its own intent: a newer one redirected meanwhile (in the same turn,
                // before this redirect ran) replaced it and waits for its own redirect.
                if self._pendingIntent?.id == id {
                    self._dropIntent("the redirect failed: \(error)")
                }
                throw error
            }
        }
        return FlowError.redirected(node: redirect.node, to: target)
    }

    /// A navigation the app asked for from `node` replaces the pending intent, unless it
    /// happens inside the redirect's flow (the sign-in flow moving between its own screens).
    func _replacePendingIntent(by node: FlowController) {
        guard let pending = _pendingIntent, !_isRedirecting else { return }
        if let flow = pending.flow, node._isWithin(flow) { return }
        if pending.flow == nil { return }  // the redirect has not run yet
        _pendingIntent = nil
        _traceIntent(.replaced, pending.intent.description, "a newer navigation from \(node.path)")
    }

    /// `node` called `finish(with:)`: if it is the redirect's flow, its intent will be
    /// replayed once it has left the tree (the app moved on from it, e.g. from sign-in to
    /// the main flow), so the replay lands on the tree the app moved to.
    func _flowDidFinish(_ node: FlowController) {
        guard let pending = _pendingIntent, pending.flow === node else { return }
        _pendingIntent?.finished = true
    }

    /// Called for each exiting node while an intent is pending: the redirect's flow leaving
    /// after it finished queues the replay (it runs as the next transaction); leaving without
    /// finishing drops the intent.
    func _noteExit(of node: FlowController) {
        guard let pending = _pendingIntent, pending.flow === node else { return }
        guard pending.finished else {
            _dropIntent("\(node.path) left without finishing")
            return
        }
        _pendingIntent = nil
        let path = node.path
        _enqueueChange(.replay, at: node) { [weak self] in
            guard let self else { return }
            self._traceIntent(.replayed, pending.intent.description, "\(path) finished")
            try pending.intent.run()
        }
    }

    func _dropIntent(_ reason: String) {
        guard let pending = _pendingIntent else { return }
        _pendingIntent = nil
        _traceIntent(.dropped, pending.intent.description, reason)
    }

    func _traceIntent(_ action: FlowTraceRecord.IntentAction, _ change: String, _ note: String) {
        if trace.isEnabled { trace.record(.intent(action, change: change, note: note)) }
    }

    /// The change a guard redirected and that waits for the redirect's flow to finish, if any
    /// (its description, as in the trace).
    public var pendingIntent: String? { _pendingIntent?.intent.description }
}
