extension FlowRuntime {
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
}
