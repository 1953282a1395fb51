import Foundation
import Testing

@testable import FlowDemo

/// The README's demo transcript is real: its `printf` commands, run through the demo as piped
/// input and filtered as its `grep` says, print exactly the block the README shows.
@MainActor
@Suite("README transcript")
struct ReadmeTranscriptTests {
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("README.md")

    /// The commands of the README's `printf '…'` line and the fenced block after it.
    static func documented() throws -> (commands: [String], block: [String]) {
        let text = try String(contentsOf: readme, encoding: .utf8)
        guard let start = text.range(of: "printf '"),
            let end = text.range(of: "'", range: start.upperBound..<text.endIndex)
        else { throw ReadmeError.noCommand }
        let commands = text[start.upperBound..<end.lowerBound]
            .components(separatedBy: "\\n").filter { !$0.isEmpty }
        guard let open = text.range(of: "```\n", range: end.upperBound..<text.endIndex),
            let close = text.range(of: "```", range: open.upperBound..<text.endIndex)
        else { throw ReadmeError.noBlock }
        let block = text[open.upperBound..<close.lowerBound]
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return (commands, Array(block.dropLast()))  // the newline before the closing fence
    }

    /// The two runs of the README's `--state` example: the commands of its second and third
    /// `printf '…'`, the state file they name, and the fenced block after them.
    static func documentedStateRuns() throws -> (
        first: [String], second: [String], file: String, block: [String]
    ) {
        let text = try String(contentsOf: readme, encoding: .utf8)
        var commands: [[String]] = []
        var position = text.startIndex
        for _ in 0..<3 {
            guard let start = text.range(of: "printf '", range: position..<text.endIndex),
                let end = text.range(of: "'", range: start.upperBound..<text.endIndex)
            else { throw ReadmeError.noCommand }
            commands.append(
                text[start.upperBound..<end.lowerBound].components(separatedBy: "\\n")
                    .filter { !$0.isEmpty })
            position = end.upperBound
        }
        guard let option = text.range(of: "--state ", range: position..<text.endIndex),
            let open = text.range(of: "```\n", range: position..<text.endIndex),
            let close = text.range(of: "```", range: open.upperBound..<text.endIndex)
        else { throw ReadmeError.noBlock }
        let file = text[option.upperBound...].prefix { $0 != " " }
        let block = text[open.upperBound..<close.lowerBound]
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return (commands[1], commands[2], String(file), Array(block.dropLast()))
    }

    enum ReadmeError: Error { case noCommand, noBlock }

    @Test("The README transcript, with its deep link and tab switch, is what the demo prints")
    func transcriptIsReal() async throws {
        let (commands, block) = try Self.documented()
        #expect(commands.first == "open flowdemo://books/12")
        let app = try makeApp()
        let lines = await app.transcript(of: commands)
        let filtered = lines.filter {
            !$0.hasPrefix("|") && !$0.hasPrefix("+--") && !$0.contains("activate")
        }
        #expect(filtered == block)
        #expect(filtered.contains("Signed in: carrying on to the link opened before."))
        #expect(commands.contains("tab favourites"))  // the README shows a tab switch
        #expect(
            filtered.contains(
                "Favourites selected: nothing exited or entered; Catalog keeps its columns: "
                    + "books (list), book (detail)."))
        #expect(app.liveNodes.alive == 0)
    }

    @Test("The README's --state example: the second run starts where the first left off")
    func stateTranscriptIsReal() async throws {
        let (first, second, file, block) = try Self.documentedStateRuns()
        #expect(file == "demo-state.json")
        // The file the README names, in a directory of its own.
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("flowdemo-readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let stateFile = DemoStateFile(path: file, relativeTo: directory)

        let firstRun = try DemoApp.shipped(clock: ManualDemoClock(), stateFile: stateFile)
        _ = await firstRun.transcript(of: first)  // its output goes to /dev/null
        let secondRun = try DemoApp.shipped(clock: ManualDemoClock(), stateFile: stateFile)
        let lines = await secondRun.transcript(of: second)

        #expect(lines.filter { !$0.hasPrefix("|") && !$0.hasPrefix("+--") } == block)
        #expect(block.contains("            * ^rate"))  // the sheet left open by the first run
        #expect(firstRun.liveNodes.alive == 0 && secondRun.liveNodes.alive == 0)
    }
}
