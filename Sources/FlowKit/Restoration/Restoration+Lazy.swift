// Lazy restoration: `start(restoring:lazily: true)` restores what is shown and keeps the
// content of every tab that is not selected as snapshot data, built on its first visit by
// its own `restoreBranch` change, with the same factories, states, guards and hooks.
//
// At start, each tab (a fixed child of a `FlowTabs`) is matched, gets its state and its guard
// decides, and it enters, as eagerly; the content of a tab that is not selected is set aside
// (the app's composition of it too, detached) and the tab enters without children (the
// defaults are not built for it). Its content is built when a change first needs it:
//
// - selecting the tab (`select`, `platformDidSelect`, the selection binding): the tab's
//   content is built by its own change just before the selection's;
// - `navigate`, `open` or `unwind` (from any node or the runtime): every pending tab first
//   (a path may reach any of them);
// - any other change asked of the tab, of a node inside it (there is none yet) or of one of
//   its ancestors (`setTabs`, a switch replacing the flow that holds the tabs, `embed`…);
// - `FlowRuntime.restorePendingBranches()`, e.g. once the first frame is shown.
//
// The check is `_RuntimeActivity.pendingBranches != 0` on the admission's rung (one load of
// a global and a branch, taken only while some runtime has pending tabs). A snapshot of a
// runtime with pending tabs stores their content as it was restored (`_snapshot(of:)`).

/// What a restoring start keeps: the report so far and the tabs whose content is not built.
@MainActor
final class _LazyRestoration {
    /// A tab whose content is not built yet.
    struct Branch {
        let tab: FlowController
        let stored: FlowSnapshot.Node
        /// The app's composition of the tab, set aside (detached, never entered).
        let children: [FlowController]
        let presented: FlowController?
    }

    let snapshot: FlowSnapshot
    let routeTypes: [any (Codable & Hashable & Sendable).Type]
    var types: [String: any (Decodable & Hashable & Sendable).Type] = [:]
    var branches: [Branch] = []
    var skipped: [FlowRestoreReport.Skipped] = []
    var restoredCount = 0

    init(snapshot: FlowSnapshot, routeTypes: [any (Codable & Hashable & Sendable).Type]) {
        self.snapshot = snapshot
        self.routeTypes = routeTypes
    }

    var report: FlowRestoreReport {
        FlowRestoreReport(
            skipped: skipped, restoredCount: restoredCount, pending: branches.map(\.tab.path))
    }

    func index(of tab: FlowController) -> Int? {
        branches.firstIndex { $0.tab === tab }
    }

    /// Drops the pending tabs (the runtime stopped: they will never be built).
    func discardPending() {
        _RuntimeActivity.pendingBranches -= branches.count
        branches.removeAll()
    }
}

extension _Restoration {
    /// Sets `tab`'s content aside as a pending branch (its guard allowed it; it enters
    /// without children).
    func deferContent(of tab: FlowController, from stored: FlowSnapshot.Node) {
        let children = tab._children
        let presented = tab._presented
        recordComposition(of: tab)
        for child in children { child._setParent(nil) }
        presented?._setParent(nil)
        tab._children = []
        tab._presented = nil
        deferred?.append(
            _LazyRestoration.Branch(
                tab: tab, stored: stored, children: children, presented: presented))
    }

    /// Rebuilds the content of `tab` (entered, its content set aside by ``deferContent``)
    /// and plans it joining `tab` in `change`, in the check phase of its `restoreBranch`
    /// change.
    func restoreBranch(
        _ tab: FlowController, from stored: FlowSnapshot.Node, into change: inout _Transaction
    ) throws {
        startCheck()
        try restoreContent(of: tab, from: stored)
        let children = tab._children
        let presented = tab._presented
        tab._children = []
        tab._presented = nil
        for child in children { change.append(child, to: tab) }
        if let presented { change.present(presented, by: tab) }
        change.decidedEntries = decided
    }
}

extension FlowRuntime {
    /// The report of the restoration this runtime started with, as it stands: what was left
    /// out so far, how many nodes were restored, and the tabs whose content is not built yet
    /// (``FlowRestoreReport/pending``; see ``start(restoring:routeTypes:lazily:)``). `nil`
    /// for a runtime started with ``start()``.
    public var restoreReport: FlowRestoreReport? { _lazy?.report }

