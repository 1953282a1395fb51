/// An event as the trace keeps one whose value holds references: its name only.
struct _NamedEvent: FlowEvent {
    let traceName: String
}

/// A node's path as the trace keeps it: the node's shared path object (see
/// ``FlowController/_tracePath``), joined only when the record is read.
struct _TracePath {
    let cache: _PathCache

    @MainActor
    init(_ node: FlowController) {
        cache = node._tracePath
    }

    @MainActor
    var text: String { cache.path }
}

/// One or a few items without allocating an array for the usual single one.
enum _Few<Element> {
    case none
    case one(Element)
    case many([Element])

    /// Each node's trace path and identity, without an array for a single node.
    @MainActor
    static func nodes(_ nodes: [FlowController]) -> _Few<(_TracePath, FlowNodeID)> {
        switch nodes.count {
        case 0: return .none
        case 1: return .one((_TracePath(nodes[0]), nodes[0].id))
        default:
            var items: [(_TracePath, FlowNodeID)] = []
            items.reserveCapacity(nodes.count)
            for node in nodes { items.append((_TracePath(node), node.id)) }
            return .many(items)
        }
    }

    var count: Int {
        switch self {
        case .none: return 0
        case .one: return 1
        case .many(let elements): return elements.count
        }
    }

    /// The item at `index` (`0..<count`).
    subscript(index: Int) -> Element {
        switch self {
        case .none: preconditionFailure("no item at \(index)")
        case .one(let element):
            precondition(index == 0, "no item at \(index)")
            return element
        case .many(let elements): return elements[index]
        }
    }

    @MainActor
    func visit(_ body: @MainActor (Element) -> Void) {
        switch self {
        case .none: return
        case .one(let element): body(element)
        case .many(let elements): for element in elements { body(element) }
        }
    }

    var array: [Element] {
        switch self {
        case .none: return []
        case .one(let element): return [element]
        case .many(let elements): return elements
        }
    }
}

/// A change as the trace keeps it (see ``FlowChange``).
struct _TracedChange {
    let kind: FlowChange.Kind
    let container: _TracePath?
    let containerID: FlowNodeID?
    let exited: _Few<(_TracePath, FlowNodeID)>
    let entered: _Few<(_TracePath, FlowNodeID)>

    @MainActor
    var change: FlowChange {
        let exited = exited.array
        let entered = entered.array
        return FlowChange(
            kind: kind, container: container?.text ?? "", exited: exited.map(\.0.text),
            entered: entered.map(\.0.text), containerID: containerID,
            exitedIDs: exited.map(\.1), enteredIDs: entered.map(\.1))
    }
}

/// What the trace stores: the parts of a record, formatted when read.
enum _TraceEntry {
    enum NodeStep { case enter, exit, activate, deactivate }
    enum EventStep { case send, handled, unhandled, dropped }

    case node(NodeStep, _TracePath)
    case event(EventStep, any FlowEvent, _TracePath?)
    case change(_TracedChange)
    case formatted(FlowTraceRecord)

    @MainActor
    var record: FlowTraceRecord {
        switch self {
        case .node(let step, let path):
            switch step {
            case .enter: return .enter(path.text)
            case .exit: return .exit(path.text)
            case .activate: return .activate(path.text)
            case .deactivate: return .deactivate(path.text)
            }
        case .event(let step, let event, let path):
            let name = event.traceName
            let text = path?.text ?? ""
            switch step {
            case .send: return .send(event: name, from: text)
            case .handled: return .handled(event: name, at: text)
            case .unhandled: return .unhandled(event: name, from: text)
            case .dropped: return .dropped(event: name, from: text)
            }
        case .change(let change):
            return .change(change.change)
        case .formatted(let record):
            return record
        }
    }

    /// The event value a session observer may record: kept only for events whose value holds
    /// no references (others are kept by name).
    var _sessionEvent: (any FlowEvent)? {
        guard case .event(_, let event, _) = self, !(event is _NamedEvent) else { return nil }
        return event
    }

    /// Whether this is a node record (enter, exit, activate, deactivate).
    var _isNodeStep: Bool {
        if case .node = self { return true }
        return false
    }
}
