/// A node that saves its own state in snapshots and gets it back when it is restored: the
/// signed-in session of a main flow, the query of a search screen, a form's draft.
///
///     final class MainFlow: FlowController, FlowRestorable {
///         var session: Session?
///
///         func saveState() -> Session? { session }
///
///         func restoreState(_ state: Session) throws {
///             session = state
///             dependencies.set(state, for: SessionKey.self)
///         }
///     }
///
/// ``FlowRuntime/snapshot()`` stores what ``saveState()`` returns with the node. When the
/// node is restored, ``restoreState(_:)`` runs right after the node is built (or found in
/// the app's composition) and before its entry guard is asked, so a main flow restoring its
/// session passes its own "is someone signed in?" guard.
///
/// Both run while the snapshot is taken or the restoration is checked: asking for a
/// navigation change from them throws ``FlowError/changeInProgress(node:)``.
@MainActor
public protocol FlowRestorable: FlowController {
    /// What the node saves.
    associatedtype SavedState: Codable & Sendable

    /// The state to save with the node, or `nil` to save nothing.
    func saveState() -> SavedState?

    /// Takes back a saved state, before the node's entry guard is asked.
    ///
    /// - Throws: Any error to refuse the state: the restoration then fails with
    ///   ``FlowSnapshotError/stateRejected(path:reason:)`` and changes nothing.
    func restoreState(_ state: SavedState) throws
}

/// Saves `node`'s state as a snapshot value (an opened ``FlowRestorable``).
@MainActor
func _saveState<Node: FlowRestorable>(of node: Node) throws -> FlowSnapshotValue? {
    guard let state = node.saveState() else { return nil }
    do {
        return try FlowSnapshotValue(encoding: state)
    } catch {
        throw FlowSnapshotError.notEncodable(
            path: node.path, reason: "its saved state does not encode: \(error)")
    }
}

/// Decodes `value` as `node`'s saved state and gives it to the node.
@MainActor
func _restoreState<Node: FlowRestorable>(
    of node: Node, from value: FlowSnapshotValue
) throws {
    do {
        try node.restoreState(try value.decode(Node.SavedState.self))
    } catch {
        throw FlowSnapshotError.stateRejected(path: node.path, reason: String(describing: error))
    }
}
