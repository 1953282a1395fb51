import Foundation
import Testing

/// The documentation stands alone: every relative link in the repository's Markdown files
/// points to a file inside the repository that exists.
@Suite("Markdown links")
struct MarkdownLinkTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().standardizedFileURL

    /// README, CHANGELOG, CONTRIBUTING and every page in Docs/.
    static func markdownFiles() throws -> [URL] {
        let docs = repository.appendingPathComponent("Docs")
        let pages = try FileManager.default.contentsOfDirectory(atPath: docs.path)
            .filter { $0.hasSuffix(".md") }.sorted().map { docs.appendingPathComponent($0) }
        return ["README.md", "CHANGELOG.md", "CONTRIBUTING.md"]
            .map { repository.appendingPathComponent($0) } + pages
    }

    @Test(
        "Every relative link in README, CHANGELOG, CONTRIBUTING and Docs/ stays in the repository")
    func relativeLinksStayInside() throws {
        var checked = 0
        for file in try Self.markdownFiles() {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: /\]\(([^)\s]+)\)/) {
                let target = String(match.1)
                if target.contains("://") || target.hasPrefix("#") || target.hasPrefix("doc:") {
                    continue
                }
                let path = String(target.prefix { $0 != "#" })
                let resolved = file.deletingLastPathComponent().appendingPathComponent(path)
                    .standardizedFileURL
                #expect(
                    resolved.path.hasPrefix(Self.repository.path + "/"),
                    "\(file.lastPathComponent) links outside the repository: \(target)")
                #expect(
                    FileManager.default.fileExists(atPath: resolved.path),
                    "\(file.lastPathComponent) links to a missing file: \(target)")
                checked += 1
            }
        }
        #expect(checked > 20)
    }

    @Test("No Markdown file mentions files that live outside the repository")
    func noOutsideFiles() throws {
        for file in try Self.markdownFiles() {
            let text = try String(contentsOf: file, encoding: .utf8)
            for outside in ["../shared", "DESIGN.md", "FORMAT.md", "STYLE.md"] {
                #expect(!text.contains(outside), "\(file.lastPathComponent) mentions \(outside)")
            }
        }
    }
}
