extension FlowController {
    /// The ladder of an operation that changes this node's children, written once (see the
    /// header of FlowRuntime+Transaction.swift): while a change is being applied the whole
    /// operation is queued as `again` (its checks run when its turn comes, and its error goes
    /// to ``FlowRuntime/onError``); otherwise `validate` checks the input and says whether
    /// there is anything to change, and ``_perform(_:platform:rerun:offline:_:)`` makes the
    /// change planned by `plan`, offline, live or queued.
    ///
    ///     try _change(.push, again: { try self.push(node) },
    ///                 validate: { try self._validateNewChild(node); return true }) {
    ///         $0.append(node, to: self)
    ///     }
    ///
    /// `again` is an autoclosure around the closure that asks for the operation again: it is
    /// made only when it is needed (the operation is queued, or a guard redirects it).
    /// Returns whether the change was made now (not queued, and `validate` found something
    /// to change).
    @inline(__always) @discardableResult
    func _change(
        _ kind: FlowChange.Kind, operation: String? = nil, platform: Bool = false,
        again: @autoclosure () -> @MainActor () throws -> Void,
        offline attach: @autoclosure () -> _OfflineAttach? = nil,
        validate: () throws -> Bool,
        _ plan: (inout _Transaction) throws -> Void
    ) throws -> Bool {
        if let runtime = _RuntimeActivity.applyingRuntime {
            runtime._enqueueChange(operation ?? kind.rawValue, at: self, again())
            return false
        }
        guard try validate() else { return false }
        try _perform(kind, platform: platform, rerun: { again() }, offline: attach(), plan)
        return true
    }

    /// Runs a change planned by `plan`, in the way this node's situation calls for:
    ///
    /// - not in any runtime's tree: structurally, at once (composition before attaching);
    /// - in a running tree with no change under way: as a transaction, at once;
    /// - while a change is being applied (called from a lifecycle hook, a host or a trace
    ///   observer): `rerun` is queued to run as the next transaction after the current one,
    ///   in order with queued events; if it fails then, the error goes to
    ///   ``FlowRuntime/onError`` and the trace;
    /// - while a change is being checked (from a guard or a route factory): refused with
    ///   ``FlowError/changeInProgress(node:)``.
    ///
    /// `rerun` makes the closure that asks for the operation again; it is called only when
    /// that closure is needed (the change is queued, or a guard redirects it), so the common
    /// case allocates nothing for it.
    ///
    /// `offline` is what `plan` amounts to when it only attaches one node (a push, a present,
    /// an embed or a switch into a container without children): outside a running tree
    /// that attach is made directly (``_attachOffline(_:)``), with the writes planning and
    /// applying the change would make, and no change is planned.
    func _perform(
        _ kind: FlowChange.Kind, platform: Bool = false,
        rerun: () -> @MainActor () throws -> Void,
        offline attach: _OfflineAttach? = nil,
        _ plan: (inout _Transaction) throws -> Void
    ) throws {
        switch try _admission() {
        case .offline:
            if let attach { return _attachOffline(attach) }
            var change = _Transaction.makeOffline(kind: kind, domain: self)
            defer { _Transaction.recycleOffline(change) }
            try plan(&change)
            _applyOffline(change)
        case .live(let runtime):
            try runtime._transact(
                kind, domain: self, platform: platform,
                makeIntent: { _Intent(kind, at: self, run: rerun()) }, plan)
        case .queued(let runtime):
            runtime._enqueueChange(kind.rawValue, at: self, rerun())
        }
    }

    /// Queues `rerun` if this node's runtime is applying a change (the caller is a lifecycle
    /// hook, a host or a trace observer): the whole operation, its checks included, then
    /// runs as the next transaction, and any error it throws goes to
    /// ``FlowRuntime/onError`` and the trace, never back to the hook. Returns whether it was
    /// queued. (Operations that must return what they remove, like `pop()` and `dismiss()`,
    /// check what there is to remove first and throw at once if there is nothing.)
    ///
    /// The queued change holds `node` and its arguments until its turn, so it is never lost:
    /// if the node has exited by then, `containerExited` goes to ``FlowRuntime/onError``.
    func _queueIfApplying<Node: FlowController>(
        _ node: Node, _ operation: String,
        _ rerun: @escaping @MainActor (Node) throws -> Void
    ) -> Bool {
        guard let runtime = _RuntimeActivity.applyingRuntime else { return false }
        runtime._enqueueChange(operation, at: node) { try rerun(node) }
        return true
    }

