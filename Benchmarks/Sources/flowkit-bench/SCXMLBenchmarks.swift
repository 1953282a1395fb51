import FlowKitCharts
import Foundation

// The FlowKit side of scripts/bench-scxml.sh, the side-by-side with Qt SCXML:
//
//     flowkit-bench --scxml DIR
//
// writes each generated chart of ChartDocuments (every shape at 10, 100 and 1,000 states) as
// an SCXML document through FlowKit's writer (`DIR/NAME.scxml`, with its events one per line
// in `DIR/NAME.events`), then runs FlowKit on it in-process: the document read back with
// `FlowChart(scxml:)` (timed: the parse cost per state), a `FlowChartMachine` started before
// the clock runs, and the clock covering `send` of every event (no printing). One line per
// document, in the Qt driver's format (Benchmarks/qt/driver.cpp), which the script pairs up:
//
//     flowkit NAME events_per_s=E parse_ns_per_state=P states=N config=A,B,C

/// Writes the documents and measures FlowKit on each (median of `repetitions`).
@MainActor
func runSCXMLSideBySide(directory: String, repetitions: Int = 7) throws {
    let folder = URL(fileURLWithPath: directory)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let clock = ContinuousClock()
    func nanoseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
    }
    for shape in ChartDocuments.shapes {
        for size in ChartDocuments.sizes {
            let chart = ChartDocuments.document(shape, size: size)
            let name = chart.name ?? "\(shape)\(size)"
            let document = Data(try chart.scxmlDocument().utf8)
            try document.write(to: folder.appendingPathComponent(name + ".scxml"))
            try Data(chart.events.map { $0 + "\n" }.joined().utf8)
                .write(to: folder.appendingPathComponent(name + ".events"))
            // Parsing: the fastest of the repetitions, per state.
            var parse = Double.infinity
            var read = chart
            for _ in 0..<repetitions {
                let start = clock.now
                read = try FlowChart(scxml: document)
                parse = min(parse, nanoseconds(start.duration(to: clock.now)))
            }
            precondition(read.events == chart.events, "\(name): the events did not survive")
            let states = try read.stateCount()
            // Running: a fresh machine each repetition, started outside the clock.
            var rates: [Double] = []
            var configuration: [String] = []
            for _ in 0..<(repetitions + 1) {
                let machine = try FlowChartMachine(chart: read)
                try machine.start()
                let start = clock.now
                for event in read.events { try machine.send(event) }
                let elapsed = nanoseconds(start.duration(to: clock.now))
                rates.append(Double(read.events.count) * 1e9 / elapsed)
                configuration = machine.configuration
            }
            rates.removeFirst()  // the warm-up
            rates.sort()
            print(
                "flowkit \(name) events_per_s=\(Int(rates[rates.count / 2])) "
                    + "parse_ns_per_state=\(Int(parse / Double(states))) states=\(states) "
                    + "config=\(configuration.sorted().joined(separator: ","))")
        }
    }
}

extension FlowChart {
    /// How many states (nodes of every kind) the chart has.
    fileprivate func stateCount() throws -> Int {
        var count = 0
        var pending = [root]
        while let node = pending.popLast() {
            count += 1
            pending.append(contentsOf: node.children)
        }
        return count
    }
}
