extension FlowController {
    /// Shows `child` and waits for the result it finishes with.
    ///
    ///     let account = try await run(LoginFlow(), .present)
    ///
    /// Call it from a task of an entered node (``task(_:)``). Showing the child is an ordinary
    /// change (guards may refuse it, and then `run` throws that error and nothing changes).
    /// Then:
    ///
    /// - When the child calls `finish(with:)`, `run` returns that value. The first result
    ///   goes to `run`, not up the responder chain (no ``FlowFinished`` is sent for it). The
    ///   child is removed where it was shown as a modal (dismissed) or a stack entry (popped,
    ///   with whatever is above it); an embedded or switched-in child stays, so that its
    ///   container is not left empty. If a guard refuses that removal, `run` still returns
    ///   the result and the refusal goes to ``FlowRuntime/onError``.
    /// - When the child leaves the tree without finishing (the platform dismissed or popped
    ///   it, an ancestor was removed, a navigation replaced it, the runtime stopped), `run`
    ///   throws ``FlowError/flowCancelled(flow:)``. The waiting task is resumed inside the
    ///   change that removed the child.
    /// - When the task awaiting `run` is cancelled, `run` throws `CancellationError` and the
    ///   child is removed (dismissed, popped, or taken out of its container; guards are
    ///   consulted, and a refusal goes to ``FlowRuntime/onError``).
    ///
    /// Each `run` ends exactly once, and the trace says how (`finished app/login: result to run
    /// at app`, `cancelled app/login (…): run at app throws`).
    ///
    /// - Parameters:
    ///   - child: A new flow (never attached).
    ///   - placement: How to show it, relative to this node.
    /// - Returns: The value `child` finished with.
    /// - Throws: `CancellationError` if the task is cancelled (before or while waiting);
    ///   ``FlowError/flowCancelled(flow:)`` if the child leaves without finishing;
    ///   ``FlowError/noContainer(placement:node:)`` if no stack (or switch) is at or above
    ///   this node; ``FlowError/runWouldReplaceCaller(node:container:)`` if the task
    ///   awaiting `run` is owned (``task(_:)``) by a node that the `.switch` or `.embed`
    ///   would replace (its exit would cancel the task, and with it the `run`);
    ///   ``FlowError/notInTree(node:)`` if this node is not in a running tree, or
    ///   ``FlowError/containerExited(container:)`` if it has exited; the
    ///   errors of showing `child` (``FlowStack/push(_:)``, ``present(_:)``, ``embed(_:)``,
    ///   ``FlowSwitch/switch(to:)-(FlowController)``).
    public func run<Child: ResultFlow>(
        _ child: Child, _ placement: FlowPlacement
    ) async throws -> Child.Result {
        try Task.checkCancellation()
        let container = try _container(for: placement)
        if placement == .switch || placement == .embed, let owner = _TaskOwner.current?.node,
            container._children.contains(where: { owner._isWithin($0) })
        {
            // The change would exit the node owning this very task, which cancels it: the
            // run would end at once, and its cancellation would empty the container.
            throw FlowError.runWouldReplaceCaller(node: owner.path, container: container.path)
        }
        let waiter = _ResultWaiter<Child.Result>(
            child: child, container: container, placement: placement, awaitedAt: path)
        // The waiter is attached before the child is shown, so that a finish or an exit
        // during the showing change (from the child's hooks) already reaches it. Only a new
        // child takes it; any other is refused by the showing operation below.
        let takesWaiter = child.state == .created && child._extras?.resultWaiter == nil
        if takesWaiter { child._writableExtras.resultWaiter = waiter }
        do {
            try _show(child, placement, in: container)
        } catch {
            if takesWaiter { child._extras?.resultWaiter = nil }
            throw error
        }
        defer { waiter.taskDidResume() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiter.install(continuation)
            }
        } onCancel: {
            // Any thread, possibly before the continuation is installed: the waiter decides
            // on the main actor, once.
            Task { @MainActor in waiter.taskWasCancelled() }
        }
    }

    /// Awaits the result of `child`, a flow that is already in the tree (one a restoration
    /// rebuilt, or one the app showed without `run`), exactly as if `run` had shown it:
    ///
    ///     // After start(restoring:), the app root awaits the main flow it finds:
    ///     if let main = app.current as? MainFlow {
    ///         let signedOut = try await app.result(of: main)
    ///     }
    ///
    /// - When `child` calls ``finish(with:)``, this returns that value, and `child` is removed
    ///   where it is shown: dismissed if it is presented, popped with what is above it if it
    ///   is a stack entry above the bottom one; otherwise it stays.
    /// - When `child` leaves without finishing, this throws ``FlowError/flowCancelled(flow:)``.
    /// - When the awaiting task is cancelled, this throws `CancellationError` and `child` is
    ///   removed as above (an embedded child is taken out of its container), except a
    ///   region of a ``FlowParallel`` (a ``FlowSplit``'s column): the regions are fixed, so
    ///   it stays, and the trace says so (`… (the awaiting task was cancelled; a region
    ///   stays) …`). It can be awaited again.
    ///
    /// - Throws: ``FlowError/containerExited(container:)`` if this node has exited;
    ///   ``FlowError/notInTree(node:)`` if `child` or this node is not entered in the same
    ///   running tree; ``FlowError/resultAlreadyAwaited(flow:)`` if a `run` or another
    ///   `result(of:)` already awaits `child`; `CancellationError` if the task is cancelled.
    public func result<Child: ResultFlow>(of child: Child) async throws -> Child.Result {
        try Task.checkCancellation()
        try _requireNotExited()
        // No reference to the runtime is bound here: kept in this frame while it is
        // suspended, it would keep a runtime the app released alive, and the wait with it
        // (the waiter holds the runtime weakly, as `run` does).
        guard state == .entered, child.state == .entered, _runtime?.isRunning == true,
            child._runtime === _runtime
        else {
            throw FlowError.notInTree(node: child.state == .entered ? path : child.path)
        }
        guard child._extras?.resultWaiter == nil else {
            throw FlowError.resultAlreadyAwaited(flow: child.path)
        }
        // Where the child is shown decides how it is removed once it finished.
        var container: FlowController = child
        var placement = FlowPlacement.embed
        if let parent = child.parent {
            container = parent
            if parent._presented === child {
                placement = .present
            } else if parent is FlowStack, let index = _lastIndex(of: child, in: parent._children),
                index > 0
            {
                placement = .push
            }
        }
        let waiter = _ResultWaiter<Child.Result>(
            child: child, container: container, placement: placement, awaitedAt: path)
        child._writableExtras.resultWaiter = waiter
        defer { waiter.taskDidResume() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiter.install(continuation)
            }
        } onCancel: {
            Task { @MainActor in waiter.taskWasCancelled() }
        }
    }

    /// The node that shows a child placed with `placement` from this node.
    func _container(for placement: FlowPlacement) throws -> FlowController {
        try _requireNotExited()
        guard state == .entered, let runtime = _runtime, runtime.isRunning else {
            throw FlowError.notInTree(node: path)
        }
        switch placement {
        case .present, .embed:
            return self
        case .push:
            var node: FlowController? = self
            while let current = node, !(current is FlowStack) { node = current.parent }
            guard let stack = node else {
                throw FlowError.noContainer(placement: placement.rawValue, node: path)
            }
            return stack
        case .switch:
            var node: FlowController? = self
            while let current = node, !(current is FlowSwitch) { node = current.parent }
            guard let container = node else {
                throw FlowError.noContainer(placement: placement.rawValue, node: path)
            }
            return container
        }
    }

    private func _show(
        _ child: FlowController, _ placement: FlowPlacement, in container: FlowController
    ) throws {
        switch placement {
        case .push:
            guard let stack = container as? FlowStack else { preconditionFailure("not a stack") }
            try stack.push(child)
        case .present:
            try container.present(child)
        case .embed:
            try container.embed(child)
        case .switch:
            guard let container = container as? FlowSwitch else {
                preconditionFailure("not a switch")
            }
            try container.switch(to: child)
        }
    }

}
