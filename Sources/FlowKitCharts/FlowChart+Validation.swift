import FlowKit

extension FlowChart {
    /// Checks the chart against every rule of the format and compiles it for running.
    ///
    /// The rules: the chart is within its limits (``FlowChart/Limit``: states, nesting,
    /// transitions, events); the format is format 1, 2 or 3 (none named: format 1); ids are
    /// valid and unique; every reference names a known id; parallel states appear only in
    /// formats 2 and 3, and format 3's keys (`cond`, `onentry`, `onexit`) only in format 3; a
    /// compound state names one of its non-history children as `initial` (format 3: one or
    /// more descendants at any depth, able to be active together); final and history nodes
    /// have no children and are never the root; a parallel state names no `initial` and has at
    /// least one region, each a state (never final; parallel only in format 3); a history node
    /// has a depth and a non-history sibling as `default` (format 3: one or more non-history
    /// descendants of its parent, able to be active together) and no `onentry`/`onexit`; every
    /// transition has an event (format 3: well-formed descriptors, or none for an eventless
    /// transition) and a source that is a state (not final, not history); format 3's targets
    /// can be active together and its `cond` is a ``FlowChart/Condition`` naming known ids; a
    /// deep-history target's transition source does not lie strictly inside the history's
    /// parent.
    ///
    /// - Throws: The first ``FlowChartError`` found, in the order above (document order
    ///   within each rule).
    public func validate() throws {
        _ = try _compile()
    }

    func _compile() throws -> _ChartProgram {
        guard let formatNumber else {
            throw FlowChartError.unsupportedFormat(format ?? FlowChart.formatIdentifier)
        }
        let structured = formatNumber == 3
        if transitions.count > Limit.transitions.value {
            throw FlowChartError.overLimit(.transitions)
        }
        if events.count > Limit.events.value { throw FlowChartError.overLimit(.events) }
        var states: [String: _ChartProgram.State] = [:]
        var order: [String] = []
        var nodes: [(Node, parent: String?)] = []
        // Structure: ids, kinds, children (pre-order, document order).
        var pending: [(Node, String?)] = [(root, nil)]
        while let (node, parent) = pending.popLast() {
            guard order.count < Limit.states.value else {
                throw FlowChartError.overLimit(.states)
            }
            let depth = parent.map { states[$0]!.depth + 1 } ?? 0
            guard depth < Limit.nesting.value else { throw FlowChartError.overLimit(.nesting) }
            guard Self._isValidID(node.id) else { throw FlowChartError.invalidID(node.id) }
            guard states[node.id] == nil else { throw FlowChartError.duplicateID(node.id) }
            if node.kind == .parallel, !allowsParallelStates {
                throw FlowChartError.parallelState(node.id)
            }
            if parent == nil, node.kind == .final || node.kind == .history {
                throw FlowChartError.invalidRoot(id: node.id, kind: node.kind)
            }
            if node.kind == .final || node.kind == .history, !node.children.isEmpty {
                throw FlowChartError.childrenOfNonState(id: node.id, kind: node.kind)
            }
            for (key, raised) in [("onentry", node.onEntry), ("onexit", node.onExit)]
            where !raised.isEmpty {
                guard structured else {
                    throw FlowChartError.needsFormat3(key: key, context: "state '\(node.id)'")
                }
                guard node.kind != .history else {
                    throw FlowChartError.invalidHistory(
                        id: node.id, reason: "a history node has no \"\(key)\"")
                }
            }
            states[node.id] = _ChartProgram.State(
                id: node.id, kind: node.kind, parent: parent,
                children: node.children.filter { $0.kind != .history }.map(\.id),
                initial: node.initial, depth: depth)
            states[node.id]!.histories = node.children.filter { $0.kind == .history }.map(\.id)
            states[node.id]!.onEntry = node.onEntry
            states[node.id]!.onExit = node.onExit
            order.append(node.id)
            nodes.append((node, parent))
            pending.append(contentsOf: node.children.reversed().map { ($0, node.id) })
        }
        // References inside the tree: initials and history defaults.
        for (node, parent) in nodes {
            let state = states[node.id]!
            if state.kind == .parallel {
                if let initial = node.initial {
                    throw FlowChartError.initialOnParallel(state: node.id, initial: initial)
                }
                let regions = node.children.filter { $0.kind != .history }
                if regions.isEmpty { throw FlowChartError.parallelWithoutRegions(state: node.id) }
                if let region = regions.first(where: {
                    $0.kind == .final || ($0.kind == .parallel && !structured)
                }) {
                    throw FlowChartError.invalidRegion(
                        parallel: node.id, region: region.id, kind: region.kind)
                }
            }
            if state.kind == .state, !state.children.isEmpty || node.initial != nil {
                guard let initial = node.initial else {
                    throw FlowChartError.missingInitial(state: node.id)
                }
                if structured {
                    states[node.id]!.initial = try Self._structuredInitial(node, states)
                    states[node.id]!.initialTargets = node.initialTargets
                    continue
                }
                guard states[initial] != nil else {
                    throw FlowChartError.unknownID(initial, context: "initial of '\(node.id)'")
                }
                guard state.children.contains(initial) else {
                    throw FlowChartError.invalidInitial(state: node.id, initial: initial)
                }
            }
            if node.kind == .history {
                guard node.history != nil else {
                    throw FlowChartError.invalidHistory(
                        id: node.id, reason: "needs \"history\": \"shallow\" or \"deep\"")
                }
                guard var fallback = node.default else {
                    throw FlowChartError.invalidHistory(
                        id: node.id, reason: "needs a \"default\" sibling")
                }
                if structured, let parent {
                    states[node.id]!.defaultTargets = try Self._structuredDefault(
                        node, parent: parent, states)
                    fallback = states[node.id]!.defaultTargets[0]
                    states[parent]!.hasHistory = true
                    states[node.id]!.historyDepth = node.history
                    states[node.id]!.historyDefault = fallback
                    continue
                }
                guard states[fallback] != nil else {
                    throw FlowChartError.unknownID(
                        fallback, context: "default of history '\(node.id)'")
                }
                guard let parent, states[parent]!.children.contains(fallback) else {
                    throw FlowChartError.invalidHistory(
                        id: node.id,
                        reason: "default '\(fallback)' is not a non-history sibling")
                }
                states[parent]!.hasHistory = true
                states[node.id]!.historyDepth = node.history
                states[node.id]!.historyDefault = fallback
            }
        }
        // A deep history whose parent has a parallel state at or below it is recorded by the
        // machine (every region's active atomic state), not by FlowKit's focused path.
        for (node, parent) in nodes where node.kind == .history && node.history == .deep {
            guard let parent else { continue }
            if order.contains(where: {
                states[$0]!.kind == .parallel && Self._isInside($0, parent, states)
            }) {
                states[parent]!.recordsBranchingHistory = true
            }
        }
        var program = _ChartProgram(
            root: root.id, states: states, order: order, isStructured: structured)
        for (index, transition) in transitions.enumerated() {
            let compiled = try program.compile(transition, index: index)
            program.transitions[transition.source, default: []].append(compiled)
        }
        return program
    }

