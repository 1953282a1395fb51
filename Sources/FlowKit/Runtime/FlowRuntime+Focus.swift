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

    /// The general activation update, for trees where activation branches (a
    /// ``FlowParallel`` shows several regions at once): the new focused path and the new
    /// active configuration are computed whole, then nodes that stay but are no longer
    /// active resign (innermost first, in the reverse of entry order), and nodes that became
    /// active are told (outermost first, in entry order). Moving the focus between regions
    /// changes the focused path only: every region stays active, so no hook runs.
    ///
    /// - Complexity: O(*a*) for the *a* active nodes before and after (a set of the new
    ///   ones is built only when some node was active before and may have left).
    @inline(never)
    func _updateActivation() {
        var newPath: [FlowController] = []
        var configuration: [FlowController] = []
        if isRunning, let root {
            var node: FlowController? = root
            while let current = node {
                newPath.append(current)
                node = current.focusedChild
            }
            root._appendActive(to: &configuration)
        }
        let oldConfiguration =
            _activeConfiguration.isEmpty ? _focusedPath : _activeConfiguration
        if !newPath.elementsEqual(_focusedPath, by: ===) {
            if let registrar = _observationRegistrar {
                registrar.withMutation(of: self, keyPath: Self._focusedPathKey) {
                    _focusedPath = newPath
                }
            } else {
                _focusedPath = newPath
            }
        }
        // Kept only while activation branches: without a parallel, the focused path is the
        // whole configuration and the fast path of `_updateFocus` takes over again.
        let kept = _branchingNodes > 0 ? configuration : []
        if let registrar = _observationRegistrar,
            !configuration.elementsEqual(oldConfiguration, by: ===)
        {
            registrar.withMutation(of: self, keyPath: \.activeNodes) {
                _activeConfiguration = kept
            }
        } else {
            _activeConfiguration = kept
        }
        let tracing = trace.isEnabled
        var stillActive = Set<ObjectIdentifier>()
        stillActive.reserveCapacity(configuration.count)
        for node in configuration { stillActive.insert(ObjectIdentifier(node)) }
        for node in oldConfiguration.reversed()
        where node.state == .entered && node.isActive
            && !stillActive.contains(ObjectIdentifier(node))
        {
            node.isActive = false
            if tracing { trace._node(.deactivate, node) }
            node.didResignActive()
        }
        for node in configuration where !node.isActive && node.state == .entered {
            node.isActive = true
            if tracing { trace._node(.activate, node) }
            node.didBecomeActive()
        }
    }
}
