import FlowKit

extension FlowTraceRecord {
    /// A change record, written compactly:
    ///
    ///     .change(.push, "app/main/stack", entered: ["app/main/stack/detail"])
    ///
    /// - Parameters:
    ///   - kind: The operation.
    ///   - container: The path of the node the change happened in (empty for `start`/`stop`).
    ///   - exited: The roots of the subtrees that exited, in exit order.
    ///   - entered: The roots of the subtrees that entered, in entry order.
    public static func change(
        _ kind: FlowChange.Kind, _ container: String, exited: [String] = [],
        entered: [String] = []
    ) -> FlowTraceRecord {
        .change(FlowChange(kind: kind, container: container, exited: exited, entered: entered))
    }

    /// `event` started up the chain from the node at `path`; named by its
    /// `FlowEvent.traceName`.
    public static func send(_ event: some FlowEvent, from path: String) -> FlowTraceRecord {
        .send(event: event.traceName, from: path)
    }

    /// The node at `path` handled `event`.
    public static func handled(_ event: some FlowEvent, at path: String) -> FlowTraceRecord {
        .handled(event: event.traceName, at: path)
    }

    /// `event`, sent from the node at `path`, went past the root unhandled.
    public static func unhandled(_ event: some FlowEvent, from path: String) -> FlowTraceRecord {
        .unhandled(event: event.traceName, from: path)
    }

    /// `event` was dropped because the node at `path` had left the tree before its turn.
    public static func dropped(_ event: some FlowEvent, from path: String) -> FlowTraceRecord {
        .dropped(event: event.traceName, from: path)
    }
}
