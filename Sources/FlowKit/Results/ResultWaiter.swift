/// The link between a flow shown by ``FlowController/run(_:_:)`` and the task awaiting it,
/// kept by the flow (in its extras) until it finishes or exits. Its outcome is decided once.
@MainActor
class _AnyResultWaiter {
    /// Takes a result the flow finished with, if it has the awaited type and nothing was
    /// decided yet. Returns whether it took it.
    func offer<Value>(_ result: Value) -> Bool { false }

    /// The flow is exiting (called by exit, before the flow is unlinked); the outcome is
    /// recorded in `trace`, its runtime's.
    func flowWillBeReleased(tracingTo trace: FlowTrace) {}
}

/// Counts how the `run` calls of one runtime's tree ended, for tests that prove nothing
/// resumes twice or leaks.
struct _RunStatistics {
    /// Continuations resumed (each `run` that waited resumes exactly one).
    var resumptions = 0
    /// Waiters whose outcome was decided (result, flow cancelled, task cancelled).
    var decisions = 0
}

@MainActor
final class _ResultWaiter<Value: Sendable>: _AnyResultWaiter {
    private weak var child: FlowController?
    private weak var container: FlowController?
    private let placement: FlowPlacement
    private let awaitedAt: String
    private weak var runtime: FlowRuntime?
    private var continuation: CheckedContinuation<Value, any Error>?
    private var outcome: Result<Value, any Error>?
    private var isDecided = false
    /// The runtime whose wake-up count this waiter raised when it resumed the awaiting task,
    /// until that task has resumed (see ``FlowRuntime/settle()``).
    private weak var wokeRuntime: FlowRuntime?

    init(
        child: FlowController, container: FlowController, placement: FlowPlacement,
        awaitedAt: String
    ) {
        self.child = child
        self.container = container
        self.placement = placement
        self.awaitedAt = awaitedAt
        runtime = container._runtime
    }

    /// Called once the task is suspended: resumes at once if the outcome is already decided.
    func install(_ continuation: CheckedContinuation<Value, any Error>) {
        if let outcome {
            self.outcome = nil
            runtime?._runStatistics.resumptions += 1
            countWakeUp()
            continuation.resume(with: outcome)
        } else {
            self.continuation = continuation
        }
    }

    /// Decides the outcome, once: resumes the waiting task now, or stores the outcome for
    /// ``install(_:)``. Returns `false` if it was already decided.
    private func decide(_ result: Result<Value, any Error>) -> Bool {
        guard !isDecided else { return false }
        isDecided = true
        runtime?._runStatistics.decisions += 1
        if let child, child._extras?.resultWaiter === self { child._extras?.resultWaiter = nil }
        if let continuation {
            self.continuation = nil
            runtime?._runStatistics.resumptions += 1
            countWakeUp()
            continuation.resume(with: result)
        } else {
            outcome = result
        }
        return true
    }

    /// The awaiting task is about to be resumed: one wake-up more until it has.
    private func countWakeUp() {
        wokeRuntime = runtime
        runtime?._pendingWakeups += 1
    }

    /// Called by the awaiting `run` (or `result(of:)`) once its task has resumed, whether
    /// the await returned or threw.
    func taskDidResume() {
        wokeRuntime?._pendingWakeups -= 1
        wokeRuntime = nil
    }

    override func offer<Offered>(_ result: Offered) -> Bool {
        guard !isDecided, let value = result as? Value, let child else { return false }
        _ = decide(.success(value))
        if let runtime = child._runtime, runtime.trace.isEnabled {
            runtime.trace.record(.finished(flow: child.path, awaitedAt: awaitedAt))
        }
        if placement == .present || placement == .push { _removeChild(child) }
        return true
    }

    override func flowWillBeReleased(tracingTo trace: FlowTrace) {
        guard !isDecided, let child else { return }
        let path = child.path
        _ = decide(.failure(FlowError.flowCancelled(flow: path)))
        if trace.isEnabled {
            trace.record(
                .cancelled(flow: path, awaitedAt: awaitedAt, reason: "it left without finishing"))
        }
    }

    /// The awaiting task was cancelled: `run` throws `CancellationError` and the child is
    /// removed, unless it is a region of a ``FlowParallel`` (a split's column): the regions
    /// are fixed, so it stays.
    func taskWasCancelled() {
        guard !isDecided else { return }
        _ = decide(.failure(CancellationError()))
        guard let child, child.state == .entered else { return }
        let isRegion = _isRegion(child)
        if let runtime = child._runtime, runtime.trace.isEnabled {
            runtime.trace.record(
                .cancelled(
                    flow: child.path, awaitedAt: awaitedAt,
                    reason: isRegion
                        ? "the awaiting task was cancelled; a region stays"
                        : "the awaiting task was cancelled"))
        }
        if !isRegion { _removeChild(child) }
    }

    /// Whether `child` is embedded in a ``FlowParallel`` (one of its fixed regions).
    private func _isRegion(_ child: FlowController) -> Bool {
        guard placement == .embed, let container, container._branchesActivation else {
            return false
        }
        return child._parent === container && container._presented !== child
    }

    /// Removes the child from where `run` showed it, now if no change is under way, else as
    /// the next transaction; a failure goes to the runtime's error sink.
    private func _removeChild(_ child: FlowController) {
        guard let container, child.state == .entered, let runtime = child._runtime else { return }
        let placement = placement
        let operation: FlowFailure.Operation
        switch placement {
        case .present: operation = .change(.dismiss)
        case .push: operation = .change(.pop)
        case .embed: operation = .change(.embed)
        case .switch: operation = .change(.switch)
        }
        let remove: @MainActor () throws -> Void = { [weak child, weak container] in
            guard let child, let container, child.state == .entered else { return }
            switch placement {
            case .present:
                if container._presented === child { try container.dismiss() }
            case .push:
                guard let stack = container as? FlowStack,
                    let index = _lastIndex(of: child, in: stack._children), index > 0
                else { return }
                try stack.pop(to: stack._children[index - 1])
            case .embed, .switch:
                guard child.parent === container, !child.isPresented else { return }
                let kind: FlowChange.Kind = placement == .embed ? .embed : .switch
                try container._change(kind, again: {}, validate: { true }) { change in
                    change.remove(child, from: container)
                }
            }
        }
        if runtime._phase != .idle {
            runtime._enqueueChange(operation, at: container, remove)
        } else {
            do {
                try remove()
            } catch {
                runtime._reportFailure(
                    FlowFailure(operation, node: container.path, error: error))
            }
        }
    }
}
