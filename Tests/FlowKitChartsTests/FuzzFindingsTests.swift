import FlowKit
import FlowKitCharts
import Foundation
import Testing

/// Inputs the chart fuzz target (Fuzz/, scripts/fuzz-inputs.sh charts) found, replayed
/// through the chart loader, validation and `trace()`.
@MainActor
@Suite("Charts: inputs found by fuzzing")
struct FuzzFindingsTests {
    /// The chart the fuzzer found: a transition on `a` that raises `a` again and 1,500 more.
    nonisolated static let floodChart: String = {
        let raised = (["a"] + Array(repeating: "b", count: 1_500)).map { "\"\($0)\"" }
        return """
            {"root":{"id":"R","initial":"A","children":[{"id":"A"}]},
             "transitions":[{"source":"A","event":"a","raise":[\(raised.joined(separator: ","))]}],
             "events":["a"]}
            """
    }()

    @Test("A transition raising 1,501 events in a loop stops at the raised-event limit")
    func raiseFlood() throws {
        // Before the limit, the 10,000 transitions the transition limit allows queued
        // 15 million events: about a minute, growing with the raise list.
        let chart = try FlowChart(json: Data(Self.floodChart.utf8))
        try chart.validate()
        #expect(throws: FlowChartError.raiseFlood(event: "a", limit: 10_000)) {
            _ = try chart.trace()
        }
        let machine = try FlowChartMachine(chart: chart)
        try machine.start()
        #expect(throws: FlowChartError.raiseFlood(event: "a", limit: 10_000)) {
            try machine.send("a")
        }
        #expect(machine.configuration == ["R", "A"])
    }
}
