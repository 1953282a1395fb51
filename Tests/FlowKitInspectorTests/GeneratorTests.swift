import FlowKitCharts
import FlowKitInspector
import Foundation
import Testing

/// The folder of this test target's golden files.
let goldenFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Golden")

/// The demo's walkthrough recorded with `treeText` and a keyframe every 16 steps by the
/// recorder of session format 2 (FlowKit before issue 32's fifth pass): deltas that begin with
/// their container's row, `"full": false`, empty ID lists.
let format2DemoSession = goldenFolder.appendingPathComponent("demo-format2.jsonl")

@Suite("Generator: a session's page, its embedded data, and what it never loads")
struct GeneratorTests {
    private func smallSession() throws -> FlowSessionFile {
        try FlowSessionFile(
            contentsOf: goldenFolder.appendingPathComponent("small-session.jsonl").path)
    }

    @Test("A small session's page embeds exactly the golden data (records, problems, no chart)")
    func golden() throws {
        let data = FlowInspectorPage(session: try smallSession(), title: "small-session.jsonl")
            .embeddedData
        let golden = goldenFolder.appendingPathComponent("small-session.data.json")
        // FLOWKIT_UPDATE_GOLDEN=1 writes the golden file anew (review the diff).
        if ProcessInfo.processInfo.environment["FLOWKIT_UPDATE_GOLDEN"] == "1" {
            try data.write(to: golden, atomically: true, encoding: .utf8)
        }
        #expect(data == (try String(contentsOf: golden, encoding: .utf8)))
        // It is JSON, and a `</script>` in a name cannot end the page's script element.
        #expect(!data.contains("<"))
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any])
        #expect((object["records"] as? [Any])?.count == 7)
        #expect((object["problems"] as? [Any])?.count == 3)
    }

    @Test(
        "The page is one file that loads nothing: inline style and script, a CSP that forbids the network"
    )
    func selfContained() throws {
        let html = FlowInspectorPage(session: try smallSession(), title: "a <title>").html
        #expect(
            html.contains(
                #"<meta http-equiv="Content-Security-Policy" content="default-src 'none';"#))
        #expect(html.contains("connect-src 'none'"))
        for forbidden in [
            "<link", " src=", "@import", "url(http", "fetch(", "XMLHttpRequest", "@font-face",
        ] {
            #expect(!html.contains(forbidden), "\(forbidden)")
        }
        #expect(!html.contains("https://"))
        #expect(html.contains("<title>a &lt;title&gt; · FlowKit inspector</title>"))
        // The only script elements: the data and the inline script.
        #expect(html.components(separatedBy: "<script").count == 3)
        #expect(html.components(separatedBy: "</script>").count == 3)
    }

    @Test("The trees the page draws, replayed in Swift, are the recorded ones")
    func replay() throws {
        let session = try smallSession()
        #expect(
            session.treeTexts().map(\.text) == [
                "* app\n  * main\n    * stack\n      * list",
                "* app\n  * main\n    * stack\n        list\n      * detail\n        * ^sheet</script>",
                "* app\n  * main\n    * stack\n      * list",
            ])
    }

    @Test(
        "A demo session in format 2 (as recorders wrote it before format 3) replays to its recorded trees"
    )
    func readsFormat2() throws {
        let session = try FlowSessionFile(contentsOf: format2DemoSession.path)
        #expect(session.version == 2 && session.problems.isEmpty)
        let recorded = records(session.records, "step").map { $0["tree"] as? String }
        #expect(recorded.count == 18 && recorded.allSatisfy { $0 != nil })
        // Its deltas begin with their container's row and say they are not full.
        let deltas = records(session.records, "step").filter { $0["order"] != nil }
        #expect(deltas.count == 12 && deltas.allSatisfy { $0["full"] as? Bool == false })
        #expect(session.treeTexts().map(\.text) == recorded)
    }

    @Test("A chart's page draws its states as SVG, one group per state, with every transition")
    func chartDrawing() throws {
        let chart = FlowChart(
            name: "door",
            root: FlowChart.Node(
                id: "door", initial: "closed",
                children: [
                    FlowChart.Node(id: "closed"), FlowChart.Node(id: "open"),
                    .parallel("alarm", [FlowChart.Node(id: "armed"), FlowChart.Node(id: "siren")]),
                ]),
            transitions: [
                FlowChart.Transition(source: "closed", event: "push", target: "open"),
                FlowChart.Transition(source: "open", event: "shut", target: "closed"),
            ],
            events: ["push"])
        let drawing = ChartDrawing(chart: chart)
        #expect(drawing.stateIDs == ["door", "closed", "open", "alarm", "armed", "siren"])
        for id in drawing.stateIDs { #expect(drawing.svg.contains("data-state=\"\(id)\"")) }
        #expect(drawing.svg.components(separatedBy: "class=\"transition\"").count == 3)
        #expect(drawing.svg.contains(">push</text>") && drawing.svg.contains(">shut</text>"))
        #expect(drawing.svg.contains("stroke-dasharray"))
    }
}
