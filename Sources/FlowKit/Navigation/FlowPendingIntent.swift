/// A change a guard redirected, kept to be asked for again once the redirect's flow finishes
/// (see ``FlowGuardDecision/redirect(to:)``): ``FlowRuntime/redirectedIntent``.
///
///     if let intent = runtime.redirectedIntent, intent.kind == .open {
///         banner = "Sign in to open \(intent.node)"
///     }
///
/// A value: it names the change and its node by path and identity, and keeps no node (the
/// runtime keeps the call that asks for the change again).
public struct FlowPendingIntent: Hashable, Sendable, CustomStringConvertible {
    /// The kind of the change (``FlowChange/Kind/push``, ``FlowChange/Kind/navigate``,
    /// ``FlowChange/Kind/open``, …).
    public let kind: FlowChange.Kind
    /// The path of the node the change was asked of, when the guard redirected it.
    public let node: String
    /// The identity of that node.
    public let nodeID: FlowNodeID
    /// The change as the trace names it: `push app/main/stack`, `navigate app to account`.
    public let description: String
    /// The path the guard redirected to, its steps joined by ` / ` (`login`,
    /// `main / push signIn`), as in the trace.
    public let redirect: String
    /// The path of the redirect's flow once the redirect has reached it: its finishing (and
    /// leaving) replays the change. `nil` while the redirect waits its turn.
    public let flow: String?

    /// Creates the description of a pending intent (the runtime makes them; tests may make
    /// their own to compare).
    public init(
        kind: FlowChange.Kind, node: String, nodeID: FlowNodeID, description: String,
        redirect: String, flow: String?
    ) {
        self.kind = kind
        self.node = node
        self.nodeID = nodeID
        self.description = description
        self.redirect = redirect
        self.flow = flow
    }
}
