// The change ladder: how every operation that changes the tree gets applied. One way in:
//
//   admission  every public operation (`push`, `pop`, `present`, `dismiss`, `select`, `focus`,
//              `show`, `platformDid…`, `navigate`, `open`, `unwind`, …) calls
//              `FlowController._change` (Transactions/FlowController+Admission.swift), and
//              the runtime's own (`start`, `stop`, `navigate`, `open`, `unwind` asked of the
//              runtime) `FlowRuntime._change` there, with `again`, the closure that asks for
//              the operation again:
//     queue    while a change is being applied (the caller is a hook, the host or an
//              observer), the whole operation is queued as `again` (`_enqueueChange`), and
//              `whenQueued` says what it returns meanwhile;
//     validate its own checks (`_validateNewChild`, `_requireNotExited`, `_requireTree`, …);
//     perform  `_perform` asks `_admission()`:
//              .offline  not in a running tree: `_attachOffline` or `_applyOffline`, no hooks;
//              .queued   a change is applied meanwhile: `_enqueueChange`;
//              .live     `_transact` (this file), whose intent is `again` if a guard redirects;
//   plan       `_transact` takes the runtime's pooled `_Transaction` and runs the operation's
//              plan closure on it (Transactions/Transaction.swift: removals, layouts,
//              insertions, fills, selections);
//   check      `_commit`: exit order, history records, defaults (FlowRuntime+Defaults.swift),
//              exit guards, entry guards; any failure throws with nothing changed, and what
//              factories built is released (RefusedBuild.swift);
//   apply      exit hooks and releases (FlowController+Subtree.swift), layouts, selections,
//              unlink, link, entry hooks;
//   report     one `FlowChange` to the host (not for a platform kind:
//              `FlowChange.Kind._isPlatformInitiated`) and the trace;
//   focus      `_updateActive` (Runtime/FlowRuntime+Focus.swift): activation hooks;
//   drain      `_outermost` delivers queued events and runs queued changes, in order
//              (Events/FlowRuntime+Dispatch.swift).
//
// A push from `push` to the host, file by file: Containers/FlowStack.swift (`push`),
// Transactions/FlowController+Admission.swift (`_change`, `_perform`, `_admission`), this file
// (`_transact`, `_commit`, the report), Transactions/Transaction.swift and
// TransactionLayout.swift (the plan), Transactions/FlowController+Subtree.swift (entry order,
// link), Runtime/FlowRuntime+Focus.swift (activation), Hosting/FlowHost.swift (the host).

extension FlowRuntime {
    /// Plans a change with `plan` and commits it as one transaction, then drains the queue if
    /// this is the outermost operation. Planning runs in the check phase, so route factories
    /// called by `plan` cannot start other changes.
    ///
    /// `intent` describes the change and how to ask for it again, for a guard that redirects:
    /// the change is then kept as a pending intent (see ``FlowGuardDecision/redirect(to:)``).
    func _transact(
        _ kind: FlowChange.Kind, domain: FlowController?,
        intent: _Intent? = nil, _ plan: (inout _Transaction) throws -> Void
    ) throws {
        try _transact(kind, domain: domain, makeIntent: { intent }, plan)
    }

