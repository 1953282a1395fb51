/// A flow that finishes with a result of a declared type, so that whoever starts it can
/// `await` that result with ``FlowController/run(_:_:)``.
///
///     final class LoginFlow: FlowController, ResultFlow {
///         typealias Result = Account
///         init() {
///             super.init(name: "login")
///             respond(to: CredentialsAccepted.self) { login, accepted in
///                 login.finish(with: accepted.account)   // checked: must be an Account
///                 return .handled
///             }
///         }
///     }
///
///     // in the app root's task:
///     let account = try await run(LoginFlow(), .switch)
public protocol ResultFlow: FlowController {
    /// What the flow finishes with.
    associatedtype Result: Sendable
}

extension ResultFlow {
    /// Reports that this flow is done with `result`, a value of its declared ``Result`` type.
    ///
    /// If a ``FlowController/run(_:_:)`` awaits this flow, the result goes to it (and `run`
    /// removes the flow where it showed it as a modal or a stack entry); otherwise
    /// ``FlowFinished`` is sent, as by ``FlowController/finish(with:)``.
    public func finish(with result: Result) {
        _finish(with: result)
    }
}

/// Where ``FlowController/run(_:_:)`` shows the flow it starts, relative to the node it is
/// called on.
public enum FlowPlacement: String, Sendable, Equatable, Hashable {
    /// Pushed on the node itself if it is a ``FlowStack``, else on its nearest ancestor
    /// stack. When the flow finishes it is popped, with whatever is above it.
    case push
    /// Presented by the node. When the flow finishes it is dismissed.
    case present
    /// Embedded in the node, replacing its children. It stays when it finishes.
    case embed
    /// Switched in by the node itself if it is a ``FlowSwitch``, else by its nearest ancestor
    /// switch. It stays when it finishes.
    case `switch`
}

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
    ///   removed as above (an embedded child is taken out of its container).
    ///
    /// - Throws: ``FlowError/containerExited(container:)`` if this node has exited;
    ///   ``FlowError/notInTree(node:)`` if `child` or this node is not entered in the same
    ///   running tree; ``FlowError/resultAlreadyAwaited(flow:)`` if a `run` or another
    ///   `result(of:)` already awaits `child`; `CancellationError` if the task is cancelled.
    public func result<Child: ResultFlow>(of child: Child) async throws -> Child.Result {
        try Task.checkCancellation()
        try _requireNotExited()
        guard state == .entered, child.state == .entered, let runtime = _runtime,
            runtime.isRunning, child._runtime === runtime
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

    /// Delivers a finish: to the `run` awaiting this flow if there is one and the type
    /// matches, else as a ``FlowFinished`` event.
    func _finish<Result: Sendable>(with result: Result) {
        // First: a redirect waiting for this flow must know it finished before the flow can
        // be removed (by `run`, or by a handler of the event below).
        _runtime?._flowDidFinish(self)
        if let waiter = _extras?.resultWaiter, waiter.offer(result) { return }
        send(FlowFinished(result: result, flow: self))
    }
}

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
    /// removed.
    func taskWasCancelled() {
        guard !isDecided else { return }
        _ = decide(.failure(CancellationError()))
        guard let child, child.state == .entered else { return }
        if let runtime = child._runtime, runtime.trace.isEnabled {
            runtime.trace.record(
                .cancelled(
                    flow: child.path, awaitedAt: awaitedAt,
                    reason: "the awaiting task was cancelled"))
        }
        _removeChild(child)
    }

    /// Removes the child from where `run` showed it, now if no change is under way, else as
    /// the next transaction; a failure goes to the runtime's error sink.
    private func _removeChild(_ child: FlowController) {
        guard let container, child.state == .entered, let runtime = child._runtime else { return }
        let placement = placement
        let operation: String
        switch placement {
        case .present: operation = "dismiss"
        case .push: operation = "pop"
        case .embed: operation = "embed"
        case .switch: operation = "switch"
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
                try container._perform(kind, rerun: { {} }) { change in
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
                    FlowFailure(operation: operation, node: container.path, error: error))
            }
        }
    }
}

// MARK: Releasing what a refused change built

/// Hands out node serials (see ``FlowController/_serial``).
@MainActor
enum _NodeSerial {
    static var next: UInt64 = 0
}

extension FlowRuntime {
    /// Releases the nodes route factories built for the change being checked, which was
    /// refused: in the subtrees of `roots`, every node made during the check. Such a node was
    /// never entered and nobody but the factory's own captures can hold it, so it is marked
    /// exited (it can never be attached) and loses its handlers, guards, factories, tasks and
    /// values, as at exit but without exit hooks or trace records; a handler that captures it
    /// no longer keeps it alive. Nodes the app made stay as they were (only unlinked from a
    /// released parent).
    ///
    /// With `madeSince: 0`, every never-entered node of the subtrees is released (a restoration's
    /// leftovers).
    func _discardBuilt(_ roots: [FlowController], madeSince mark: UInt64? = nil) {
        FlowController._discardBuilt(roots, madeSince: mark ?? _checkMark)
    }
}

extension FlowController {
    /// A node `factory` returned for `route` that the build refuses (it carries another
    /// route, or it is in use): if the factory made it in this call, it is released as a
    /// refused change's nodes are (``FlowRuntime/_discardBuilt(_:madeSince:)``), with the
    /// structure the factory made around it, even if its handlers capture it. A node the app
    /// made before, or one attached below such a node, stays as it was (its owner keeps it).
    static func _discardRefusedBuild(_ node: FlowController, madeSince mark: UInt64) {
        guard node.state == .created, node._runtime == nil, node._serial >= mark else { return }
        var root = node
        while let parent = root._effectiveParent {
            guard parent.state == .created, parent._runtime == nil, parent._serial >= mark
            else { return }
            root = parent
        }
        _discardBuilt([root], madeSince: mark)
    }

    /// See ``FlowRuntime/_discardBuilt(_:madeSince:)``.
    static func _discardBuilt(_ roots: [FlowController], madeSince mark: UInt64) {
        var pending = roots
        while let node = pending.popLast() {
            guard node.state == .created else { continue }
            pending.append(contentsOf: node._children)
            if let presented = node._presented { pending.append(presented) }
            guard node._serial >= mark else { continue }
            for child in node._children where child._parent === node { child._setParent(nil) }
            if let presented = node._presented, presented._parent === node {
                presented._setParent(nil)
            }
            node._setContent([], presented: nil)
            node.state = .exited
            node._extras = nil
            node._handlerBox = nil
            node._handlerFilter = 0
            node._scope = nil
        }
    }
}
