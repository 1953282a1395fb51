import FlowDemo
import Foundation
import Testing

/// What the docs tell a new user to run, and how the demo writes paths.
@MainActor
@Suite("Docs and consistency")
struct ConsistencyTests {
    /// The package's root, from this file's path.
    let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The options of every `swift run flowdemo …` in `file`, up to a redirection, a pipe
    /// or a comment.
    func documentedOptions(in file: String) throws -> [[String]] {
        let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
        return text.components(separatedBy: "swift run flowdemo").dropFirst().map { rest in
            let line = rest.prefix { $0 != "\n" && $0 != "`" && $0 != ")" }
            return line.split(separator: " ").map(String.init)
                .prefix { !["<", ">", "|", "#", "&&", ";"].contains($0) }.map { $0 }
        }
    }

    @Test("Every swift run flowdemo command in the docs and the help is accepted")
    func documentedCommandsParse() throws {
        var all: [[String]] = []
        for file in ["Docs/Demo.md", "README.md"] {
            all += try documentedOptions(in: file)
        }
        all += DemoOptions.helpText.components(separatedBy: "swift run flowdemo").dropFirst()
            .map { $0.prefix { $0 != "\n" }.split(separator: " ").map(String.init) }
            .map { $0.filter { !$0.hasPrefix("[") && !$0.hasSuffix("]") } }

        #expect(all.contains(["--help"]))
        for options in all {
            #expect(throws: Never.self, "swift run flowdemo \(options.joined(separator: " "))") {
                try DemoOptions(arguments: options)
            }
        }
    }

    @Test("What the demo tells the user to run works with swift run")
    func adviceUsesSwiftRun() async throws {
        let app = try makeApp()
        let banner = await app.walkthrough().first ?? ""

        #expect(banner.contains("swift run flowdemo --help"))
        #expect(
            DemoOptionsError.unknownArgument("-x").description.hasSuffix(
                "see swift run flowdemo --help"))
    }

    @Test("A path is written one way: the panel, the prompt, the trace and the tree agree")
    func onePathStyle() async throws {
        let app = try makeApp()
        _ = await app.start()
        _ = await app.run("trace")
        var transcript = await app.run("login bob builder")
        transcript += await app.run("select 3")
        let prompt = app.prompt

        #expect(prompt == "app/main/tabs/catalog/book/detail> ")
        #expect(transcript.contains("| app/main/tabs/catalog/book/detail"))
        #expect(transcript.contains("  trace: enter app/main/tabs/catalog/book/detail"))
        #expect(!transcript.contains { $0.contains(" > ") })
        let help = await app.run("help")
        #expect(help.contains("| " + prompt.dropLast(2)))
    }
}
