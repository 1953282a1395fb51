import FlowKit
import FlowKitCharts
import Foundation

/// The chart door: bytes through the chart loader (`FlowChart(json:)`), validation, and for
/// a valid chart a run of its events (`trace()`, as `flowchart trace` does).
///
/// Oracle: an invalid input is a ``FlowChartError`` with a message (a chart over the format's
/// limits, ``FlowChart/Limit``, among them); a valid chart runs without a trap, and a raise
/// loop ends as ``FlowChartError/runaway(event:limit:)`` or
/// ``FlowChartError/raiseFlood(event:limit:)`` (the machine's limits on transitions and on
/// raised events per external event), an eventless loop (format 3) as
/// ``FlowChartError/eventlessLoop(event:limit:)``, a trace too long as
/// ``FlowChartError/traceTooLong(limit:)``, so a run stays bounded: libFuzzer's `-timeout`
/// and `-rss_limit_mb` catch one that is not.
@MainActor
enum ChartsTarget {
    static func run(_ data: Data) {
        let chart: FlowChart
        do {
            chart = try FlowChart(json: data)
        } catch {
            return checkRefusal(error, "loading")
        }
        do {
            try chart.validate()
        } catch {
            return checkRefusal(error, "validating")
        }
        do {
            let trace = try chart.trace()
            oracle(trace.hasPrefix("start\n"), "a trace that does not start with 'start'")
        } catch let error as FlowChartError {
            oracle(error.stoppedRunning, "a valid chart stopped with \(error)")
        } catch {
            oracle(false, "a valid chart stopped with an untyped error: \(error)")
        }
        // The same chart through the formatter and back is the same chart.
        do {
            let copy = try FlowChart(json: try chart.jsonData())
            oracle(copy == chart, "JSON changed a chart")
        } catch {
            oracle(false, "a valid chart does not survive JSON: \(error)")
        }
    }

    static func checkRefusal(_ error: any Error, _ stage: String) {
        guard let error = error as? FlowChartError else {
            return oracle(false, "\(stage) threw an untyped error: \(error)")
        }
        oracle(!error.description.isEmpty, "\(stage) threw \(error) without a message")
    }
}
