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

    @Test("HandChecked/ holds the format's examples: six of format 1, six of 2, seven of 3")
    func handCheckedArePresent() throws {
        let names = try ChartFiles.handChecked().map(\.name)
        #expect(names.filter { $0.hasPrefix("h0") }.count == 6)
        #expect(
            names.filter { $0.hasPrefix("parallel_") } == [
                "parallel_01_regions", "parallel_02_conflicts", "parallel_03_done",
                "parallel_04_history", "parallel_05_domain", "parallel_06_root",
            ])
        #expect(
            names.filter { $0.hasPrefix("structure_") } == [
                "structure_01_eventless", "structure_02_descriptors", "structure_03_in",
                "structure_04_targets", "structure_05_nested_parallel", "structure_06_initials",
                "structure_07_entry_exit_raise",
            ])
        for chartCase in try ChartFiles.handChecked() {
            let chart = try FlowChart(json: chartCase.json)
            let format =
                chartCase.name.hasPrefix("parallel_")
                ? 2 : chartCase.name.hasPrefix("structure_") ? 3 : 1
            #expect(chart.formatNumber == format, "\(chartCase.name)")
        }
    }

    @Test(
        "The SCXML reference interpreter reproduces every hand-checked example, all formats",
        arguments: try ChartFiles.handChecked() + ChartFiles.examples())
    func parallelReferenceMatchesHandChecked(_ chartCase: ChartCase) throws {
        var reference = ParallelReferenceInterpreter(
            chart: try FlowChart(json: chartCase.json), limit: 10_000)
        #expect(reference.run() == .trace(chartCase.expected))
    }

    @Test("The format-2 chart of Docs/ChartFormat.md traces as the page says")
    func chartFormatPageExample() throws {
        let page = try String(
            contentsOf: ChartFiles.repository.appendingPathComponent("Docs/ChartFormat.md"),
            encoding: .utf8)
        let section = try #require(page.range(of: "## Format 2"))
        let block = try #require(
            page[section.upperBound...].components(separatedBy: "```json\n").dropFirst().first?
                .components(separatedBy: "```").first)
        let trace = try FlowChart(json: Data(block.utf8)).trace()
        #expect(
            trace.contains(
                "event toggle\nexit Hidden\nexit Paused\nenter Playing\nenter Shown\n"
                    + "config App Player Playback Playing Lyrics Shown\n"))
    }

    @Test(
        "This target's format-2 and -3 charts trace the same on the SCXML reference interpreter",
        arguments: try ChartFiles.own().filter {
            $0.expectedRejection == nil
                && ($0.name.hasPrefix("parallel_") || $0.name.hasPrefix("structure_"))
        })
    func ownParallelChartMatchesReference(_ chartCase: ChartCase) throws {
        var reference = ParallelReferenceInterpreter(
            chart: try FlowChart(json: chartCase.json), limit: 10_000)
        #expect(reference.run() == .trace(chartCase.expected))
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
            // Format 2.
            "parallel_conflicts", "parallel_targetless", "parallel_history", "parallel_done",
            "parallel_root", "parallel_history_order", "reject_parallel_initial",
            "reject_parallel_no_region",
            "reject_parallel_only_history", "reject_parallel_final_region",
            "reject_parallel_parallel_region", "reject_parallel_deep_history_inside",
            "reject_parallel_history_default", "reject_parallel_format1_root",
            "reject_parallel_no_format",
            // Format 3.
            "structure_cond_syntax", "structure_descriptor_done", "structure_eventless_parallel",
            "structure_history_default_list", "structure_initial_parallel",
            "structure_internal_targets", "structure_onentry_start", "structure_targets_history",
            "reject_structure_bad_cond", "reject_structure_bad_descriptor",
            "reject_structure_cond_format2", "reject_structure_cond_nesting",
            "reject_structure_cond_unknown_state", "reject_structure_conflicting_targets",
            "reject_structure_deep_history_inside", "reject_structure_empty_event",
            "reject_structure_final_region", "reject_structure_history_default_not_descendant",
            "reject_structure_history_onentry", "reject_structure_initial_conflict",
            "reject_structure_initial_not_descendant", "reject_structure_onentry_format1",
            "reject_structure_target_ancestor",
            "reject_structure_unknown_target_in_list",
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
