/// A value sent up the responder chain.
///
/// Any `Sendable` type can be an event once it conforms; handlers are registered per type:
///
///     struct SignOut: FlowEvent {}
///     root.on(SignOut.self) { _ in
///         try? root.switch(to: LoginFlow())
///         return .handled
///     }
///     detail.send(SignOut())   // detail → stack → main → root
public protocol FlowEvent: Sendable {
    /// The name the trace shows for this event. Defaults to the type's name.
    var traceName: String { get }
}

extension FlowEvent {
    public var traceName: String { String(describing: Self.self) }
}

/// What a node did with an event.
public enum EventDisposition: Sendable, Equatable {
    /// The event stops here.
    case handled
    /// The parent (for a presented node, its presenter) sees the event next.
    case forward
}

/// The event a flow sends when it calls ``FlowController/finish(with:)``.
///
/// It starts at the finished flow itself and bubbles up like any event, so the flow's
/// parent (or any ancestor) decides what to do, typically replacing the flow:
///
///     app.on(FlowFinished<User>.self) { done, origin in
///         try? app.switch(to: MainFlow(user: done.result))
///         return .handled
///     }
///
/// Handle it by its result type; `origin` in the handler is the finished flow.
public struct FlowFinished<Result: Sendable>: FlowEvent {
    /// The value the flow finished with.
    public let result: Result
    /// The finished flow's name.
    public let flowName: String
    /// The finished flow's route, if it has one.
    public let flowRoute: FlowRoute?

    /// Creates the event a finished flow sends (``FlowController/finish(with:)`` does this).
    ///
    /// - Parameters:
    ///   - result: The value the flow finished with.
    ///   - flowName: The finished flow's name.
    ///   - flowRoute: The finished flow's route, if it has one.
    public init(result: Result, flowName: String, flowRoute: FlowRoute?) {
        self.result = result
        self.flowName = flowName
        self.flowRoute = flowRoute
    }

    public var traceName: String { "FlowFinished<\(Result.self)>" }
}
