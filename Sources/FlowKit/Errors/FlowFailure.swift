/// An error that had no caller to throw to, as given to ``FlowRuntime/onError``.
public struct FlowFailure: Error, CustomStringConvertible {
    /// What failed: a change a hook asked for, a binding write, a handler, a task, a
    /// transition step the platform refused, …
    public let kind: Operation
    /// The path of the node the operation was asked of.
    public let node: String
    /// The error itself (usually a ``FlowError``).
    public let error: any Error

    /// Creates a failure record.
    public init(_ kind: Operation, node: String, error: any Error) {
        self.kind = kind
        self.node = node
        self.error = error
    }

    /// What failed, by name (`push`, `pathBinding`, `handler SignOut`, …): `kind`'s
    /// description.
    @available(
        *, deprecated, message: "Use `kind` (a FlowFailure.Operation); this is its description."
    )
    public var operation: String { kind.description }

    /// Creates a failure record for an operation named by a string.
    @available(*, deprecated, message: "Use init(_:node:error:) with a FlowFailure.Operation.")
    public init(operation: String, node: String, error: any Error) {
        self.init(.other(operation), node: node, error: error)
    }

    /// `push at app/main/stack failed: …`.
    public var description: String { "\(kind) at \(node) failed: \(error)" }
}

extension FlowFailure {
    /// What failed with no caller to throw to.
    public enum Operation: Equatable, Sendable, CustomStringConvertible {
        /// A change asked while another was applied (from a lifecycle hook, a host, an
        /// observer) and run afterwards, or made by the transition pipeline for the
        /// platform: its kind (`push`, `dismiss`, `platformPop`, `navigate`, `start`, …).
        case change(FlowChange.Kind)
        /// ``FlowTabs/setTabs(_:selecting:)`` asked while another change was applied.
        case setTabs
        /// A platform's write to a binding that could not be made.
        case bindingWrite(Binding)
        /// An event handler threw; `event` is the event's trace name.
        case handler(event: String)
        /// A task started with ``FlowController/task(_:)`` threw.
        case task
        /// A guard's redirect could not be performed (the intent is dropped).
        case redirect
        /// A pending intent could not be replayed.
        case replay
        /// The platform refused a transition step (``FlowTransitionCompletion/fail(_:)``).
        case transition(FlowTransitionStep)
        /// An operation an app or a host reports under its own name.
        case other(String)

        /// The binding a ``FlowFailure/Operation/bindingWrite(_:)`` wrote.
        public enum Binding: String, Hashable, Sendable {
            /// ``FlowStack/pathBinding``.
            case path = "pathBinding"
            /// ``FlowTabs/selectionBinding``.
            case selection = "selectionBinding"
            /// ``FlowController/presentedBinding``.
            case presented = "presentedBinding"
            /// ``FlowSplit/preferredCompactColumn``.
            case preferredCompactColumn
        }

        /// The name the trace and ``FlowFailure/description`` use: `push`, `pathBinding`,
        /// `handler SignOut`, `transition present app/list #12`.
        public var description: String {
            switch self {
            case .change(let kind): return kind.rawValue
            case .setTabs: return "setTabs"
            case .bindingWrite(let binding): return binding.rawValue
            case .handler(let event): return "handler \(event)"
            case .task: return "task"
            case .redirect: return "redirect"
            case .replay: return "replay"
            case .transition(let step): return "transition \(step)"
            case .other(let name): return name
            }
        }
    }
}
