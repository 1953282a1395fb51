// The flowinspect binary: reads a recorded session (FlowKitRecorder's JSON lines) and writes
// the inspector, one self-contained HTML page. Everything else is in FlowKitInspector.
import FlowKitInspector
import Foundation

let usage = """
    usage: flowinspect SESSION.jsonl [-o PAGE.html]
      Writes the inspector page of a session recorded by FlowKitRecorder (flowdemo --record).
      Without -o the page is SESSION.html beside the session. A line that cannot be read is
      reported (with its number) and skipped; a file that is not a session at all writes no
      page and exits with status 1.
    """

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("flowinspect: \(message)\n".utf8))
    exit(status)
}

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("-h") || arguments.contains("--help") {
    print(usage)
    exit(0)
}
var output: String?
if let index = arguments.firstIndex(of: "-o") {
    guard index + 1 < arguments.count else { fail("-o needs a file name\n\(usage)", status: 2) }
    output = arguments[index + 1]
    arguments.removeSubrange(index...(index + 1))
}
guard arguments.count == 1, let input = arguments.first else {
    fail("expected one session file\n\(usage)", status: 2)
}
let session: FlowSessionFile
do {
    session = try FlowSessionFile(contentsOf: input)
} catch {
    fail("\(input): \(error)", status: 1)
}
for problem in session.problems {
    FileHandle.standardError.write(Data("flowinspect: \(input): \(problem)\n".utf8))
}
let target =
    output
    ?? (input.hasSuffix(".jsonl") ? String(input.dropLast(".jsonl".count)) : input) + ".html"
let title = input.split(separator: "/").last.map(String.init) ?? input
let page = FlowInspectorPage(session: session, title: title).html
guard FileManager.default.createFile(atPath: target, contents: Data(page.utf8)) else {
    fail("cannot write \(target)", status: 1)
}
print(
    "flowinspect: wrote \(target) (\(session.stepCount) steps, \(session.records.count) records"
        + (session.problems.isEmpty ? ")" : ", \(session.problems.count) lines not read)"))
