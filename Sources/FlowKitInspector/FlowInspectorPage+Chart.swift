import FlowKit
import FlowKitCharts
import FlowKitRecorder

extension FlowInspectorPage {
    /// The page of a chart's trace (what `flowchart inspect` writes): the chart is run through
    /// its `events` with a recorder attached to its runtime, and the page shows the session with
    /// the statechart drawn beside it, its active configuration marked at each step. The
    /// session's clock counts a millisecond per record, so the page is the same on every run.
    ///
    /// - Throws: what running the chart throws (`FlowChartError`).
    @MainActor
    public static func chartTrace(_ chart: FlowChart, title: String) throws -> FlowInspectorPage {
        let machine = try FlowChartMachine(chart: chart)
        var ticks = 0
        let recorder = FlowRecorder(
            bufferLimit: 1_000_000, options: FlowRecorder.Options(eventPayloads: true),
            clock: {
                ticks += 1
                return Double(ticks) / 1_000
            })
        recorder.attach(machine.runtime, label: chart.name ?? "chart")
        try machine.start()
        for event in chart.events { try machine.send(event) }
        recorder.finish()
        let session = try FlowSessionFile(text: recorder.text)
        return FlowInspectorPage(session: session, title: title, chart: chart)
    }
}
