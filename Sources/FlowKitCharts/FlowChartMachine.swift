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
/// parent's route factory. A transition is one
/// `FlowController.navigate(to:history:historyDefault:reentering:)` on its domain
/// node with `reentering: true`; external events go through `FlowRuntime.send(_:)`
/// and bubble from the focused leaf.
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

    /// The trace lines so far, without line breaks.
    public private(set) var lines: [String] = []

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
        let container = FlowController(name: FlowChartMachine.containerName)
        container.initialRoute = FlowRoute(program.root)
        runtime = try FlowRuntime(root: container)
        container.register(FlowRoute(program.root)) { [unowned self] in
            _ChartStateNode(id: program.root, program: program, machine: self)
        }
    }

    /// The active states, root first.
    public var configuration: [String] {
        runtime.focusedPath.dropFirst().map(\.name)
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
