extension FlowRuntime {
    /// Delivers `event` now if nothing else is under way, otherwise queues it; either way the
    /// queue is drained before the outermost call returns (run-to-completion).
    @inline(__always)
    func _send<Event: FlowEvent>(_ event: Event, from origin: FlowController?) {
        if _depth > 0 {
            _queue.append(.event(event, origin: origin))
            return
        }
        _depth += 1
        _deliver(event, from: origin)
        if !_queue.isEmpty { _drainQueue() }
        _depth -= 1
    }

    /// Delivers queued events and runs queued changes, oldest first, until none is left.
    /// Runs with `_depth > 0`, so events sent meanwhile are queued behind.
    func _drainQueue() {
        while let pending = _queue.popFirst() {
            switch pending {
            case .event(let event, let origin):
                _deliverAny(event, from: origin)
            case .change(let operation, let path, let run):
                do {
                    try run()
                } catch {
                    _reportFailure(FlowFailure(operation, node: path, error: error))
                }
            }
        }
    }

    /// Queues a change a lifecycle hook (or a host, or a trace observer) asked for while a
    /// change is being applied: it runs as its own transaction after the current one.
    func _enqueueChange(
        _ operation: FlowFailure.Operation, at node: FlowController?,
        _ run: @escaping @MainActor () throws -> Void
    ) {
        _queue.append(.change(operation: operation, path: node?.path ?? "", run: run))
    }

    /// Records an error no caller can receive in the trace, then gives it to ``onError``.
    func _reportFailure(_ failure: FlowFailure) {
        if trace.isEnabled {
            trace.record(
                .failed(
                    operation: failure.kind.description, at: failure.node,
                    error: String(describing: failure.error)))
        }
        onError?(failure)
    }

    /// Runs `body` as an outermost operation when nothing is under way, draining the queue
    /// afterwards, whether `body` returns or throws (events a refused change's guards sent
    /// are delivered before the error reaches the caller); nested, it just runs `body`.
    func _outermost<T>(_ body: () throws -> T) rethrows -> T {
        if _depth > 0 { return try body() }
        _depth += 1
        defer {
            if !_queue.isEmpty { _drainQueue() }
            _depth -= 1
        }
        return try body()
    }

    private func _deliverAny(_ event: any FlowEvent, from origin: FlowController?) {
        _deliver(event, from: origin)
    }

    func _deliver<Event: FlowEvent>(_ event: Event, from origin: FlowController?) {
        guard let sender = origin ?? _focusedPath.last else {
            // Sent to the focused node, but there is none any more (the runtime stopped).
            if trace.isEnabled { trace._event(.dropped, event, nil) }
            return
        }
        // An entered node is in this runtime: events are sent to the runtime of the node they
        // come from (or from this runtime's focused node), and a node never changes runtime
        // while entered (it can only exit, for good). So the state alone decides.
        guard sender.state == .entered else {
            if trace.isEnabled {
                trace._event(.dropped, event, sender)
            }
            return
        }
        if trace.isEnabled {
            trace._event(.send, event, sender)
        }
        let key = ObjectIdentifier(Event.self)
        let bit = _filterBit(key)
        // The walk returns the handling node and, if its handler threw, the error (the event
        // stops at that node). Returned, not written to a captured variable: a closure that
        // writes a captured variable pays a dynamic exclusivity check on every event.
        let (handler, thrown): (FlowController?, (any Error)?) = _withPointer(to: event) {
            pointer in
            // Unretained walk. Invariant: every node from `sender` up is entered in this
            // runtime (see FlowController._next). Enforced by: `sender` is checked entered
            // above; around a handler the node is retained, and afterwards it and the sender
            // are re-checked and the next hop re-read (a handler may change the tree). Tested
            // by: the responder-chain and concurrency tests under AddressSanitizer. Debug
            // check: `_nextIsSound()` asserted per hop.
            var node = Unmanaged.passUnretained(sender)
            while true {
                // Unmanaged steps: no retain/release per hop (nodes that are weakly referenced
                // have side-table refcounts, where every retain/release takes the slow path).
                assert(
                    node.takeUnretainedValue()._nextIsSound()
                        && node.takeUnretainedValue()._runtime === self,
                    "the responder chain reached a node that is not entered in this runtime")
                let filter = node.takeUnretainedValue()._handlerFilter
                let next = node.takeUnretainedValue()._next
                if filter & bit != 0 {
                    let current = node.takeUnretainedValue()
                    if let handle = current._handlerBox?.table[key] {
                        let disposition: EventDisposition
                        do {
                            disposition = try handle(pointer, sender, current)
                        } catch {
                            return (current, error)
                        }
                        if disposition == .handled { return (current, nil) }
                        // A sender that left the tree meanwhile ends the event (dropped).
                        guard current.state == .entered, sender.state == .entered else {
                            return (nil, nil)
                        }
                        // A handler may change the tree: re-read the next step.
                        guard let after = current._next else { return (nil, nil) }
                        node = after
                        continue
                    }
                }
                guard let next else { return (nil, nil) }
                node = next
            }
        }
        if let handler, let thrown {
            _reportFailure(
                FlowFailure(.handler(event: event.traceName), node: handler.path, error: thrown))
        } else if let handler {
            if trace.isEnabled {
                trace._event(.handled, event, handler)
            }
        } else if sender.state == .entered {
            // Past the root: the app above the scene, if there is one, may take it.
            if let scene = _scene, scene._handleBubbled(event) { return }
            if trace.isEnabled {
                trace._event(.unhandled, event, sender)
            }
            onUnhandledEvent?(event, sender)
        } else if trace.isEnabled {
            trace._event(.dropped, event, sender)
        }
    }
}
