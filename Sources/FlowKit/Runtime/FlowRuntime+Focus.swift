extension FlowRuntime {
    /// The key path observers of ``focusedPath`` are told about, made once (a key path
    /// literal is looked up and retained at each use).
    static let _focusedPathKey: KeyPath<FlowRuntime, [FlowController]> = \.focusedPath

    /// Reports activation changes after a change: ``_updateFocus()`` where activation is
    /// the focused path, ``_updateActivation()`` while it branches (a ``FlowParallel`` is
    /// entered, or was until this change).
    @inline(__always)
    func _updateActive() {
        if _branchingNodes == 0 && _activeConfiguration.isEmpty {
            _updateFocus()
        } else {
            _updateActivation()
        }
    }

    /// Reports activation changes where activation is the focused path: nodes that stay
    /// but left the focused path resign (innermost first), then nodes that came onto it
    /// become active (outermost first).
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

    /// The key path observers of ``activeNodes`` are told about, made once.
    static let _activeNodesKey: KeyPath<FlowRuntime, [FlowController]> = \.activeNodes

    /// The general activation update, for trees where activation branches (a
    /// ``FlowParallel`` shows several regions at once): the new focused path and the new
    /// active configuration are computed whole, then nodes that stay but are no longer
    /// active resign (innermost first, in the reverse of entry order), and nodes that became
    /// active are told (outermost first, in entry order). Moving the focus between regions
    /// changes the focused path only: every region stays active, so no hook runs.
    ///
    /// Which nodes left is found with the nodes' own `isActive` flags, cleared for a moment
    /// on the new configuration (no app code runs meanwhile), so nothing is allocated: the
    /// arrays are the runtime's reused buffers.
    ///
    /// - Complexity: O(*a*) for the *a* active nodes before and after.
    @inline(never)
    func _updateActivation() {
        var configuration: [FlowController] = []
        var wasActive: [Bool] = []
        var leaving: [FlowController] = []
        swap(&configuration, &_scratch.configuration)
        swap(&wasActive, &_scratch.flags)
        swap(&leaving, &_scratch.tail)
        defer {
            _recycle(&configuration, in: &_scratch.configuration)
            _recycle(&leaving, in: &_scratch.tail)
            wasActive.removeAll(keepingCapacity: true)
            swap(&wasActive, &_scratch.flags)
        }
        if isRunning, let root { root._appendActive(to: &configuration) }
        // Which nodes were active; then, with the new configuration's flags cleared for a
        // moment, the old configuration's nodes still flagged are the ones that left.
        for index in configuration.indices {
            let node = configuration[index]
            wasActive.append(node.isActive)
            node.isActive = false
        }
        let old = _activeConfiguration.isEmpty ? _focusedPath : _activeConfiguration
        var index = old.count
        while index > 0 {
            index -= 1
            let node = old[index]
            if node.isActive && node.state == .entered { leaving.append(node) }
        }
        var appearing = false
        for index in configuration.indices {
            if wasActive[index] {
                configuration[index].isActive = true
            } else {
                appearing = true
            }
        }
        if !_focusedPathIsCurrent { _replaceFocusedPath() }
        // Kept only while activation branches: without a parallel, the focused path is the
        // whole configuration and the fast path of `_updateFocus` takes over again.
        if _branchingNodes == 0 { _empty(&configuration) }
        if let registrar = _observationRegistrar, appearing || !leaving.isEmpty {
            registrar.withMutation(of: self, keyPath: Self._activeNodesKey) {
                swap(&_activeConfiguration, &configuration)
            }
        } else {
            swap(&_activeConfiguration, &configuration)
        }
        guard appearing || !leaving.isEmpty else { return }
        let tracing = trace.isEnabled
        for node in leaving {
            node.isActive = false
            if tracing { trace._node(.deactivate, node) }
            node.didResignActive()
        }
        guard appearing else { return }
        // The configuration, as stored (hooks cannot change it: changes they ask for are
        // queued), and which of its nodes were active before.
        let active = _activeConfiguration.isEmpty ? _focusedPath : _activeConfiguration
        for index in active.indices where !wasActive[index] && active[index].state == .entered {
            let node = active[index]
            node.isActive = true
            if tracing { trace._node(.activate, node) }
            node.didBecomeActive()
        }
    }

    /// Whether ``focusedPath`` is still the path from the root along each node's focused
    /// child (compared in place: most changes in a split leave it as it was).
    private var _focusedPathIsCurrent: Bool {
        guard isRunning, let root else { return _focusedPath.isEmpty }
        let count = _focusedPath.count
        guard count > 0, _focusedPath[0] === root else { return false }
        var index = 1
        while index < count {
            if !_focusedPath[index - 1]._continues(into: _focusedPath[index]) { return false }
            index += 1
        }
        return _focusedPath[count - 1].focusedChild == nil
    }

    /// Rebuilds ``focusedPath`` from the root, telling observers.
    private func _replaceFocusedPath() {
        var path: [FlowController] = []
        swap(&path, &_scratch.path)
        defer { _recycle(&path, in: &_scratch.path) }
        if isRunning, let root {
            var node: FlowController? = root
            while let current = node {
                path.append(current)
                node = current.focusedChild
            }
        }
        if let registrar = _observationRegistrar {
            registrar.withMutation(of: self, keyPath: Self._focusedPathKey) {
                swap(&_focusedPath, &path)
            }
        } else {
            swap(&_focusedPath, &path)
        }
    }
}
