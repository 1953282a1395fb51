import Foundation
import Testing

@testable import FlowKitCharts

/// Hostile SCXML (Docs/SCXML.md, "Limits"): entity expansion, deep nesting, huge attributes
/// and huge documents are refused within the documented limits, each with its typed error.
@Suite("SCXML: limits")
struct SCXMLLimitsTests {
    static func refusal(_ text: String) -> SCXMLError? {
        refusal(Data(text.utf8))
    }

    static func refusal(_ data: Data) -> SCXMLError? {
        do {
            _ = try FlowChart(scxml: data)
            return nil
        } catch let error as SCXMLError {
            return error
        } catch {
            Issue.record("untyped error \(error)")
            return nil
        }
    }

    @Test("The limits' values")
    func values() {
        #expect(FlowChart.SCXMLLimit.bytes.value == 1_048_576)
        #expect(FlowChart.SCXMLLimit.attributeBytes.value == 4_096)
        #expect(FlowChart.SCXMLLimit.elementNesting.value == 100)
        #expect(FlowChart.SCXMLLimit.eventText.value == 65_536)
    }

    @Test("Entity expansion never happens: any document type declaration is refused")
    func billionLaughs() {
        var text = "<?xml version=\"1.0\"?>\n<!DOCTYPE scxml [\n <!ENTITY l0 \"lol\">\n"
        for level in 1...9 {
            text +=
                " <!ENTITY l\(level) \""
                + String(repeating: "&l\(level - 1);", count: 10) + "\">\n"
        }
        text += "]>\n<scxml><state id=\"&l9;\"/></scxml>"
        #expect(Self.refusal(text)?.reason == .documentType)
        let external =
            "<!DOCTYPE scxml SYSTEM \"file:///etc/passwd\">\n<scxml><state id=\"A\"/></scxml>"
        #expect(Self.refusal(external)?.reason == .documentType)
        // An entity that is not declared is not well-formed XML.
        #expect(
            Self.refusal("<scxml><state id=\"&x;\"/></scxml>")?.description
                .contains("not well-formed XML") == true)
    }

    @Test("Other encodings than UTF-8 are refused, so the check sees what the parser reads")
    func encodings() {
        let utf16 = "<scxml><state id=\"A\"/></scxml>".data(using: .utf16)!
        #expect(Self.refusal(utf16)?.reason == .encoding("the document is not UTF-8 text"))
        #expect(
            Self.refusal("<?xml version='1.0' encoding='ISO-8859-1'?><scxml/>")?.reason
                == .encoding("the document declares the encoding 'ISO-8859-1'"))
        let utf8 = "<?xml version=\"1.0\" encoding=\"utf-8\"?><scxml><state id=\"A\"/></scxml>"
        #expect(Self.refusal(utf8) == nil)
    }

    @Test(
        "A processing instruction other than the leading XML declaration is refused where it is (Foundation's parser crashed on one without data)"
    )
    func processingInstructions() throws {
        // The scxml fuzz target's finding: a processing instruction without data made
        // FoundationXML read a null C string.
        let found = try #require(
            Data(
                base64Encoded:
                    "PD94bWxidWJibGVfbGNjYT8+CjwhLT0iUiI+CiAgPGZsby0gIlVURi03Ij8+CjwhLT0iUiI+CiAgPGZsby0gV0ByaXR0ZW4gYnl3ayBoYW5pdDpldmVuZCwgdHM+eCBqeWFzICB6JA=="
            ))
        let refusal = try #require(Self.refusal(found))
        #expect(refusal.line == 1 && refusal.column == 1)
        let inside = try #require(Self.refusal("<scxml>\n  <?name?><state id=\"A\"/></scxml>"))
        #expect(
            inside.reason
                == .malformedXML(
                    "a processing instruction (<?…?>) other than the XML declaration is not "
                        + "accepted"))
        #expect(inside.line == 2 && inside.column == 3)
        #expect(Self.refusal("<?xml version=\"1.0\"?>\n<scxml><state id=\"A\"/></scxml>") == nil)
    }

    @Test("A document of 1 MiB is read; one byte more is refused before it is read")
    func bytes() throws {
        let text = "<scxml><state id=\"A\"/></scxml>"
        let padding = FlowChart.SCXMLLimit.bytes.value - text.utf8.count
        let atLimit = Data(text.utf8) + Data(repeating: UInt8(ascii: " "), count: padding)
        #expect(try FlowChart(scxml: atLimit).root.id == "A")
        #expect(Self.refusal(atLimit + Data(" ".utf8))?.reason == .overLimit(.bytes))
    }

    @Test("An attribute of 4,096 bytes is read; one of 4,097 is refused at its element")
    func attributes() throws {
        func document(_ length: Int) -> String {
            "<scxml>\n  <state id=\"A\">\n    <onentry><log label=\""
                + String(repeating: "x", count: length) + "\"/></onentry>\n  </state>\n</scxml>"
        }
        let atLimit = FlowChart.SCXMLLimit.attributeBytes.value
        #expect(Self.refusal(document(atLimit)) == nil)
        #expect(
            Self.refusal(document(atLimit + 1))?.description
                == "line 3, column 14: <log> is over the SCXML reader's limit of 4096 bytes in "
                + "one attribute")
    }

    @Test("States nested 32 deep are read; deeper nesting stops at the first state over the limit")
    func nesting() throws {
        func nested(_ levels: Int) -> String {
            (0..<levels).map { "<state id=\"S\($0)\">" }.joined()
                + String(repeating: "</state>", count: levels)
        }
        #expect(try FlowChart(scxml: Data("<scxml>\(nested(32))</scxml>".utf8)).root.id == "S0")
        let error = Self.refusal("<scxml>\(nested(33))</scxml>")
        #expect(error?.reason == .invalidChart(.overLimit(.nesting)))
        // Far deeper: refused at level 33, long before the end of the document.
        let deep = Self.refusal("<scxml>\(nested(20_000))</scxml>")
        #expect(deep?.reason == .invalidChart(.overLimit(.nesting)))
        // Elements of another namespace (skipped) nest at most 100 deep, the root's included.
        func foreign(_ levels: Int) -> String {
            "<scxml xmlns:x=\"urn:x\"><state id=\"A\">"
                + String(repeating: "<x:a>", count: levels)
                + String(repeating: "</x:a>", count: levels) + "</state></scxml>"
        }
        #expect(Self.refusal(foreign(98)) == nil)
        #expect(Self.refusal(foreign(99))?.reason == .overLimit(.elementNesting))
        #expect(Self.refusal(foreign(90_000))?.reason == .overLimit(.elementNesting))
    }

    @Test("10,000 states are read; the 10,001st is refused where it starts")
    func states() throws {
        func wide(_ count: Int) -> String {
            "<scxml><state id=\"R\">"
                + (1..<count).map { "<state id=\"S\($0)\"/>" }.joined() + "</state></scxml>"
        }
        let limit = FlowChart.Limit.states.value
        #expect(try FlowChart(scxml: Data(wide(limit).utf8)).root.children.count == limit - 1)
        #expect(Self.refusal(wide(limit + 1))?.reason == .invalidChart(.overLimit(.states)))
    }

    @Test("10,000 transitions are read; the 10,001st is refused")
    func transitions() throws {
        func many(_ count: Int) -> String {
            "<scxml><state id=\"R\">"
                + String(repeating: "<transition event=\"e\"/>", count: count)
                + "</state></scxml>"
        }
        let limit = FlowChart.Limit.transitions.value
        #expect(try FlowChart(scxml: Data(many(limit).utf8)).transitions.count == limit)
        #expect(Self.refusal(many(limit + 1))?.reason == .invalidChart(.overLimit(.transitions)))
    }

    @Test("FlowKit's <events> holds up to 1,000 events in 64 KiB of text")
    func events() throws {
        func document(_ text: String) -> String {
            "<scxml xmlns:f=\"urn:flowkit:charts\"><f:events>\(text)</f:events>"
                + "<state id=\"A\"/></scxml>"
        }
        let limit = FlowChart.Limit.events.value
        let events = Array(repeating: "e", count: limit).joined(separator: " ")
        #expect(try FlowChart(scxml: Data(document(events).utf8)).events.count == limit)
        #expect(Self.refusal(document(events + " e"))?.reason == .invalidChart(.overLimit(.events)))
        let long = String(repeating: " ", count: FlowChart.SCXMLLimit.eventText.value + 1)
        #expect(Self.refusal(document(long))?.reason == .overLimit(.eventText))
    }
}