    /// How a change to this node's children can be made now. See
    /// ``_perform(_:platform:rerun:offline:_:)``.
    func _admission() throws -> _Admission {
        try _requireNotExited()
        // Composing nodes while no runtime is in a change (the common case): no walk needed.
        if state == .created && _RuntimeActivity.busyRuntimes == 0 { return .offline }
        guard let runtime = _treeRuntime() else {
            if state == .entered { throw FlowError.notInTree(node: path) }
            return .offline
        }
        switch runtime._phase {
        case .checking:
            throw FlowError.changeInProgress(node: path)
        case .applying:
            return .queued(runtime)
        case .idle:
            guard state == .entered else { return .offline }
            guard runtime.isRunning else { throw FlowError.notInTree(node: path) }
            return .live(runtime)
        }
    }

    /// The runtime whose tree this node is in or is about to join: its own (an entered node,
    /// a node joining during a change, a runtime's root), else that of its nearest real or
    /// prospective ancestor that has one.
    func _treeRuntime() -> FlowRuntime? {
        var node = self
        while true {
            if let runtime = node._runtime { return runtime }
            guard let up = node._effectiveParent else { return nil }
            node = up
        }
    }
}

/// How many runtimes are in a change (checking or applying) right now, so that composing
/// nodes offline can skip looking for the runtime they might belong to; and the runtimes
/// applying a change, innermost last: a change asked for meanwhile (from a lifecycle hook, a
/// host or a trace observer) is queued on the innermost one, whatever node it is asked of.
@MainActor
enum _RuntimeActivity {
    // Unchecked exclusivity: read by every change and written when a runtime's phase moves;
    // every access is a read, an assignment, an append or a removal that calls no app code,
    // so two accesses never overlap (all on the main actor).
    @exclusivity(unchecked)
    static var busyRuntimes = 0
    /// The runtimes applying a change, innermost last (in practice at most one: a change asked
    /// for while one is applied is queued on it).
    ///
    /// Unretained (a retain of a runtime takes the slow side-table path, twice per change).
    ///
    /// - Invariant: a runtime is listed exactly while its phase is `.applying`, which happens
    ///   only inside its own `_commit`, whose caller's frame holds it.
    /// - Enforced by: the phase's `didSet` appends and removes the entry; a runtime tearing
    ///   itself down in `deinit` never registers; readers retain what they take.
    /// - Tested by: `UnretainedRegistryTests` (the app's last reference dropped from the
    ///   runtime's own hook) under AddressSanitizer.
    /// - Debug check: ``applyingRuntime`` asserts the runtime it returns is applying.
    @exclusivity(unchecked)
    static var applying: [Unmanaged<FlowRuntime>] = []

    /// The runtime applying a change now, if any.
    static var applyingRuntime: FlowRuntime? {
        guard let runtime = applying.last?.takeUnretainedValue() else { return nil }
        assert(runtime._phase == .applying, "a registered runtime is not applying a change")
        return runtime
    }
}

/// A change that only attaches one node, made directly outside a running tree (see
/// ``FlowController/_perform(_:platform:rerun:offline:_:)``).
struct _OfflineAttach {
    let node: FlowController
    /// Presented by the container, or embedded on top of its children.
    let presenting: Bool

    init(_ node: FlowController, presenting: Bool) {
        self.node = node
        self.presenting = presenting
    }
}

/// How a change requested on a node can be made. See ``FlowController/_admission()``.
enum _Admission {
    /// Structurally, at once: the node belongs to no running tree.
    case offline
    /// As a transaction, at once.
    case live(FlowRuntime)
    /// Queued behind the change being applied.
    case queued(FlowRuntime)
}
