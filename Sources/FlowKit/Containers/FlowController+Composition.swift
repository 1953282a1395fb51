extension FlowController {
    /// Makes `child` this node's only embedded child; any current children exit first (a
    /// switch). A flow embeds its navigation stack this way.
    ///
    ///     final class MainFlow: FlowController {
    ///         let stack = FlowStack(name: "stack", root: ListScreen())
    ///         init() {
    ///             super.init(name: "main")
    ///             try! embed(stack)    // not yet in a tree: structural only
    ///         }
    ///     }
    ///
    /// On a node that is in a running tree this is a transaction: the old children exit
    /// (guards may refuse), then `child` enters with its defaults.
    ///
    /// - Throws: ``FlowError`` if `child` is attached elsewhere, was exited, or is an ancestor
    ///   of this node; if a guard refuses; if this node was exited.
    public func embed(_ child: FlowController) throws {
        if _queueIfApplying(self, "embed", { try $0.embed(child) }) { return }
        try _replaceChildren(with: child, kind: .embed) { try self.embed(child) }
    }

    /// Presents `node` modally over this node. The presented node's next responder is this
    /// node. This node stays on the focused path (the path continues into `node`); what it
    /// embeds stays entered but becomes inactive until the dismissal.
    ///
    /// One node presents at most one node at a time; to stack modals, present from the
    /// presented node.
    ///
    /// - Throws: ``FlowError/alreadyPresenting(presenter:presented:)`` if this node already
    ///   presents a node; the attach errors of ``embed(_:)``; a guard's refusal.
    public func present(_ node: FlowController) throws {
        if _queueIfApplying(self, "present", { try $0.present(node) }) { return }
        try _validateNewChild(node)
        if let presented = _presented {
            throw FlowError.alreadyPresenting(presenter: path, presented: presented.path)
        }
        try _perform(
            .present, rerun: { { try self.present(node) } },
            offline: _OfflineAttach(node, presenting: true)
        ) { change in
            change.present(node, by: self)
        }
    }

    /// Dismisses the node this node presents, with its whole subtree.
    ///
    /// - Returns: The dismissed node (exited).
    /// - Throws: ``FlowError/nothingPresented(presenter:)`` if nothing is presented; a guard's
    ///   refusal (then nothing changes); ``FlowError/containerExited(container:)`` if this
    ///   node was exited.
    @discardableResult
    public func dismiss() throws -> FlowController {
        if let presented = _presented,
            _queueIfApplying(self, "dismiss", { try $0.dismiss() })
        {
            return presented
        }
        let presented = try _presentedForDismissal()
        try _perform(.dismiss, rerun: { { try self.dismiss() } }) { change in
            change.remove(presented, from: self)
        }
        return presented
    }

    /// Tells FlowKit that the platform dismissed the node this node presents (a swipe-down,
    /// a system alert closing). The subtree is torn down exactly like ``dismiss()``, guards are
    /// not consulted (it already happened on screen) and the host is not told.
    ///
    /// - Returns: The dismissed node (exited).
    /// - Throws: ``FlowError/nothingPresented(presenter:)`` if nothing is presented;
    ///   ``FlowError/containerExited(container:)`` if this node was exited.
    @discardableResult
    public func platformDidDismiss() throws -> FlowController {
        if let presented = _presented,
            _queueIfApplying(self, "platformDismiss", { try $0.platformDidDismiss() })
        {
            return presented
        }
        let presented = try _presentedForDismissal()
        try _perform(
            .platformDismiss, platform: true, rerun: { { try self.platformDidDismiss() } }
        ) {
            change in change.remove(presented, from: self)
        }
        return presented
    }

    private func _presentedForDismissal() throws -> FlowController {
        try _requireNotExited()
        guard let presented = _presented else {
            throw FlowError.nothingPresented(presenter: path)
        }
        return presented
    }

    // MARK: Internals shared by every container

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
        _ plan: (inout _Change) throws -> Void
    ) throws {
        switch try _admission() {
        case .offline:
            if let attach { return _attachOffline(attach) }
            var change = _Change.makeOffline(kind: kind, domain: self)
            defer { _Change.recycleOffline(change) }
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

    func _requireNotExited() throws {
        if state == .exited { throw FlowError.containerExited(container: path) }
    }

    func _replaceChildren(
        with child: FlowController, kind: FlowChange.Kind,
        rerun: @escaping @MainActor () throws -> Void
    ) throws {
        if _queueIfApplying(self, kind.rawValue, { _ in try rerun() }) { return }
        try _validateNewChild(child)
        let attach = _children.isEmpty ? _OfflineAttach(child, presenting: false) : nil
        try _perform(kind, rerun: { rerun }, offline: attach) { change in
            for old in change.plannedChildren(of: self).reversed() {
                change.remove(old, from: self)
            }
            change.append(child, to: self)
        }
    }

    /// Checks that `nodes` may join this node: each is new (never entered), has no parent
    /// (real, or prospective in a change being planned), belongs to no runtime, is not this
    /// node or an ancestor of it, and appears once.
    func _validateNewChildren(_ nodes: [FlowController]) throws {
        try _requireNotExited()
        var seen = Set<ObjectIdentifier>(minimumCapacity: nodes.count > 1 ? nodes.count : 0)
        for node in nodes {
            try _validateAttaching(node)
            if nodes.count > 1 && !seen.insert(ObjectIdentifier(node)).inserted {
                throw FlowError.duplicateNode(node: node.path)
            }
        }
    }

    /// ``_validateNewChildren(_:)`` for one node (no array to allocate).
    func _validateNewChild(_ node: FlowController) throws {
        try _requireNotExited()
        try _validateAttaching(node)
    }

    /// Whether `node` may be attached below this node: fresh, unattached, not an ancestor.
    private func _validateAttaching(_ node: FlowController) throws {
        if node === self { throw FlowError.wouldCreateCycle(node: node.path, parent: path) }
        switch node.state {
        case .exited:
            throw FlowError.nodeExited(node: node.path)
        case .entered:
            throw FlowError.alreadyAttached(
                node: node.path, parent: node.parent?.path ?? "its runtime (root)")
        case .created:
            break
        }
        // `_next` is set together with `_parent` (``_setParent(_:)``), so a node without it has
        // no parent: the `weak` load (a call into the runtime) is made only for one that may.
        if node._next != nil || node._pendingParent != nil, let parent = node._effectiveParent {
            throw FlowError.alreadyAttached(node: node.path, parent: parent.path)
        }
        if node._runtime != nil {
            throw FlowError.alreadyAttached(node: node.path, parent: "its runtime (root)")
        }
        // Only a node with children can be an ancestor of this one.
        if !node._isLeaf && _isWithin(node) {
            throw FlowError.wouldCreateCycle(node: node.path, parent: path)
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
    /// Safe because a runtime is here exactly while its phase is `.applying`, which only
    /// happens inside its own `_commit`, called by `_transact` on it: that call frame holds
    /// the runtime, and the phase goes back (removing the entry) before the frame returns. A
    /// runtime tearing itself down in `deinit` never registers. So every entry names a live
    /// runtime, and readers retain it (`takeUnretainedValue`) for as long as they use it.
    /// `UnretainedRegistryTests` drops the app's last reference to a runtime from its own
    /// hook and asks it for more changes; CI runs it under AddressSanitizer.
    @exclusivity(unchecked)
    static var applying: [Unmanaged<FlowRuntime>] = []

    /// The runtime applying a change now, if any.
    static var applyingRuntime: FlowRuntime? { applying.last?.takeUnretainedValue() }
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
