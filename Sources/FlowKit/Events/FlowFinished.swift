/// The event a flow sends when it calls ``FlowController/finish(with:)``.
///
/// It starts at the finished flow itself and bubbles up like any event, so the flow's
/// parent (or any ancestor) decides what to do, typically replacing the flow:
///
///     app.on(FlowFinished<User>.self, from: login) { done in
///         try app.switch(to: MainFlow(user: done.result))
///         return .handled
///     }
///
/// Handle it by its result type and, to be sure which flow finished (a grandchild's
/// `FlowFinished<User>` passes through its parent too), by the flow:
/// ``FlowController/on(_:from:perform:)`` or ``isFrom(_:)``. A flow shown with
/// ``FlowController/run(_:_:)`` gives its first result to the awaiting `run` instead of
/// sending this event.
public struct FlowFinished<Result: Sendable>: FlowEvent {
    /// The value the flow finished with.
    public let result: Result
    /// The finished flow's name.
    public let flowName: String
    /// The finished flow's route, if it has one.
    public let flowRoute: FlowRoute?
    /// The finished flow's identity, or `nil` for an event made with
    /// ``init(result:flowName:flowRoute:)``. Compare with ``isFrom(_:)``.
    public let flowID: ObjectIdentifier?

    /// Creates the event `flow` sends when it finishes with `result`
    /// (``FlowController/finish(with:)`` does this).
    @MainActor
    public init(result: Result, flow: FlowController) {
        self.result = result
        self.flowName = flow.name
        self.flowRoute = flow.route
        self.flowID = ObjectIdentifier(flow)
    }

    /// Creates a finish event that names a flow without identifying it (``isFrom(_:)`` is then
    /// always `false`).
    ///
    /// - Parameters:
    ///   - result: The value the flow finished with.
    ///   - flowName: The finished flow's name.
    ///   - flowRoute: The finished flow's route, if it has one.
    public init(result: Result, flowName: String, flowRoute: FlowRoute?) {
        self.result = result
        self.flowName = flowName
        self.flowRoute = flowRoute
        self.flowID = nil
    }

    /// Whether `flow` is the flow that finished.
    ///
    ///     app.on(FlowFinished<User>.self) { done in
    ///         guard done.isFrom(login) else { return .forward }
    ///         …
    ///     }
    ///
    /// The identity is compared while the event is delivered, when the finished flow is in
    /// the tree (an event whose flow left first is dropped), so it cannot match another node.
    public func isFrom(_ flow: FlowController) -> Bool {
        flowID == ObjectIdentifier(flow)
    }

    public var traceName: String { "FlowFinished<\(Result.self)>" }
}
