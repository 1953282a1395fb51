import FlowKit

/// A result flow that can be awaited after a restoration, when no `run` showed it.
///
/// `run(_:_:)` only awaits a flow it shows itself. A restored tree already holds the flows the
/// app awaited when it was saved (the login or main flow under the app root, the rating sheet
/// over a detail screen), and FlowKit has no way to await a result flow that is already
/// shown. Such a flow reports its exit through ``exitObserver``, so that
/// ``FlowController/awaitResult(of:)`` can end as `run` would when the flow leaves without
/// finishing.
@MainActor
protocol AwaitableFlow: ResultFlow {
    /// Called once, when the flow is about to exit (set by ``FlowController/awaitResult(of:)``).
    var exitObserver: (@MainActor () -> Void)? { get set }
}

extension FlowController {
    /// Waits for the result of `child`, a flow already in the tree below this node (restored,
    /// not shown by `run`), as `run(_:_:)` would:
    ///
    /// - When `child` calls `finish(with:)`, the ``FlowFinished`` event it sends reaches this
    ///   node, and the call returns that value. Unlike `run`, nothing is removed: the caller
    ///   dismisses a sheet itself.
    /// - When `child` exits without finishing, it throws ``FlowError/flowCancelled(flow:)``.
    /// - When the awaiting task is cancelled (this node exits, the runtime stops), it throws
    ///   `CancellationError`.
    ///
    /// While it waits, this node's handler for `FlowFinished<Child.Result>` is this call's;
    /// it is removed when the call ends.
    func awaitResult<Child: AwaitableFlow>(of child: Child) async throws -> Child.Result {
        try Task.checkCancellation()
        let path = child.path
        guard child.state == .entered else { throw FlowError.flowCancelled(flow: path) }
        let waiter = RestoredFlowWaiter<Child.Result>()
        on(FlowFinished<Child.Result>.self, from: child) { [weak waiter] done in
            waiter?.decide(.success(done.result))
            return .handled
        }
        child.exitObserver = { [weak waiter] in
            waiter?.decide(.failure(FlowError.flowCancelled(flow: path)))
        }
        defer {
            removeHandler(for: FlowFinished<Child.Result>.self)
            child.exitObserver = nil
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiter.install(continuation)
            }
        } onCancel: {
            Task { @MainActor in waiter.decide(.failure(CancellationError())) }
        }
    }
}

/// The outcome of one ``FlowController/awaitResult(of:)``, decided once.
@MainActor
private final class RestoredFlowWaiter<Value: Sendable> {
    private var continuation: CheckedContinuation<Value, any Error>?
    private var outcome: Result<Value, any Error>?
    private var isDecided = false

    /// Resumes at once if the outcome is already decided, else keeps the continuation.
    func install(_ continuation: CheckedContinuation<Value, any Error>) {
        if let outcome {
            self.outcome = nil
            continuation.resume(with: outcome)
        } else {
            self.continuation = continuation
        }
    }

    /// Decides the outcome, unless it was decided already.
    func decide(_ result: Result<Value, any Error>) {
        guard !isDecided else { return }
        isDecided = true
        if let continuation {
            self.continuation = nil
            continuation.resume(with: result)
        } else {
            outcome = result
        }
    }
}
