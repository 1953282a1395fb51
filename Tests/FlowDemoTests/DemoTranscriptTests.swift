import Foundation
import Testing

@testable import FlowDemo

/// Docs/Demo.md's sessions are real: the commands of each `$ printf '…' | swift run flowdemo`
/// line, run through the demo as piped input and filtered as its `grep -vE` says, print
/// exactly the lines the block shows after them (a `...` line stands for any lines). Every
/// such block of the page is checked; the two README had are checked in more detail.
@MainActor
@Suite("Demo.md sessions")
struct DemoTranscriptTests {
    static let demoGuide = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Docs/Demo.md")

    /// A session block: the runs on its `$ ` lines, and the output shown after them.
    struct Session {
        struct Run {
            var commands: [String]
            var options: [String]
            /// `> /dev/null`: the run's output is not shown.
            var discardsOutput: Bool
            /// The pattern of `grep -vE '…'`: lines it matches are not shown.
            var dropping: String?

            func shows(_ line: String) throws -> Bool {
                guard let dropping else { return true }
                return try line.firstMatch(of: Regex(dropping)) == nil
            }
        }

        var runs: [Run]
        var output: [String]
    }

    /// Where `shown` (the guide) and `printed` (the demo) part first, for a failure message.
    static func firstDifference(_ shown: [String], _ printed: [String]) -> String {
        let index =
            shown.indices.first { $0 >= printed.count || shown[$0] != printed[$0] }
            ?? shown.count
        let guide = index < shown.count ? "'\(shown[index])'" : "nothing"
        let demo = index < printed.count ? "'\(printed[index])'" : "nothing"
        return
            "Docs/Demo.md's line \(index + 1) of the session shows \(guide); the demo prints \(demo)"
    }

    enum GuideError: Error { case noSection(String), noSession(String), notARun(String) }

