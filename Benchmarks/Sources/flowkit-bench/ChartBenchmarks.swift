import FlowKit
import FlowKitCharts
import Foundation

/// Area "charts": `FlowChartMachine` in process (no printing; the trace lines are kept in
/// memory as always), running the generated documents of ``ChartDocuments`` (ring, nested,
/// parallel, eventless, at about 10, 100 and 1,000 states) on real FlowController trees. Each
/// repetition builds and starts a machine outside the timed region, then sends the
/// document's 1,000 `next` events; the case reports time per event, and a summary prints
/// events/s and each shape's growth from 10 to 1,000 states as a ratio. `ring (format 1)` is
/// the same ring in format 1, where each state takes its own events on FlowKit's responder
/// chain instead of the machine's selection step.
@MainActor
func runChartBenchmarks(_ harness: Harness) throws {
    var perEvent: [String: Double] = [:]
    func run(_ label: String, _ chart: FlowChart, size: Int) throws {
        let name = "Charts.\(label)/states=\(size)"
        let measured = try harness.measure(
            name, operations: chart.events.count, repetitions: 5,
            setup: { () throws -> FlowChartMachine in
                let machine = try FlowChartMachine(chart: chart)
                try machine.start()
                return machine
            },
            run: { machine in
                for event in chart.events { try machine.send(event) }
                return UInt(machine.lines.count)
            })
        if let measured { perEvent[name] = measured.nanosecondsPerOperation }
    }
    for shape in ChartDocuments.shapes {
        for size in ChartDocuments.sizes {
            try run(shape, ChartDocuments.document(shape, size: size), size: size)
        }
    }
    for size in ChartDocuments.sizes {
        var ring = ChartDocuments.document("ring", size: size)
        ring.format = FlowChart.formatIdentifier
        try run("ring (format 1)", ring, size: size)
    }
    guard !perEvent.isEmpty else { return }
    print("")
    for label in ChartDocuments.shapes + ["ring (format 1)"] {
        let rates = ChartDocuments.sizes.map { size -> String in
            guard let nanoseconds = perEvent["Charts.\(label)/states=\(size)"] else { return "-" }
            return "\(size): \(Int(1e9 / nanoseconds)) events/s"
        }
        var line = pad("Charts.\(label)", 30) + rates.joined(separator: ", ")
        if let small = perEvent["Charts.\(label)/states=10"],
            let large = perEvent["Charts.\(label)/states=1000"]
        {
            line += String(format: "; 1,000 states cost %.1fx 10 states per event", large / small)
        }
        print(line)
    }
    print("")
}
