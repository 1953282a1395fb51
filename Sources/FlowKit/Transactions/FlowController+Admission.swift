extension FlowController {
    /// The one way into the change mechanism: every operation that changes the tree
    /// (a container's own, navigation, `open`, `unwind`, the runtime's) comes here, on the
    /// rungs listed in the header of FlowRuntime+Transaction.swift:
    ///
    /// 1. **queue**: while a change is being applied (the caller is a lifecycle hook, a host
    ///    or an observer), the whole operation is queued as `again` (its checks run when its
    ///    turn comes, and its error goes to ``FlowRuntime/onError``), and `whenQueued` says
    ///    what the operation returns meanwhile (what it will remove, as it is now; it may
    ///    throw at once if there is nothing to remove);
    /// 2. **validate**: `validate` checks the input and returns what the change works on
    ///    (`nil`: nothing to change);
    /// 3. **perform**: ``_perform(_:again:offline:domain:describe:_:)`` makes the change `plan` plans, offline,
    ///    live or queued (``_admission()``).
    ///
    ///     let presented = try _change(
    ///         .dismiss, again: { try self.dismiss() },
    ///         whenQueued: { try self._presentedForDismissal() },
    ///         validate: { try self._presentedForDismissal() }
    ///     ) { change, presented in change.remove(presented, from: self) }
    ///
    /// `again` is an autoclosure around the closure that asks for the operation again: it is
    /// made only when it is needed (the operation is queued, or a guard redirects it). Whether
    /// the change is the platform's own (not echoed to the host) is a property of its kind
    /// (``FlowChange/Kind/_isPlatformInitiated``). After a change made now, the container's
    /// invariants are checked in debug builds (``_checkInvariants()``).
    ///
    /// - Returns: What `whenQueued` returned if queued, `nil` if `validate` found nothing
    ///   to change, else what `validate` returned (the change was made).
    @inline(__always) @discardableResult
    func _change<Subject>(
        _ kind: FlowChange.Kind, operation: FlowFailure.Operation? = nil,
        again: @autoclosure () -> @MainActor () throws -> Void,
        offline attach: @autoclosure () -> _OfflineAttach? = nil,
        domain: @autoclosure () -> FlowController? = nil,
        describe: (@MainActor () -> String)? = nil,
        whenQueued: () throws -> Subject,
        validate: () throws -> Subject?,
        _ plan: (inout _Transaction, Subject) throws -> Void
    ) throws -> Subject? {
        if _RuntimeActivity.applyingRuntime != nil {
            // What it returns is read first: with nothing to remove it throws, and nothing
            // is queued.
            let subject = try whenQueued()
            _ = _queueWhileApplying(kind, operation: operation, again: again())
            return subject
        }
        // Tabs a lazy restoration has not built yet (Restoration+Lazy.swift): a rare path.
        if _RuntimeActivity.pendingBranches != 0 { try _restorePendingBranches(for: kind) }
        guard let subject = try validate() else { return nil }
        try _perform(
            kind, again: again(), offline: attach(), domain: domain(), describe: describe
        ) { change in
            try plan(&change, subject)
        }
        #if DEBUG
        _checkInvariants()
        #endif
        return subject
    }

    /// The form of ``_change(_:operation:again:offline:domain:describe:whenQueued:validate:_:)``
    /// for an operation that returns nothing: the same rungs, with `validate` saying whether
    /// there is anything to change. Returns whether the change was made now (not queued,
    /// and something to change).
    @inline(__always) @discardableResult
    func _change(
        _ kind: FlowChange.Kind, operation: FlowFailure.Operation? = nil,
        again: @autoclosure () -> @MainActor () throws -> Void,
        offline attach: @autoclosure () -> _OfflineAttach? = nil,
        domain: @autoclosure () -> FlowController? = nil,
        describe: (@MainActor () -> String)? = nil,
        validate: () throws -> Bool,
        _ plan: (inout _Transaction) throws -> Void
    ) throws -> Bool {
        if _queueWhileApplying(kind, operation: operation, again: again()) { return false }
        if _RuntimeActivity.pendingBranches != 0 { try _restorePendingBranches(for: kind) }
        guard try validate() else { return false }
        try _perform(
            kind, again: again(), offline: attach(), domain: domain(), describe: describe, plan)
        #if DEBUG
        _checkInvariants()
        #endif
        return true
    }

    /// The queue rung: while a change is being applied, queues `again` behind it (its error
    /// then goes to ``FlowRuntime/onError``, named by `operation`, else by `kind`) and
    /// returns `true`.
    @inline(__always)
    func _queueWhileApplying(
        _ kind: FlowChange.Kind, operation: FlowFailure.Operation?,
        again: @autoclosure () -> @MainActor () throws -> Void
    ) -> Bool {
        guard let runtime = _RuntimeActivity.applyingRuntime else { return false }
        runtime._enqueueChange(operation ?? .change(kind), at: self, again())
        return true
    }

    /// Throws ``FlowError/notInTree(node:)`` unless this node is in a running tree (or a
    /// change is under way there): navigation, `open` and `unwind` need one (their
    /// `validate`).
    func _requireTree() throws {
        if case .offline = try _admission() { throw FlowError.notInTree(node: path) }
    }

    /// Runs a change planned by `plan`, in the way this node's situation calls for:
    ///
    /// - not in any runtime's tree: structurally, at once (composition before attaching);
    /// - in a running tree with no change under way: as a transaction, at once;
    /// - while a change is being applied: `again` is queued to run as the next transaction
    ///   after the current one, in order with queued events; if it fails then, the error
    ///   goes to ``FlowRuntime/onError`` and the trace;
    /// - while a change is being checked (from a guard or a route factory): refused with
    ///   ``FlowError/changeInProgress(node:)``.
    ///
    /// Only ``_change(_:operation:again:offline:whenQueued:validate:_:)`` calls it (and a
    /// cancelled result's removal, which queues itself).
    ///
    /// `offline` is what `plan` amounts to when it only attaches one node (a push, a present,
    /// an embed or a switch into a container without children): outside a running tree
    /// that attach is made directly (``_attachOffline(_:)``), with the writes planning and
    /// applying the change would make, and no change is planned.
    func _perform(
        _ kind: FlowChange.Kind,
        again: @autoclosure () -> @MainActor () throws -> Void,
        offline attach: _OfflineAttach? = nil, domain: FlowController? = nil,
        describe: (@MainActor () -> String)? = nil,
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
            // A domain of its own only for `unwind` (`domain ?? self` would copy the node, a
            // slow side-table retain on every change).
            if let domain {
                try runtime._transact(
                    kind, domain: domain,
                    makeIntent: { _Intent(kind, at: self, describe: describe, run: again()) },
                    plan)
            } else {
                try runtime._transact(
                    kind, domain: self,
                    makeIntent: { _Intent(kind, at: self, describe: describe, run: again()) },
                    plan)
            }
        case .queued(let runtime):
            runtime._enqueueChange(.change(kind), at: self, again())
        }
    }

    /// How a change to this node's children can be made now. See
    /// ``_perform(_:again:offline:domain:describe:_:)``.
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

