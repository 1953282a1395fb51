import Foundation
import Testing

@testable import FlowKitCharts

@Suite("Mermaid diagram")
struct MermaidTests {
    @Test("The diagram nests compound states and marks initial, final, history and labels")
    func wholeDiagram() throws {
        let chart = FlowChart(
            name: "login",
            root: .init(
                id: "App", initial: "Login",
                children: [
                    .init(
                        id: "Login", initial: "Form", children: [.init(id: "Form"), .final("Done")]),
                    .init(
                        id: "Main", initial: "List",
                        children: [
                            .init(id: "List"), .init(id: "Detail"),
                            .history("MainHistory", .deep, default: "List"),
                        ]),
                ]),
            transitions: [
                .init(source: "Form", event: "submit", target: "Done", raise: ["saved"]),
                .init(source: "Login", event: "done.state.Login", target: "MainHistory"),
                .init(source: "List", event: "select", target: "Detail", guard: false),
                .init(source: "Main", event: "home", target: "List", isInternal: true),
                .init(source: "Main", event: "refresh"),
            ])
        #expect(
            try chart.mermaidDiagram() == """
                stateDiagram-v2
                    [*] --> App
                    state App {
                        [*] --> Login
                        state Login {
                            [*] --> Form
                            Form
                            Done --> [*]
                        }
                        state Main {
                            [*] --> List
                            List
                            Detail
                            state "H* MainHistory" as MainHistory
                            MainHistory --> List : default
                        }
                    }
                    Form --> Done : submit / raise saved
                    Login --> MainHistory : done.state.Login
                    List --> Detail : select [false]
                    Main --> List : home (internal)
                    Main --> Main : refresh (targetless)

                """)
    }

    @Test("A parallel state is a block whose regions are separated by --")
    func parallelState() throws {
        let chart = FlowChart(
            format: FlowChart.parallelFormatIdentifier, name: "player",
            root: .init(
                id: "App", initial: "Player",
                children: [
                    .parallel(
                        "Player",
                        [
                            .init(
                                id: "Playback", initial: "Paused",
                                children: [.init(id: "Paused"), .init(id: "Playing")]),
                            .init(id: "Lyrics"),
                            .history("PlayerHistory", .deep, default: "Playback"),
                        ]),
                    .init(id: "Off"),
                ]),
            transitions: [
                .init(source: "Paused", event: "play", target: "Playing"),
                .init(source: "Player", event: "stop", target: "Off"),
                .init(source: "Off", event: "resume", target: "PlayerHistory"),
            ])
        #expect(
            try chart.mermaidDiagram() == """
                stateDiagram-v2
                    [*] --> App
                    state App {
                        [*] --> Player
                        state Player {
                            [*] --> Playback
                            state Playback {
                                [*] --> Paused
                                Paused
                                Playing
                            }
                            --
                            [*] --> Lyrics
                            Lyrics
                            state "H* PlayerHistory" as PlayerHistory
                            PlayerHistory --> Playback : default
                        }
                        Off
                    }
                    Paused --> Playing : play
                    Player --> Off : stop
                    Off --> PlayerHistory : resume

                """)
    }

    @Test("A rejected chart has no diagram")
    func rejected() {
        let chart = FlowChart(root: .init(id: "R", initial: "X", children: [.init(id: "A")]))
        #expect(throws: FlowChartError.unknownID("X", context: "initial of 'R'")) {
            try chart.mermaidDiagram()
        }
    }

    @Test("Format 3's lists draw one arrow per id; eventless transitions and conds are labelled")
    func structureDiagram() throws {
        let chart = FlowChart(
            format: FlowChart.structureFormatIdentifier,
            root: .init(
                id: "R", initial: "A2 B2",
                children: [
                    .parallel(
                        "P",
                        [
                            .init(
                                id: "A", initial: "A1",
                                children: [.init(id: "A1"), .init(id: "A2")]),
                            .init(
                                id: "B", initial: "B1",
                                children: [.init(id: "B1"), .init(id: "B2")]),
                            .history("PH", .deep, default: "A1 B1"),
                        ]),
                    .init(id: "Q"),
                ]),
            transitions: [
                .init(source: "Q", event: "go error.*", target: "A1 B2"),
                .init(source: "P", event: nil, target: "Q", cond: "In('A2') and In('B2')"),
            ])
        let lines = try chart.mermaidDiagram().split(separator: "\n").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        #expect(Array(lines[2...4]) == ["state R {", "[*] --> A2", "[*] --> B2"])
        #expect(lines.contains("PH --> A1 : default") && lines.contains("PH --> B1 : default"))
        #expect(
            Array(lines.suffix(3)) == [
                "Q --> A1 : go error.*", "Q --> B2 : go error.*",
                "P --> Q : (eventless) [In('A2') and In('B2')]",
            ])
    }
}
