/// Why a snapshot could not be made or restored.
///
/// A restoration that throws changes nothing: the runtime is not started, the root's
/// composition is as it was, and everything built for it is released, so the app can call
/// ``FlowRuntime/start()`` for a fresh start.
///
///     do {
///         try runtime.start(restoring: snapshot)
///     } catch let error as FlowSnapshotError {
///         log("restoration failed: \(error)")   // "the snapshot has format version 2; …"
///         try runtime.start()
///     }
///
/// Paths are node paths (``FlowController/path``); for a node that was never built, the path
/// it would have had.
public enum FlowSnapshotError: Error, Equatable, Sendable, CustomStringConvertible {
    /// ``FlowRuntime/snapshot()`` met something a snapshot cannot hold: a route or a saved
    /// state that is not `Encodable` (or fails to encode), or an empty stack that is not a
    /// ``FlowSplit``'s column (a stack presented over a split is not one).
    case notEncodable(path: String, reason: String)
    /// The snapshot's format version is not one this FlowKit reads (`supported` is the
    /// newest one it reads; it reads ``FlowSnapshot/supportedVersions``).
    case unsupportedVersion(found: Int, supported: Int)
    /// The tree is deeper than ``FlowSnapshot/maximumDepth`` nodes.
    case tooDeep(limit: Int)
    /// The snapshot has more nodes, or more history routes, than
    /// ``FlowSnapshot/maximumNodeCount``.
    case tooLarge(limit: Int)
    /// The snapshot describes a tree that cannot exist: an empty stack (outside a split's
    /// columns), two children of a plain node or switch, a tab selection that is missing or
    /// out of range (or one on a node that is not a tab container), a parallel container or
    /// split whose focused region is missing or out of range, a split without 2 or 3
    /// columns, a split's layout on another kind, a node whose kind disagrees with the node it
    /// restores onto, an empty name or one with `/`, or two history entries for one path.
    case impossibleShape(path: String, reason: String)
    /// The snapshot does not fit the app's tree: the root's name or kind differs, or a tab
    /// container's tabs differ. (A node without a route that has no node at its place to
    /// restore onto is not an error: it is left out and reported in
    /// ``FlowRestoreReport/skipped``.)
    case mismatch(path: String, reason: String)
    /// A route's value type is not one restoration knows: pass it in `routeTypes`, register
    /// a factory for it on a node being restored, or rename its old name in the app's
    /// ``FlowSnapshotSchema``.
    ///
    /// ``FlowRuntime/start(restoring:routeTypes:)`` does not throw it: such a route costs its
    /// node, which is left out like one whose guard refused and reported in
    /// ``FlowRestoreReport/skipped`` with this reason (a tab's is a ``mismatch(path:reason:)``).
    case unknownRoute(path: String, type: String)
    /// A route's value does not decode as its type (the type changed since the snapshot, or
    /// the document was altered), or the app's schema migration dropped it or failed on it.
    ///
    /// Like ``unknownRoute(path:type:)``, a restoration does not throw it: the node is left
    /// out and reported.
    case invalidRoute(path: String, type: String, reason: String)
    /// Building a node for a route failed: no factory for it, or the factory threw or built
    /// an unusable node (the ``FlowError`` says which).
    case buildFailed(path: String, error: FlowError)
    /// A node's saved state did not decode as its ``FlowRestorable/SavedState``, or its
    /// ``FlowRestorable/restoreState(_:)`` threw, or (at the root or a tab, which cannot be
    /// left out) its ``FlowSnapshotSchema`` state migration threw.
    case stateRejected(path: String, reason: String)

    /// A sentence saying what went wrong.
    public var description: String {
        switch self {
        case .notEncodable(let path, let reason):
            return "cannot snapshot '\(path)': \(reason)"
        case .unsupportedVersion(let found, let supported):
            return
                "the snapshot has format version \(found); this FlowKit reads versions 1 to "
                + "\(supported)"
        case .tooDeep(let limit):
            return "the tree is deeper than \(limit) nodes"
        case .tooLarge(let limit):
            return "the snapshot has more than \(limit) nodes or history routes"
        case .impossibleShape(let path, let reason):
            return "the snapshot is impossible at '\(path)': \(reason)"
        case .mismatch(let path, let reason):
            return "the snapshot does not fit the app at '\(path)': \(reason)"
        case .unknownRoute(let path, let type):
            return
                "unknown route type \(type) at '\(path)': pass it in routeTypes or register a "
                + "factory for it"
        case .invalidRoute(let path, let type, let reason):
            return "the route at '\(path)' does not decode as \(type): \(reason)"
        case .buildFailed(let path, let error):
            return "cannot build '\(path)': \(error)"
        case .stateRejected(let path, let reason):
            return "the saved state of '\(path)' was rejected: \(reason)"
        }
    }
}
