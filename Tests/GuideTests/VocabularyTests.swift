import Foundation
import Testing

/// Docs/Architecture.md's "Words": each word means one thing. These tests keep the code to it
/// where it drifted before: the transaction knows no container type, and the transition
/// pipeline does not borrow the transaction's words for its own concepts.
@Suite("Vocabulary")
struct VocabularyTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/FlowKit")

    /// The code of the `.swift` files in `folder` whose names satisfy `include`, by file:
    /// each line without its comment and string literals, with its line number.
    static func code(
        in folder: String, include: (String) -> Bool = { _ in true }
    ) throws -> [(file: String, line: Int, text: String)] {
        let url = sources.appendingPathComponent(folder)
        let names = try FileManager.default.contentsOfDirectory(atPath: url.path)
            .filter { $0.hasSuffix(".swift") && include($0) }.sorted()
        #expect(!names.isEmpty, "no source file in Sources/FlowKit/\(folder)")
        var lines: [(String, Int, String)] = []
        for name in names {
            let text = try String(
                contentsOf: url.appendingPathComponent(name), encoding: .utf8)
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
                .enumerated()
            {
                var code = Substring(line)
                if let comment = code.range(of: "//") { code = code[..<comment.lowerBound] }
                let withoutStrings = code.replacing(/"[^"]*"/, with: "\"\"")
                lines.append(("\(folder)/\(name)", index + 1, String(withoutStrings)))
            }
        }
        return lines
    }

    @Test("The transaction's code names no container type")
    func transactionKnowsNoContainer() throws {
        let containers = /\b(FlowStack|FlowSwitch|FlowTabs|FlowParallel|FlowSplit)\b/
        for line in try Self.code(in: "Transactions", include: { $0.hasPrefix("Transaction") })
        where line.text.contains(containers) {
            Issue.record(
                "\(line.file):\(line.line) names a container type (plan and apply through the container's own overridable accessors): \(line.text)"
            )
        }
    }

    @Test("The transition pipeline's code does not borrow the transaction's words")
    func pipelineHasItsOwnWords() throws {
        // "plan", "commit" (but for the gesture's public `commit()` and its phase), "layout"
        // and "focus" are the transaction's; the pipeline catches up, issues steps and
        // carries out gestures.
        let borrowed = /\b_?[pP]lan\w*|\w+Plan\w*|\b_commit\w*|\w*[lL]ayout\w*|\w*[fF]ocus\w*/
        for line in try Self.code(in: "Transitions") where line.text.contains(borrowed) {
            Issue.record(
                "\(line.file):\(line.line) uses a word of the transaction (see Architecture.md's Words): \(line.text)"
            )
        }
    }
}
