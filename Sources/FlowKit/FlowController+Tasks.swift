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
    public func task(_ operation: @escaping @MainActor () async -> Void) {
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

    func _startTask(_ operation: @escaping @MainActor () async -> Void) {
        let extras = _writableExtras
        let id = extras.nextTaskID
        extras.nextTaskID += 1
        let task = Task { @MainActor [weak self] in
            await operation()
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

    /// Reports that this flow is done: sends ``FlowFinished`` carrying `result`, starting at
    /// this node, so its parent (or any ancestor) can decide what comes next.
    ///
    ///     // in LoginFlow, after a successful sign-in:
    ///     finish(with: user)
    ///     // in the app root:
    ///     on(FlowFinished<User>.self) { done in … }
    ///
    /// Finishing does not remove the flow: the handler does that (typically by switching or
    /// popping). Each call sends one event. If the flow leaves the tree before the event's
    /// turn, the event is dropped.
    public func finish<Result: Sendable>(with result: Result) {
        send(FlowFinished(result: result, flowName: name, flowRoute: route))
        _runtime?._flowDidFinish(self)
    }

    /// Reports that this flow is done, with no result (`FlowFinished<Void>`).
    public func finish() {
        finish(with: ())
    }
}
