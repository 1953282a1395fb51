/// A change a guard redirected, kept to be retried: what it was, and how to ask for it again.
struct _Intent {
    let description: String
    let run: @MainActor () throws -> Void
}

/// The pending intent of a runtime: the intent, the redirect that was performed for it, and
/// the node that redirect reached (the flow whose finishing replays the intent).
struct _PendingIntent {
    let id: Int
    let intent: _Intent
    let redirect: [FlowStep]
    /// Set once the redirect has been performed.
    var flow: FlowController?
    /// Set when `flow` finished: the replay is queued.
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
        _pendingIntent = _PendingIntent(id: id, intent: intent, redirect: redirect.path)
        _traceIntent(.kept, intent.description, "\(redirect.node) redirected to \(target)")
        _enqueueChange("redirect", at: root) { [weak self] in
            guard let self, let root = self.root else { return }
            self._isRedirecting = true
            defer { self._isRedirecting = false }
            do {
                let reached = try self._navigate(
                    from: root, along: redirect.path, history: nil, historyDefault: nil,
                    reentering: false, origin: .redirect)
                if self._pendingIntent?.id == id { self._pendingIntent?.flow = reached }
            } catch {
                self._dropIntent("the redirect failed: \(error)")
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

    /// `node` called `finish(with:)`: if it is the redirect's flow, replay the intent after
    /// the `FlowFinished` event (so the handler that moves on runs first).
    func _flowDidFinish(_ node: FlowController) {
        guard var pending = _pendingIntent, pending.flow === node, !pending.finished else {
            return
        }
        pending.finished = true
        _pendingIntent = pending
        _outermost {
            _enqueueChange("replay", at: node) { [weak self] in
                guard let self, let pending = self._pendingIntent, pending.finished else { return }
                self._pendingIntent = nil
                self._traceIntent(.replayed, pending.intent.description, "\(node.path) finished")
                try pending.intent.run()
            }
        }
    }

    /// Called for each exiting node while an intent is pending: the redirect's flow leaving
    /// without finishing drops the intent.
    func _noteExit(of node: FlowController) {
        guard let pending = _pendingIntent, pending.flow === node, !pending.finished else {
            return
        }
        _dropIntent("\(node.path) left without finishing")
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
