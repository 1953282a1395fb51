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
/// domain node. A chart of format 3 is always run that way, and the machine also works out
/// each entry set and records history itself, handing FlowKit one path per atomic state
/// entered; eventless transitions then run as further transactions, until none is enabled.
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
    /// ``FlowChartError/eventlessLoop(event:limit:)``: 100 by default, so that an endless
    /// eventless loop is named as such (eventless transitions also count toward
    /// ``transitionLimit``, which a loop through raised events reaches instead).
    public var eventlessStepLimit = 100

    /// The trace lines so far, without line breaks.
    public private(set) var lines: [String] = []

    /// The compiled chart.
    let program: _ChartProgram

    /// The machine's own history records: for each state that records branching deep
    /// history, its active atomic states (every region's) when it last exited.
    var branchingHistory: [String: [String]] = [:]

    /// Format 3: the machine records every history: by history node, the active children of
    /// its parent (shallow) or the parent's active atomic states (deep) when it last exited.
    var historyRecords: [String: [String]] = [:]

    private var transitionsThisStep = 0
    private var raisedThisStep = 0
    private(set) var isFlooded = false
    private(set) var failure: (any Error)?
    private(set) var isRunaway = false
    /// Format 3: set when eventless steps passed ``eventlessStepLimit``.
    var isEventlessLoop = false

    /// Builds the tree's root for `chart`; nothing is entered until ``start()``.
    ///
    /// - Throws: A ``FlowChartError`` if the chart breaks a rule of the format.
    public init(chart: FlowChart) throws {
        let program = try chart._compile()
        self.chart = chart
        self.program = program
        let container = FlowController(name: FlowChartMachine.containerName)
        // Format 3: the start is the machine's own step (the root's default entry, worked out
        // like every entry set, then eventless transitions), not FlowKit's default entry.
        if !program.isStructured { container.initialRoute = FlowRoute(program.root) }
        runtime = try FlowRuntime(root: container)
        container.register(FlowRoute(program.root)) { [unowned self] in
            _makeChartNode(id: program.root, program: program, machine: self)
        }
        if program.isStructured {
            container.on(ChartEvent.self) { [unowned self] event in
                self._structuredEvent(event.name)
                return .handled
            }
            container.on(_ChartStart.self) { [unowned self] _ in
                self._structuredStart()
                return .handled
            }
        } else if program.hasParallelStates {
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
        try _step("start") {
            try runtime.start()
            if program.isStructured { runtime.send(_ChartStart()) }
        }
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
        if isEventlessLoop {
            throw FlowChartError.eventlessLoop(event: event, limit: eventlessStepLimit)
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
