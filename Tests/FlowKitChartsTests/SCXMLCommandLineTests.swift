import Foundation
import Testing

@testable import FlowKitCharts

/// `flowchart` on SCXML documents: `trace`, `check` and `diagram` read them, `scxml` writes
/// them. Not on the main actor: it waits for processes.
@Suite("flowchart and SCXML")
struct SCXMLCommandLineTests {
    @Test(
        "flowchart trace prints each example's and hand-checked example's trace from its SCXML document"
    )
    func traceCorpus() throws {
        let cases = try ChartFiles.examples() + ChartFiles.handChecked()
        #expect(cases.count == 22)
        for chartCase in cases {
            let path = SCXMLFiles.corpusDirectory
                .appendingPathComponent(chartCase.name + ".scxml").path
            let result = try FlowchartProcess.run(["trace", path])
            #expect(result.status == 0, "\(chartCase.name): \(result.error)")
            #expect(result.output == chartCase.expected, "\(chartCase.name)")
            #expect(result.error == "")
        }
    }

    @Test(
        "flowchart trace prints the same for random charts' JSON and their SCXML, runaways included"
    )
    func traceRandomCharts() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("scxml-random-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var failures = 0
        for seed in UInt64(1)...25 {
            for parallel in [false, true] {
                let chart = RandomCharts.make(seed: seed, parallel: parallel)
                let json = directory.appendingPathComponent("chart.json")
                let scxml = directory.appendingPathComponent("chart.scxml")
                try chart.jsonData().write(to: json)
                try Data(try chart.scxmlDocument().utf8).write(to: scxml)
                let fromJSON = try FlowchartProcess.run(["trace", json.path])
                let fromSCXML = try FlowchartProcess.run(["trace", scxml.path])
                #expect(fromSCXML.output == fromJSON.output, "seed \(seed)")
                #expect(fromSCXML.status == fromJSON.status, "seed \(seed)")
                #expect(fromSCXML.error == fromJSON.error, "seed \(seed)")
                if fromJSON.status != 0 { failures += 1 }
            }
        }
        #expect(failures < 25)
    }

    @Test("flowchart scxml prints the writer's document, for a JSON chart and an SCXML one")
    func scxmlCommand() throws {
        let path = ChartFiles.examplesDirectory.appendingPathComponent("signin.json").path
        let result = try FlowchartProcess.run(["scxml", path])
        let chart = try FlowChart(json: Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(result.status == 0)
        #expect(result.output == (try chart.scxmlDocument()))
        let player = SCXMLFiles.directory.appendingPathComponent("player.scxml").path
        let normalized = try FlowchartProcess.run(["scxml", player])
        #expect(normalized.status == 0)
        #expect(normalized.output.contains(#"<state id="scxml" initial="Library">"#))
    }

    @Test("flowchart diagram draws an SCXML document like its JSON chart")
    func diagram() throws {
        let json = ChartFiles.handCheckedDirectory.appendingPathComponent(
            "parallel_04_history.json")
        let scxml = SCXMLFiles.corpusDirectory.appendingPathComponent(
            "parallel_04_history.scxml")
        let fromJSON = try FlowchartProcess.run(["diagram", json.path])
        let fromSCXML = try FlowchartProcess.run(["diagram", scxml.path])
        #expect(fromSCXML.status == 0)
        #expect(fromSCXML.output.hasPrefix("stateDiagram-v2\n"))
        #expect(
            Set(fromSCXML.output.split(separator: "\n"))
                == Set(fromJSON.output.split(separator: "\n")))
    }
}
