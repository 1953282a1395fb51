extension FlowRuntime {
    /// Plans a change with `plan` and commits it as one transaction, then drains the queue if
    /// this is the outermost operation. Planning runs in the check phase, so route factories
    /// called by `plan` cannot start other changes.
    ///
    /// `intent` describes the change and how to ask for it again, for a guard that redirects:
    /// the change is then kept as a pending intent (see ``FlowGuardDecision/redirect(to:)``).
    func _transact(
        _ kind: FlowChange.Kind, domain: FlowController?, platform: Bool,
        intent: _Intent? = nil, _ plan: (inout _Change) throws -> Void
    ) throws {
        try _transact(kind, domain: domain, platform: platform, makeIntent: { intent }, plan)
    }

    /// ``_transact(_:domain:platform:intent:_:)`` with the intent made only if a guard
    /// redirects (the common case allocates nothing for it).
    func _transact(
        _ kind: FlowChange.Kind, domain: FlowController?, platform: Bool,
        makeIntent: () -> _Intent?, _ plan: (inout _Change) throws -> Void
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
                var change = _Change.reusing(_pooledChange.take(), kind: kind, domain: domain)
                change.isPlatformInitiated = platform
                defer {
                    _pooledChange = _Change.emptiedForReuse(change)
                    _phase = .idle
                }
                do {
                    try plan(&change)
                    if change.isEmpty { return }
                    try _commit(&change)
                } catch {
                    // What route factories built for this change is released (see
                    // FlowController+Results.swift), even if its handlers capture it.
                    var built: [FlowController] = []
                    for insertion in change.insertions { built.append(insertion.node) }
                    _discardBuilt(built)
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
    func _commit(_ change: inout _Change) throws {

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
        let reportsToHost = host != nil && !change.isPlatformInitiated && !_isReleasing
        let exited: _Few<(_TracePath, FlowNodeID)> =
            reportsToHost || tracing ? .nodes(change.removals) : .none
        var intentPending = _pendingIntent != nil
        if intentPending && change.kind == .stop {
            // Nothing is replayed into a stopped tree (whether `stop()` or `deinit` stops it,
            // and whether or not the redirect has run yet).
            _dropIntent("the runtime stopped")
            intentPending = false
        }
        for node in exitSet {
            if intentPending { _noteExit(of: node) }
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
            node._isScoped = true
            node._recomputeScope()
            node.didEnter()
            if tracing { trace._node(.enter, node) }
            node._startPendingTasks()
        }
        if change.kind == .stop {
            isRunning = false
            root = nil
        }

        // Report.
        if reportsToHost || tracing {
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
            if reportsToHost { host?.apply(traced.change, in: self) }
            if tracing { trace._append(.change(consume traced)) }
        }
        if change.mayMoveFocus { _updateFocus() }
    }

    /// The key path observers of ``focusedPath`` are told about, made once (a key path
    /// literal is looked up and retained at each use).
    static let _focusedPathKey: KeyPath<FlowRuntime, [FlowController]> = \.focusedPath

    /// Reports activation changes: nodes that stay but left the focused path resign
    /// (innermost first), then nodes that came onto it become active (outermost first).
    func _updateFocus() {
        // The part of the old path that stays: from the root down while each node still
        // continues into the next (a push changes only the tail below its stack).
        let oldCount = _focusedPath.count
        var common = 0
        if isRunning, let root, oldCount > 0, _focusedPath[0] === root {
            common = 1
            while common < oldCount,
                _focusedPath[common - 1]._continues(into: _focusedPath[common])
            {
                common += 1
            }
        }
        var newTail: [FlowController] = []
        swap(&newTail, &_scratch.path)
        var node = common > 0 ? _focusedPath[common - 1].focusedChild : (isRunning ? root : nil)
        while let current = node {
            newTail.append(current)
            node = current.focusedChild
        }
        if common == oldCount && newTail.isEmpty {
            _recycle(&newTail, in: &_scratch.path)
            return
        }
        // The old tail, innermost first (the order it resigns in), moved out of the path.
        var oldTail: [FlowController] = []
        swap(&oldTail, &_scratch.tail)
        defer { _recycle(&oldTail, in: &_scratch.tail) }
        if let registrar = _observationRegistrar {
            registrar.withMutation(of: self, keyPath: Self._focusedPathKey) {
                _replaceFocusedTail(keeping: common, movingOldTo: &oldTail, newFrom: &newTail)
            }
        } else {
            _replaceFocusedTail(keeping: common, movingOldTo: &oldTail, newFrom: &newTail)
        }
        _recycle(&newTail, in: &_scratch.path)
        let tracing = trace.isEnabled
        for node in oldTail where node.state == .entered {
            node.isActive = false
            if tracing { trace._node(.deactivate, node) }
            node.didResignActive()
        }
        // Hooks cannot change the path here (this runs while the change is applied, so any
        // change they ask for is queued); the count is re-read anyway.
        var index = common
        while index < _focusedPath.count {
            let node = _focusedPath[index]
            index += 1
            node.isActive = true
            if tracing { trace._node(.activate, node) }
            node.didBecomeActive()
        }
    }

    /// Keeps the first `count` nodes of the focused path, moving the others to `oldTail`
    /// (innermost first), and moves `newTail`'s nodes onto it (leaving `newTail` empty).
    /// Element moves, not copies: `replaceSubrange` over a partial range is generic and
    /// several times the cost for the one or two nodes a push or a pop moves, and copying
    /// retains each node once more (an atomic operation) only to release it again.
    private func _replaceFocusedTail(
        keeping count: Int, movingOldTo oldTail: inout [FlowController],
        newFrom newTail: inout [FlowController]
    ) {
        while _focusedPath.count > count { oldTail.append(_focusedPath.removeLast()) }
        if newTail.count > 1 { newTail.reverse() }
        while let node = newTail.popLast() { _focusedPath.append(node) }
    }

    /// Builds default children (history or initial routes) below every childless node of a
    /// new subtree, so that the entry set is known before anything enters. The subtree's root
    /// is linked to its container prospectively, so paths are the ones it will have.
    func _expandDefaults(
        of root: FlowController, history: (String) -> [FlowRoute]?,
        expanded: inout [FlowController]
    ) throws {
        if root._isLeaf {
            // A single new node (with extras: the caller skips one without): no work list
            // to allocate unless it has routes to build.
            let routes = root._defaultRoutes(restore: nil) { history(root.path) }
            guard !routes.isEmpty else { return }
        }
        var pending: [FlowController] = [root]
        while let node = pending.popLast() {
            // A leaf without extras has neither an initial route nor a history policy.
            if node._isLeaf && node._extras != nil {
                let routes = node._defaultRoutes(restore: nil) { history(node.path) }
                if !routes.isEmpty {
                    expanded.append(node)
                    try node._buildOffline(along: routes)
                }
            }
            pending.append(contentsOf: node._children)
            if let presented = node._presented { pending.append(presented) }
        }
    }

    /// Builds the content of a fill: below a kept node, as new insertions; below a new node,
    /// structurally (it enters with its insertion).
    func _fill(
        _ fill: _Fill, in change: inout _Change, history: (String) -> [FlowRoute]?,
        expanded: inout [FlowController]
    ) throws {
        let node = fill.node
        if node.state == .entered {
            let routes = node._defaultRoutes(restore: fill.restore) { history(node.path) }
            guard let first = routes.first else { return }
            let (child, _) = try node._planStep(toward: first, in: &change)
            try child._buildOffline(along: Array(routes.dropFirst()))
        } else {
            let routes = node._defaultRoutes(restore: fill.restore) { history(node.path) }
            guard !routes.isEmpty else { return }
            if node._isLeaf { expanded.append(node) }
            try node._buildOffline(along: routes)
        }
    }
}

extension FlowController {
    /// Appends this subtree in exit order: innermost first, the presented node before the
    /// embedded children, the last attached child first (reverse pre-order).
    func _appendSubtreeInExitOrder(
        to result: inout [FlowController], using stack: inout [FlowController]
    ) {
        // The exact reverse of entry order: every node after its descendants, the presented
        // node before the embedded children, later children before earlier ones.
        if _isLeaf {
            result.append(self)
            return
        }
        var low = result.count
        _appendSubtreeInEntryOrder(to: &result, using: &stack)
        // Reversed in place by swapping: reversing the slice (`result[low...].reverse()`)
        // copies it out and writes it back (two retains and releases of every node).
        var high = result.count - 1
        while low < high {
            result.swapAt(low, high)
            low += 1
            high -= 1
        }
    }

    /// Appends this subtree in entry order: pre-order, children in attach order, the
    /// presented node last. `stack` is working storage, left empty.
    func _appendSubtreeInEntryOrder(
        to result: inout [FlowController], using stack: inout [FlowController]
    ) {
        if _isLeaf {
            result.append(self)
            return
        }
        stack.append(self)
        while let node = stack.popLast() {
            if let presented = node._presented { stack.append(presented) }
            var index = node._children.count
            while index > 0 {
                index -= 1
                stack.append(node._children[index])
            }
            result.append(node)
        }
    }

    /// The routes of the focused path below this node, as far as they have routes.
    func _focusedRoutes() -> [FlowRoute] {
        var routes: [FlowRoute] = []
        var node = focusedChild
        while let current = node, let route = current.route {
            routes.append(route)
            node = current.focusedChild
        }
        return routes
    }

    /// The routes to build below this childless node when it enters: an explicit restore,
    /// else its own history policy, else its initial route.
    func _defaultRoutes(
        restore: _Restore?, recorded: () -> [FlowRoute]?
    ) -> [FlowRoute] {
        if let restore {
            if let routes = recorded(), !routes.isEmpty {
                return restore.depth == .deep ? routes : [routes[0]]
            }
            if let fallback = restore.fallback { return [fallback] }
            return initialRoute.map { [$0] } ?? []
        }
        switch history {
        case .shallow, .deep:
            if let routes = recorded(), !routes.isEmpty {
                return history == .deep ? routes : [routes[0]]
            }
        case .none, .recorded:
            break
        }
        return initialRoute.map { [$0] } ?? []
    }

    /// Builds `routes` below this node, which is not in a running tree, one level each.
    func _buildOffline(along routes: [FlowRoute]) throws {
        var node = self
        for route in routes {
            var scratch = _Change.makeOffline(kind: .navigate, domain: node)
            defer { _Change.recycleOffline(scratch) }
            let (next, _) = try node._planStep(toward: route, in: &scratch)
            node._applyOffline(scratch)
            node = next
        }
    }

    /// Detaches this node's children after a failed check (they were added by expansion).
    func _detachChildrenOffline() {
        for child in _children { child._setParent(nil) }
        _setContent([], presented: _presented)
    }

    /// Sets `parent` and the dispatch chain's copy together (and drops a prospective link).
    func _setParent(_ newParent: FlowController?) {
        _parent = newParent
        if let newParent { _next = Unmanaged.passUnretained(newParent) } else { _next = nil }
        _pendingParent = nil
    }

    /// What exit releases: tasks (cancelled), handlers, dependency values, factories, guards.
    /// A `run` awaiting this node ends, recorded in `trace` (the runtime's: passed in, since a
    /// runtime stopping itself in `deinit` can no longer be reached through `_runtime`).
    func _releaseForExit(tracingTo trace: FlowTrace) {
        state = .exited
        isActive = false
        _isScoped = false
        if let extras = _extras {
            for task in extras.tasks.values { task.cancel() }
            _extras = nil
            if let registrar = extras.observation {
                // Observers keep observing an exited node (its content empties when it is
                // unlinked); everything else in the extras is released.
                _writableExtras.observation = registrar
            }
            // A `run` awaiting this flow ends now, inside the change (flowCancelled).
            extras.resultWaiter?.flowWillBeReleased(tracingTo: trace)
        }
        if _handlerBox != nil {
            _handlerBox = nil
            _handlerFilter = 0
        }
        _scope = nil
    }

    /// Unlinks an exited node from every other node, so each one is released on its own
    /// (no deep recursive release) and none can reach the live tree.
    func _unlink() {
        _setParent(nil)
        if !_isLeaf { _setContent([], presented: nil) }
    }

    /// Attaches one node below this one, which is in no running tree: the prospective link,
    /// the layout edit and the link that planning the attach and applying it offline
    /// (``_applyOffline(_:)``) would make, in the same order, without a change. Building a
    /// flow in `init` attaches node by node, and planning each attach cost about half of it.
    /// The caller has validated the node (``_validateNewChild(_:)``).
    ///
    /// Observers of this node's content are told before it changes and may run app code
    /// then, which must find the node taken (an attach of it elsewhere, or of this node below
    /// it, is refused): so the prospective link is set first, as planning sets it. Only
    /// observers can run code in the middle of the attach (nothing it releases has a
    /// `deinit` that could: the old presented node and the children stay), and an observer
    /// needs this node's registrar, made when an observable property is first read; without
    /// one the link is not needed, and not set (it retains and releases this node, a fifth
    /// of the attach). `OfflineAttachTests.observerCannotAttachTheNodeTwice` checks it.
    func _attachOffline(_ attach: _OfflineAttach) {
        if _observationRegistrar != nil { attach.node._pendingParent = self }
        let selectedBefore = _childToKeepSelected
        if attach.presenting {
            _editContent(droppingFromTop: 0, appending: _Appended(), presented: attach.node)
        } else {
            var appended = _Appended()
            appended.append(attach.node)
            _editContent(droppingFromTop: 0, appending: appended, presented: _presented)
        }
        _childrenWereReshaped(keeping: selectedBefore)
        attach.node._setParent(self)
    }

    /// Applies a planned change to nodes that are not in a running tree: structure only.
    func _applyOffline(_ change: _Change) {
        change.applyLayouts()
        change.applySelections()
        for removal in change.removals { removal._setParent(nil) }
        change.applyLinks()
    }
}
