import Foundation
import Testing

@testable import FlowKitCharts

/// SCXML in (Docs/SCXML.md, "What is accepted"): what each accepted element becomes in the
/// chart.
/// Where the SCXML fixtures are: hand-written documents (`NAME.scxml` with `NAME.expected`)
/// and `Corpus/`, the writer's output for every example and hand-checked example.
enum SCXMLFiles {
    static let directory = ChartFiles.testsDirectory.appendingPathComponent("SCXML")
    static let corpusDirectory = directory.appendingPathComponent("Corpus")
}

@MainActor
@Suite("SCXML: reading")
struct SCXMLReaderTests {
    static let directory = SCXMLFiles.directory

    static func read(_ text: String) throws -> FlowChart {
        try FlowChart(scxml: Data(text.utf8))
    }

    /// The hand-written documents (`NAME.scxml` beside `NAME.expected`).
    nonisolated static func handWritten() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: SCXMLFiles.directory.path)
            .filter { $0.hasSuffix(".scxml") }.map { String($0.dropLast(".scxml".count)) }
            .sorted()
    }

    @Test(
        "Each hand-written document traces as worked out by hand, through the library and flowchart",
        arguments: try handWritten())
    func handWritten(_ name: String) throws {
        let url = SCXMLFiles.directory.appendingPathComponent(name + ".scxml")
        let expected = try String(
            contentsOf: SCXMLFiles.directory.appendingPathComponent(name + ".expected"),
            encoding: .utf8)
        #expect(try FlowChart(scxml: Data(contentsOf: url)).trace() == expected)
        let result = try FlowchartProcess.run(["trace", url.path])
        #expect(result.status == 0)
        #expect(result.output == expected)
    }

    @Test("The hand-written documents are the player (format 2's structure) and the structure one")
    func handWrittenArePresent() throws {
        #expect(try Self.handWritten() == ["player", "structure"])
        let player = try FlowChart(
            scxml: Data(contentsOf: Self.directory.appendingPathComponent("player.scxml")))
        #expect(player.name == "player")
        #expect(player.events == ["play", "pause", "next", "stop", "resume"])
    }

    @Test("SCXML's structure beyond format 2 becomes format 3's fields")
    func structure() throws {
        let chart = try FlowChart(
            scxml: Data(contentsOf: Self.directory.appendingPathComponent("structure.scxml")))
        let program = try chart._compile()
        #expect(chart.format == FlowChart.structureFormatIdentifier)
        #expect(chart.root.children[0].onEntry == ["sys.ready"])
        let main = chart.root.children[1]
        #expect(main.kind == .parallel)
        #expect(main.children[0].initial == "LeftHistory")
        #expect(main.children[0].children[2] == .history("LeftHistory", .deep, default: "L2b"))
        #expect(main.children[1].kind == .parallel)
        #expect(main.children[1].children[0].onExit == ["r1.left"])
        #expect(main.children[1].children[1].initial == "R2b")
        #expect(
            chart.transitions.filter { $0.source == "L1" || $0.source == "L2b" } == [
                .init(source: "L1", event: nil, target: "L2a", cond: "In('R1b')"),
                .init(source: "L2b", event: "go", target: "L1 R1b"),
            ])
        #expect(chart.transitions.last == .init(source: "Failed", event: "*", target: "Main"))
        #expect(program.states.count == 18)
        // Lists are kept with single spaces.
        let spaced = try Self.read(
            """
            <scxml><parallel id="P"><state id="A"><transition event=" a
              b " target=" A  B "/></state><state id="B"/></parallel></scxml>
            """)
        #expect(spaced.transitions == [.init(source: "A", event: "a b", target: "A B")])
    }

    @Test("In() is read with or without quotes, as the chart's In('ID'), and written as In(ID)")
    func conditions() throws {
        let chart = try Self.read(
            """
            <scxml><state id="R"><transition event="e" cond=" In(R) and not In( &quot;R&quot; ) or In('R')"/>
            </state></scxml>
            """)
        #expect(chart.transitions[0].cond == "In('R') and not In('R') or In('R')")
        let document = try chart.scxmlDocument()
        #expect(document.contains(#"cond="In(R) and not In(R) or In(R)""#))
        #expect(try FlowChart(scxml: Data(document.utf8)) == chart)
    }

    @Test("The one top-level state is the root; several are wrapped in a root state 'scxml'")
    func roots() throws {
        let one = try Self.read(
            #"<scxml xmlns="http://www.w3.org/2005/07/scxml"><state id="App"><state id="A"/></state></scxml>"#
        )
        #expect(one.root == FlowChart.Node(id: "App", initial: "A", children: [.init(id: "A")]))
        let two = try Self.read(#"<scxml initial="B"><state id="A"/><state id="B"/></scxml>"#)
        #expect(
            two.root
                == FlowChart.Node(
                    id: "scxml", initial: "B", children: [.init(id: "A"), .init(id: "B")]))
        // An `initial` on <scxml> naming another state than the only one cannot be the root's.
        let first = try Self.read(#"<scxml><state id="A"/><state id="B"/></scxml>"#)
        #expect(first.root.initial == "A")
    }

    @Test("Every element becomes its node or transition, in document order")
    func mapping() throws {
        let chart = try Self.read(
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null"
                   binding="early" name="all">
              <state id="R">
                <transition event="reset" target="R" type="external"/>
                <state id="S" initial="T">
                  <transition event="a" target="T" type="internal">
                    <raise event="x"/><log label="l" expr="1"/><raise event="y"/>
                  </transition>
                  <transition event="b" cond=" false "/>
                  <transition event="c" cond="true" target="F"/>
                  <history id="H" type="deep"><transition target="U"/></history>
                  <state id="U"/>
                  <state id="T"/>
                  <final id="F"><onentry><log label="done"/></onentry><onexit/></final>
                </state>
                <parallel id="P">
                  <history id="PH"><transition target="Q1"/></history>
                  <state id="Q1"/><state id="Q2"/>
                </parallel>
              </state>
            </scxml>
            """)
        #expect(chart.format == FlowChart.structureFormatIdentifier)
        #expect(chart.name == "all")
        #expect(chart.events == [])
        #expect(
            chart.root
                == FlowChart.Node(
                    id: "R", initial: "S",
                    children: [
                        .init(
                            id: "S", initial: "T",
                            children: [
                                .history("H", .deep, default: "U"), .init(id: "U"),
                                .init(id: "T"), .final("F"),
                            ]),
                        .parallel(
                            "P",
                            [
                                .history("PH", .shallow, default: "Q1"), .init(id: "Q1"),
                                .init(id: "Q2"),
                            ]),
                    ]))
        #expect(
            chart.transitions == [
                .init(source: "R", event: "reset", target: "R"),
                .init(source: "S", event: "a", target: "T", isInternal: true, raise: ["x", "y"]),
                .init(source: "S", event: "b", cond: "false"),
                .init(source: "S", event: "c", target: "F", cond: "true"),
            ])
    }

    @Test("Every document is a format-3 chart (SCXML's descriptors); FlowKit's <events> feeds it")
    func formatAndEvents() throws {
        let chart = try Self.read(
            """
            <scxml xmlns:fk="urn:flowkit:charts"><fk:events>
              a b
              done.state.X</fk:events><state id="X"/></scxml>
            """)
        #expect(chart.format == FlowChart.structureFormatIdentifier)
        #expect(chart.events == ["a", "b", "done.state.X"])
    }

    @Test("Elements and attributes of other namespaces are skipped with their content")
    func foreignNamespaces() throws {
        let chart = try Self.read(
            """
            <scxml xmlns:qt="http://www.qt.io/2015/02/scxml-ext" qt:editorversion="4.8">
              <qt:editorinfo initialGeometry="1;2"><qt:anything><send/>text</qt:anything></qt:editorinfo>
              <state id="A" qt:color="red"/>
            </scxml>
            """)
        #expect(chart.root == FlowChart.Node(id: "A"))
    }

    @Test("flowchart check names an SCXML document's chart format")
    func check() throws {
        let path = SCXMLFiles.directory.appendingPathComponent("player.scxml").path
        let result = try FlowchartProcess.run(["check", path])
        #expect(result.status == 0)
        #expect(
            result.output == "\(path): valid SCXML document, read as a flowkit-hsm-case/3 chart\n")
    }

    @Test("looksLikeSCXML tells XML from JSON by the first character")
    func sniffing() {
        #expect(FlowChart.looksLikeSCXML(Data("\u{FEFF}\n  <scxml/>".utf8)))
        #expect(!FlowChart.looksLikeSCXML(Data(" {\"root\": {}}".utf8)))
        #expect(!FlowChart.looksLikeSCXML(Data()))
    }
}
