// The runtime's activation state: its invariants, checked at the end of every transaction in
// debug builds, and after every step of the model-based random test
// (Tests/FlowKitTests/ModelBased).

extension FlowRuntime {
    /// The broken invariants of this runtime's activation state, each with its values (empty
    /// when all hold):
    ///
    /// - stopped, nothing is focused or active;
    /// - running, the focused path starts at the root, each node on it continues into the
    ///   next, and it ends at a node that focuses nothing;
    /// - the active nodes are the configuration computed afresh (without a parallel
    ///   container, the focused path itself), each once, the focused path among them;
    /// - the active nodes are exactly the nodes of the tree whose `isActive` is set, and every
    ///   node of the tree is entered in this runtime;
    /// - the count of entered parallel containers is theirs.
    ///
    /// - Complexity: O(*n*) in the nodes of the tree (walked without recursion).
    func _invariantViolations() -> [String] {
        var violations: [String] = []
        func violation(_ text: String) { violations.append("FlowRuntime: \(text)") }
        func names(_ nodes: [FlowController]) -> String { "\(nodes.map(\.path))" }
        guard isRunning, let root else {
            if !_focusedPath.isEmpty || !_activeConfiguration.isEmpty {
                violation(
                    "not running, yet focused \(names(_focusedPath)) and active "
                        + names(_activeConfiguration))
            }
            return violations
        }
        if _focusedPath.first !== root {
            violation("the focused path \(names(_focusedPath)) does not start at the root")
        }
        for (parent, child) in zip(_focusedPath, _focusedPath.dropFirst())
        where !parent._continues(into: child) {
            violation("the focused path goes from '\(parent.path)' to '\(child.path)'")
        }
        if let last = _focusedPath.last, let next = last.focusedChild {
            violation("the focused path ends at '\(last.path)', which focuses '\(next.name)'")
        }
        let active = _activeConfiguration.isEmpty ? _focusedPath : _activeConfiguration
        // Without a parallel container the configuration is the focused path, checked above;
        // a configuration kept from one that exited since is emptied by the next change that
        // moves the focus, and must be the focused path meanwhile.
        if _branchingNodes > 0 || !_activeConfiguration.isEmpty {
            var fresh: [FlowController] = []
            root._appendActive(to: &fresh)
            if !fresh.elementsEqual(active, by: ===) {
                violation("the active nodes \(names(active)) are not \(names(fresh))")
            }
        }
        let activeSet = Set(active.map(ObjectIdentifier.init))
        if activeSet.count != active.count {
            violation("a node is active twice in \(names(active))")
        }
        for node in _focusedPath where !activeSet.contains(ObjectIdentifier(node)) {
            violation("the focused node '\(node.path)' is not active")
        }
        var flagged = 0
        var branching = 0
        var pending = [root]
        while let node = pending.popLast() {
            if node.state != .entered || node._runtime !== self {
                violation("'\(node.path)' is in the tree, \(node.state), not entered here")
            }
            if node.isActive {
                flagged += 1
                if !activeSet.contains(ObjectIdentifier(node)) {
                    violation("'\(node.path)' is flagged active, not among the active nodes")
                }
            }
            if node._branchesActivation { branching += 1 }
            pending.append(contentsOf: node._children)
            if let presented = node._presented { pending.append(presented) }
        }
        if flagged != activeSet.count {
            violation("\(activeSet.count) active, \(flagged) flagged active in the tree")
        }
        if branching != _branchingNodes {
            violation("\(_branchingNodes) parallel containers counted, \(branching) entered")
        }
        return violations
    }

    /// Traps on a broken invariant (``_invariantViolations()``), in debug builds: a release
    /// build does nothing. Called at the end of every transaction, once activation is
    /// reported.
    @inline(__always)
    func _checkInvariants() {
        #if DEBUG
        let violations = _invariantViolations()
        precondition(violations.isEmpty, violations.joined(separator: "; "))
        #endif
    }
}
