import FlowDemo
import Foundation
import Testing

/// Runs the built `flowdemo` binary, found next to the test bundle.
@MainActor
@Suite("flowdemo binary")
struct BinaryTests {
    @Test("Piped commands are echoed before their output, and the binary exits 0")
    func pipedCommands() throws {
        let result = try runFlowdemo(stdin: "tree\n\n# a comment\nlogin bob bad\nquit\nnext\n")

        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(
            result.stdout
                == greeting + "\n" + loginPanel + "\n"
                    + """
                    > tree
                    * app
                      * login
                        * form
                    FlowController instances alive: 3 (3 in the tree; * marks the focused path)
                    > login bob bad
                    Wrong username or password (1 in a row for bob; 2 more lock bob out for 10 s).
                    > quit
                    Quitting: the runtime stops and every node exits, innermost first.
                    FlowController instances still alive: 0 (3 created in this run).

                    """)
    }

    @Test("Piped input runs the same code as the library: whole transcripts are equal")
    func pipedMatchesLibrary() async throws {
        let commands = [
            "login alice wonderland", "trace", "next", "filter austen", "select 3", "fav",
            "tab favourites", "select 1", "tab catalog", "back", "select 9", "tree",
            "tab profile", "logout",
        ]
        let result = try runFlowdemo(stdin: commands.joined(separator: "\n") + "\n")
        let app = try makeApp()

        #expect(result.status == 0, "standard error: \(result.stderr)")
        let expected = await app.transcript(of: commands).joined(separator: "\n") + "\n"
        #expect(result.stdout == expected)
        #expect(
            result.stdout.hasSuffix(
                "FlowController instances still alive: 0 (16 created in this run).\n"))
    }

    @Test("Empty standard input runs the walkthrough and exits 0")
    func emptyInputRunsWalkthrough() throws {
        let result = try runFlowdemo(stdin: "")

        #expect(result.status == 0)
        #expect(result.stdout == expectedWalkthrough + "\n")
    }

    @Test("--help prints the help, also after a --; an unknown option exits 2")
    func options() throws {
        let help = try runFlowdemo(stdin: "", arguments: ["--help"])
        let afterSeparator = try runFlowdemo(stdin: "", arguments: ["--", "--help"])
        let bad = try runFlowdemo(stdin: "", arguments: ["--fast"])

        #expect(help.status == 0)
        #expect(help.stdout == DemoOptions.helpText + "\n")
        #expect(afterSeparator.status == 0)
        #expect(afterSeparator.stdout == help.stdout)
        #expect(bad.status == 2)
        #expect(bad.stdout == "")
        #expect(
            bad.stderr == "flowdemo: unknown argument '--fast'; see swift run flowdemo --help\n")
    }
}

struct ProcessResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs `flowdemo` with `stdin` as its standard input and waits for it.
func runFlowdemo(stdin: String, arguments: [String] = []) throws -> ProcessResult {
    let process = Process()
    process.executableURL = try flowdemoBinary()
    process.arguments = arguments
    let input = Pipe()
    let output = Pipe()
    let errors = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    input.fileHandleForWriting.write(Data(stdin.utf8))
    try input.fileHandleForWriting.close()
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ProcessResult(
        status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
        stderr: String(decoding: err, as: UTF8.self))
}

/// The `flowdemo` built with these tests: next to the test executable or bundle (SwiftPM puts
/// every product of a build in one directory), else in the package's `.build/debug`.
/// `FLOWDEMO_BINARY` overrides the search.
func flowdemoBinary() throws -> URL {
    let fileManager = FileManager.default
    if let path = ProcessInfo.processInfo.environment["FLOWDEMO_BINARY"] {
        return URL(fileURLWithPath: path)
    }
    var directories: [URL] = []
    let starts =
        [Bundle.main.executableURL, URL(fileURLWithPath: CommandLine.arguments[0])]
        + Bundle.allBundles.map(\.bundleURL)
    for start in starts.compactMap({ $0 }) {
        var directory = start.deletingLastPathComponent()
        for _ in 0..<4 {
            directories.append(directory)
            directory = directory.deletingLastPathComponent()
        }
    }
    let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    directories.append(packageRoot.appendingPathComponent(".build/debug"))
    for directory in directories {
        let candidate = directory.appendingPathComponent("flowdemo")
        if fileManager.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    throw BinaryNotFound(searched: directories.map(\.path))
}

struct BinaryNotFound: Error, CustomStringConvertible {
    var searched: [String]
    var description: String {
        "flowdemo was not found; build it (swift build) or set FLOWDEMO_BINARY. Searched: "
            + searched.joined(separator: ", ")
    }
}
