import FlowKitInspector
import Foundation
import Testing

@Suite("Bad input: a clear message naming the line; a page of what could be read, or none")
struct BadInputTests {
    private let header = #"{"format":"flowkit-session","version":1,"payloads":false}"#
    private let attach = #"{"k":"attach","rt":"main","t":0,"n":0}"#
    private let step =
        #"{"k":"step","rt":"main","t":0.1,"n":1,"change":{"kind":"start"},"full":true,"nodes":[[1,"app",null,"node",0]],"focus":[1],"active":[1]}"#

    @Test("A session cut off mid-line is read up to its last complete line")
    func cutOffMidLine() throws {
        let whole = [header, attach, step].joined(separator: "\n") + "\n"
        let cut = whole + String(step.prefix(40))
        let session = try FlowSessionFile(text: cut)
        #expect(session.records.count == 2 && session.stepCount == 1)
        #expect(
            session.problems.map(\.description) == [
                "line 4: the session ends mid-line (cut off, as by a crash): read up to line 3"
            ])
        // Cut right after a newline: nothing is wrong.
        #expect(try FlowSessionFile(text: whole).problems.isEmpty)
    }

    @Test("A newer format version is read for the records this version knows")
    func newerVersion() throws {
        let text = [
            #"{"format":"flowkit-session","version":4,"payloads":false}"#, attach, step,
            #"{"k":"hologram","rt":"main","t":1,"n":1}"#,
        ].joined(separator: "\n")
        let session = try FlowSessionFile(text: text)
        #expect(session.stepCount == 1)
        #expect(
            session.problems.map(\.description) == [
                "line 1: session format version 4 is newer than this reader's (3): showing the records it knows",
                "line 4: unknown record kind 'hologram' (skipped)",
            ])
    }

    @Test("Malformed lines are skipped and named: not JSON, no kind, a field missing")
    func malformedLines() throws {
        let text =
            [
                header, "{not json", attach, #"{"rt":"main"}"#,
                #"{"k":"event","rt":"main","t":1,"n":0}"#,
                step,
            ].joined(separator: "\n") + "\n"
        let session = try FlowSessionFile(text: text)
        #expect(session.records.count == 2)
        #expect(session.lineNumbers == [3, 6])
        #expect(
            session.problems.map(\.description) == [
                "line 2: not valid JSON (skipped)",
                "line 4: a record without a kind \"k\" (skipped)",
                "line 5: a 'event' record without its field 'event' (skipped)",
            ])
    }

    @Test("A step must say whether it is full before format 3; from format 3 on, none means not")
    func fullIsOptionalFromVersion3() throws {
        let delta =
            #"{"k":"step","rt":"main","t":0.2,"n":2,"change":{"kind":"select","containerID":1},"nodes":[],"order":[],"focus":[1]}"#
        for version in [1, 2, 3] {
            let text =
                [
                    #"{"format":"flowkit-session","version":\#(version),"payloads":false}"#, attach,
                    step, delta,
                ].joined(separator: "\n") + "\n"
            let session = try FlowSessionFile(text: text)
            #expect(session.stepCount == (version < 3 ? 1 : 2), "version \(version)")
            #expect(
                session.problems.map(\.description)
                    == (version < 3
                        ? ["line 4: a 'step' record without its field 'full' (skipped)"] : []),
                "version \(version)")
        }
    }

    @Test("A file that is not a session cannot be read at all, with the line named")
    func notASession() {
        #expect(throws: FlowSessionError.empty) { try FlowSessionFile(text: "") }
        #expect(throws: FlowSessionError.notASession(line: 1, reason: "not valid JSON")) {
            try FlowSessionFile(text: "hello\nworld\n")
        }
        #expect(throws: FlowSessionError.notASession(line: 1, reason: "the file ends mid-line")) {
            try FlowSessionFile(text: #"{"format":"flowkit-ses"#)
        }
        #expect(
            throws: FlowSessionError.notASession(
                line: 1, reason: "no \"format\":\"flowkit-session\" header with a version")
        ) { try FlowSessionFile(text: #"{"k":"step"}"# + "\n") }
        #expect(
            FlowSessionError.notASession(line: 1, reason: "not valid JSON").description
                == "line 1: not a FlowKit session (not valid JSON): no session to show")
    }

    @Test(
        "flowinspect writes no page from an unreadable file (status 1), and a page with problems otherwise"
    )
    func binary() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let flowinspect = try findBinary("flowinspect")
        let bad = folder.appendingPathComponent("bad.jsonl")
        try "not a session\n".write(to: bad, atomically: true, encoding: .utf8)
        let page = folder.appendingPathComponent("bad.html")
        let refused = try run(flowinspect, [bad.path, "-o", page.path])
        #expect(refused.status == 1)
        #expect(
            refused.stderr
                == "flowinspect: \(bad.path): line 1: not a FlowKit session (not valid JSON): no session to show\n"
        )
        #expect(!FileManager.default.fileExists(atPath: page.path))

        let cut = folder.appendingPathComponent("cut.jsonl")
        try ([header, attach, step].joined(separator: "\n") + "\n{\"k\":\"ev").write(
            to: cut, atomically: true, encoding: .utf8)
        let written = try run(flowinspect, [cut.path])
        #expect(written.status == 0)
        #expect(
            written.stderr
                == "flowinspect: \(cut.path): line 4: the session ends mid-line (cut off, as by a crash): read up to line 3\n"
        )
        let html = folder.appendingPathComponent("cut.html")
        #expect(
            written.stdout
                == "flowinspect: wrote \(html.path) (1 steps, 2 records, 1 lines not read)\n")
        let text = try String(contentsOf: html, encoding: .utf8)
        #expect(text.contains("the session ends mid-line"))
        #expect(try run(flowinspect, []).status == 2)
    }
}
