import Foundation
import Testing

@testable import FlowKitCharts

/// Runs the built `flowchart` binary (it sits beside the test bundle).
struct FlowchartProcess {
    let status: Int32
    let output: String
    let error: String

    static var executable: URL {
        let products = Bundle.main.bundleURL
        let candidates = [products, products.deletingLastPathComponent()]
        return candidates.map { $0.appendingPathComponent("flowchart") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
            ?? products.appendingPathComponent("flowchart")
    }

    static func run(_ arguments: [String]) throws -> FlowchartProcess {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let error = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return FlowchartProcess(
            status: process.terminationStatus, output: String(decoding: output, as: UTF8.self),
            error: String(decoding: error, as: UTF8.self))
    }
}

@Suite("flowchart command")
struct CommandLineTests {
    @Test("flowchart trace prints each in-repo example's expected trace exactly")
    func traceExamples() throws {
        try expectTraces(try ChartFiles.examples(), in: ChartFiles.examplesDirectory)
    }

    @Test("flowchart trace prints each of the format's hand-checked examples exactly (1 and 2)")
    func traceHandChecked() throws {
        let cases = try ChartFiles.handChecked()
        #expect(cases.contains { $0.name.hasPrefix("parallel_") })
        try expectTraces(cases, in: ChartFiles.handCheckedDirectory)
    }

    @Test("flowchart trace prints each of this target's format-2 charts exactly")
    func traceOwnParallelCharts() throws {
        let cases = try ChartFiles.own().filter {
            $0.name.hasPrefix("parallel_") && $0.expectedRejection == nil
        }
        #expect(cases.count == 6)
        try expectTraces(cases, in: ChartFiles.ownDirectory)
    }

    @Test("flowchart trace prints each of this target's format-3 charts exactly")
    func traceOwnStructureCharts() throws {
        let cases = try ChartFiles.own().filter {
            $0.name.hasPrefix("structure_") && $0.expectedRejection == nil
        }
        #expect(cases.count == 8)
        try expectTraces(cases, in: ChartFiles.ownDirectory)
    }

    @Test("flowchart check accepts a valid chart of any format, naming the format")
    func checkValid() throws {
        for (directory, name, format) in [
            (ChartFiles.handCheckedDirectory, "parallel_01_regions", "flowkit-hsm-case/2"),
            (ChartFiles.handCheckedDirectory, "h01_bubble_lcca", "flowkit-hsm-case/1"),
            (ChartFiles.handCheckedDirectory, "structure_01_eventless", "flowkit-hsm-case/3"),
        ] {
            let path = directory.appendingPathComponent(name + ".json").path
            let result = try FlowchartProcess.run(["check", path])
            #expect(result.status == 0)
            #expect(result.output == "\(path): valid \(format) chart\n")
            #expect(result.error == "")
        }
    }

    @Test("flowchart check rejects every rejected chart of this target with its message")
    func checkRejections() throws {
        let cases = try ChartFiles.own().filter { $0.expectedRejection != nil }
        #expect(cases.count > 30)
        for chartCase in cases {
            let path = ChartFiles.ownDirectory.appendingPathComponent(chartCase.name + ".json")
                .path
            let result = try FlowchartProcess.run(["check", path])
            #expect(result.status == 2, "\(chartCase.name)")
            #expect(result.output == "")
            #expect(
                result.error == "flowchart: \(path): \(chartCase.expectedRejection ?? "")\n",
                "\(chartCase.name)")
        }
    }

    private func expectTraces(_ cases: [ChartCase], in directory: URL) throws {
        #expect(
            FileManager.default.isExecutableFile(atPath: FlowchartProcess.executable.path),
            "flowchart binary not found at \(FlowchartProcess.executable.path)")
        #expect(!cases.isEmpty)
        for chartCase in cases {
            let path = directory.appendingPathComponent(chartCase.name + ".json")
            let result = try FlowchartProcess.run(["trace", path.path])
            #expect(result.status == 0, "\(chartCase.name): \(result.error)")
            #expect(result.output == chartCase.expected, "\(chartCase.name)")
            #expect(result.error == "")
        }
    }

    @Test("A rejected chart exits 2 with a message naming the problem and prints nothing")
    func rejection() throws {
        let path = ChartFiles.ownDirectory.appendingPathComponent("reject_parallel.json").path
        for command in ["trace", "check", "diagram"] {
            let result = try FlowchartProcess.run([command, path])
            #expect(result.status == 2)
            #expect(result.output == "")
            #expect(
                result.error
                    == "flowchart: \(path): 'P' is a parallel state; parallel states are not "
                    + "supported (FlowKit keeps one active path)\n")
        }
    }

    @Test("A chart that floods itself with raised events exits 1, naming the limit")
    func raiseFlood() throws {
        let json = FuzzFindingsTests.floodChart
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("flood-\(UUID().uuidString).json")
        try Data(json.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try FlowchartProcess.run(["trace", file.path])
        #expect(result.status == 1)
        #expect(result.error.contains("10000") || result.error.contains("10,000"))
    }

    @Test("A format-3 chart whose eventless transitions loop exits 1, naming the limit")
    func eventlessLoop() throws {
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("eventless-\(UUID().uuidString).json")
        try Data(StructureFormatTests.eventlessLoopJSON.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try FlowchartProcess.run(["trace", file.path])
        #expect(result.status == 1)
        #expect(
            result.error
                == "flowchart: event 'start' was followed by more than 100 eventless steps; "
                + "the chart's eventless transitions loop\n")
        #expect(try FlowchartProcess.run(["check", file.path]).status == 0)
    }

    @Test(
        "Usage errors exit 2 with the usage text",
        arguments: [
            [], ["trace"], ["draw", "x.json"], ["trace", "a.json", "b.json"],
        ])
    func usage(_ arguments: [String]) throws {
        let result = try FlowchartProcess.run(arguments)
        #expect(result.status == 2)
        #expect(result.output == "")
        #expect(result.error.contains("usage: flowchart trace CHART.json"))
    }

    @Test("A missing file exits 2 naming the file")
    func missingFile() throws {
        let result = try FlowchartProcess.run(["trace", "/nonexistent/chart.json"])
        #expect(result.status == 2)
        #expect(result.error == "flowchart: cannot read '/nonexistent/chart.json'\n")
    }

    @Test(
        "flowchart diagram prints the Mermaid diagram", arguments: ["done_events", "parallel_root"])
    func diagram(_ name: String) throws {
        let path = ChartFiles.ownDirectory.appendingPathComponent(name + ".json").path
        let result = try FlowchartProcess.run(["diagram", path])
        #expect(result.status == 0)
        let chart = try FlowChart(json: Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(result.output == (try chart.mermaidDiagram()))
    }
}
