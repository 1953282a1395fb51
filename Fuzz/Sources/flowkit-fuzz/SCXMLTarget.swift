import FlowKit
import FlowKitCharts
import Foundation

/// The SCXML door: bytes through the SCXML reader (`FlowChart(scxml:)`, Foundation's
/// `XMLParser` underneath), and for a document it accepts a run of its events (`trace()`, as
/// `flowchart trace` does) and a trip through the writer.
///
/// Oracle: a refused document is an ``SCXMLError`` with a message, placed inside the document
/// (a line no later than its last, a column no later than that line's end, or no place at
/// all); an accepted one traces without a trap, or stops with a running limit (a raise loop,
/// an eventless loop, a flood of raised events, a trace too long); and the writer writes it
/// to a document the reader reads back to the same chart.
@MainActor
enum SCXMLTarget {
    static func run(_ data: Data) {
        let chart: FlowChart
        do {
            chart = try FlowChart(scxml: data)
        } catch let error as SCXMLError {
            return checkPlace(error, data)
        } catch {
            return oracle(false, "reading threw an untyped error: \(error)")
        }
        do {
            let trace = try chart.trace()
            oracle(trace.hasPrefix("start\n"), "a trace that does not start with 'start'")
        } catch let error as FlowChartError {
            oracle(error.stoppedRunning, "an accepted document stopped with \(error)")
        } catch {
            oracle(false, "an accepted document stopped with an untyped error: \(error)")
        }
        // The writer puts each state's transitions inside it, so a document that interleaves a
        // state's transitions with its children comes back regrouped (Docs/SCXML.md, "SCXML
        // out"): the copy must run the same trace, and writing it again must change nothing.
        do {
            let copy = try FlowChart(scxml: Data(try chart.scxmlDocument().utf8))
            let again = try FlowChart(scxml: Data(try copy.scxmlDocument().utf8))
            oracle(again == copy, "writing a written chart again changed it")
            oracle(
                (try? copy.trace()) == (try? chart.trace()),
                "the writer changed what a chart does")
        } catch {
            oracle(false, "an accepted document does not survive the writer: \(error)")
        }
    }

    /// The refusal has a message and a place inside the document.
    static func checkPlace(_ error: SCXMLError, _ data: Data) {
        oracle(!error.description.isEmpty, "\(error.reason) without a message")
        guard error.line > 0 else {
            return oracle(error.column == 0, "a column without a line: \(error)")
        }
        // Lines as XML reads them: a CR LF pair, a lone CR and a LF each end one (split as
        // Swift Characters instead, a CR LF pair is one Character and hides the break).
        let lines = xmlLines(data)
        oracle(error.line <= lines.count, "a line after the document's end: \(error)")
        guard error.line <= lines.count else { return }
        let length = String(decoding: lines[error.line - 1], as: UTF8.self).unicodeScalars.count
        oracle(
            error.column >= 1 && error.column <= length + 1,
            "a column outside line \(error.line) (\(length) characters): \(error)")
    }
}

/// `data`'s lines as XML 1.0 (section 2.11) counts them: a CR LF pair, a lone CR and a LF
/// each end one. Written here again rather than calling the reader's own normalization
/// (`_SCXMLReader.normalizedLineEnds`): the oracle checks the places the reader reports, so it
/// counts lines without the reader's code.
func xmlLines(_ data: Data) -> [Data] {
    var normalized = Data()
    var afterCR = false
    for byte in data {
        if byte == 0x0A && afterCR {
            afterCR = false
            continue
        }
        afterCR = byte == 0x0D
        normalized.append(afterCR ? 0x0A : byte)
    }
    return normalized.split(separator: 0x0A, omittingEmptySubsequences: false)
}
