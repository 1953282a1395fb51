/// A type-erased handler: the event arrives as a pointer to a value of the registered type.
typealias _EventHandler = @MainActor (UnsafeRawPointer, FlowController) -> EventDisposition

extension FlowController {
    /// Registers the handler this node runs for events of type `type`, replacing any earlier
    /// one for that type.
    ///
    ///     list.on(ItemSelected.self) { [unowned self] event in
    ///         try? stack.push(DetailScreen(item: event.item))
    ///         return .handled
    ///     }
    ///
    /// Events of other types pass this node by. Handlers are released when the node exits, so
    /// a handler that captures its node strongly does not keep it alive.
    ///
    /// - Complexity: O(1) per hop during dispatch.
    public func on<Event: FlowEvent>(
        _ type: Event.Type, perform handler: @escaping @MainActor (Event) -> EventDisposition
    ) {
        on(type) { event, _ in handler(event) }
    }

    /// Registers a handler that also receives the node the event was sent from.
    public func on<Event: FlowEvent>(
        _ type: Event.Type,
        perform handler: @escaping @MainActor (Event, _ origin: FlowController) -> EventDisposition
    ) {
        guard state != .exited else { return }
        let key = ObjectIdentifier(Event.self)
        _handlers[key] = { raw, origin in
            handler(raw.assumingMemoryBound(to: Event.self).pointee, origin)
        }
        _handlerFilter |= _filterBit(key)
    }

    /// Removes this node's handler for `type`, if any.
    public func removeHandler<Event: FlowEvent>(for type: Event.Type) {
        _handlers[ObjectIdentifier(Event.self)] = nil
        _rebuildHandlerFilter()
    }

    /// Whether this node has a handler for `type`.
    public func handles<Event: FlowEvent>(_ type: Event.Type) -> Bool {
        _handlers[ObjectIdentifier(Event.self)] != nil
    }

    /// Offers `event` to this node, then to each ancestor (a presented node's presenter
    /// next), until one handles it.
    ///
    ///     detail.send(SignOut())   // detail → stack → main → app
    ///
    /// Sent while another event is being handled or while a change is being applied, the
    /// event waits its turn in the runtime's queue (run-to-completion, first in first out).
    /// If this node has left the tree by then, the event is dropped and the trace says so.
    /// An event no node handles goes to ``FlowRuntime/onUnhandledEvent`` and the trace.
    ///
    /// Sending from a node that has never been in a running tree does nothing: there is no
    /// runtime to deliver it.
    public func send<Event: FlowEvent>(_ event: Event) {
        _runtime?._send(event, from: self)
    }

    func _rebuildHandlerFilter() {
        // Rare (explicit removal): recompute the filter from the remaining keys.
        var filter: UInt64 = 0
        for raw in _handlers.rawKeys { filter |= _filterBit(raw: raw) }
        _handlerFilter = filter
    }
}
