extension FlowRuntime {
    /// Delivers `event` now if nothing else is under way, otherwise queues it; either way the
    /// queue is drained before the outermost call returns (run-to-completion).
    @inline(__always)
    func _send<Event: FlowEvent>(_ event: Event, from origin: FlowController?) {
        if _depth > 0 {
            _queue.append(_PendingEvent(event: event, origin: origin))
            return
        }
        _depth += 1
        _deliver(event, from: origin)
        _drainQueue()
        _depth -= 1
    }

    /// Delivers queued events, oldest first, until none is left. Runs with `_depth > 0`, so
    /// events sent meanwhile are queued behind.
    func _drainQueue() {
        while let pending = _queue.popFirst() {
            _deliverAny(pending.event, from: pending.origin)
        }
    }

    /// Runs `body` as an outermost operation when nothing is under way, draining the queue
    /// afterwards; nested, it just runs `body`.
    func _outermost<T>(_ body: () throws -> T) rethrows -> T {
        if _depth > 0 { return try body() }
        _depth += 1
        defer { _depth -= 1 }
        let result = try body()
        _drainQueue()
        return result
    }

    private func _deliverAny(_ event: any FlowEvent, from origin: FlowController?) {
        _deliver(event, from: origin)
    }

    func _deliver<Event: FlowEvent>(_ event: Event, from origin: FlowController?) {
        guard let sender = origin ?? focusedPath.last else { return }
        guard sender.state == .entered, sender._runtime === self else {
            if trace.isEnabled {
                trace.record(.dropped(event: event.traceName, from: sender.path))
            }
            return
        }
        if trace.isEnabled {
            trace.record(.send(event: event.traceName, from: sender.path))
        }
        let key = ObjectIdentifier(Event.self)
        let bit = _filterBit(key)
        let handler: FlowController? = withUnsafePointer(to: event) { pointer in
            // Every node from `sender` up is entered in this runtime, so it is owned by its
            // parent up to the root, which this runtime owns: following `_next` without
            // retaining is safe while no handler runs. Around a handler call the node is
            // retained and re-checked, because a handler may change the tree.
            var node = Unmanaged.passUnretained(sender)
            while true {
                // Unmanaged steps: no retain/release per hop (nodes that are weakly referenced
                // have side-table refcounts, where every retain/release takes the slow path).
                let filter = node.takeUnretainedValue()._handlerFilter
                let next = node.takeUnretainedValue()._next
                if filter & bit != 0 {
                    let current = node.takeUnretainedValue()
                    if let handle = current._handlers[key] {
                        if handle(UnsafeRawPointer(pointer), sender) == .handled { return current }
                        guard current.state == .entered else { return nil }
                        // A handler may change the tree: re-read the next step.
                        guard let after = current._next else { return nil }
                        node = after
                        continue
                    }
                }
                guard let next else { return nil }
                node = next
            }
        }
        if let handler {
            if trace.isEnabled {
                trace.record(.handled(event: event.traceName, at: handler.path))
            }
        } else if sender.state == .entered {
            if trace.isEnabled {
                trace.record(.unhandled(event: event.traceName, from: sender.path))
            }
            onUnhandledEvent?(event, sender)
        } else if trace.isEnabled {
            trace.record(.dropped(event: event.traceName, from: sender.path))
        }
    }
}
