/// An error that had no caller to throw to, as given to ``FlowRuntime/onError``.
public struct FlowFailure: Error, CustomStringConvertible {
    /// What failed, e.g. `push` for a change a hook asked for.
    public let operation: String
    /// The path of the node the operation was asked of.
    public let node: String
    /// The error itself (usually a ``FlowError``).
    public let error: any Error

    /// Creates a failure record.
    public init(operation: String, node: String, error: any Error) {
        self.operation = operation
        self.node = node
        self.error = error
    }

    /// `push at app/main/stack failed: …`.
    public var description: String { "\(operation) at \(node) failed: \(error)" }
}
