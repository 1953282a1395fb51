import FlowKitCharts
import Foundation

/// The inspector: one self-contained HTML page made from a recorded session (see
/// Docs/Inspector.md). Its CSS and JavaScript are inline, it loads nothing (its content security
/// policy forbids every network request), and everything it shows is derived from the session's
/// records, which it embeds as JSON.
///
///     let session = try FlowSessionFile(contentsOf: "session.jsonl")
///     let html = FlowInspectorPage(session: session, title: "session.jsonl").html
///
/// The page shows the tree at any step (a scrubber, the arrow keys), the focused path and the
/// active nodes, what entered and exited; each step's change; the events with their bubbling
/// paths (filtered by node and by event); the intents' lineage; the transitions on the clock;
/// for a chart, the statechart with its active configuration; and copies the snapshot of a
/// step. Opened with `#step=K` it shows step K; with `#verify` it also writes every step's tree,
/// the event log and the timeline's bars into the page as plain text (its browser tests read
/// them).
public struct FlowInspectorPage {
    /// The session shown.
    public let session: FlowSessionFile
    /// The page's title.
    public let title: String
    /// The chart whose trace the session is, if any: drawn as SVG with its active states.
    public let chart: FlowChart?

    /// Creates the page of `session`.
    public init(session: FlowSessionFile, title: String, chart: FlowChart? = nil) {
        self.session = session
        self.title = title
        self.chart = chart
    }

    /// The data the page embeds: the session's records as they were read, the problems met
    /// reading it, and the chart's drawing. Valid JSON, with every `<` escaped (`\u003c`), so
    /// that it can sit in a `<script>` element.
    public var embeddedData: String {
        var text = "{\"inspector\":1,\"title\":"
        SessionText.appendString(title, to: &text)
        text += ",\"version\":\(session.version),\"payloads\":\(session.hasPayloads)"
        text += ",\"problems\":["
        for (index, problem) in session.problems.enumerated() {
            if index > 0 { text += "," }
            text += "{\"line\":\(problem.line),\"message\":"
            SessionText.appendString(problem.message, to: &text)
            text += "}"
        }
        text += "],\n\"records\":[\n"
        text += session.records.joined(separator: ",\n")
        text += "\n],\n\"chart\":"
        if let chart {
            let drawing = ChartDrawing(chart: chart)
            text += "{\"svg\":"
            SessionText.appendString(drawing.svg, to: &text)
            text += ",\"states\":["
            text += drawing.stateIDs.map { id -> String in
                var quoted = ""
                SessionText.appendString(id, to: &quoted)
                return quoted
            }.joined(separator: ",")
            text += "]}"
        } else {
            text += "null"
        }
        text += "}\n"
        return text.replacingOccurrences(of: "<", with: "\\u003c")
    }

    /// The whole page.
    public var html: String {
        var page = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; \
            script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; \
            connect-src 'none'; font-src 'none'; form-action 'none'; base-uri 'none'">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>
            """
        page += Self.escaped(title) + " · FlowKit inspector</title>\n<style>\n"
        page += Self.style
        page += "</style>\n</head>\n<body>\n"
        page += Self.body
        page += "<script type=\"application/json\" id=\"session-data\">\n"
        page += embeddedData
        page += "</script>\n<script>\n"
        page += Self.scriptModel
        page += Self.scriptViews
        page += "</script>\n</body>\n</html>\n"
        return page
    }

    /// `text` with `&`, `<`, `>` and `"` escaped for HTML.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(
            of: "<", with: "&lt;"
        )
        .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// The page's elements, filled in by the script.
    static let body = """
        <header>
          <h1 id="title">FlowKit inspector</h1>
          <span id="summary"></span>
        </header>
        <ul id="problems" hidden></ul>
        <ul id="page-errors" hidden></ul>
        <nav id="controls">
          <button id="first" title="first step (Home)">◀◀</button>
          <button id="prev" title="previous step (←)">◀</button>
          <input id="scrubber" type="range" min="0" max="0" value="0" aria-label="step">
          <button id="next" title="next step (→)">▶</button>
          <button id="last" title="last step (End)">▶▶</button>
          <span id="position"></span>
        </nav>
        <main>
          <section id="tree-panel"><h2>Tree</h2><div id="trees"></div>
            <p class="legend"><span class="focused">* focused</span> <span class="active">+ active</span>
            <span class="entered">entered in this step</span> ^ presented</p>
            <button id="copy-snapshot">Copy snapshot at this step</button>
            <textarea id="snapshot-text" readonly hidden></textarea>
          </section>
          <section id="diff-panel"><h2>This step</h2><div id="diff"></div></section>
          <section id="chart-panel" hidden><h2>Statechart</h2><div id="chart"></div></section>
        </main>
        <section id="lower">
          <div id="tabs">
            <button data-tab="events" class="selected">Events</button>
            <button data-tab="timeline">Transitions</button>
            <button data-tab="intents">Intents</button>
            <button data-tab="log">Decisions, results, errors</button>
          </div>
          <div id="tab-events" class="tab">
            <label>node <input id="filter-node" placeholder="path contains"></label>
            <label>event <input id="filter-event" placeholder="name contains"></label>
            <span id="event-count"></span>
            <table><thead><tr><th>step</th><th>event</th><th>from</th><th>bubbling path</th>
            <th>handler</th><th>result</th></tr></thead><tbody id="events"></tbody></table>
          </div>
          <div id="tab-timeline" class="tab" hidden><div id="timeline"></div></div>
          <div id="tab-intents" class="tab" hidden><ol id="intents"></ol></div>
          <div id="tab-log" class="tab" hidden><ol id="log"></ol></div>
        </section>
        <section id="verify" hidden></section>

        """
}

/// JSON text helpers shared by the page.
enum SessionText {
    /// Appends `value` as a JSON string literal.
    static func appendString(_ value: String, to text: inout String) {
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
