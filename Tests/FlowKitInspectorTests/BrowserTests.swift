import FlowDemo
import FlowKit
import FlowKitCharts
import FlowKitInspector
import FlowKitRecorder
import Foundation
import Testing

/// The page in a real browser. Without Chromium these tests are skipped (the reason is
/// printed); `.ci/run` installs it and sets FLOWKIT_BROWSER_TESTS=required, so in CI they run
/// or fail. Locally: `apt-get install chromium` (or set CHROMIUM=/path/to/chrome), then
/// `swift test --filter BrowserTests`.
@MainActor
@Suite(
    "Browser: the page in headless Chromium, from file://, networking off",
    .enabled(
        if: Chromium.shouldRun,
        "skipped: no Chromium found (apt-get install chromium, or set CHROMIUM=/path); CI sets FLOWKIT_BROWSER_TESTS=required to run them"
    ),
    .serialized)
struct BrowserTests {
    /// The demo recorded, its page written to a temporary folder.
    private func demoPage() async throws -> (
        page: URL, recorder: FlowRecorder, app: DemoApp, folder: URL
    ) {
        let (recorder, _, app) = try await recordDemo()
        let session = try FlowSessionFile(text: recorder.text)
        #expect(session.problems.isEmpty)
        let folder = try temporaryFolder()
        let page = folder.appendingPathComponent("demo.html")
        try FlowInspectorPage(session: session, title: "demo").html.write(
            to: page, atomically: true, encoding: .utf8)
        return (page, recorder, app, folder)
    }

    private func expectClean(_ run: Chromium.Run) {
        #expect(run.output.contains(#"<ul id="page-errors" hidden=""></ul>"#), "page errors")
        #expect(run.pageRequests == [])
        let console = run.log.split(separator: "\n").filter { $0.contains(":CONSOLE") }
        #expect(console == [])
    }

    @Test("At every step of a recorded demo session, the page's tree is treeDescription() then")
    func treesAtEveryStep() async throws {
        let (page, recorder, _, folder) = try await demoPage()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await Chromium.run(page, fragment: "#verify", ["--dump-dom"])
        #expect(run.output.contains(#"<p id="verify-done">verified</p>"#))
        let shown = Chromium.texts(of: "verify-tree", tag: "pre", in: run.output)
        let recorded = records(recorder.lines, "step").compactMap { $0["tree"] as? String }
        #expect(shown.count == recorded.count && shown.count > 12)
        for (step, tree) in zip(shown, recorded).enumerated() {
            #expect(tree.0 == tree.1, "step \(step + 1)")
        }
        expectClean(run)
    }

    @Test("A session in format 2 draws, at every step, the tree recorded then")
    func format2TreesAtEveryStep() async throws {
        let session = try FlowSessionFile(contentsOf: format2DemoSession.path)
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("format2.html")
        try FlowInspectorPage(session: session, title: "format 2").html.write(
            to: page, atomically: true, encoding: .utf8)
        let run = try await Chromium.run(page, fragment: "#verify", ["--dump-dom"])
        #expect(run.output.contains(#"<p id="verify-done">verified</p>"#))
        let shown = Chromium.texts(of: "verify-tree", tag: "pre", in: run.output)
        let recorded = records(session.records, "step").compactMap { $0["tree"] as? String }
        #expect(shown == recorded && shown.count == 18)
        expectClean(run)
    }

    @Test(
        "The event log's count and order are the trace's; the timeline's bars are the pipeline's steps"
    )
    func eventsAndBars() async throws {
        let (page, _, app, folder) = try await demoPage()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await Chromium.run(page, fragment: "#verify", ["--dump-dom"])
        let events = Chromium.texts(of: "verify-event", tag: "li", in: run.output).map {
            let fields = $0.split(separator: "|", omittingEmptySubsequences: false)
            return "\(fields[0]) \(fields[2]) \(fields[3])"
        }
        let traced = app.runtime.trace.records.compactMap { record -> String? in
            switch record {
            case .handled(let event, let at): return "\(event) handled \(at)"
            case .unhandled(let event, _): return "\(event) unhandled "
            case .dropped(let event, _): return "\(event) dropped "
            default: return nil
            }
        }
        #expect(events == traced && events.count >= 4)
        let bars = Chromium.texts(of: "verify-bar", tag: "li", in: run.output)
        let steps = bars.filter { !$0.hasPrefix("gesture ") }.map {
            String($0.split(separator: "|")[0])
        }
        #expect(steps == app.transitions.performedSteps.map(\.description) && steps.count > 10)
        let gestures = bars.filter { $0.hasPrefix("gesture ") }
        #expect(
            gestures == [
                "gesture pop app/main/tabs/favourites|cancelled",
                "gesture pop app/main/tabs/favourites|committed",
            ])
        expectClean(run)
    }

    @Test("Opened at #step=K the page shows step K; a chart's page marks its active states")
    func stepFragmentAndChart() async throws {
        let chart = try FlowChart(
            json: try Data(
                contentsOf: packageRoot.appendingPathComponent(
                    "Tests/FlowKitChartsTests/Examples/tabs.json")))
        let page = try FlowInspectorPage.chartTrace(chart, title: "tabs.json")
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("chart.html")
        try page.html.write(to: file, atomically: true, encoding: .utf8)
        let trees = page.session.treeTexts()
        for step in [1, 3, trees.count] {
            let run = try await Chromium.run(file, fragment: "#step=\(step)", ["--dump-dom"])
            #expect(run.output.contains("step \(step) of \(trees.count) "))
            let text = trees[step - 1].text ?? ""
            let active = text.split(separator: "\n").filter {
                $0.contains("* ") || $0.contains("+ ")
            }
            .map { $0.split(separator: " ").last.map(String.init) ?? "" }
            .filter { $0 != FlowChartMachine.containerName }
            for state in active {
                #expect(
                    run.output.contains("<g class=\"state active focused\" data-state=\"\(state)\"")
                        || run.output.contains("<g class=\"state active\" data-state=\"\(state)\""),
                    "\(state) at step \(step)")
            }
            expectClean(run)
        }
    }

    @Test("A screenshot of the page is not blank")
    func screenshot() async throws {
        let (page, _, _, folder) = try await demoPage()
        defer { try? FileManager.default.removeItem(at: folder) }
        let shot = folder.appendingPathComponent("page.png")
        let blank = folder.appendingPathComponent("blank.html")
        try "<!DOCTYPE html><html><body></body></html>".write(
            to: blank, atomically: true, encoding: .utf8)
        let blankShot = folder.appendingPathComponent("blank.png")
        _ = try await Chromium.run(
            page, fragment: "#step=9", ["--window-size=1280,900", "--screenshot=\(shot.path)"])
        _ = try await Chromium.run(
            blank, ["--window-size=1280,900", "--screenshot=\(blankShot.path)"])
        let png = try #require(FileManager.default.contents(atPath: shot.path))
        let empty = try #require(FileManager.default.contents(atPath: blankShot.path))
        #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        // A blank page compresses to almost nothing; the inspector draws text, lines, colours.
        #expect(
            png.count > 5 * empty.count,
            "\(png.count) bytes against \(empty.count) for a blank page")
    }
}
