import FlowKit
import FlowKitCharts
import Foundation
import Testing

/// The chart format's limits (`FlowChart.Limit`, Docs/ChartFormat.md "Limits"): each one
/// holds a chart exactly at the limit and rejects one just over it with
/// `FlowChartError.overLimit`, and a message that names the limit.
@MainActor
@Suite("Charts: limits")
struct ChartLimitsTests {
    /// A root with `count` atomic children (`count + 1` states).
    static func wide(_ count: Int) -> FlowChart {
        FlowChart(
            root: .init(
                id: "R", initial: "S0", children: (0..<count).map { .init(id: "S\($0)") }))
    }

    /// States nested `levels` deep, the root's level included: R → L1 → … → L(levels-1).
    static func nestedNode(_ levels: Int, prefix: String = "L") -> FlowChart.Node {
        var node = FlowChart.Node(id: "\(prefix)\(levels - 1)")
        for level in stride(from: levels - 2, through: 1, by: -1) {
            node = .init(id: "\(prefix)\(level)", initial: node.id, children: [node])
        }
        return node
    }

    static func nested(_ levels: Int) -> FlowChart {
        let top = nestedNode(levels)
        return FlowChart(root: .init(id: "R", initial: top.id, children: [top]))
    }

    static func overLimit(_ limit: FlowChart.Limit, _ body: () throws -> Void) {
        #expect(throws: FlowChartError.overLimit(limit)) { try body() }
    }

    @Test("The limits' values")
    func values() throws {
        #expect(try FlowChartMachine(chart: Self.wide(1)).transitionLimit == 1_000)
        #expect(FlowChart.Limit.bytes.value == 1_048_576)
        #expect(FlowChart.Limit.states.value == 10_000)
        #expect(FlowChart.Limit.nesting.value == 32)
        #expect(FlowChart.Limit.transitions.value == 10_000)
        #expect(FlowChart.Limit.events.value == 1_000)
    }

