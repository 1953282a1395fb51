/// Format 3's rules on the compiled chart: target lists, their domains, and the entry sets
/// the machine works out for them (SCXML's Appendix D: `computeEntrySet`,
/// `addDescendantStatesToEnter`, `addAncestorStatesToEnter`).
extension _ChartProgram {
    /// Compiles a format-3 transition (its source is known to be a state): event
    /// descriptors, the condition, the target list and its domain.
    func compileStructured(_ transition: FlowChart.Transition, index: Int) throws -> Transition {
        let sourceID = transition.source
        var descriptors: [String] = []
        if transition.event != nil {
            descriptors = transition.descriptors
            if descriptors.isEmpty {
                throw FlowChartError.invalidEventDescriptor(index: index, descriptor: "")
            }
            for descriptor in descriptors where !FlowChart.isValidDescriptor(descriptor) {
                throw FlowChartError.invalidEventDescriptor(index: index, descriptor: descriptor)
            }
            descriptors = descriptors.map { $0 == "*" ? $0 : FlowChart._normalizedDescriptor($0) }
        }
        var cond: FlowChart.Condition?
        if let text = transition.cond {
            do {
                cond = try FlowChart.Condition(parsing: text)
            } catch {
                throw FlowChartError.invalidCondition(
                    index: index, cond: text, reason: error.description)
            }
            for id in cond?.stateIDs ?? [] where states[id] == nil {
                throw FlowChartError.unknownID(id, context: "cond of transitions[\(index)]")
            }
        }
        let targetIDs = transition.targets
        var step: Step?
        if let target = transition.target {
            guard !targetIDs.isEmpty else {
                throw FlowChartError.unknownID(target, context: "transitions[\(index)].target")
            }
            for id in targetIDs {
                guard let state = states[id] else {
                    throw FlowChartError.unknownID(id, context: "transitions[\(index)].target")
                }
                if state.kind == .history, state.historyDepth == .deep, let parent = state.parent,
                    sourceID != parent, isDescendant(sourceID, ofOrSelf: parent)
                {
                    throw FlowChartError.deepHistoryFromInside(
                        index: index, source: sourceID, target: id, parent: parent)
                }
            }
            try Self.checkTogether(targetIDs, context: "transitions[\(index)].target", states)
            step = Step(
                domain: structuredDomain(transition, targets: targetIDs), routes: [],
                history: nil, historyDefault: nil, branchingHistoryOf: nil, targets: targetIDs)
        }
        var compiled = Transition(
            index: index, source: sourceID, event: transition.event ?? "",
            isEnabled: transition.guard, raise: transition.raise, step: step)
        compiled.descriptors = descriptors
        compiled.cond = cond
        return compiled
    }

    /// The domain of a format-3 transition: the source, for an internal transition of a
    /// compound source whose targets all lie inside it; otherwise the closest compound
    /// proper ancestor of the source with every target inside it (a history target's
    /// effective targets lie inside the history's parent); `nil` above the root.
    func structuredDomain(_ transition: FlowChart.Transition, targets: [String]) -> String? {
        func containsTargets(_ state: String) -> Bool {
            targets.allSatisfy { id in
                let target = states[id]!
                return target.kind == .history
                    ? isDescendant(target.parent!, ofOrSelf: state)
                    : isProperDescendant(id, of: state)
            }
        }
        let source = states[transition.source]!
        if transition.isInternal, source.kind == .state, !source.children.isEmpty,
            containsTargets(source.id)
        {
            return source.id
        }
        var domain = source.parent
        while let candidate = domain, states[candidate]!.isParallel || !containsTargets(candidate) {
            domain = states[candidate]!.parent
        }
        return domain
    }

    /// Checks that every two ids of a target list can be active together: neither is the
    /// other or inside it, and their closest common ancestor is a parallel state (for a
    /// history node, its parent stands for it).
    static func checkTogether(
        _ ids: [String], context: String, _ states: [String: State]
    ) throws {
        guard ids.count > 1 else { return }
        func anchor(_ id: String) -> String {
            states[id]!.kind == .history ? states[id]!.parent! : id
        }
        func ancestorsOrSelf(_ id: String) -> [String] {
            var result: [String] = []
            var current: String? = id
            while let node = current {
                result.append(node)
                current = states[node]!.parent
            }
            return result
        }
        for (offset, first) in ids.enumerated() {
            for second in ids[(offset + 1)...] {
                let a = ancestorsOrSelf(anchor(first))
                let b = ancestorsOrSelf(anchor(second))
                let common = a.first(where: b.contains)
                guard let common, common != a[0], common != b[0], states[common]!.isParallel
                else {
                    throw FlowChartError.conflictingTargets(
                        context: context, first: first, second: second)
                }
            }
        }
    }

    // MARK: Entry sets

    /// An entry set being worked out: the states, and every state that is one of them or
    /// has one of them inside it (so "does anything enter inside this region?" is one
    /// lookup, not a scan of the set).
    struct EntrySet {
        var states: Set<String> = []
        var covered: Set<String> = []
    }

    /// Adds `id` to `entry`, marking it and its ancestors as covered.
    func insert(_ id: String, into entry: inout EntrySet) {
        guard entry.states.insert(id).inserted else { return }
        var current: String? = id
        while let node = current, entry.covered.insert(node).inserted {
            current = states[node]!.parent
        }
    }

    /// What a history target enters: its record, else its default.
    func effectiveTargets(_ history: String, records: [String: [String]]) -> [String] {
        records[history] ?? states[history]!.defaultTargets
    }

    /// Adds `state` and what its default entry enters (SCXML's `addDescendantStatesToEnter`).
    func addDescendants(
        _ id: String, records: [String: [String]], into entry: inout EntrySet
    ) {
        let state = states[id]!
        if state.kind == .history {
            let restored = effectiveTargets(id, records: records)
            for target in restored { addDescendants(target, records: records, into: &entry) }
            for target in restored {
                addAncestors(target, upTo: state.parent, records: records, into: &entry)
            }
            return
        }
        insert(id, into: &entry)
        if state.isParallel {
            for region in state.children where !entry.covered.contains(region) {
                addDescendants(region, records: records, into: &entry)
            }
        } else if !state.children.isEmpty {
            for target in state.initialTargets {
                addDescendants(target, records: records, into: &entry)
            }
            for target in state.initialTargets {
                addAncestors(target, upTo: id, records: records, into: &entry)
            }
        }
    }

    /// Adds the proper ancestors of `id` below `top` (`nil`: the root included), and the
    /// default entry of the other regions of every parallel state among them (SCXML's
    /// `addAncestorStatesToEnter`).
    func addAncestors(
        _ id: String, upTo top: String?, records: [String: [String]],
        into entry: inout EntrySet
    ) {
        var current = states[id]!.parent
        while let ancestor = current, ancestor != top {
            insert(ancestor, into: &entry)
            let state = states[ancestor]!
            if state.isParallel {
                for region in state.children where !entry.covered.contains(region) {
                    addDescendants(region, records: records, into: &entry)
                }
            }
            current = state.parent
        }
    }

}
