import Foundation
import Testing

@testable import FlowKitCharts

/// One refused SCXML document and the message it must produce.
struct SCXMLRefusal: CustomTestStringConvertible, Sendable {
    let name: String
    let document: String
    let message: String

    var testDescription: String { name }

    /// `element` as the third line of a document, inside state `A` (so at line 3, column 5).
    static func inState(_ name: String, _ element: String, _ message: String) -> SCXMLRefusal {
        SCXMLRefusal(
            name: name,
            document: """
                <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0">
                  <state id="A">
                    \(element)
                  </state>
                </scxml>
                """, message: message)
    }

    /// `element` inside the `<onentry>` of state `A` (at line 3, column 14).
    static func inEntry(_ name: String, _ element: String, _ message: String) -> SCXMLRefusal {
        inState(name, "<onentry>\(element)</onentry>", message)
    }

    static let noData = "FlowKit charts use the null data model"

    /// Every refused element, attribute and structure (Docs/SCXML.md, "What is refused").
    static let all: [SCXMLRefusal] = [
        inState(
            "datamodel", "<datamodel><data id=\"x\"/></datamodel>",
            "line 3, column 5: <datamodel> is not supported: \(noData) (no data)"),
        inState(
            "data", "<data id=\"x\"/>",
            "line 3, column 5: <data> is not supported: \(noData) (no data)"),
        inEntry(
            "script", "<script>x = 1</script>",
            "line 3, column 14: <script> is not supported: it runs a script; \(noData)"),
        inEntry(
            "assign", "<assign location=\"x\" expr=\"1\"/>",
            "line 3, column 14: <assign> is not supported: it changes data; \(noData)"),
        inEntry(
            "send", "<send event=\"e\" delay=\"1s\"/>",
            "line 3, column 14: <send> is not supported: it sends events outside the chart "
                + "or delayed; FlowKit charts only <raise>"),
        inEntry(
            "cancel", "<cancel sendid=\"s\"/>",
            "line 3, column 14: <cancel> is not supported: it cancels a delayed <send>; "
                + "FlowKit charts only <raise>"),
        inState(
            "invoke", "<invoke type=\"scxml\" src=\"other.scxml\"/>",
            "line 3, column 5: <invoke> is not supported: it starts an external service; "
                + "FlowKit charts invoke nothing"),
        inState(
            "finalize", "<finalize/>",
            "line 3, column 5: <finalize> is not supported: it belongs to <invoke>; "
                + "FlowKit charts invoke nothing"),
        inState(
            "content", "<content/>",
            "line 3, column 5: <content> is not supported: it carries data; \(noData)"),
        inState(
            "param", "<param name=\"p\"/>",
            "line 3, column 5: <param> is not supported: it carries data; \(noData)"),
        inState(
            "donedata", "<final id=\"F\"><donedata/></final>",
            "line 3, column 19: <donedata> is not supported: it carries data; \(noData)"),
        inEntry(
            "if", "<if cond=\"true\"><raise event=\"e\"/></if>",
            "line 3, column 14: <if> is not supported: conditional executable content is not "
                + "run; use transitions with cond"),
        inEntry(
            "elseif", "<elseif cond=\"true\"/>",
            "line 3, column 14: <elseif> is not supported: conditional executable content is "
                + "not run; use transitions with cond"),
        inEntry(
            "else", "<else/>",
            "line 3, column 14: <else> is not supported: conditional executable content is not "
                + "run; use transitions with cond"),
        inEntry(
            "foreach", "<foreach array=\"a\" item=\"i\"/>",
            "line 3, column 14: <foreach> is not supported: it iterates over data; \(noData)"),
        inState(
            "unknown element", "<bogus/>",
            "line 3, column 5: <bogus> is not supported: SCXML has no such element"),
        inState(
            "ECMAScript cond", "<transition event=\"e\" cond=\"x == 1\" target=\"A\"/>",
            "line 3, column 5: <transition> cond=\"x == 1\" is not accepted: the null data "
                + "model's conditions are true, false, In('id'), and not, and, or of them "
                + "(expected true, false, In('id'), not or '(' at offset 0)"),
        inState(
            "targetexpr", "<transition event=\"e\" targetexpr=\"t\"/>",
            "line 3, column 5: attribute 'targetexpr' of <transition> is not supported: it "
                + "needs a data model; \(noData)"),
        inState(
            "src", "<state id=\"B\" src=\"b.scxml\"/>",
            "line 3, column 5: attribute 'src' of <state> is not supported: external documents "
                + "are not included"),
        inState(
            "missing id", "<state/>", "line 3, column 5: <state> needs the attribute 'id'"),
        inState(
            "history without default", "<history id=\"H\"/>",
            "line 3, column 5: <history> needs one <transition> naming its default"),
        inState(
            "raise in a history's transition",
            "<history id=\"H\"><transition target=\"A\"><raise event=\"e\"/></transition></history>",
            "line 3, column 44: <raise> is not supported: the transition of <initial> or "
                + "<history> runs no actions in FlowKit charts"),
        inState(
            "history type",
            "<history id=\"H\" type=\"medium\"><transition target=\"A\"/></history>",
            "line 3, column 5: <history> type=\"medium\" is not accepted: shallow or deep"),
        inState(
            "transition in final", "<final id=\"F\"><transition event=\"e\"/></final>",
            "line 3, column 19: <transition> cannot be a child of <final>"),
        inState("text", "hello", "line 2, column 3: <state> cannot contain text"),
        inState(
            "unknown target", "<transition event=\"e\" target=\"Nowhere\"/>",
            "line 3, column 5: <transition>: unknown id 'Nowhere' in transitions[0].target"),
        inState(
            "invalid id", "<state id=\"B-1\"/>",
            "line 3, column 5: <state>: invalid id 'B-1': ids match [A-Za-z_][A-Za-z0-9_]*"),
        SCXMLRefusal(
            name: "ECMAScript data model",
            document: "<scxml datamodel=\"ecmascript\">\n<state id=\"A\"/></scxml>",
            message: "line 1, column 1: <scxml> datamodel=\"ecmascript\" is not accepted: "
                + "FlowKit charts use the null data model"),
        SCXMLRefusal(
            name: "top-level final",
            document: "<scxml>\n  <state id=\"A\"/>\n  <final id=\"F\"/>\n</scxml>",
            message: "line 3, column 3: <final> is not supported: a top-level <final> ends the "
                + "state machine, which FlowKit charts never do; put it inside a <state>"),
        SCXMLRefusal(
            name: "not SCXML", document: "<html><state id=\"A\"/></html>",
            message: "line 1, column 1: the root element is <html>, not <scxml>"),
        SCXMLRefusal(
            name: "malformed", document: "<scxml>\n  <state id=\"A\">\n</scxml>",
            message: "line 3, column 9: not well-formed XML: mismatched end tag "
                + "(XML parser error 76)"),
        SCXMLRefusal(
            name: "document type",
            document: "<?xml version=\"1.0\"?>\n<!DOCTYPE scxml [<!ENTITY a \"b\">]>\n<scxml/>",
            message: "line 2, column 1: a document type declaration (<!DOCTYPE) is not "
                + "accepted; SCXML documents need none, and entities are never expanded"),
        SCXMLRefusal(
            name: "encoding",
            document: "<?xml version=\"1.0\" encoding=\"UTF-7\"?>\n<scxml/>",
            message: "line 1, column 1: the document declares the encoding 'UTF-7'; SCXML "
                + "documents are read as UTF-8"),
    ]
}

@Suite("SCXML: refusals")
struct SCXMLRefusalTests {
    @Test(
        "Every refused element, attribute and structure is a typed error naming it and its place",
        arguments: SCXMLRefusal.all)
    func refused(_ refusal: SCXMLRefusal) throws {
        let error = #expect(throws: SCXMLError.self) {
            _ = try FlowChart(scxml: Data(refusal.document.utf8))
        }
        #expect(error?.description == refusal.message)
    }

    @Test("flowchart trace, check, diagram and scxml refuse each with status 2 and its message")
    func commandLine() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("scxml-refusals-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (index, refusal) in SCXMLRefusal.all.enumerated() {
            let file = directory.appendingPathComponent("refusal\(index).scxml")
            try Data(refusal.document.utf8).write(to: file)
            let commands = index == 0 ? ["trace", "check", "diagram", "scxml"] : ["trace"]
            for command in commands {
                let result = try FlowchartProcess.run([command, file.path])
                #expect(result.status == 2, "\(refusal.name)")
                #expect(result.output == "")
                #expect(
                    result.error == "flowchart: \(file.path): \(refusal.message)\n",
                    "\(refusal.name)")
            }
        }
    }
}
