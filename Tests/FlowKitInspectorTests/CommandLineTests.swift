import FlowDemo
import FlowKitCharts
import FlowKitInspector
import Foundation
import Testing

@Suite("Command lines: flowdemo --record, flowchart inspect")
struct CommandLineTests {
    @Test("flowdemo --record FILE records piped input without changing what the demo prints")
    func demoRecords() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let flowdemo = try findBinary("flowdemo")
        let commands = "open flowdemo://books/12\nlogin alice wonderland\nback\ntree\nquit\n"
        let session = folder.appendingPathComponent("session.jsonl")
        let recorded = try run(flowdemo, ["--record", session.path], stdin: commands)
        let plain = try run(flowdemo, [], stdin: commands)
        #expect(recorded.status == 0 && recorded.stderr == "")
        #expect(recorded.stdout == plain.stdout)
        let file = try FlowSessionFile(contentsOf: session.path)
        #expect(file.problems.isEmpty)
        #expect(file.records.last?.hasPrefix(#"{"k":"end""#) == true)
        // The tree the `tree` command printed is the session's tree before quitting.
        let trees = file.treeTexts().compactMap(\.text).filter { !$0.isEmpty }
        let printed = recorded.stdout.components(separatedBy: "> tree\n")[1]
            .components(separatedBy: "\nFlowController instances alive")[0]
        #expect(trees.last == printed)
        // Every step has a snapshot to copy.
        #expect(
            file.records.filter { $0.contains(#""k":"step""#) }.allSatisfy {
                $0.contains(#""snapshot":"#) || $0.contains(#""kind":"stop""#)
            })
    }

    @Test("--record needs a file name, once")
    func recordOption() throws {
        #expect(try DemoOptions(arguments: ["--record", "s.jsonl"]).recordFile == "s.jsonl")
        #expect(try DemoOptions(arguments: ["--record=s.jsonl"]).recordFile == "s.jsonl")
        #expect(throws: DemoOptionsError.missingFile("--record")) {
            try DemoOptions(arguments: ["--record"])
        }
        #expect(throws: DemoOptionsError.repeatedOption("--record")) {
            try DemoOptions(arguments: ["--record", "a", "--record", "b"])
        }
        #expect(DemoOptions.helpText.contains("--record FILE"))
    }

    @Test("flowdemo --record to a folder that does not exist says so and exits 1")
    func recordUnwritable() throws {
        let flowdemo = try findBinary("flowdemo")
        let result = try run(
            flowdemo, ["--record", "/nonexistent/folder/s.jsonl"], stdin: "quit\n")
        #expect(result.status == 1)
        #expect(
            result.stderr.hasPrefix(
                "flowdemo: cannot write the session file /nonexistent/folder/s.jsonl: "))
    }

    @Test("flowchart inspect CHART.json prints the page of the chart's trace, with the chart drawn")
    @MainActor
    func chartInspect() async throws {
        let flowchart = try findBinary("flowchart")
        let chart = packageRoot.appendingPathComponent(
            "Tests/FlowKitChartsTests/Examples/signin.json")
        let result = try await runOffMainActor(flowchart, ["inspect", chart.path])
        #expect(result.status == 0 && result.stderr == "")
        #expect(result.stdout.hasPrefix("<!DOCTYPE html>"))
        #expect(result.stdout.contains("<title>signin.json · FlowKit inspector</title>"))
        #expect(result.stdout.contains(#""chart":{"svg":"#))
        #expect(result.stdout.contains(#"data-state="#))
        // The session the library records for the chart (node identities aside, which are the
        // process's own): as many steps and events.
        let page = try FlowInspectorPage.chartTrace(
            try FlowChart(json: try Data(contentsOf: chart)), title: "signin.json")
        func count(_ kind: String, in text: String) -> Int {
            text.components(separatedBy: "{\"k\":\"\(kind)\"").count - 1
        }
        #expect(count("step", in: result.stdout) == page.session.stepCount)
        #expect(count("event", in: result.stdout) == count("event", in: page.html))
        #expect(page.session.stepCount > 2)
    }
}