    /// Builds the content of every tab a lazy restoration has not built yet, each in its own
    /// change (kind ``FlowChange/Kind/restoreBranch``), in tree order. Call it when the app has
    /// time (after the first frame); tabs are otherwise built on their first visit.
    ///
    /// - Throws: ``FlowError/changeInProgress(node:)`` if called while a change is checked
    ///   or applied. A tab whose content cannot be restored gets the app's own content
    ///   instead, and the report says why (``restoreReport``).
    public func restorePendingBranches() throws {
        guard let lazy = _lazy, !lazy.branches.isEmpty else { return }
        guard _phase == .idle, _RuntimeActivity.applying.isEmpty else {
            throw FlowError.changeInProgress(node: root?.path ?? "")
        }
        while let tab = lazy.branches.first?.tab { try _restoreBranch(tab) }
    }

    /// Builds the pending tabs a change asked of `node` (of `kind`) may reach: every one for
    /// a navigation, else those at or below `node`. Selections build their own tab
    /// (``FlowTabs``). Only while the runtime is idle (a change asked for from a guard is
    /// refused by its admission).
    func _restoreBranches(for kind: FlowChange.Kind, at node: FlowController) throws {
        guard _phase == .idle, let lazy = _lazy, !lazy.branches.isEmpty else { return }
        switch kind {
        case .select, .platformSelect:
            return
        case .navigate, .open, .unwind:
            while let tab = lazy.branches.first?.tab { try _restoreBranch(tab) }
        default:
            let below = lazy.branches.map(\.tab).filter { $0 === node || $0.isDescendant(of: node) }
            for tab in below { try _restoreBranch(tab) }
        }
    }

    /// Builds `tab`'s content if it is pending, in its own change.
    func _restoreBranch(_ tab: FlowController) throws {
        guard _phase == .idle, let lazy = _lazy, let index = lazy.index(of: tab) else { return }
        let branch = lazy.branches.remove(at: index)
        _RuntimeActivity.pendingBranches -= 1
        guard isRunning, tab.state == .entered else { return }
        tab._children = branch.children
        tab._presented = branch.presented
        for child in branch.children { child._setParent(tab) }
        branch.presented?._setParent(tab)
        let restoration = _Restoration(
            runtime: self, snapshot: lazy.snapshot, routeTypes: lazy.routeTypes)
        restoration.adopt(lazy.types)
        do {
            try _transact(.restoreBranch, domain: tab) { change in
                try restoration.restoreBranch(tab, from: branch.stored, into: &change)
            }
        } catch {
            restoration.rollback()
            // The app's own content instead, as on a fresh start.
            tab._children = []
            tab._presented = nil
            lazy.skipped.append(
                FlowRestoreReport.Skipped(
                    path: tab.path, reason: "its content could not be restored: \(error)"))
            if trace.isEnabled {
                trace.record(.notRestored(node: tab.path, reason: lazy.skipped.last!.reason))
            }
            try? _transact(.restoreBranch, domain: tab) { change in
                for child in branch.children { change.append(child, to: tab) }
                if let presented = branch.presented { change.present(presented, by: tab) }
            }
            return
        }
        restoration.releaseUnused()
        lazy.skipped += restoration.skipped
        lazy.restoredCount += restoration.restoredCount
        if trace.isEnabled {
            for skipped in restoration.skipped {
                trace.record(.notRestored(node: skipped.path, reason: skipped.reason))
            }
        }
    }

    /// The content of `node` as the snapshot has it, if it is a tab whose content is pending.
    func _pendingContent(of node: FlowController) -> FlowSnapshot.Node? {
        guard let lazy = _lazy, let index = lazy.index(of: node) else { return nil }
        return lazy.branches[index].stored
    }

    /// The snapshot of a tab whose content is pending: its own parts as they are now, its
    /// content as the snapshot it was restored from has it.
    func _snapshot(
        ofPending node: FlowController, stored: FlowSnapshot.Node, count: inout Int
    ) throws -> FlowSnapshot.Node {
        var pending = stored.children + (stored.presented.map { [$0] } ?? [])
        while let next = pending.popLast() {
            count += 1
            pending += next.children
            if let presented = next.presented { pending.append(presented) }
        }
        guard count <= FlowSnapshot.maximumNodeCount else {
            throw FlowSnapshotError.tooLarge(limit: FlowSnapshot.maximumNodeCount)
        }
        var copy = stored
        copy.state = nil
        if let restorable = node as? any FlowRestorable {
            copy.state = try _saveState(of: restorable)
        }
        return copy
    }

    /// Whether `node` is a tab whose content is pending (its defaults are not built).
    func _isPendingBranch(_ node: FlowController) -> Bool {
        _lazy.map { $0.index(of: node) != nil } ?? false
    }
}

extension FlowController {
    /// The admission's check for pending tabs (see Restoration+Lazy.swift): builds those a
    /// change of `kind` asked of this node may reach.
    @inline(never)
    func _restorePendingBranches(for kind: FlowChange.Kind) throws {
        guard let runtime = _treeRuntime() else { return }
        try runtime._restoreBranches(for: kind, at: self)
    }
}
