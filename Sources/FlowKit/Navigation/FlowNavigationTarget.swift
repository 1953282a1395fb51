/// One path of a navigation that moves along several paths in one transaction
/// (``FlowRuntime/navigate(toEach:)-([FlowNavigationTarget])``): the node the path starts
/// below, its steps, and how the node it reaches is filled, exactly as the arguments of
/// ``FlowController/navigate(to:history:historyDefault:reentering:)-([FlowStep],_,_,_)``.
///
///     // two regions of a parallel container change at once, one of them restoring history:
///     try runtime.navigate(toEach: [
///         FlowNavigationTarget(from: left, to: [.child("edit")], reentering: true),
///         FlowNavigationTarget(from: right, to: [], history: .deep, reentering: true),
///     ])
///
/// Targets may start at different nodes (a statechart step taking transitions in several
/// regions, each from its own domain); the paths' nodes are planned in the order given and
/// enter in the tree's entry order.
public struct FlowNavigationTarget: Sendable {
    /// The node the path starts below (the transition's domain); it must be entered in the
    /// runtime that navigates.
    public var node: FlowController
    /// The steps, from a child of ``node`` down to the target.
    public var path: [FlowStep]
    /// Restore the target's recorded history (shallow or deep) below it.
    public var history: FlowHistoryDepth?
    /// The child route entered when ``history`` finds no record.
    public var historyDefault: FlowRoute?
    /// Whether everything below ``node`` exits first and the whole path is entered anew (an
    /// external transition).
    public var reentering: Bool

    /// Creates a target: `path` from `node`, filled as
    /// ``FlowController/navigate(to:history:historyDefault:reentering:)-([FlowStep],_,_,_)``
    /// says.
    public init(
        from node: FlowController, to path: [FlowStep], history: FlowHistoryDepth? = nil,
        historyDefault: FlowRoute? = nil, reentering: Bool = false
    ) {
        self.node = node
        self.path = path
        self.history = history
        self.historyDefault = historyDefault
        self.reentering = reentering
    }
}

extension FlowRuntime {
    /// Moves along several paths, each from its own node, in one transaction with one exit
    /// set and one entry set: each target is planned as by
    /// ``FlowController/navigate(to:history:historyDefault:reentering:)-([FlowStep],_,_,_)``
    /// on its node, after the ones before it (a later target sees what an earlier one
    /// planned: a target that does not reenter may continue through nodes an earlier one
    /// builds). The exits run in the reverse of the tree's entry order and the entries in
    /// entry order, whichever order the targets come in (what a target restoring history
    /// builds below a kept node included: it enters before a later region's nodes); history
    /// is recorded for every exiting node before any content is built, so a target restoring
    /// history sees what this very change records.
    ///
    ///     // a statechart step: one transition in each of two regions
    ///     try runtime.navigate(toEach: [
    ///         FlowNavigationTarget(from: regionL, to: [.child("L2")], reentering: true),
    ///         FlowNavigationTarget(from: regionM, to: [.child("M2"), .child("M2b")], reentering: true),
    ///     ])
    ///
    /// Called while a change is applied (from a hook, the host or an observer), the
    /// navigation is queued behind it.
    ///
    /// - Throws: ``FlowError/runtimeNotStarted``; ``FlowError/notInTree(node:)`` if a
    ///   target's node is not entered in this runtime; otherwise the errors of
    ///   ``FlowController/navigate(to:history:historyDefault:reentering:)-([FlowStep],_,_,_)``.
    ///   The tree is then unchanged.
    public func navigate(toEach targets: [FlowNavigationTarget]) throws {
        try _change(.navigate, again: { try self.navigate(toEach: targets) }) {
            guard root != nil, isRunning else { throw FlowError.runtimeNotStarted }
            guard var domain = targets.first?.node else { return }
            for target in targets {
                guard target.node._runtime === self, target.node.state == .entered else {
                    throw FlowError.notInTree(node: target.node.path)
                }
                // The deepest node containing every target's node.
                while !target.node.isDescendant(of: domain), let up = domain.parent {
                    domain = up
                }
            }
            try domain._navigate(toEach: targets, again: { try self.navigate(toEach: targets) })
        }
    }
}

extension FlowController {
    /// Plans every target into one change in this node (it contains every target's node)
    /// and commits it; `again` asks for it again (kept as the intent if a guard redirects).
    /// The one mechanism behind both `navigate(toEach:)` forms.
    func _navigate(
        toEach targets: [FlowNavigationTarget],
        again: @autoclosure () -> @MainActor () throws -> Void
    ) throws {
        try _change(
            .navigate, again: again(),
            describe: {
                "navigate "
                    + targets.map { "\($0.node.path) to \($0.path.pathDescription)" }
                    .joined(separator: " and ")
            },
            validate: {
                try self._requireTree()
                return true
            }
        ) { change in
            change.replacesIntentFrom = self
            for target in targets {
                _ = try target.node._planNavigation(
                    to: target.path, history: target.history,
                    historyDefault: target.historyDefault, reentering: target.reentering,
                    in: &change)
            }
            // What a path planned inside a subtree another one removes never enters; the
            // rest, planned target by target, enters in the tree's entry order.
            if targets.count > 1 {
                change.dropPlansInsideRemovals()
                change.orderInsertionsForEntry()
            }
        }
    }
}