/// The `scxml` fuzz target's seeds (Tests/Fuzz/Corpus/scxml), replayed with its oracle's
/// checks, so a finding saved there is a regression test.
@MainActor
@Suite("SCXML: fuzz seeds")
struct SCXMLFuzzSeedTests {
    static let directory = ChartFiles.repository.appendingPathComponent("Tests/Fuzz/Corpus/scxml")

    @Test("Every seed is refused with a placed SCXMLError, or traces and survives the writer")
    func seeds() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path)
        #expect(names.count >= 20)
        var accepted = 0
        for name in names.sorted() {
            let data = try Data(contentsOf: Self.directory.appendingPathComponent(name))
            let chart: FlowChart
            do {
                chart = try FlowChart(scxml: data)
            } catch let error as SCXMLError {
                // Lines as XML reads them, and the reader counts them: a CR LF pair, a lone CR
                // and a LF each end one (a CR LF pair is one Swift Character, which would hide
                // the break).
                let lines = _SCXMLReader.normalizedLineEnds(data)
                    .split(separator: 0x0A, omittingEmptySubsequences: false)
                    .map { String(decoding: $0, as: UTF8.self) }
                #expect(!error.description.isEmpty)
                if error.line > 0 {
                    #expect(error.line <= lines.count, "\(name): \(error)")
                    let length = lines[min(error.line, lines.count) - 1].unicodeScalars.count
                    #expect(error.column >= 1 && error.column <= length + 1, "\(name): \(error)")
                }
                continue
            }
            accepted += 1
            do {
                _ = try chart.trace()
            } catch let error as FlowChartError {
                #expect(error.stoppedRunning, "\(name): \(error)")
            }
            // As the fuzz target: the copy runs the same trace, and the writer is a fixpoint
            // (a state's transitions written between its children come back grouped).
            let copy = try FlowChart(scxml: Data(chart.scxmlDocument().utf8))
            #expect(try FlowChart(scxml: Data(copy.scxmlDocument().utf8)) == copy, "\(name)")
            #expect((try? copy.trace()) == (try? chart.trace()), "\(name)")
        }
        #expect(accepted >= 15)
    }
}