    @Test("JSON text of 1 MiB loads; one byte more is refused before it is read")
    func bytes() throws {
        let chart = Data(#"{"root":{"id":"R"}}"#.utf8)
        let padding = FlowChart.Limit.bytes.value - chart.count
        let atLimit = chart + Data(repeating: UInt8(ascii: " "), count: padding)
        #expect(try FlowChart(json: atLimit).root.id == "R")
        Self.overLimit(.bytes) { _ = try FlowChart(json: atLimit + Data(" ".utf8)) }
        // Not JSON at all, but too long: the size is checked first.
        Self.overLimit(.bytes) {
            _ = try FlowChart(json: Data(repeating: 0xFF, count: padding * 2))
        }
    }

    @Test("10,000 states validate and run; 10,001 are refused")
    func states() throws {
        try Self.wide(9_999).validate()
        #expect(try Self.wide(9_999).trace() == "start\nenter R\nenter S0\nconfig R S0\n")
        Self.overLimit(.states) { try Self.wide(10_000).validate() }
        Self.overLimit(.states) { _ = try FlowChartMachine(chart: Self.wide(10_000)) }
    }

    @Test("32 levels of nesting validate and run; 33 are refused")
    func nesting() throws {
        let deepest = Self.nested(32)
        try deepest.validate()
        let trace = try deepest.trace()
        let levels = (1...31).map { "L\($0)" }.joined(separator: " ")
        #expect(trace.hasSuffix("enter L31\nconfig R \(levels)\n"))
        Self.overLimit(.nesting) { try Self.nested(33).validate() }
        Self.overLimit(.nesting) { _ = try Self.nested(33).trace() }
    }

    @Test("10,000 transitions validate; 10,001 are refused")
    func transitions() throws {
        var chart = Self.wide(2)
        chart.transitions = (0..<10_000).map {
            .init(source: "S\($0 % 2)", event: "e\($0)", target: "S\(($0 + 1) % 2)")
        }
        try chart.validate()
        chart.transitions.append(.init(source: "S0", event: "last", target: "S1"))
        Self.overLimit(.transitions) { try chart.validate() }
    }

    @Test("1,000 events run; 1,001 are refused")
    func events() throws {
        var chart = Self.wide(2)
        chart.transitions = [
            .init(source: "S0", event: "go", target: "S1"),
            .init(source: "S1", event: "go", target: "S0"),
        ]
        chart.events = Array(repeating: "go", count: 1_000)
        let trace = try chart.trace()
        #expect(trace.components(separatedBy: "event go\n").count == 1_001)
        #expect(trace.hasSuffix("config R S0\n"))
        chart.events.append("go")
        Self.overLimit(.events) { try chart.validate() }
        Self.overLimit(.events) { _ = try chart.trace() }
    }

    @Test("A limit is checked on JSON as on charts built in code, and named in the message")
    func messages() throws {
        let events = Array(repeating: "\"e\"", count: 1_001).joined(separator: ",")
        let chart = try FlowChart(json: Data(#"{"root":{"id":"R"},"events":[\#(events)]}"#.utf8))
        #expect(throws: FlowChartError.overLimit(.events)) { try chart.validate() }
        for limit in FlowChart.Limit.allCases {
            let message = FlowChartError.overLimit(limit).description
            #expect(message.contains("more than \(limit.value) "))
            #expect(message.contains("limit"))
        }
        #expect(
            FlowChartError.overLimit(.nesting).description
                == "the chart has more than 32 levels of nesting, over the format's limit")
    }

    /// A chart within every limit whose trace is too long: two branches 8 levels deep, each
    /// event setting off 1 + 31 + 961 transitions between their leaves (each exiting and
    /// entering 7 states), about 16,000 lines an event. At 1,000 events and 32 levels, such a
    /// chart of under 8 KB made tens of millions of lines.
    static func busy(events: Int) -> FlowChart {
        let fan = Array(repeating: "y", count: 31)
        let fanZ = Array(repeating: "z", count: 31)
        return FlowChart(
            root: .init(
                id: "R", initial: "A1",
                children: [Self.nestedNode(9, prefix: "A"), Self.nestedNode(9, prefix: "B")]),
            transitions: [
                .init(source: "A8", event: "x", target: "B8", raise: fan),
                .init(source: "B8", event: "y", target: "A8", raise: fanZ),
                .init(source: "A8", event: "z", target: "B8"),
                .init(source: "B8", event: "x", target: "A8", raise: fan),
                .init(source: "A8", event: "y", target: "B8", raise: fanZ),
                .init(source: "B8", event: "z", target: "A8"),
            ],
            events: Array(repeating: "x", count: events))
    }

    @Test("A trace stops once it passes 100,000 lines")
    func traceLines() throws {
        #expect(FlowChart.traceLineLimit == 100_000)
        let short = try Self.busy(events: 2).trace()
        let perEvent = short.split(separator: "\n").count / 2
        #expect(perEvent > 10_000 && perEvent < 20_000)
        #expect(throws: FlowChartError.traceTooLong(limit: 100_000)) {
            _ = try Self.busy(events: 1_000).trace()
        }
        #expect(
            FlowChartError.traceTooLong(limit: 100_000).description
                == "the trace grew past 100000 lines; the chart does too much for one trace")
    }

    /// Why the limits exist: what made the chart fuzz target slow to about 560 inputs a
    /// second (Docs/Reliability.md, "Coverage-guided fuzzing"). Inputs that run to the
    /// transition limit cost the limit's worth of FlowKit navigations, and one navigation
    /// costs more the deeper the states nest: a 160-byte loop took 1.6 s under the fuzzer's
    /// AddressSanitizer build at 10,000 transitions, and a 5.7 KB chart of two 60-level
    /// branches whose leaves raise each other's event took 47 s (libFuzzer's timeout is
    /// 10 s).
    @Test("A raise loop stops at 1,000 transitions; a 60-level loop is refused")
    func slowInputs() throws {
        let loop = try FlowChart(
            json: Data(
                #"""
                {"root":{"id":"R","initial":"A","children":[{"id":"A"}]},
                 "transitions":[{"source":"A","event":"a","target":"A","raise":["a"]}],
                 "events":["a"]}
                """#.utf8))
        #expect(throws: FlowChartError.runaway(event: "a", limit: 1_000)) {
            _ = try loop.trace()
        }
        let deep = FlowChart(
            root: .init(
                id: "R", initial: "A1",
                children: [Self.nestedNode(61, prefix: "A"), Self.nestedNode(61, prefix: "B")]),
            transitions: [
                .init(source: "A60", event: "a", target: "B60", raise: ["b"]),
                .init(source: "B60", event: "b", target: "A60", raise: ["a"]),
            ],
            events: ["a"])
        Self.overLimit(.nesting) { _ = try deep.trace() }
    }
}
