import FlowKitCharts
import FlowKitInspector
import Foundation

/// `flowchart trace CHART.json` | `flowchart check CHART.json` | `flowchart diagram CHART.json`
/// | `flowchart inspect CHART.json`
let usage = """
    usage: flowchart trace CHART.json     print the chart's trace
           flowchart check CHART.json     validate the chart (format 1, 2 or 3)
           flowchart diagram CHART.json   print a Mermaid stateDiagram-v2 of the chart
           flowchart inspect CHART.json   print the inspector page (HTML) of the chart's trace
    """

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("flowchart: \(message)\n".utf8))
    exit(status)
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2, let command = arguments.first, let file = arguments.last else {
    fail("expected a command and one chart file\n\(usage)", status: 2)
}
guard ["trace", "check", "diagram", "inspect"].contains(command) else {
    fail("unknown command '\(command)'\n\(usage)", status: 2)
}
guard let data = FileManager.default.contents(atPath: file) else {
    fail("cannot read '\(file)'", status: 2)
}

let output: String
do {
    let chart = try FlowChart(json: data)
    switch command {
    case "trace":
        output = try MainActor.assumeIsolated { try chart.trace() }
    case "inspect":
        let title = file.split(separator: "/").last.map(String.init) ?? file
        output = try MainActor.assumeIsolated {
            try FlowInspectorPage.chartTrace(chart, title: title).html
        }
    case "check":
        try chart.validate()
        output = "\(file): valid \(chart.format ?? FlowChart.formatIdentifier) chart\n"
    default:
        output = try chart.mermaidDiagram()
    }
} catch let error as FlowChartError {
    // A chart that runs away (raised events or eventless steps without end) is valid, but
    // cannot be traced.
    if error.stoppedRunning { fail(error.description, status: 1) }
    fail("\(file): \(error)", status: 2)
} catch {
    fail("\(file): \(error)", status: 1)
}
FileHandle.standardOutput.write(Data(output.utf8))
