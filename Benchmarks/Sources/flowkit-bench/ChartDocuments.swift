import FlowKitCharts

/// The generated charts the chart benchmarks run (area "charts"), as `FlowChart` values in
/// format 3 (`flowkit-hsm-case/3`), each with the event sequence it is fed. A driver for
/// another engine (an SCXML one) writes the same documents out and feeds the same events.
///
/// Four shapes, each at about 10, 100 and 1,000 states (``ChartDocuments/sizes``):
/// - `ring`: the root with `n` atomic states in a ring; each `next` moves one step.
/// - `nested`: the root with about √n compound states of about √n atomic states; each `next`
///   moves from a leaf to the same leaf of the next compound state (exiting and entering
///   two levels).
/// - `parallel`: the root holds one parallel state of 4 regions, each a ring of `n / 4`
///   states; each `next` moves all four regions one step in one microstep.
/// - `eventless`: a ring of `n` states where every tenth state waits for `next` and the
///   nine after it pass on by eventless transitions: each `next` is one transition on the
///   event and nine eventless microsteps.
enum ChartDocuments {
    /// The shapes, in the order the benchmark reports them.
    static let shapes = ["ring", "nested", "parallel", "eventless"]
    /// The sizes, in states (approximately: `nested` rounds to a square).
    static let sizes = [10, 100, 1_000]
    /// How many events each document is fed.
    static let eventCount = 1_000

    /// The document of `shape` at about `size` states, its events included.
    static func document(_ shape: String, size: Int) -> FlowChart {
        var chart: FlowChart
        switch shape {
        case "ring": chart = ring(size)
        case "nested": chart = nested(size)
        case "parallel": chart = parallel(size)
        case "eventless": chart = eventless(size)
        default: preconditionFailure("no chart shape '\(shape)'")
        }
        chart.name = "\(shape)\(size)"
        chart.events = Array(repeating: "next", count: eventCount)
        return chart
    }

    /// The root `R` with atomic states `S0` … `S(n-1)`; `next` goes from each to the next.
    static func ring(_ count: Int) -> FlowChart {
        let states = (0..<count).map { FlowChart.Node(id: "S\($0)") }
        return FlowChart(
            format: FlowChart.structureFormatIdentifier,
            root: .init(id: "R", initial: "S0", children: states),
            transitions: (0..<count).map {
                .init(source: "S\($0)", event: "next", target: "S\(($0 + 1) % count)")
            })
    }

    /// The root `R` with `side` compound states `C0` …, each with `side` atomic states
    /// `C0_0` …; `next` goes from `Ci_j` to `C(i+1)_j` (wrapping), and leaf `j` moves to
    /// `j+1` every time the ring of compound states wraps.
    static func nested(_ count: Int) -> FlowChart {
        var side = 1
        while (side + 1) * (side + 1) <= count { side += 1 }
        let compounds = (0..<side).map { i in
            FlowChart.Node(
                id: "C\(i)", initial: "C\(i)_0",
                children: (0..<side).map { FlowChart.Node(id: "C\(i)_\($0)") })
        }
        var transitions: [FlowChart.Transition] = []
        for i in 0..<side {
            for j in 0..<side {
                let next = i + 1 < side ? "C\(i + 1)_\(j)" : "C0_\((j + 1) % side)"
                transitions.append(.init(source: "C\(i)_\(j)", event: "next", target: next))
            }
        }
        return FlowChart(
            format: FlowChart.structureFormatIdentifier,
            root: .init(id: "R", initial: "C0", children: compounds),
            transitions: transitions)
    }

    /// The root `R` with the parallel state `P` of regions `A`, `B`, `C`, `D`, each a ring of
    /// `n / 4` atomic states (`A0` …) that `next` moves one step.
    static func parallel(_ count: Int) -> FlowChart {
        let perRegion = max(2, count / 4)
        var transitions: [FlowChart.Transition] = []
        let regions = ["A", "B", "C", "D"].map { region in
            for i in 0..<perRegion {
                transitions.append(
                    .init(
                        source: "\(region)\(i)", event: "next",
                        target: "\(region)\((i + 1) % perRegion)"))
            }
            return FlowChart.Node(
                id: region, initial: "\(region)0",
                children: (0..<perRegion).map { FlowChart.Node(id: "\(region)\($0)") })
        }
        return FlowChart(
            format: FlowChart.structureFormatIdentifier,
            root: .init(id: "R", initial: "P", children: [.parallel("P", regions)]),
            transitions: transitions)
    }

    /// The ring of ``ring(_:)`` where only every tenth state `S(10k)` waits for `next`; the
    /// others pass on at once by an eventless transition to the next state.
    static func eventless(_ count: Int) -> FlowChart {
        var chart = ring(count)
        for index in chart.transitions.indices where index % 10 != 0 {
            chart.transitions[index].event = nil
        }
        return chart
    }
}
