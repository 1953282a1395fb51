/// Where a node is in its life.
public enum FlowLifecycleState: Sendable, Equatable {
    /// Created, not yet in a running tree (it may be part of a subtree under construction).
    case created
    /// In a running tree.
    case entered
    /// Left the tree; it can never be attached again.
    case exited
}
