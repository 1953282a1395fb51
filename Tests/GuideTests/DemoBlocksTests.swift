import Foundation
import Testing

/// Keeps the guides' blocks that are compiled in another test target identical to it.
///
/// A block marked `<!-- not compiled: … in Tests/TARGET/FILE.swift … -->` (code that uses the
/// demo's types, which this target does not link) must appear in that file, line for line
/// and indented as a whole, as GuideCodeBlockTests requires of the other blocks here.
@Suite("Guides: blocks compiled in another test target")
struct DemoBlocksTests {
    /// Each marked block of `guide` with the test file its marker names.
    static func blocksCompiledElsewhere(in guide: String) throws -> [(file: String, block: String)]
    {
        let url = GuideCodeBlockTests.repository.appendingPathComponent("Docs")
            .appendingPathComponent(guide)
        let text = try String(contentsOf: url, encoding: .utf8)
        var found: [(file: String, block: String)] = []
        var current: [String]?
        var file: String?
        var previous: Substring = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```swift" {
                current = []
                file = nil
                if previous.hasPrefix(GuideCodeBlockTests.notCompiledMarker),
                    let match = previous.firstMatch(of: /in (Tests\/[A-Za-z]+\/[A-Za-z]+\.swift)/)
                {
                    file = String(match.1)
                }
            } else if current != nil, line == "```" {
                if let file { found.append((file, current!.joined(separator: "\n"))) }
                current = nil
            } else if current != nil {
                current!.append(String(line))
            }
            previous = line
        }
        return found
    }

    @Test("A block marked as compiled in another test file appears there verbatim")
    func blocksAreInTheirFiles() throws {
        var checked = 0
        for guide in GuideCodeBlockTests.guides {
            for (file, block) in try Self.blocksCompiledElsewhere(in: guide) {
                let url = GuideCodeBlockTests.repository.appendingPathComponent(file)
                let source = try String(contentsOf: url, encoding: .utf8)
                    .split(separator: "\n", omittingEmptySubsequences: false)
                #expect(
                    GuideCodeBlockTests.contains(
                        source, GuideCodeBlockTests.comparedLines(of: block)),
                    "\(guide): a block is not in \(file):\n\(block)")
                checked += 1
            }
        }
        #expect(checked == 3)  // Demo.md's navigation, Testing.md's two demo tests
    }
}