    /// The first session block of the section `heading` of Docs/Demo.md.
    static func session(under heading: String) throws -> Session {
        let text = try String(contentsOf: demoGuide, encoding: .utf8)
        guard let start = text.range(of: "\n\(heading)\n") else {
            throw GuideError.noSection(heading)
        }
        let rest = text[start.upperBound...]
        let section = rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)]
        guard let open = section.range(of: "```\n$ "),
            let close = section.range(of: "\n```\n", range: open.upperBound..<section.endIndex)
        else { throw GuideError.noSession(heading) }
        let lines = section[section.index(open.upperBound, offsetBy: -2)..<close.lowerBound]
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return try parse(lines)
    }

    /// A session block's lines (its `$ ` lines, then the output) as a session.
    static func parse(_ lines: [String]) throws -> Session {
        var runs: [Session.Run] = []
        for line in lines.prefix(while: { $0.hasPrefix("$ ") }) {
            guard let printf = line.firstMatch(of: /printf '([^']*)'/),
                let options = line.firstMatch(of: /\| swift run flowdemo([^|>]*)/)
            else { throw GuideError.notARun(line) }
            runs.append(
                Session.Run(
                    commands: printf.1.components(separatedBy: "\\n").filter { !$0.isEmpty },
                    options: options.1.split(separator: " ").map(String.init),
                    discardsOutput: line.hasSuffix("> /dev/null"),
                    dropping: line.firstMatch(of: /grep -vE '([^']*)'/).map { String($0.1) }))
        }
        return Session(runs: runs, output: Array(lines.drop(while: { $0.hasPrefix("$ ") })))
    }

    /// Every session block of Docs/Demo.md (a fenced block whose first line is
    /// `$ printf '…' | swift run flowdemo …`), with the heading of its section.
    static func allSessions() throws -> [(heading: String, session: Session)] {
        let text = try String(contentsOf: demoGuide, encoding: .utf8)
        var result: [(String, Session)] = []
        var heading = ""
        var block: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if block == nil, line.hasPrefix("## ") { heading = line }
            if var lines = block {
                if line == "```" {
                    if lines.first?.hasPrefix("$ printf '") == true {
                        result.append((heading, try parse(lines)))
                    }
                    block = nil
                } else {
                    lines.append(line)
                    block = lines
                }
            } else if line.hasPrefix("```") {  // a fence, with or without a language
                block = []
            }
        }
        return result
    }

    /// Whether `printed` is what `shown` shows, a `...` line standing for any lines.
    static func matches(_ shown: ArraySlice<String>, _ printed: ArraySlice<String>) -> Bool {
        guard let first = shown.first else { return printed.isEmpty }
        if first == "..." {
            let rest = shown.dropFirst()
            return (printed.startIndex...printed.endIndex).contains {
                matches(rest, printed[$0...])
            }
        }
        return printed.first == first && matches(shown.dropFirst(), printed.dropFirst())
    }

    @Test("Every session block of Demo.md is what the demo prints (a '...' line: any lines)")
    func everySessionIsReal() async throws {
        let sessions = try Self.allSessions()
        #expect(sessions.count >= 3)
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("flowdemo-sessions-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (number, (heading, session)) in sessions.enumerated() {
            var printed: [String] = []
            for run in session.runs {
                var options = run.options
                var stateFile: DemoStateFile?
                var width = DemoTerminal.fallbackColumns
                while let option = options.first {
                    options.removeFirst()
                    let value = options.isEmpty ? "" : options.removeFirst()
                    switch option {
                    case "--state":
                        // The file the session names, in a directory of the session's own.
                        let own = directory.appendingPathComponent("\(number)")
                        try FileManager.default.createDirectory(
                            at: own, withIntermediateDirectories: true)
                        stateFile = DemoStateFile(path: value, relativeTo: own)
                    case "--width": width = Int(value) ?? width
                    default: Issue.record("\(heading): the session uses \(option), not run here")
                    }
                }
                let app = try DemoApp.shipped(
                    clock: ManualDemoClock(), stateFile: stateFile, width: width)
                let lines = try await app.transcript(of: run.commands).filter(run.shows)
                if !run.discardsOutput { printed = lines }
                #expect(app.liveNodes.alive == 0, "\(heading): nodes left alive")
            }
            #expect(
                Self.matches(session.output[...], printed[...]),
                """
                Docs/Demo.md, \(heading): the session is not what the demo prints; it prints:
                \(printed.joined(separator: "\n"))
                """)
        }
    }

    @Test("The session with a deep link, a tab switch and logout is what the demo prints")
    func sessionIsReal() async throws {
        let session = try Self.session(under: "## A session: a deep link, sign-in, tabs and logout")
        let run = try #require(session.runs.first)
        #expect(session.runs.count == 1 && run.options.isEmpty && run.dropping != nil)
        #expect(run.commands.first == "open flowdemo://books/12")
        let app = try makeApp()
        let lines = try await app.transcript(of: run.commands).filter(run.shows)
        #expect(lines == session.output, "\(Self.firstDifference(session.output, lines))")
        #expect(lines.contains("Signed in: carrying on to the link opened before."))
        #expect(run.commands.contains("tab favourites"))  // the session shows a tab switch
        #expect(
            lines.contains(
                "Favourites selected: nothing exited or entered; Catalog keeps its columns: "
                    + "books (list), book (detail)."))
        #expect(app.liveNodes.alive == 0)
    }

    @Test("The --state session: the second run starts where the first left off")
    func stateSessionIsReal() async throws {
        let session = try Self.session(under: "## Saving and restoring")
        try #require(session.runs.count == 2)
        let (first, second) = (session.runs[0], session.runs[1])
        #expect(first.discardsOutput && !second.discardsOutput)
        #expect(first.options == ["--state", "demo-state.json"] && second.options == first.options)
        // The file the session names, in a directory of its own.
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("flowdemo-guide-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let stateFile = DemoStateFile(path: first.options[1], relativeTo: directory)

        let firstRun = try DemoApp.shipped(clock: ManualDemoClock(), stateFile: stateFile)
        _ = await firstRun.transcript(of: first.commands)  // its output goes to /dev/null
        let secondRun = try DemoApp.shipped(clock: ManualDemoClock(), stateFile: stateFile)
        let lines = try await secondRun.transcript(of: second.commands).filter(second.shows)

        #expect(lines == session.output, "\(Self.firstDifference(session.output, lines))")
        #expect(session.output.contains("            * ^rate"))  // the sheet the first run left
        #expect(firstRun.liveNodes.alive == 0 && secondRun.liveNodes.alive == 0)
    }
}