    /// ``_transact(_:domain:intent:_:)`` with the intent made only if a guard
    /// redirects (the common case allocates nothing for it).
    func _transact(
        _ kind: FlowChange.Kind, domain: FlowController?,
        makeIntent: () -> _Intent?, _ plan: (inout _Transaction) throws -> Void
    ) throws {
        // Every public path admits a change only when idle (queued or refused otherwise); this
        // also covers `start()` asked for again from the start's own guards.
        guard _phase == .idle else {
            throw FlowError.changeInProgress(node: domain?.path ?? root?.name ?? "")
        }
        try _outermost {
            do {
                _phase = .checking
                _checkMark = _NodeSerial.next
                // Changes never nest (the phase guard above), so one pooled change serves them
                // all; it is emptied when the transaction ends.
                // Taken (moved) out of the pool: no reference to count.
                var change = _Transaction.reusing(
                    _pooledTransaction.take(), kind: kind, domain: domain)
                change.isPlatformInitiated = kind._isPlatformInitiated
                defer {
                    _pooledTransaction = _Transaction.emptiedForReuse(change)
                    _phase = .idle
                }
                do {
                    try plan(&change)
                    if change.isEmpty { return }
                    try _commit(&change)
                } catch {
                    // What route factories built for this change is released (see
                    // Transactions/RefusedBuild.swift), even if its handlers capture it.
                    var built: [FlowController] = []
                    for insertion in change.insertions { built.append(insertion.node) }
                    _discardBuilt(built)
                    if trace._isRecordingSession {
                        trace._changeFailed(kind, at: domain?.path ?? "", error: error)
                    }
                    throw error
                }
            } catch let redirect as _Redirect {
                throw _redirect(redirect, keeping: makeIntent())
            }
        }
    }