extension FlowRuntime {
    /// The runtime's form of ``FlowController/_change(_:operation:again:offline:domain:describe:validate:_:)``
    /// for the operations asked of the runtime rather than a node (`start`, `stop`,
    /// `navigate`, `open`, `unwind`): the same queue rung (while a change is applied, the whole operation is
    /// queued as `again`, and its error, ``FlowError/runtimeNotStarted`` if this runtime
    /// stopped meanwhile, goes to ``onError``), then `body`, which makes the change (`start` and
    /// `stop` transact on the whole tree; the others pick a node and go through its
    /// `_change`).
    func _change(
        _ kind: FlowChange.Kind, again: @escaping @MainActor () throws -> Void,
        _ body: () throws -> Void
    ) throws {
        if let applying = _RuntimeActivity.applyingRuntime {
            applying._enqueueChange(.change(kind), at: root, again)
            return
        }
        try body()
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
    /// How many tabs lazy restorations have not built yet, in all runtimes (see
    /// Restoration+Lazy.swift): while it is 0, the admission does not look for them.
    // Unchecked exclusivity, as `busyRuntimes`: read once per admitted change (a hot path), and
    // only incremented or decremented by a statement that calls no code; all on the main actor.
    // A wrong count cannot reach freed memory: a nonzero count only makes the admission look
    // for pending tabs, and a pending tab is found through its own runtime. Covered by the
    // lazy restoration tests and the ASan pass of the suite.
    @exclusivity(unchecked)
    static var pendingBranches = 0
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
/// ``FlowController/_perform(_:again:offline:domain:describe:_:)``).
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
