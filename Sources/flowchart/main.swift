import FlowKitCharts
import FlowKitInspector
import Foundation

/// `flowchart trace|check|diagram|scxml|inspect CHART`, where CHART is a JSON chart or an
/// SCXML document (a file whose first character other than white space is `<`).
let usage = """
    usage: flowchart trace CHART.json     print the chart's trace
           flowchart check CHART.json     validate the chart (format 1, 2 or 3)
           flowchart diagram CHART.json   print a Mermaid stateDiagram-v2 of the chart
           flowchart inspect CHART.json   print the inspector page (HTML) of the chart's trace
           flowchart scxml CHART.json     print the chart as an SCXML document
    CHART may also be an SCXML document (CHART.scxml; see Docs/SCXML.md).
    """

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("flowchart: \(message)\n".utf8))
    exit(status)
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2, let command = arguments.first, let file = arguments.last else {
    fail("expected a command and one chart file\n\(usage)", status: 2)
}
guard ["trace", "check", "diagram", "scxml", "inspect"].contains(command) else {
    fail("unknown command '\(command)'\n\(usage)", status: 2)
}
guard let data = FileManager.default.contents(atPath: file) else {
    fail("cannot read '\(file)'", status: 2)
}

let output: String
do {
    let isSCXML = FlowChart.looksLikeSCXML(data)
    let chart = try isSCXML ? FlowChart(scxml: data) : FlowChart(json: data)
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
        let format = chart.format ?? FlowChart.formatIdentifier
        output =
            isSCXML
            ? "\(file): valid SCXML document, read as a \(format) chart\n"
            : "\(file): valid \(format) chart\n"
    case "scxml":
        output = try chart.scxmlDocument()
    default:
        output = try chart.mermaidDiagram()
    }
} catch let error as FlowChartError {
    // A chart that runs away (raised events or eventless steps without end) is valid, but
    // cannot be traced.
    if error.stoppedRunning { fail(error.description, status: 1) }
    fail("\(file): \(error)", status: 2)
} catch let error as SCXMLError {
    fail("\(file): \(error)", status: 2)
} catch {
    fail("\(file): \(error)", status: 1)
}
FileHandle.standardOutput.write(Data(output.utf8))
