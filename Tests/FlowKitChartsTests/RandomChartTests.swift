import FlowKit
import Testing

@testable import FlowKitCharts

@MainActor
@Suite("Random charts")
struct RandomChartTests {
    /// Seeds 1–400, and charts longer runs found: 8738 (format 2) restores a history in one
    /// region beside a transition in a later region (issue 29, bug 10: the restored state
    /// entered last; one chart in the first 20,000 seeds).
    static let seeds: [UInt64] = Array(1...400) + [8738]
    static let limit = 200

    /// Runs `chart` on FlowKit, as `flowchart trace` does, stopping at a runaway (raised
    /// events or, in format 3, eventless steps without end).
    static func runOnFlowKit(
        _ chart: FlowChart
    ) throws -> (
        ReferenceInterpreter.Outcome, FlowChartMachine
    ) {
        let machine = try FlowChartMachine(chart: chart)
        machine.transitionLimit = limit
        do {
            try machine.start()
        } catch FlowChartError.runaway, FlowChartError.eventlessLoop {
            return (.runaway(afterEvent: -1), machine)
        }
        for (index, event) in chart.events.enumerated() {
            do {
                try machine.send(event)
            } catch FlowChartError.runaway, FlowChartError.eventlessLoop {
                return (.runaway(afterEvent: index), machine)
            }
        }
        return (.trace(machine.traceText), machine)
    }

    @Test("Random charts trace exactly as the reference reading of the chart format")
    func matchesReference() throws {
        var runaways = 0
        var lines = 0
        for seed in Self.seeds {
            let chart = RandomCharts.make(seed: seed)
            try chart.validate()
            var reference = ReferenceInterpreter(chart: chart, limit: Self.limit)
            let expected = reference.run()
            let (actual, machine) = try Self.runOnFlowKit(chart)
            #expect(actual == expected, "seed \(seed)")
            if case .runaway = expected { runaways += 1 }
            lines += machine.lines.count
            // The core's history records are the reference's, keyed by node path.
            for (state, record) in reference.records {
                let path =
                    ([FlowChartMachine.containerName]
                    + reference.ancestorsOrSelf(state)
                    .reversed()).joined(separator: "/")
                #expect(
                    machine.runtime.recordedHistory(at: path)?.map(\.description) == record,
                    "seed \(seed): history of \(state)")
            }
        }
        // The generator must exercise transitions, not only unhandled events.
        #expect(lines > Self.seeds.count * 40)
        #expect(runaways < Self.seeds.count / 4)
    }

    @Test("In random charts every enter is matched by one exit and every config is a path")
    func traceInvariants() throws {
        for seed in Self.seeds {
            let chart = RandomCharts.make(seed: seed)
            let (_, machine) = try Self.runOnFlowKit(chart)
            let program = try chart._compile()
            var active: [String] = []
            var problems: [String] = []
            for line in machine.lines {
                let parts = line.split(separator: " ").map(String.init)
                switch parts.first {
                case "enter":
                    let id = parts[1]
                    if program.states[id]?.parent != active.last {
                        problems.append("\(line) under \(active)")
                    }
                    active.append(id)
                case "exit":
                    if active.last != parts[1] { problems.append("\(line) from \(active)") }
                    active.removeLast()
                case "config":
                    let config = Array(parts.dropFirst())
                    if config != active { problems.append("\(line) but active \(active)") }
                    if let leaf = config.last, !program.states[leaf]!.children.isEmpty {
                        problems.append("\(line) ends in a compound state")
                    }
                    if config.first != program.root { problems.append("\(line) misses the root") }
                default:
                    break
                }
            }
            #expect(problems.isEmpty, "seed \(seed): \(problems)")
        }
    }

    // MARK: Format 2

    @Test("Random format-2 charts trace exactly as the SCXML reference reading of the format")
    func parallelMatchesReference() throws {
        var runaways = 0
        var lines = 0
        var withParallel = 0
        var atomsExitedTogether = 0
        var branchingHistory = 0
        for seed in Self.seeds {
            let chart = RandomCharts.make(seed: seed, parallel: true)
            try chart.validate()
            let program = try chart._compile()
            if program.hasParallelStates { withParallel += 1 }
            if program.transitions.values.joined().contains(where: {
                $0.step?.branchingHistoryOf != nil
            }) {
                branchingHistory += 1
            }
            var reference = ParallelReferenceInterpreter(chart: chart, limit: Self.limit)
            let expected = reference.run()
            let (actual, machine) = try Self.runOnFlowKit(chart)
            #expect(actual == expected, "seed \(seed)")
            if case .runaway = expected { runaways += 1 }
            lines += machine.lines.count
            // Several atomic states exited in one step (regions leaving together): two
            // `exit` lines of atomic states in a row.
            var exitedAtoms = 0
            for line in machine.lines {
                if line.hasPrefix("exit "),
                    program.states[String(line.dropFirst(5))]!.children.isEmpty
                {
                    exitedAtoms += 1
                    if exitedAtoms == 2 { atomsExitedTogether += 1 }
                } else {
                    exitedAtoms = 0
                }
            }
        }
        #expect(withParallel > Self.seeds.count / 2)
        #expect(atomsExitedTogether > Self.seeds.count)
        // (At the time of writing: 317 charts with parallel states, 45 targeting a deep
        // history the machine records, 57 runaways.)
        #expect(branchingHistory > Self.seeds.count / 20)
        #expect(lines > Self.seeds.count * 40)
        #expect(runaways < Self.seeds.count / 4)
    }

    @Test("In random format-2 charts the trace keeps a valid configuration")
    func parallelTraceInvariants() throws {
        for seed in Self.seeds {
            let chart = RandomCharts.make(seed: seed, parallel: true)
            let (outcome, machine) = try Self.runOnFlowKit(chart)
            let program = try chart._compile()
            var active: Set<String> = []
            var problems: [String] = []
            for line in machine.lines {
                let parts = line.split(separator: " ").map(String.init)
                switch parts.first {
                case "enter":
                    let id = parts[1]
                    if let parent = program.states[id]!.parent, !active.contains(parent) {
                        problems.append("\(line) with its parent inactive")
                    }
                    if !active.insert(id).inserted { problems.append("\(line) twice") }
                case "exit":
                    let id = parts[1]
                    if program.states[id]!.children.contains(where: active.contains) {
                        problems.append("\(line) before its children")
                    }
                    if active.remove(id) == nil { problems.append("\(line) while inactive") }
                case "config":
                    let config = Array(parts.dropFirst())
                    let inOrder = active.sorted { program.position[$0]! < program.position[$1]! }
                    if config != inOrder { problems.append("\(line) but active \(inOrder)") }
                    if config.first != program.root { problems.append("\(line) misses the root") }
                    for id in config {
                        let state = program.states[id]!
                        let activeChildren = state.children.filter(active.contains).count
                        let expected =
                            state.children.isEmpty ? 0 : state.isParallel ? state.children.count : 1
                        if activeChildren != expected {
                            problems.append("\(line): \(id) has \(activeChildren) active children")
                        }
                    }
                default:
                    break
                }
            }
            // The runtime agrees at the end (unless a runaway stopped it mid-event): exactly
            // these nodes are active, in this order.
            if case .trace = outcome,
                let last = machine.lines.last(where: { $0.hasPrefix("config ") }),
                last != (["config"] + machine.configuration).joined(separator: " ")
            {
                problems.append("\(last) but activeNodes \(machine.configuration)")
            }
            #expect(problems.isEmpty, "seed \(seed): \(problems)")
        }
    }
}