    /// Format 3: checks a compound state's `initial` list (descendants at any depth, able
    /// to be active together) and returns the child FlowKit's `initialRoute` names (the
    /// one on the way to the first target; FlowKit never expands it on its own in format 3,
    /// since the machine gives every path down to atomic states).
    private static func _structuredInitial(
        _ node: Node, _ states: [String: _ChartProgram.State]
    ) throws -> String {
        let ids = node.initialTargets
        guard !ids.isEmpty else { throw FlowChartError.missingInitial(state: node.id) }
        for id in ids {
            guard states[id] != nil else {
                throw FlowChartError.unknownID(id, context: "initial of '\(node.id)'")
            }
            guard id != node.id, _isInside(id, node.id, states) else {
                throw FlowChartError.initialNotDescendant(state: node.id, initial: id)
            }
        }
        try _ChartProgram.checkTogether(ids, context: "initial of '\(node.id)'", states)
        var first = ids[0]
        // A history child of the state itself stands for its parent: its default leads on.
        if states[first]!.kind == .history, states[first]!.parent == node.id,
            let history = node.children.first(where: { $0.id == first }),
            let fallback = history.defaultTargets.first, states[fallback] != nil
        {
            first = fallback
        }
        return _ChartProgram.path(from: node.id, to: first, states).first ?? first
    }

    /// Format 3: checks a history node's `default` list (non-history descendants of its
    /// parent at any depth, able to be active together) and returns it.
    private static func _structuredDefault(
        _ node: Node, parent: String, _ states: [String: _ChartProgram.State]
    ) throws -> [String] {
        let ids = node.defaultTargets
        guard !ids.isEmpty else {
            throw FlowChartError.invalidHistory(id: node.id, reason: "needs a \"default\"")
        }
        for id in ids {
            guard let state = states[id] else {
                throw FlowChartError.unknownID(id, context: "default of history '\(node.id)'")
            }
            guard state.kind != .history, id != parent, _isInside(id, parent, states) else {
                throw FlowChartError.invalidHistory(
                    id: node.id,
                    reason: "default '\(id)' is not a non-history descendant of '\(parent)'")
            }
        }
        try _ChartProgram.checkTogether(ids, context: "default of history '\(node.id)'", states)
        return ids
    }

    /// Whether `id` is `ancestor` or lies inside it.
    private static func _isInside(
        _ id: String, _ ancestor: String, _ states: [String: _ChartProgram.State]
    ) -> Bool {
        var current: String? = id
        while let node = current {
            if node == ancestor { return true }
            current = states[node]?.parent
        }
        return false
    }

    static func _isValidID(_ id: String) -> Bool {
        guard let first = id.unicodeScalars.first else { return false }
        func isLetter(_ scalar: Unicode.Scalar) -> Bool {
            ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar) || scalar == "_"
        }
        return isLetter(first)
            && id.unicodeScalars.allSatisfy { isLetter($0) || ("0"..."9").contains($0) }
    }
}
