/// A type-erased handler: the event arrives as a pointer to a value of the registered type,
/// with the node it was sent from and the node the handler is registered on.
typealias _EventHandler =
    @MainActor (UnsafeRawPointer, _ origin: FlowController, _ node: FlowController) throws ->
    EventDisposition

extension FlowController {
    /// Registers the handler this node runs for events of type `type`, replacing any earlier
    /// one for that type.
    ///
    ///     list.on(ItemSelected.self) { [unowned self] event in
    ///         try stack.push(DetailScreen(item: event.item))
    ///         return .handled
    ///     }
    ///
    /// Events of other types pass this node by. Handlers are released when the node exits, so
    /// a handler that captures its node strongly does not keep it alive once it has been in a
    /// tree (see ``respond(to:perform:)`` for nodes that may never enter).
    ///
    /// A handler may throw: the event stops at this node (it is not offered to the ancestors),
    /// and the error goes to the trace (`failed handler ItemSelected at app/main: …`) and to
    /// ``FlowRuntime/onError``, once, with the event's name and this node's path.
    ///
    /// - Complexity: O(1) per hop during dispatch.
    public func on<Event: FlowEvent>(
        _ type: Event.Type, perform handler: @escaping @MainActor (Event) throws -> EventDisposition
    ) {
        _register(type) { raw, _, _ in
            try handler(raw.assumingMemoryBound(to: Event.self).pointee)
        }
    }

    /// Registers a handler that also receives the node the event was sent from.
    ///
    /// It may throw, as with the handler that takes only the event.
    public func on<Event: FlowEvent>(
        _ type: Event.Type,
        perform handler:
            @escaping @MainActor (Event, _ origin: FlowController) throws -> EventDisposition
    ) {
        _register(type) { raw, origin, _ in
            try handler(raw.assumingMemoryBound(to: Event.self).pointee, origin)
        }
    }

    /// Registers a handler that receives the node it is registered on, so it need not capture
    /// it.
    ///
    ///     editor.respond(to: Save.self) { editor, _ in
    ///         try editor.save()
    ///         return .handled
    ///     }
    ///
    /// A handler that captures its own node strongly makes a cycle that exit breaks (exit
    /// drops the handlers). A node that never enters (built by the app, then refused by a
    /// guard, or never attached) never exits, so such a cycle would keep it alive: register
    /// handlers of nodes that may never enter with this method, or capture the node `weak` or
    /// `unowned`. (Nodes a route factory built for a refused change are released by FlowKit.)
    /// Replaces any earlier handler for `type`, like `on(_:perform:)`; it may throw in the same
    /// way.
    public func respond<Event: FlowEvent>(
        to type: Event.Type,
        perform handler: @escaping @MainActor (_ node: Self, Event) throws -> EventDisposition
    ) {
        _register(type) { raw, _, node in
            try handler(
                unsafeDowncast(node, to: Self.self), raw.assumingMemoryBound(to: Event.self).pointee
            )
        }
    }

    /// Registers a handler for ``FlowFinished`` events of `flow` only: the same event type
    /// finished by any other flow (a grandchild finishing through `flow`, a sibling) is
    /// forwarded as if this node had no handler.
    ///
    ///     let login = LoginFlow()
    ///     app.on(FlowFinished<Account>.self, from: login) { done in
    ///         try app.switch(to: MainFlow(account: done.result))
    ///         return .handled
    ///     }
    ///     try app.switch(to: login)
    ///
    /// `flow` is held weakly. A node has one handler per event type, so this replaces any
    /// earlier handler for `FlowFinished<Result>`; to tell several flows apart in one handler,
    /// use ``FlowFinished/isFrom(_:)``. It may throw, as with `on(_:perform:)`.
    public func on<Result: Sendable>(
        _ type: FlowFinished<Result>.Type, from flow: FlowController,
        perform handler: @escaping @MainActor (FlowFinished<Result>) throws -> EventDisposition
    ) {
        _register(type) { [weak flow] raw, _, _ in
            let done = raw.assumingMemoryBound(to: FlowFinished<Result>.self).pointee
            guard let flow, done.isFrom(flow) else { return .forward }
            return try handler(done)
        }
    }

    private func _register<Event: FlowEvent>(_ type: Event.Type, _ handler: @escaping _EventHandler)
    {
        guard state != .exited else { return }
        let key = ObjectIdentifier(Event.self)
        let box = _handlerBox ?? _HandlerBox()
        _handlerBox = box
        // The handler this one replaces is released after the write, not inside it: its
        // captures' `deinit` may register or remove handlers on this node.
        let replaced = box.table[key]
        box.table[key] = handler
        _handlerFilter |= _filterBit(key)
        withExtendedLifetime(replaced) {}
    }

    /// Removes this node's handler for `type`, if any.
    public func removeHandler<Event: FlowEvent>(for type: Event.Type) {
        guard let box = _handlerBox else { return }
        let key = ObjectIdentifier(Event.self)
        // Released after the write (see `_register`).
        let removed = box.table[key]
        box.table[key] = nil
        _rebuildHandlerFilter()
        withExtendedLifetime(removed) {}
    }

    /// Whether this node has a handler for `type`.
    public func handles<Event: FlowEvent>(_ type: Event.Type) -> Bool {
        _handlerBox?.table[ObjectIdentifier(Event.self)] != nil
    }

    /// Offers `event` to this node, then to each ancestor (a presented node's presenter
    /// next), until one handles it.
    ///
    ///     detail.send(SignOut())   // detail → stack → main → app
    ///
    /// Sent while another event is being handled or while a change is being applied, the
    /// event waits its turn in the runtime's queue (run-to-completion, first in first out).
    /// If this node has left the tree by then, the event is dropped and the trace says so.
    /// An event no node handles goes to the ``FlowApp``'s handler for its type (in a scene's
    /// tree), else to ``FlowRuntime/onUnhandledEvent`` and the trace.
    ///
    /// Sending from a node that has never been in a running tree does nothing: there is no
    /// runtime to deliver it.
    public func send<Event: FlowEvent>(_ event: Event) {
        _runtime?._send(event, from: self)
    }

    func _rebuildHandlerFilter() {
        // Rare (explicit removal): recompute the filter from the remaining keys.
        var filter: UInt32 = 0
        for raw in _handlerBox?.table.rawKeys ?? [] { filter |= _filterBit(raw: raw) }
        _handlerFilter = filter
    }
}
