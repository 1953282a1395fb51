import FlowKit
import Foundation
import Testing

@testable import FlowKitCharts

@MainActor
@Suite("Chart machine")
struct ChartMachineTests {
    static let chart = FlowChart(
        root: .init(
            id: "R", initial: "M",
            children: [
                .init(
                    id: "M", initial: "M1",
                    children: [
                        .init(id: "M1"), .init(id: "M2"), .history("MH", .deep, default: "M1"),
                    ]),
                .init(id: "O"),
            ]),
        transitions: [
            .init(source: "M1", event: "next", target: "M2"),
            .init(source: "M", event: "out", target: "O"),
            .init(source: "O", event: "back", target: "MH"),
        ])

    @Test("A chart runs as an ordinary FlowController tree under a hidden container")
    func ordinaryTree() throws {
        let machine = try FlowChartMachine(chart: Self.chart)
        try machine.start()
        try machine.send("next")
        #expect(
            machine.runtime.treeDescription() == """
                * (chart)
                  * R
                    * M
                      * M2
                """)
        #expect(machine.runtime.focusedRoutes == ["R", "M", "M2"])
        #expect(machine.configuration == ["R", "M", "M2"])
        try machine.send("out")
        // History is kept by the runtime as routes, under the node's path.
        #expect(machine.runtime.recordedHistory(at: "(chart)/R/M") == ["M2"])
        try machine.send("back")
        #expect(
            machine.lines == [
                "start", "enter R", "enter M", "enter M1", "config R M M1",
                "event next", "exit M1", "enter M2", "config R M M2",
                "event out", "exit M2", "exit M", "enter O", "config R O",
                "event back", "exit O", "enter M", "enter M2", "config R M M2",
            ])
    }

    @Test("Exited chart states are released: history keeps routes, not nodes")
    func exitedStatesDeallocate() throws {
        let machine = try FlowChartMachine(chart: Self.chart)
        try machine.start()
        try machine.send("next")
        weak let m = machine.runtime.node(at: "(chart)/R/M")
        weak let m2 = machine.runtime.node(at: "(chart)/R/M/M2")
        #expect(m != nil && m2 != nil)
        try machine.send("out")
        #expect(m == nil)
        #expect(m2 == nil)
        try machine.send("back")
        #expect(machine.runtime.node(at: "(chart)/R/M/M2") != nil)
    }

    @Test("Events raised in an endless loop stop with a runaway error")
    func runaway() throws {
        let chart = FlowChart(
            root: .init(id: "R", initial: "A", children: [.init(id: "A")]),
            transitions: [.init(source: "A", event: "ping", target: "A", raise: ["ping"])],
            events: ["ping"])
        let machine = try FlowChartMachine(chart: chart)
        machine.transitionLimit = 50
        try machine.start()
        #expect(throws: FlowChartError.runaway(event: "ping", limit: 50)) {
            try machine.send("ping")
        }
        // 51 transitions were attempted; 50 ran (one exit and one entry each).
        #expect(machine.lines.filter { $0 == "enter A" }.count == 1 + 50)
    }

    @Test(
        "A step's entries run in document order when one of its transitions restores a history",
        .bug(id: "29.10", "a history target's restored state entered after the other regions'"))
    func historyRestoreEntersInDocumentOrder() throws {
        let url = ChartFiles.ownDirectory.appendingPathComponent("parallel_history_order.json")
        let chart = try FlowChart(json: Data(contentsOf: url))
        let machine = try FlowChartMachine(chart: chart)
        try machine.start()
        for event in ["go", "out", "back"] { try machine.send(event) }
        let before = machine.lines.count
        // S1 to region A's history (S7, recorded when P exited), F10 to F11, F17 to F18.
        try machine.send("x")
        #expect(
            Array(machine.lines[before...]) == [
                "event x", "exit F17", "exit F10", "exit S1",
                "enter S7", "enter F11", "enter F18", "config R P A S7 B F11 C F18",
            ])
        // SCXML's Appendix D, read independently, gives the same whole trace.
        var reference = ParallelReferenceInterpreter(chart: chart, limit: 10_000)
        #expect(reference.run() == .trace(machine.traceText))
    }

    @Test("Charts round-trip through JSON")
    func jsonRoundTrip() throws {
        let data = try Self.chart.jsonData()
        #expect(try FlowChart(json: data) == Self.chart)
    }
}
