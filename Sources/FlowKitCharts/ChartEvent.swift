import FlowKit

/// A chart event, sent up FlowKit's responder chain like any app event.
///
///     machine.runtime.send(ChartEvent(name: "submit"))
///
/// Chart states handle it by name; `done.state.<id>` events are sent the same way when a
/// final state is entered.
public struct ChartEvent: FlowEvent, Equatable {
    /// The event's name, matched exactly against transitions' `event` (in format 3, by
    /// event descriptor: ``FlowChart/descriptor(_:matches:)``).
    public let name: String

    /// Creates an event named `name`.
    public init(name: String) {
        self.name = name
    }

    /// The chart event's name, so that trace lines read `send submit from …` rather than
    /// `send ChartEvent from …`.
    public var traceName: String { name }
}
