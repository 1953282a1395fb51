/// How a node remembers its focused child path across exits.
///
/// History is kept by the runtime under the node's path, as a list of routes; the exited
/// nodes themselves are released.
public enum FlowHistoryPolicy: Sendable, Equatable {
    /// Nothing is recorded.
    case none
    /// The focused route path below the node is recorded when it exits, and restored only
    /// when navigation asks for it (a statechart's history target).
    case recorded
    /// Recorded, and on re-entry the node enters the child it last had, then that child's
    /// defaults.
    case shallow
    /// Recorded, and on re-entry the node enters the whole path it last had.
    case deep
}

/// Which part of a recorded history to restore.
public enum FlowHistoryDepth: Sendable, Equatable {
    /// The child that was focused, then its defaults.
    case shallow
    /// The whole focused path that was recorded.
    case deep
}
