import FlowKit

extension FlowChart {
    /// Checks the chart against every rule of the format and compiles it for running.
    ///
    /// The rules: the chart is within its limits (``FlowChart/Limit``: states, nesting,
    /// transitions, events); the format is format 1 or 2 (none named: format 1); ids are
    /// valid and unique; every reference names a known id; parallel states appear only in
    /// format 2; a compound state names one of its non-history children as `initial`; final
    /// and history nodes have no children and are never the root; a parallel state names no
    /// `initial` and has at least one region, each a state (never final or parallel); a
    /// history node has a depth and a non-history sibling as `default`; every transition has
    /// an event and a source that is a state (not final, not history); a deep-history
    /// target's transition source does not lie strictly inside the history's parent.
    ///
    /// - Throws: The first ``FlowChartError`` found, in the order above (document order
    ///   within each rule).
    public func validate() throws {
        _ = try _compile()
    }

    func _compile() throws -> _ChartProgram {
        if let format, format != FlowChart.formatIdentifier,
            format != FlowChart.parallelFormatIdentifier
        {
            throw FlowChartError.unsupportedFormat(format)
        }
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
            states[node.id] = _ChartProgram.State(
                id: node.id, kind: node.kind, parent: parent,
                children: node.children.filter { $0.kind != .history }.map(\.id),
                initial: node.initial, depth: depth)
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
                if let region = regions.first(where: { $0.kind != .state }) {
                    throw FlowChartError.invalidRegion(
                        parallel: node.id, region: region.id, kind: region.kind)
                }
            }
            if state.kind == .state, !state.children.isEmpty || node.initial != nil {
                guard let initial = node.initial else {
                    throw FlowChartError.missingInitial(state: node.id)
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
                guard let fallback = node.default else {
                    throw FlowChartError.invalidHistory(
                        id: node.id, reason: "needs a \"default\" sibling")
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
        var program = _ChartProgram(root: root.id, states: states, order: order)
        for (index, transition) in transitions.enumerated() {
            let compiled = try program.compile(transition, index: index)
            program.transitions[transition.source, default: []].append(compiled)
        }
        return program
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
