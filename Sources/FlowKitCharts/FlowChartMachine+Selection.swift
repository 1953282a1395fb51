import FlowKit

extension FlowChartMachine {
    // MARK: Selection (charts with parallel states, and format 3)

    /// The active states, each with its node, in document order (the container left out).
    typealias _Active = (nodes: ArraySlice<FlowController>, byName: [String: FlowController])

    func _active() -> _Active {
        let active = runtime.activeNodes.dropFirst()
        var nodes: [String: FlowController] = [:]
        for node in active { nodes[node.name] = node }
        return (active, nodes)
    }

    /// Selection and conflicts (rules 2–3 of the format's parallel semantics): every active
    /// atomic state in document order selects the first enabled transition for `event` on
    /// its way up (`nil`: the first enabled eventless transition, format 3); a transition
    /// counts once; conflicting transitions are resolved. Returns the kept transitions, each
    /// with its exit set. A format-3 condition is evaluated against the configuration as it
    /// is now, before anything exits.
    func _selectTransitions(
        _ event: String?, in active: _Active
    ) -> [(transition: _ChartProgram.Transition, exits: Set<String>)] {
        let structured = program.isStructured
        let nodes = active.byName
        func isActive(_ id: String) -> Bool { nodes[id] != nil }
        func takes(_ transition: _ChartProgram.Transition) -> Bool {
            guard structured else { return transition.event == event && transition.isEnabled }
            if let event {
                guard transition.matches(event, structured: true) else { return false }
            } else if !transition.descriptors.isEmpty {
                return false
            }
            return transition.isEnabled(isActive)
        }
        var selected: [_ChartProgram.Transition] = []
        for node in active.nodes where program.states[node.name]!.children.isEmpty {
            var state: String? = node.name
            search: while let id = state {
                for transition in program.transitions[id] ?? [] where takes(transition) {
                    if !selected.contains(where: { $0.index == transition.index }) {
                        selected.append(transition)
                    }
                    break search
                }
                state = program.states[id]!.parent
            }
        }
        guard !selected.isEmpty else { return [] }
        // Conflicts: a transition's exit set is every active proper descendant of its domain.
        func exitSet(_ transition: _ChartProgram.Transition) -> Set<String> {
            guard let step = transition.step else { return [] }
            guard let domain = step.domain else { return Set(nodes.keys) }
            return Set(nodes.keys.filter { program.isProperDescendant($0, of: domain) })
        }
        var kept: [(transition: _ChartProgram.Transition, exits: Set<String>)] = []
        for transition in selected {
            let exits = exitSet(transition)
            var preempted = false
            var beaten: [Int] = []
            for (index, other) in kept.enumerated() where !exits.isDisjoint(with: other.exits) {
                if program.isProperDescendant(transition.source, of: other.transition.source) {
                    beaten.append(index)
                } else {
                    preempted = true
                    break
                }
            }
            guard !preempted else { continue }
            for index in beaten.reversed() { kept.remove(at: index) }
            kept.append((transition, exits))
        }
        return kept
    }

    /// One step for `event` in a format-2 chart with parallel states (rules 2–5 of the
    /// format's parallel semantics): the selected transitions exit, act and enter as one
    /// FlowKit transaction.
    func _microstep(_ event: String) {
        let current = _active()
        let active = current.nodes
        let nodes = current.byName
        let kept = _selectTransitions(event, in: current)
        guard !kept.isEmpty else { return }
        for _ in kept {
            guard _countTransition() else { return }
        }
        let raised = kept.reduce(0) { $0 + $1.transition.raise.count }
        guard raised == 0 || _countRaised(raised) else { return }
        // History of the exited states, before anything exits (FlowKit records its own,
        // the focused route paths, in the transaction's check phase).
        let exits = kept.reduce(into: Set<String>()) { $0.formUnion($1.exits) }
        for id in exits where program.states[id]!.recordsBranchingHistory {
            branchingHistory[id] = active.map(\.name).filter {
                program.states[$0]!.children.isEmpty && program.isProperDescendant($0, of: id)
            }
        }
        // The actions, in kept order: queued ahead of any done event the entries queue.
        for (transition, _) in kept {
            for name in transition.raise { runtime.send(ChartEvent(name: name)) }
        }
        // The entries: one target per transition (several for a restored branching deep
        // history). FlowKit enters the whole entry set in the tree's entry order (document
        // order), whatever the order of the targets and whichever of them restores a history.
        var targets: [FlowNavigationTarget] = []
        for step in kept.compactMap(\.transition.step) {
            let live = step.domain.map { nodes[$0] } ?? runtime.root
            guard let domain = live else {
                preconditionFailure("chart: domain \(step.domain ?? "-") not active")
            }
            func route(to state: String) -> [FlowStep] {
                program.path(from: step.domain, to: state).map { FlowStep(FlowRoute($0)) }
            }
            if let parent = step.branchingHistoryOf {
                let restored = branchingHistory[parent] ?? []
                for (index, atom) in restored.enumerated() {
                    targets.append(
                        FlowNavigationTarget(
                            from: domain, to: route(to: atom), reentering: index == 0))
                }
                if restored.isEmpty, let fallback = step.historyDefault {
                    targets.append(
                        FlowNavigationTarget(
                            from: domain, to: route(to: fallback), reentering: true))
                }
            } else {
                targets.append(
                    FlowNavigationTarget(
                        from: domain, to: step.routes.map { FlowStep(FlowRoute($0)) },
                        history: step.history,
                        historyDefault: step.historyDefault.map { FlowRoute($0) },
                        reentering: true))
            }
        }
        guard !targets.isEmpty else { return }
        do {
            try runtime.navigate(toEach: targets)
        } catch {
            _fail(error)
        }
    }
}
