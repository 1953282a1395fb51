extension FlowController {
    /// Reports that this flow is done: sends ``FlowFinished`` carrying `result`, starting at
    /// this node, so its parent (or any ancestor) can decide what comes next.
    ///
    ///     // in LoginFlow, after a successful sign-in:
    ///     finish(with: user)
    ///     // in the app root:
    ///     on(FlowFinished<User>.self, from: login) { done in … }
    ///
    /// Finishing does not remove the flow: the handler does that (typically by switching or
    /// popping). Each call sends one event. If the flow leaves the tree before the event's
    /// turn, the event is dropped.
    ///
    /// A flow shown by ``run(_:_:)`` gives its first result of the awaited type to that `run`
    /// instead (no event is sent; `run` removes the flow where it showed it as a modal or a
    /// stack entry). Flows declare their result type by adopting ``ResultFlow``.
    public func finish<Result: Sendable>(with result: Result) {
        _finish(with: result)
    }

    /// Reports that this flow is done, with no result (`FlowFinished<Void>`).
    public func finish() {
        _finish(with: ())
    }

    /// Delivers a finish: to the `run` awaiting this flow if there is one and the type
    /// matches, else as a ``FlowFinished`` event.
    func _finish<Result: Sendable>(with result: Result) {
        // First: a redirect waiting for this flow must know it finished before the flow can
        // be removed (by `run`, or by a handler of the event below).
        _runtime?._flowDidFinish(self)
        if let waiter = _extras?.resultWaiter, waiter.offer(result) { return }
        send(FlowFinished(result: result, flow: self))
    }
}
