import FlowKit

/// One chart state as an ordinary FlowController: its route is its id, its parent builds it
/// from a registered factory, and (in a chart without parallel states) it handles
/// ``ChartEvent``s with its own transitions.
@MainActor
final class _ChartStateNode: FlowController {
    private weak var machine: FlowChartMachine?
    private let program: _ChartProgram
    private let parentID: String?
    /// Whether the state is a final state (its entry queues `done.state.<parent>`).
    let isFinal: Bool
    /// Format 3: the events the state raises on entry.
    private let onEntry: [String]

    init(id: String, program: _ChartProgram, machine: FlowChartMachine) {
        let state = program.states[id]!
        self.machine = machine
        self.program = program
        self.parentID = state.parent
        self.isFinal = state.kind == .final
        self.onEntry = state.onEntry
        super.init(name: id, route: FlowRoute(id))
        initialRoute = state.initial.map { FlowRoute($0) }
        // Format 3: the machine records every history itself.
        if state.hasHistory, !program.isStructured { history = .recorded }
        for child in state.children {
            register(FlowRoute(child)) { [unowned machine] in
                _makeChartNode(id: child, program: program, machine: machine)
            }
        }
        // With parallel states the machine selects transitions for every region at once
        // (FlowChartMachine._microstep); otherwise each state takes its own.
        if !program.selectsTransitions, program.transitions[id] != nil {
            on(ChartEvent.self) { [unowned self] event in self.handle(event) }
        }
    }

    override func didEnter() {
        machine?._log("enter \(name)")
        _raiseOnEntry(onEntry, machine: machine)
        guard isFinal, let parentID, let runtime else { return }
        // Queued: delivered after this change, from the innermost active state then.
        runtime.send(ChartEvent(name: "done.state.\(parentID)"))
        // The parent is a region of a parallel state whose every region is now in a final
        // state (regions that enter later in this step are not yet): done.state.<parallel>.
        if let parallel = parent?.parent as? _ChartParallelNode, parallel.isInFinalState {
            runtime.send(ChartEvent(name: "done.state.\(parallel.name)"))
        }
    }

    override func willExit() {
        machine?._log("exit \(name)")
    }

    /// Takes the first enabled transition for `event` (document order), or forwards it.
    private func handle(_ event: ChartEvent) -> EventDisposition {
        guard let transitions = program.transitions[name],
            let transition = transitions.first(where: { $0.event == event.name && $0.isEnabled })
        else { return .forward }
        guard let machine, machine._countTransition(), let runtime else { return .handled }
        let raises = transition.raise.isEmpty || machine._countRaised(transition.raise.count)
        guard let step = transition.step else {
            // Targetless: nothing exits or enters, but the action still runs.
            guard raises else { return .handled }
            for raised in transition.raise { runtime.send(ChartEvent(name: raised)) }
            return .handled
        }
        var domain: FlowController? = runtime.root
        if let domainID = step.domain {
            domain = self
            while let node = domain, node.name != domainID { domain = node.parent }
        }
        guard let domain else {
            preconditionFailure("chart state '\(name)': domain \(step.domain ?? "-") not live")
        }
        // The action runs between the exits and the entries; its events are queued either
        // way, ahead of any done event the entries queue.
        guard raises else { return .handled }
        for raised in transition.raise { runtime.send(ChartEvent(name: raised)) }
        do {
            try domain.navigate(
                to: step.routes.map { FlowRoute($0) }, history: step.history,
                historyDefault: step.historyDefault.map { FlowRoute($0) }, reentering: true)
        } catch {
            machine._fail(error)
        }
        return .handled
    }
}

/// A parallel chart state: a `FlowParallel` whose regions (chart states, compound or atomic)
/// are built with it and entered with it, each at its initial state unless a transition's
/// path or a restored history goes into it.
@MainActor
final class _ChartParallelNode: FlowParallel {
    private weak var machine: FlowChartMachine?
    /// Format 3: the events the state raises on entry.
    private let onEntry: [String]

    init(id: String, program: _ChartProgram, machine: FlowChartMachine) {
        let state = program.states[id]!
        self.machine = machine
        let regions = state.children.map {
            _makeChartNode(id: $0, program: program, machine: machine)
        }
        onEntry = state.onEntry
        super.init(name: id, route: FlowRoute(id), regions: regions)
        if state.hasHistory, !program.isStructured { history = .recorded }
    }

    /// Whether every region is in a final state: a compound region whose active child is an
    /// entered final state, or (format 3) a parallel region whose every region is (an atomic
    /// region never is).
    var isInFinalState: Bool {
        regions.allSatisfy { region in
            if let parallel = region as? _ChartParallelNode { return parallel.isInFinalState }
            guard let child = region.children.last as? _ChartStateNode else { return false }
            return child.isFinal && child.state == .entered
        }
    }

    override func didEnter() {
        machine?._log("enter \(name)")
        _raiseOnEntry(onEntry, machine: machine)
    }

    override func willExit() {
        machine?._log("exit \(name)")
    }
}

/// The node for chart state `id`: a ``_ChartParallelNode`` for a parallel state, else a
/// ``_ChartStateNode``.
@MainActor
func _makeChartNode(
    id: String, program: _ChartProgram, machine: FlowChartMachine
) -> FlowController {
    if program.states[id]!.isParallel {
        return _ChartParallelNode(id: id, program: program, machine: machine)
    }
    return _ChartStateNode(id: id, program: program, machine: machine)
}

/// Format 3: queues the events a state raises on entry (SCXML's `<raise>` in `<onentry>`),
/// right after its entry, within the limit on raised events.
@MainActor
func _raiseOnEntry(_ events: [String], machine: FlowChartMachine?) {
    guard !events.isEmpty, let machine, machine._countRaised(events.count) else { return }
    for name in events { machine.runtime.send(ChartEvent(name: name)) }
}
