import Foundation
import Testing

@testable import FlowKitCharts

/// SCXML out and back in: every chart of the repository's corpora, written as SCXML and read
/// back, runs to the same trace (or stops the same way).
@MainActor
@Suite("SCXML: round trip")
struct SCXMLRoundTripTests {
    static let corpusDirectory = SCXMLFiles.corpusDirectory

    /// The chart, through SCXML and back.
    static func roundTrip(_ chart: FlowChart) throws -> FlowChart {
        try FlowChart(scxml: Data(try chart.scxmlDocument().utf8))
    }

    /// What running `chart` gives: its trace, or the error that stopped it.
    static func outcome(_ chart: FlowChart) -> String {
        do {
            return try chart.trace()
        } catch {
            return "error: \(error)"
        }
    }

    @Test(
        "Every accepted chart of Examples/, HandChecked/ and Charts/ traces the same through SCXML")
    func corpora() async throws {
        var count = 0
        for chartCase in try ChartFiles.examples() + ChartFiles.handChecked() + ChartFiles.own()
        where chartCase.expectedRejection == nil {
            await Task.yield()
            let chart = try FlowChart(json: chartCase.json)
            let copy = try Self.roundTrip(chart)
            #expect(try copy.trace() == chartCase.expected, "\(chartCase.name)")
            #expect(copy.events == chart.events)
            count += 1
        }
        #expect(count > 30)
    }

    @Test("Every random chart of both formats runs the same through SCXML (traces and runaways)")
    func randomCorpus() async throws {
        var parallel = 0
        for seed in RandomChartTests.seeds {
            // Long on the main actor: let other suites' main-actor work run between charts.
            await Task.yield()
            for format2 in [false, true] {
                let chart = RandomCharts.make(seed: seed, parallel: format2)
                let copy = try Self.roundTrip(chart)
                let (expected, _) = try RandomChartTests.runOnFlowKit(chart)
                let (actual, _) = try RandomChartTests.runOnFlowKit(copy)
                #expect(actual == expected, "seed \(seed), format \(format2 ? 2 : 1)")
                if copy.allowsParallelStates { parallel += 1 }
            }
        }
        #expect(parallel > RandomChartTests.seeds.count / 2)
    }

    @Test("Every random format-3 chart runs the same through SCXML, line for line")
    func randomStructuredCorpus() async throws {
        var same = 0
        for seed in StructureFormatTests.randomSeeds {
            // Long on the main actor: let other suites' main-actor work run between charts.
            await Task.yield()
            let chart = RandomStructuredCharts.make(seed: seed)
            let copy = try Self.roundTrip(chart)
            let (expected, original) = try RandomChartTests.runOnFlowKit(chart)
            let (actual, read) = try RandomChartTests.runOnFlowKit(copy)
            #expect(actual == expected, "seed \(seed)")
            #expect(read.lines == original.lines, "seed \(seed)")
            // The same chart, but for a false guard, which SCXML writes as cond="false".
            var unguarded = chart
            for index in unguarded.transitions.indices where !unguarded.transitions[index].guard {
                unguarded.transitions[index].guard = true
                unguarded.transitions[index].cond = "false"
            }
            if Self.sortedBySource(copy) == Self.sortedBySource(unguarded) { same += 1 }
        }
        #expect(same == StructureFormatTests.randomSeeds.count)
    }

    /// `chart` with its transitions in the order SCXML writes them: by source, in document
    /// order, each source's in the chart's order.
    static func sortedBySource(_ chart: FlowChart) -> FlowChart {
        var order: [String: Int] = [:]
        var pending = [chart.root]
        while let node = pending.popLast() {
            order[node.id] = order.count
            pending.append(contentsOf: node.children.reversed())
        }
        var sorted = chart
        sorted.transitions = chart.transitions.enumerated().sorted {
            (order[$0.element.source]!, $0.offset) < (order[$1.element.source]!, $1.offset)
        }.map(\.element)
        return sorted
    }

    @Test(
        "The corpus's SCXML documents are the writer's output and trace to the JSON's expected trace"
    )
    func committedCorpus() throws {
        let cases = try ChartFiles.examples() + ChartFiles.handChecked()
        for chartCase in cases {
            let url = Self.corpusDirectory.appendingPathComponent(chartCase.name + ".scxml")
            let document = try String(contentsOf: url, encoding: .utf8)
            let chart = try FlowChart(json: chartCase.json)
            #expect(document == (try chart.scxmlDocument()), "\(chartCase.name)")
            #expect(
                try FlowChart(scxml: Data(document.utf8)).trace() == chartCase.expected,
                "\(chartCase.name)")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.corpusDirectory.path)
        #expect(files.count == cases.count)
    }

    @Test(
        "A format-3 chart read from SCXML is written back to a document that reads to the same chart"
    )
    func structureRoundTrip() throws {
        let chart = try FlowChart(
            scxml: Data(
                contentsOf: SCXMLFiles.directory.appendingPathComponent("structure.scxml")))
        let copy = try Self.roundTrip(chart)
        #expect(copy == chart)
        // A false guard (JSON only) is written as cond="false", which reads back as a cond.
        var guarded = chart
        guarded.transitions[0].guard = false
        let read = try Self.roundTrip(guarded)
        #expect(read.transitions[0].cond == "false")
        #expect(try read.trace() == (try guarded.trace()))
    }

    @Test(
        "Writing SCXML keeps the chart: reading it back gives the same states, transitions per state and events"
    )
    func structure() throws {
        let chartCase = try #require(try ChartFiles.examples().first { $0.name == "signin" })
        let chart = try FlowChart(json: chartCase.json)
        let copy = try Self.roundTrip(chart)
        #expect(copy.root == chart.root)
        #expect(copy.name == chart.name)
        #expect(copy.events == chart.events)
        for source in Set(chart.transitions.map(\.source)) {
            #expect(
                copy.transitions.filter { $0.source == source }
                    == chart.transitions.filter { $0.source == source })
        }
        // Special characters are escaped.
        var named = chart
        named.name = "a \"quoted\" <name> & 'more'"
        #expect(try Self.roundTrip(named).name == named.name)
    }

    @Test(
        "A chart SCXML cannot express with the same meaning is refused by the writer",
        arguments: [
            (
                "error", ["error.send"],
                "a transition on 'error' would also take 'error.send' in "
                    + "SCXML, which matches events by prefix"
            ),
            (
                "done", [],
                "a transition on 'done' would also take 'done.state.R' in SCXML, "
                    + "which matches events by prefix"
            ),
            (
                "a b", [],
                "the event name 'a b' is not an SCXML event name (no white space, "
                    + "no '*', no empty part between dots)"
            ),
            (
                "a", ["*"],
                "the event name '*' is not an SCXML event name (no white space, "
                    + "no '*', no empty part between dots)"
            ),
            (
                "a..b", [],
                "the event name 'a..b' is not an SCXML event name (no white space, "
                    + "no '*', no empty part between dots)"
            ),
        ])
    func notExpressible(_ event: String, _ events: [String], _ why: String) throws {
        let chart = FlowChart(
            root: .init(id: "R", initial: "A", children: [.init(id: "A"), .init(id: "B")]),
            transitions: [.init(source: "A", event: event, target: "B")], events: events)
        try chart.validate()
        let error = #expect(throws: SCXMLError.self) { try chart.scxmlDocument() }
        #expect(error?.description == "the chart cannot be written as SCXML: \(why)")
    }
}
