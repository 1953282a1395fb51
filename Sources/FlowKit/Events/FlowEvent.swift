/// A value sent up the responder chain.
///
/// Any `Sendable` type can be an event once it conforms; handlers are registered per type:
///
///     struct SignOut: FlowEvent {}
///     root.on(SignOut.self) { _ in
///         try root.switch(to: LoginFlow())
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
