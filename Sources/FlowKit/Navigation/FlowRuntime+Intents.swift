/// A change a guard redirected, kept to be retried: what it was, and how to ask for it again.
struct _Intent {
    let kind: FlowChange.Kind
    /// The node the change was asked of.
    let node: FlowController
    /// What the change was, when not `kind node.path` (navigation, `open`, `unwind`):
    /// formatted only when a guard redirects it (never on the hot path).
    private let custom: (@MainActor () -> String)?
    let run: @MainActor () throws -> Void

    /// The intent of the change `kind` asked of `node`, described as `push app/main/stack`
    /// unless `describe` says otherwise.
    init(
        _ kind: FlowChange.Kind, at node: FlowController,
        describe: (@MainActor () -> String)? = nil,
        run: @escaping @MainActor () throws -> Void
    ) {
        self.kind = kind
        self.node = node
        custom = describe
        self.run = run
    }

    @MainActor
    func describe() -> String {
        custom?() ?? "\(kind.rawValue) \(node.path)"
    }
}

/// A kept intent, described once: what ``FlowPendingIntent`` tells of it (no node), and the
/// call that asks for it again.
struct _KeptIntent {
    let kind: FlowChange.Kind
    let node: String
    let nodeID: FlowNodeID
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
        let kept = _KeptIntent(
            kind: intent.kind, node: intent.node.path, nodeID: intent.node.id,
            description: intent.describe(), run: intent.run)
        _pendingIntent = _PendingIntent(id: id, intent: kept, redirect: redirect.path)
        _traceIntent(.kept, kept.description, "\(redirect.node) redirected to \(target)")
        _enqueueChange(.redirect, at: root) { [weak self] in
            guard let self else { return }
            guard self.root != nil, self.isRunning else {
                // Skipped (the runtime stopped first): its intent goes with it.
                if self._pendingIntent?.id == id {
                    self._dropIntent("the redirect was skipped: the runtime stopped")
                }
                return
            }
            self._isRedirecting = true
            defer { self._isRedirecting = false }
            do {
                let reached = try self._performRedirect(along: redirect.path)
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
    /// (the pending intent): its kind, its node, its description as in the trace, and the
    /// redirect. A later navigation replaces it; it is dropped if the redirect's flow leaves
    /// without finishing.
    public var redirectedIntent: FlowPendingIntent? {
        guard let pending = _pendingIntent else { return nil }
        let intent = pending.intent
        return FlowPendingIntent(
            kind: intent.kind, node: intent.node, nodeID: intent.nodeID,
            description: intent.description, redirect: pending.redirect.pathDescription,
            flow: pending.flow?.path)
    }

    /// The description of ``redirectedIntent``, as in the trace.
    @available(
        *, deprecated,
        message: "Use redirectedIntent (a FlowPendingIntent); this is its description."
    )
    public var pendingIntent: String? { _pendingIntent?.intent.description }
}
