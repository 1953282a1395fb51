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
}
