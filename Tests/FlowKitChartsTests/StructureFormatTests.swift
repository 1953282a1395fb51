import FlowKit
import Foundation
import Testing

@testable import FlowKitCharts

/// Format 3 (`flowkit-hsm-case/3`, Docs/ChartFormat.md "Format 3"): its model, its
/// rejections and its run on FlowKit trees.
@MainActor
@Suite("Charts: format 3")
struct StructureFormatTests {
    /// Every running chart of formats 1 and 2 in the repository, read as format 3.
    nonisolated static func formerCharts() throws -> [ChartCase] {
        try (ChartFiles.examples() + ChartFiles.handChecked() + ChartFiles.own()).filter {
            $0.expectedRejection == nil
                && (try? FlowChart(json: $0.json))?.formatNumber.map { $0 < 3 } == true
        }
    }

    @Test(
        "Every chart of formats 1 and 2 traces the same when it is read as format 3",
        arguments: try formerCharts())
    func formerChartsAsFormat3(_ chartCase: ChartCase) throws {
        var chart = try FlowChart(json: chartCase.json)
        chart.format = FlowChart.structureFormatIdentifier
        #expect(try chart.trace() == chartCase.expected)
    }
}

extension StructureFormatTests {
    @Test("Random charts of formats 1 and 2 trace the same when they are read as format 3")
    func randomFormerChartsAsFormat3() throws {
        for seed in RandomChartTests.seeds {
            for parallel in [false, true] {
                let chart = RandomCharts.make(seed: seed, parallel: parallel)
                var structured = chart
                structured.format = FlowChart.structureFormatIdentifier
                let (expected, _) = try RandomChartTests.runOnFlowKit(chart)
                let (actual, _) = try RandomChartTests.runOnFlowKit(structured)
                #expect(actual == expected, "seed \(seed), parallel: \(parallel)")
            }
        }
    }
}

extension StructureFormatTests {
    static let randomSeeds: [UInt64] = Array(1...400)

    @Test("Random format-3 charts trace exactly as the independent SCXML reference reading")
    func randomMatchesReference() throws {
        var counts: [String: Int] = [:]
        var runaways = 0
        var lines = 0
        for seed in Self.randomSeeds {
            let chart = RandomStructuredCharts.make(seed: seed)
            try chart.validate()
            var reference = ParallelReferenceInterpreter(
                chart: chart, limit: RandomChartTests.limit)
            let expected = reference.run()
            let (actual, machine) = try RandomChartTests.runOnFlowKit(chart)
            #expect(actual == expected, "seed \(seed)")
            if case .runaway = expected { runaways += 1 }
            lines += machine.lines.count
            // What the chart uses, counted once per chart.
            var uses: Set<String> = []
            for transition in chart.transitions {
                if transition.event == nil { uses.insert("eventless") }
                if transition.cond != nil { uses.insert("cond") }
                if transition.targets.count > 1 { uses.insert("targets") }
                if let event = transition.event, event.contains("*") || event.contains(" ") {
                    uses.insert("descriptors")
                }
            }
            func visit(_ node: FlowChart.Node, parent: FlowChart.Node?) {
                if node.initialTargets.count > 1 { uses.insert("initial lists") }
                if let initial = node.initial,
                    !node.children.contains(where: { $0.id == initial && $0.kind != .history })
                {
                    uses.insert("deep or history initials")
                }
                if let fallback = node.default,
                    parent?.children.contains(where: { $0.id == fallback }) == false
                {
                    uses.insert("deep history defaults")
                }
                if !node.onEntry.isEmpty || !node.onExit.isEmpty { uses.insert("onentry/onexit") }
                if node.kind == .parallel, parent?.kind == .parallel {
                    uses.insert("parallel in parallel")
                }
                for child in node.children { visit(child, parent: node) }
            }
            visit(chart.root, parent: nil)
            for use in uses { counts[use, default: 0] += 1 }
        }
        let charts = Self.randomSeeds.count
        print("format-3 random charts: \(charts), runaways \(runaways), uses \(counts)")
        for use in [
            "eventless", "cond", "targets", "descriptors", "initial lists",
            "deep or history initials", "deep history defaults", "onentry/onexit",
            "parallel in parallel",
        ] {
            #expect(counts[use, default: 0] > charts / 20, "\(use): \(counts[use, default: 0])")
        }
        #expect(lines > charts * 40)
        // Format 3's charts loop more often than format 2's (descriptors match more events,
        // eventless transitions chain); a runaway chart is compared up to the event that
        // ran away. (At the time of writing: 400 charts, 123 runaways, all agreeing.)
        #expect(runaways < charts * 2 / 5)
    }
}
