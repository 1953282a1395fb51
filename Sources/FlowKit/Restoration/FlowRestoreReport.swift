/// What ``FlowRuntime/start(restoring:routeTypes:)`` restored, and what it left out.
///
///     let report = try runtime.start(restoring: snapshot)
///     for skipped in report.skipped {
///         log("not restored: \(skipped.path) (\(skipped.reason))")
///     }
public struct FlowRestoreReport: Sendable, Equatable {
    /// A node of the snapshot that was not restored, and why.
    public struct Skipped: Sendable, Equatable, Hashable, CustomStringConvertible {
        /// The path the node would have had.
        public let path: String
        /// Why it was left out: its entry guard's reason, why its stored route or state could
        /// not be read (an unknown type, a value that does not decode, a schema migration),
        /// or that an entry below it on its stack was left out. For a recorded history cut
        /// short, the path is the history's and the reason says where it was cut.
        public let reason: String

        /// Creates a record.
        public init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }

        /// `app/main/stack/detail: not signed in`.
        public var description: String { "\(path): \(reason)" }
    }

    /// The nodes of the snapshot that were not restored, in the order restoration met them
    /// (a lazily restored tab's when it was built): a node whose entry guard refused (or
    /// redirected) or whose stored route could not be read, the stack entries above it, and
    /// what a size budget left out; and the recorded histories cut short.
    public let skipped: [Skipped]
    /// How many nodes of the snapshot were restored (the root included).
    public let restoredCount: Int
    /// The paths of the tabs whose content a lazy restoration has not built yet (see
    /// ``FlowRuntime/start(restoring:routeTypes:lazily:)``), in tree order; empty for an eager
    /// one.
    public let pending: [String]

    /// Creates a report.
    public init(skipped: [Skipped], restoredCount: Int, pending: [String] = []) {
        self.skipped = skipped
        self.restoredCount = restoredCount
        self.pending = pending
    }

    /// Whether every node of the snapshot was restored: nothing left out, nothing pending.
    public var isComplete: Bool { skipped.isEmpty && pending.isEmpty }
}
