import FlowKit

/// A running chart: an ordinary FlowController tree built from a ``FlowChart`` and driven by
/// a `FlowRuntime`, with the trace of what it did.
///
///     let machine = try FlowChartMachine(chart: chart)
///     try machine.start()
///     try machine.send("submit")
///     machine.configuration   // ["App", "Main", "List"]
///     machine.lines           // ["start", "enter App", …, "event submit", …]
///
/// The runtime's root is a hidden container (named `(chart)`, never printed) whose one
/// child is the chart's root state; each state is a node whose route is its id, built by its
/// parent's route factory, and a parallel state is a `FlowParallel` whose regions are
/// built with it. Events go through `FlowRuntime.send(_:)`, queued by FlowKit's
/// run-to-completion queue. In a chart without parallel states each event bubbles from the
/// focused leaf, and the state that takes it makes its transition one
/// `FlowController.navigate(to:history:historyDefault:reentering:)` on its domain node with
/// `reentering: true`. In a chart with parallel states the event reaches the container,
/// where the machine offers it to every active atomic state (`FlowRuntime.activeNodes`),
/// resolves conflicts, and takes the kept transitions as one
/// `FlowRuntime.navigate(toEach:)` transaction: one target per transition, from its
/// domain node.
@MainActor
public final class FlowChartMachine {
    /// The name of the hidden container above the chart's root state.
    public static let containerName = "(chart)"

    /// The chart being run.
    public let chart: FlowChart

    /// The runtime that owns the tree.
    public let runtime: FlowRuntime

    /// How many transitions one external event may set off (with the internal events it
    /// causes) before running stops with ``FlowChartError/runaway(event:limit:)``: 1,000 by
    /// default, far more than a real chart's cascade of `raise` and `done.state` events.
    /// With at most 1,000 external events (``FlowChart/Limit/events``) and 32 levels of
    /// nesting, it bounds a whole ``FlowChart/trace()``.
    public var transitionLimit = 1_000

    /// How many events the transitions' `raise` actions may queue after one external event
    /// before running stops with ``FlowChartError/raiseFlood(event:limit:)``. A loop that
    /// raises many events per transition would otherwise queue up to ``transitionLimit``
    /// times that many before the transition limit stops it.
    public var raisedEventLimit = 10_000

    /// Format 3: how many eventless steps (microsteps of eventless transitions) may follow
    /// one another without an event between them before running stops with
    /// ``FlowChartError/eventlessLoop(event:limit:)``: 1,000 by default. Eventless
    /// transitions also count toward ``transitionLimit``.
    public var eventlessStepLimit = 1_000

    /// The trace lines so far, without line breaks.
    public private(set) var lines: [String] = []

    /// The compiled chart.
    let program: _ChartProgram

    /// The machine's own history records: for each state that records branching deep
    /// history, its active atomic states (every region's) when it last exited.
    private(set) var branchingHistory: [String: [String]] = [:]

    private var transitionsThisStep = 0
    private var raisedThisStep = 0
    private var isFlooded = false
    private var failure: (any Error)?
    private var isRunaway = false

    /// Builds the tree's root for `chart`; nothing is entered until ``start()``.
    ///
    /// - Throws: A ``FlowChartError`` if the chart breaks a rule of the format.
    public init(chart: FlowChart) throws {
        let program = try chart._compile()
        self.chart = chart
        self.program = program
        let container = FlowController(name: FlowChartMachine.containerName)
        container.initialRoute = FlowRoute(program.root)
        runtime = try FlowRuntime(root: container)
        container.register(FlowRoute(program.root)) { [unowned self] in
            _makeChartNode(id: program.root, program: program, machine: self)
        }
        if program.hasParallelStates {
            container.on(ChartEvent.self) { [unowned self] event in
                self._microstep(event.name)
                return .handled
            }
        }
    }

    /// The active states in document order (root first): with one active path, the path
    /// from the root to the active leaf.
    public var configuration: [String] {
        runtime.activeNodes.dropFirst().map(\.name)
    }

    /// Enters the root state and its defaults, then logs `start`, the entries and the
    /// configuration.
    public func start() throws {
        lines.append("start")
        try _step("start") { try runtime.start() }
    }

