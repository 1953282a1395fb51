extension FlowController {
    /// Runs `operation` as a task owned by this node: it is cancelled when the node exits.
    ///
    ///     override func didEnter() {
    ///         task { [weak self] in
    ///             for await update in feed.updates { self?.show(update) }
    ///         }
    ///     }
    ///
    /// A task started before the node is entered waits and starts when it enters; one started
    /// after the node exited never runs. The node keeps the task only until it finishes.
    ///
    /// The operation may throw: an error goes to ``FlowRuntime/onError`` and the trace
    /// (`failed task at app/main: …`), unless the task was cancelled by then (its node
    /// exited, or the runtime stopped): what a cancelled task throws is a consequence of that
    /// teardown, not a failure. This is where a flow awaits a child flow:
    ///
    ///     override func didEnter() {
    ///         task { [weak self] in
    ///             guard let self else { return }
    ///             let account = try await run(LoginFlow(), .switch)
    ///             try self.switch(to: MainFlow(account: account))
    ///         }
    ///     }
    ///
    /// Code after an `await` can run after the node exited: a child that finishes hands its
    /// result to `run` at once, but the task resumes on a later main-actor turn, and if the
    /// node exits in between (its runtime stops, an ancestor is popped), `run` still returns
    /// the result. The task is cancelled by then, so check `Task.isCancelled` (or call
    /// `try Task.checkCancellation()`) before using the node: once exited, its dependencies
    /// show only defaults and its operations throw ``FlowError/containerExited(container:)``.
    public func task(_ operation: @escaping @MainActor () async throws -> Void) {
        switch state {
        case .created:
            _writableExtras.pendingTasks.append(operation)
        case .entered:
            _startTask(operation)
        case .exited:
            return
        }
    }

    /// The number of tasks this node owns that have not finished yet.
    public var runningTaskCount: Int {
        guard let extras = _extras else { return 0 }
        return extras.tasks.count + extras.pendingTasks.count
    }

    func _startTask(_ operation: @escaping @MainActor () async throws -> Void) {
        let extras = _writableExtras
        let id = extras.nextTaskID
        extras.nextTaskID += 1
        // The path is taken now (the node is entered, so it is stable): the task may end
        // after the node is gone.
        let path = self.path
        let runtime = _runtime
        // Counted as a wake-up until the task has begun (see FlowRuntime.settle()).
        runtime?._pendingWakeups += 1
        let owner = _TaskOwner(node: self)
        let task = Task { @MainActor [weak self, weak runtime] in
            runtime?._pendingWakeups -= 1
            do {
                try await _TaskOwner.$current.withValue(owner) { try await operation() }
            } catch {
                if !Task.isCancelled, let runtime {
                    runtime._reportFailure(FlowFailure(.task, node: path, error: error))
                }
            }
            self?._extras?.tasks[id] = nil
        }
        // The task runs only after this returns, so it cannot have finished yet.
        extras.tasks[id] = task
    }

    func _startPendingTasks() {
        guard let extras = _extras, !extras.pendingTasks.isEmpty else { return }
        let pending = extras.pendingTasks
        extras.pendingTasks = []
        for operation in pending { _startTask(operation) }
    }

}

/// The node that owns the running task (``FlowController/task(_:)``), held weakly: a task
/// must not keep its node alive. ``FlowController/run(_:_:)`` reads it to refuse a change
/// that would exit the very node whose task awaits it.
@MainActor
final class _TaskOwner {
    weak var node: FlowController?

    init(node: FlowController) {
        self.node = node
    }

    /// The owner of the current task, if FlowKit started it for a node.
    @TaskLocal static var current: _TaskOwner?
}
