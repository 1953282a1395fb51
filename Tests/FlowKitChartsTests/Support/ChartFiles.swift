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

/// Where the chart files are, all in the repository: this target's app-shaped `Examples/`,
/// the format's hand-checked examples in `HandChecked/`, and rule-by-rule `Charts/`.
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

    /// The chart format's own hand-checked examples (format 1), copied into the repository
    /// so that it stands alone.
    static let handCheckedDirectory = testsDirectory.appendingPathComponent("HandChecked")

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
    static func handChecked() throws -> [ChartCase] { try cases(in: handCheckedDirectory) }
}
