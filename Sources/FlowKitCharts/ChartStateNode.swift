import FlowKit

/// One chart state as an ordinary FlowController: its route is its id, its parent builds it
/// from a registered factory, and it handles ``ChartEvent``s with its own transitions.
@MainActor
final class _ChartStateNode: FlowController {
    private weak var machine: FlowChartMachine?
    private let program: _ChartProgram
    private let parentID: String?
    private let isFinal: Bool

    init(id: String, program: _ChartProgram, machine: FlowChartMachine) {
        let state = program.states[id]!
        self.machine = machine
        self.program = program
        self.parentID = state.parent
        self.isFinal = state.kind == .final
        super.init(name: id, route: FlowRoute(id))
        initialRoute = state.initial.map { FlowRoute($0) }
        if state.hasHistory { history = .recorded }
        for child in state.children {
            register(FlowRoute(child)) { [unowned machine] in
                _ChartStateNode(id: child, program: program, machine: machine)
            }
        }
        if program.transitions[id] != nil {
            on(ChartEvent.self) { [unowned self] event in self.handle(event) }
        }
    }

    override func didEnter() {
        machine?._log("enter \(name)")
        if isFinal, let parentID {
            // Queued: delivered after this change, from the innermost active state then.
            runtime?.send(ChartEvent(name: "done.state.\(parentID)"))
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
