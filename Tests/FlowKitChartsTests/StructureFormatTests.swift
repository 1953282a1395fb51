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
