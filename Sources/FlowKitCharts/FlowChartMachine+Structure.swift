import FlowKit

/// The machine's own event that starts a format-3 chart: delivered at the hidden container
/// through FlowKit's queue, so the root's entry and the eventless steps after it run before
/// any event the entry raised (SCXML's Appendix D: `enterStates`, then `mainEventLoop`).
struct _ChartStart: FlowEvent {}

/// Format 3 (SCXML's Appendix D with eventless transitions, conditions, descriptors, target
/// lists and raise on entry and exit). Every step is still one FlowKit transaction, a
/// `FlowRuntime.navigate(toEach:)` from each kept transition's domain node; the machine
/// works out the entry set (default entries, history, the other regions of parallel states)
/// and hands FlowKit one path per atomic state entered, so FlowKit never expands a default of
/// its own, and it records every history itself.
extension FlowChartMachine {
    /// The start: the root's default entry as one transaction from the container, then the
    /// eventless steps it enables.
    func _structuredStart() {
        var entry = _ChartProgram.EntrySet()
        program.addDescendants(program.root, records: historyRecords, into: &entry)
        guard let container = runtime.root else { return }
        let targets = _paths(entering: entry, from: nil, node: container)
        do {
            try runtime.navigate(toEach: targets)
        } catch {
            _fail(error)
            return
        }
        _settle()
    }

    /// One event, internal or external: its step, then the eventless steps it enables.
    func _structuredEvent(_ event: String) {
        let active = _active()
        let kept = _selectTransitions(event, in: active)
        guard !kept.isEmpty, _takeStructured(kept, in: active) else { return }
        _settle()
    }

    /// Eventless steps until none is enabled (or a limit stops them): SCXML's macrostep,
    /// which takes enabled eventless transitions before the next queued event.
    func _settle() {
        var steps = 0
        while failure == nil, !isRunaway, !isFlooded, !isEventlessLoop {
            let active = _active()
            let kept = _selectTransitions(nil, in: active)
            guard !kept.isEmpty else { return }
            steps += 1
            guard steps <= eventlessStepLimit else {
                isEventlessLoop = true
                return
            }
            guard _takeStructured(kept, in: active) else { return }
        }
    }

    /// Takes the kept transitions as one step: history records, the exiting states' `onexit`
    /// events (in exit order), the transitions' `raise` events (in kept order), then one
    /// transaction whose entries queue their `onentry` and done events as they enter.
    /// `active` is the configuration the transitions were selected in. Returns whether the
    /// step ran.
    func _takeStructured(
        _ kept: [(transition: _ChartProgram.Transition, exits: Set<String>)], in active: _Active
    ) -> Bool {
        for _ in kept {
            guard _countTransition() else { return false }
        }
        let exits = kept.reduce(into: Set<String>()) { $0.formUnion($1.exits) }
        let exitOrder = exits.sorted { program.position[$0]! > program.position[$1]! }
        let raised = exitOrder.flatMap { program.states[$0]!.onExit } + kept.flatMap(\.0.raise)
        guard raised.isEmpty || _countRaised(raised.count) else { return false }
        // History, before anything exits: SCXML's `exitStates`.
        for id in exits {
            for history in program.states[id]!.histories {
                let deep = program.states[history]!.historyDepth == .deep
                historyRecords[history] = active.nodes.map(\.name).filter {
                    deep
                        ? program.states[$0]!.children.isEmpty
                            && program.isProperDescendant($0, of: id)
                        : program.states[$0]!.parent == id
                }
            }
        }
        for name in raised { runtime.send(ChartEvent(name: name)) }
        var targets: [FlowNavigationTarget] = []
        for step in kept.compactMap(\.transition.step) {
            var entry = _ChartProgram.EntrySet()
            for target in step.targets {
                program.addDescendants(target, records: historyRecords, into: &entry)
            }
            for target in step.targets {
                let effective =
                    program.states[target]!.kind == .history
                    ? program.effectiveTargets(target, records: historyRecords) : [target]
                for state in effective {
                    program.addAncestors(
                        state, upTo: step.domain, records: historyRecords, into: &entry)
                }
            }
            let live = step.domain.map { active.byName[$0] } ?? runtime.root
            guard let domain = live else {
                preconditionFailure("chart: domain \(step.domain ?? "-") not active")
            }
            targets += _paths(entering: entry, from: step.domain, node: domain)
        }
        guard !targets.isEmpty else { return true }
        do {
            try runtime.navigate(toEach: targets)
        } catch {
            _fail(error)
            return false
        }
        return true
    }

    /// One path per atomic state of `entry`, in document order, from `domain` (whose node is
    /// `node`): the first reenters the domain, the others continue through what it builds.
    func _paths(
        entering entry: _ChartProgram.EntrySet, from domain: String?, node: FlowController
    ) -> [FlowNavigationTarget] {
        let atoms = entry.states.filter { program.states[$0]!.children.isEmpty }
            .sorted { program.position[$0]! < program.position[$1]! }
        return atoms.enumerated().map { index, atom in
            FlowNavigationTarget(
                from: node,
                to: program.path(from: domain, to: atom).map { FlowStep(FlowRoute($0)) },
                reentering: index == 0)
        }
    }
}
