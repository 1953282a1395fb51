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
}
