import Foundation
import Testing

@testable import FlowKitCharts

@MainActor
@Suite("Hand-checked charts")
struct ExampleChartTests {
    @Test("The in-repo examples are present and every chart has an expected trace")
    func examplesArePresent() throws {
        let names = try ChartFiles.examples().map(\.name)
        #expect(names == ["checkout", "signin", "tabs"])
    }

    @Test(
        "Every in-repo example reproduces its hand-checked trace byte for byte",
        arguments: try ChartFiles.examples())
    func example(_ chartCase: ChartCase) throws {
        let chart = try FlowChart(json: chartCase.json)
        #expect(try chart.trace() == chartCase.expected)
    }

    @Test(
        "Every in-repo example traces the same on the independent reference interpreter",
        arguments: try ChartFiles.examples())
    func exampleMatchesReference(_ chartCase: ChartCase) throws {
        var reference = ReferenceInterpreter(
            chart: try FlowChart(json: chartCase.json), limit: 10_000)
        #expect(reference.run() == .trace(chartCase.expected))
    }

    @Test(
        "The chart format's hand-checked examples (HandChecked/) reproduce their traces",
        arguments: try ChartFiles.handChecked())
    func handCheckedExample(_ chartCase: ChartCase) throws {
        let chart = try FlowChart(json: chartCase.json)
        #expect(try chart.trace() == chartCase.expected)
    }

    @Test("HandChecked/ holds the format's six hand-checked examples")
    func handCheckedArePresent() throws {
        #expect(try ChartFiles.handChecked().count == 6)
    }

    @Test("This target's charts cover every rule and every rejection")
    func ownChartsArePresent() throws {
        let names = try ChartFiles.own().map(\.name)
        for rule in [
            "bubble_order", "self_ancestor", "internal_external", "history",
            "history_defaults", "done_events", "raise_ordering", "targetless", "unhandled",
            "reject_malformed_json", "reject_unknown_source", "reject_unknown_target",
            "reject_missing_initial", "reject_initial_grandchild", "reject_parallel",
            "reject_eventless", "reject_from_final", "reject_from_history",
            "reject_deep_history_inside",
        ] {
            #expect(names.contains(rule), "missing chart \(rule)")
        }
    }

    @Test(
        "Every chart of this target runs to its expected trace or is rejected as expected",
        arguments: try ChartFiles.own())
    func ownChart(_ chartCase: ChartCase) throws {
        if let rejection = chartCase.expectedRejection {
            let error = #expect(throws: FlowChartError.self) {
                try FlowChart(json: chartCase.json).trace()
            }
            #expect(error?.description == rejection)
        } else {
            let chart = try FlowChart(json: chartCase.json)
            #expect(try chart.trace() == chartCase.expected)
        }
    }
}