    /// Delivers the external event `event` and everything it causes, then logs the
    /// configuration.
    ///
    /// - Throws: ``FlowChartError/runaway(event:limit:)`` when internal events loop.
    public func send(_ event: String) throws {
        lines.append("event \(event)")
        try _step(event) { runtime.send(ChartEvent(name: event)) }
    }

    /// The whole trace text, one line each, ending in a line break.
    public var traceText: String {
        lines.map { $0 + "\n" }.joined()
    }

    private func _step(_ event: String, _ body: () throws -> Void) throws {
        transitionsThisStep = 0
        raisedThisStep = 0
        try body()
        if let failure {
            self.failure = nil
            throw failure
        }
        if isRunaway {
            throw FlowChartError.runaway(event: event, limit: transitionLimit)
        }
        if isFlooded {
            throw FlowChartError.raiseFlood(event: event, limit: raisedEventLimit)
        }
        lines.append((["config"] + configuration).joined(separator: " "))
    }

    func _log(_ line: String) {
        lines.append(line)
    }

    /// Counts a transition about to be taken; `false` once the limit is passed (the
    /// transition is then dropped, so the queue drains).
    func _countTransition() -> Bool {
        transitionsThisStep += 1
        if transitionsThisStep > transitionLimit { isRunaway = true }
        return !isRunaway && !isFlooded
    }

    /// Counts `count` events a transition is about to raise; `false` once the limit is
    /// passed (they are then not raised, and later transitions are dropped, so the queue
    /// drains).
    func _countRaised(_ count: Int) -> Bool {
        raisedThisStep += count
        if raisedThisStep > raisedEventLimit { isFlooded = true }
        return !isFlooded
    }

    func _fail(_ error: any Error) {
        if failure == nil { failure = error }
    }

    // MARK: Charts with parallel states

    /// One step for `event` (rules 2–5 of the format's parallel semantics): every active
    /// atomic state in document order selects the first enabled transition for `event` on
    /// its way up; conflicting transitions are resolved; the kept ones exit, act and enter as
    /// one FlowKit transaction.
    func _microstep(_ event: String) {
        let active = runtime.activeNodes.dropFirst()
        var nodes: [String: FlowController] = [:]
        for node in active { nodes[node.name] = node }
        // Selection: each active atomic state, bubbling; a transition counts once.
        var selected: [_ChartProgram.Transition] = []
        for node in active where program.states[node.name]!.children.isEmpty {
            var state: String? = node.name
            search: while let id = state {
                for transition in program.transitions[id] ?? []
                where transition.event == event && transition.isEnabled {
                    if !selected.contains(where: { $0.index == transition.index }) {
                        selected.append(transition)
                    }
                    break search
                }
                state = program.states[id]!.parent
            }
        }
        guard !selected.isEmpty else { return }
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

extension FlowChart {
    /// How many lines a ``trace()`` may grow to: 100,000. Running stops with
    /// ``FlowChartError/traceTooLong(limit:)`` after the step (the start or an event) that
    /// passes it, so a trace holds at most this many lines plus one step's.
    ///
    /// Each line is a state entered or exited, an event or a configuration, so the limit
    /// bounds a trace's time and memory. The other limits do not suffice: within them, each
    /// of 1,000 events may set off 1,000 transitions between states 32 levels deep, tens of
    /// millions of lines. Real charts' traces have tens of lines.
    public static let traceLineLimit = 100_000

    /// Runs the chart (start, then each of ``events``) and returns its trace: the text
    /// `flowchart trace` prints.
    ///
    /// - Throws: A ``FlowChartError`` if the chart is rejected or loops, or if its trace
    ///   grows past ``traceLineLimit`` lines (``FlowChartError/traceTooLong(limit:)``).
    @MainActor
    public func trace() throws -> String {
        let machine = try FlowChartMachine(chart: self)
        try machine.start()
        for event in events {
            guard machine.lines.count <= Self.traceLineLimit else {
                throw FlowChartError.traceTooLong(limit: Self.traceLineLimit)
            }
            try machine.send(event)
        }
        guard machine.lines.count <= Self.traceLineLimit else {
            throw FlowChartError.traceTooLong(limit: Self.traceLineLimit)
        }
        return machine.traceText
    }
}