    /// The transaction: check (expand defaults, run guards), apply (exits innermost-first,
    /// relink, entries outermost-first), report (host, trace), then activation. Called in the
    /// check phase; moves to the apply phase once every check has passed.
    func _commit(_ change: inout _Transaction) throws {

        // Check. Nothing observable changes until every check has passed.
        var expanded: [FlowController] = []
        // Reused buffers (a change never nests), emptied again before returning so that no
        // exited node is kept alive by them.
        var exitSet: [FlowController] = []
        var entrySet: [FlowController] = []
        var stack: [FlowController] = []
        swap(&exitSet, &_scratch.exitSet)
        swap(&entrySet, &_scratch.entrySet)
        swap(&stack, &_scratch.stack)
        defer {
            _recycle(&exitSet, in: &_scratch.exitSet)
            _recycle(&entrySet, in: &_scratch.entrySet)
            _recycle(&stack, in: &_scratch.stack)
        }
        change.orderRemovalsForExit()
        for removal in change.removals {
            removal._appendSubtreeInExitOrder(to: &exitSet, using: &stack)
        }
        // History is recorded for each exiting node before anything else, so content built
        // below (restores, defaults) already sees what this very change records.
        var recorded = [String: [FlowRoute]]()  // (an empty literal goes through an init call)
        for node in exitSet where node.history != .none {
            recorded[node.path] = node._focusedRoutes()
        }
        let newRecords = consume recorded
        do {
            // A local function, not a closure value: passed only as a non-escaping argument,
            // its context stays on the stack (a closure value was allocated per change).
            func history(_ path: String) -> [FlowRoute]? { newRecords[path] ?? _history[path] }
            for fill in change.fills {
                try _fill(fill, in: &change, history: history, expanded: &expanded)
            }
            // Insertions by index, reading one field: a `for` loop copies each insertion
            // (retaining both of its references).
            for index in change.insertions.indices {
                let node = change.insertions[index].node
                // A single new node without extras (a pushed screen) has nothing to expand:
                // without extras it has neither an initial route nor a history policy.
                // Checked here, not in `_expandDefaults`, so that the history function's
                // context (which retains the runtime) is not passed for it.
                if node._isLeaf && node._extras == nil { continue }
                try _expandDefaults(of: node, history: history, expanded: &expanded)
            }
            for index in change.insertions.indices {
                change.insertions[index].node._appendSubtreeInEntryOrder(
                    to: &entrySet, using: &stack)
            }
            if change.consultsExitGuards {
                for node in exitSet {
                    switch node.shouldExit() {
                    case .allow: break
                    case .refuse(let reason):
                        throw FlowError.exitRefused(node: node.path, reason: reason)
                    case .redirect(let path): throw _Redirect(node: node.path, path: path)
                    }
                }
            }
            for node in entrySet {
                if !change.decidedEntries.isEmpty,
                    change.decidedEntries.contains(ObjectIdentifier(node))
                {
                    continue
                }
                switch node.shouldEnter() {
                case .allow: break
                case .refuse(let reason):
                    throw FlowError.entryRefused(node: node.path, reason: reason)
                case .redirect(let path): throw _Redirect(node: node.path, path: path)
                }
            }
        } catch {
            for node in expanded {
                _discardBuilt(node._children)
                node._detachChildrenOffline()
            }
            throw error
        }
        if change.isEmpty { return }

        // Apply. From here on, changes asked for (by hooks, the host, observers) are queued.
        if let node = change.replacesIntentFrom { _replacePendingIntent(by: node) }
        _phase = .applying
        if change.kind == .start { isRunning = true }
        let tracing = trace.isEnabled
        if !newRecords.isEmpty { _history.merge(newRecords) { _, new in new } }
        // The change record is built only if someone reads it; exited paths must be taken
        // before the nodes are unlinked.
        // The host is told every change FlowKit made (`apply`), and, for its bookkeeping
        // only, every change the platform made (`platformDidChange`).
        let tellsHost = host != nil && !_isReleasing
        let reportsToHost = tellsHost && !change.isPlatformInitiated
        let exited: _Few<(_TracePath, FlowNodeID)> =
            tellsHost || tracing ? .nodes(change.removals) : .none
        var intentPending = _pendingIntent != nil
        if intentPending && change.kind == .stop {
            // Nothing is replayed into a stopped tree (whether `stop()` or `deinit` stops it,
            // and whether or not the redirect has run yet).
            _dropIntent("the runtime stopped")
            intentPending = false
        }
        for node in exitSet {
            if intentPending { _noteExit(of: node) }
            if node._branchesActivation { _branchingNodes -= 1 }
            node.willExit()
            if tracing {
                // An exited node keeps the path it had (errors and later trace records
                // about it, e.g. a dropped event it sends, name it in full).
                node._keepPath()
                trace._node(.exit, node)
            }
            node._releaseForExit(tracingTo: trace)
        }
        change.applyLayouts()
        change.applySelections()
        for node in exitSet { node._unlink() }
        change.applyLinks()
        // The entry set is exactly the inserted subtrees: each of their nodes joins this
        // runtime before any of them enters (no second walk of the subtrees).
        for node in entrySet { node._runtime = self }
        for node in entrySet {
            node.state = .entered
            if node._branchesActivation { _branchingNodes += 1 }
            node._isScoped = true
            node._recomputeScope()
            node.didEnter()
            if tracing { trace._node(.enter, node) }
            node._startPendingTasks()
        }
        if change.kind == .stop {
            isRunning = false
            // `root` is unchecked (see FlowRuntime.swift): this assignment releases the old
            // root inside the access, so it must not be the last reference, or a node's
            // `deinit` (app code) would run inside it. It is not: the stop change holds the
            // root in `removals` (and `stop()` in a local) until the commit is over.
            assert(change.removals.first === root, "the stop change holds the root")
            root = nil
            _lazy?.discardPending()
        }

        // Report.
        if tellsHost || tracing {
            let container = change.reportedContainer
            let entered: _Few<(_TracePath, FlowNodeID)>
            if change.insertions.count == 1 {
                let node = change.insertions[0].node
                entered = .one((_TracePath(node), node.id))
            } else {
                var nodes: [FlowController] = []
                for insertion in change.insertions { nodes.append(insertion.node) }
                entered = .nodes(nodes)
            }
            var containerPath: _TracePath?
            if let container { containerPath = _TracePath(container) }
            // Its parts are moved in, and it is moved into the trace (each copy of a path
            // retains its strings).
            let traced = _TracedChange(
                kind: change.kind, container: consume containerPath, containerID: container?.id,
                exited: consume exited, entered: consume entered)
            if reportsToHost {
                host?.apply(traced.change, in: self)
            } else if tellsHost {
                host?.platformDidChange(traced.change, in: self)
            }
            if tracing { trace._append(.change(consume traced)) }
        }
        if change.mayMoveFocus { _updateActive() }
        // A session recorder reads the tree once the change is over, activation included.
        if trace._endsChanges { trace._changeFinished(in: change.reportedContainer, runtime: self) }
        _checkInvariants()
    }

}
