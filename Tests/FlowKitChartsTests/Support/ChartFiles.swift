import Foundation
import Testing

/// A chart file with its expected trace (or `rejected: <message>`).
struct ChartCase: CustomTestStringConvertible, Sendable {
    let name: String
    let json: Data
    let expected: String

    var testDescription: String { name }

    /// The message a rejected chart must produce, or `nil` if the chart must run.
    var expectedRejection: String? {
        guard expected.hasPrefix("rejected: ") else { return nil }
        return String(expected.dropFirst("rejected: ".count).dropLast())
    }
}

/// Where the chart files are: this target's hand-checked `Examples/` and rule-by-rule
/// `Charts/`, both in the repository, and (only when it exists) a folder of further
/// hand-checked examples beside the repository, `../shared/charts/examples`.
enum ChartFiles {
    /// This test target's directory.
    static let testsDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The repository root.
    static let repository = testsDirectory.deletingLastPathComponent()
        .deletingLastPathComponent()

    /// App-shaped charts with traces worked out by hand (see Docs/ChartFormat.md).
    static let examplesDirectory = testsDirectory.appendingPathComponent("Examples")

    /// One chart per rule and per rejection.
    static let ownDirectory = testsDirectory.appendingPathComponent("Charts")

    /// Optional: examples kept beside the repository by its maintainers. A clone on its
    /// own does not have them, and the tests that read them are then skipped.
    static let siblingDirectory = repository.deletingLastPathComponent()
        .appendingPathComponent("shared/charts/examples")

    /// Whether ``siblingDirectory`` exists.
    static var hasSiblingExamples: Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(
            atPath: siblingDirectory.path, isDirectory: &isDirectory)
            && isDirectory.boolValue
    }

    /// The note a skipped sibling test shows.
    static let siblingSkipNote: Comment = """
        optional: no ../shared/charts/examples beside the repository (expected in a fresh \
        clone); the in-repo examples in Tests/FlowKitChartsTests/Examples still run
        """

    /// Every `NAME.json` in `directory` with its `NAME.expected`, sorted by name.
    ///
    /// Throws when the directory is missing or a chart has no expected file, so a
    /// misplaced checkout fails loudly instead of running zero cases.
    static func cases(in directory: URL) throws -> [ChartCase] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        var result: [ChartCase] = []
        for name in names.sorted() where name.hasSuffix(".json") {
            let base = String(name.dropLast(".json".count))
            let json = try Data(contentsOf: directory.appendingPathComponent(name))
            let expectedURL = directory.appendingPathComponent(base + ".expected")
            let expected = try String(contentsOf: expectedURL, encoding: .utf8)
            result.append(ChartCase(name: base, json: json, expected: expected))
        }
        return result
    }

    static func examples() throws -> [ChartCase] { try cases(in: examplesDirectory) }
    static func own() throws -> [ChartCase] { try cases(in: ownDirectory) }

    /// The sibling examples, or none when the folder is not there.
    static func siblingExamples() throws -> [ChartCase] {
        hasSiblingExamples ? try cases(in: siblingDirectory) : []
    }
}
