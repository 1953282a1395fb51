import FlowKit
import Testing

@testable import FlowKitCharts

@MainActor
@Suite("Random charts")
struct RandomChartTests {
    static let seeds: [UInt64] = Array(1...400)
    static let limit = 200

    /// Runs `chart` on FlowKit, as `flowchart trace` does, stopping at a runaway.
    static func runOnFlowKit(
        _ chart: FlowChart
    ) throws -> (
        ReferenceInterpreter.Outcome, FlowChartMachine
    ) {
        let machine = try FlowChartMachine(chart: chart)
        machine.transitionLimit = limit
        do {
            try machine.start()
        } catch FlowChartError.runaway {
            return (.runaway(afterEvent: -1), machine)
        }
        for (index, event) in chart.events.enumerated() {
            do {
                try machine.send(event)
            } catch FlowChartError.runaway {
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
}
