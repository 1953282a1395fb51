import Foundation
import Testing

/// Keeps the guides and the code that tests them identical.
///
/// Every ```swift block of the guides below must appear, line for line, in this target's
/// sources (indented as a whole or not), where it is compiled and run. Two kinds of line are
/// left out of the comparison: `import` lines (each test file has its own, and the guides'
/// example app module `Bookshelf` is this target itself), and a block that is a package
/// manifest (it starts with `// swift-tools-version`), which is checked by evaluating it
/// with SwiftPM instead (see ``manifestIsValid()``).
@Suite("Guides: every code block is tested")
struct GuideCodeBlockTests {
    static let guides = [
        "GettingStarted.md", "Concepts.md", "Routing.md", "Results.md", "Restoration.md",
        "Hosting.md", "HostingUIKit.md", "HostingSwiftUI.md", "Splits.md", "Navigation.md",
        "StateMachine.md", "ResponderChain.md",
        "Dependencies.md",
        "Concurrency.md", "Testing.md", "Demo.md", "Scenes.md",
    ]

    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let repository = testsDirectory.deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The line that, right before a ```swift block, marks it as not compiled here (for code
    /// that needs a framework Linux does not have, or the demo's types, see DemoBlocksTests);
    /// the marker says why.
    static let notCompiledMarker = "<!-- not compiled: "

    /// The ```swift blocks of `guide`, in order, without those marked as not compiled.
    static func swiftBlocks(of guide: String) throws -> [String] {
        let url = repository.appendingPathComponent("Docs").appendingPathComponent(guide)
        let text = try String(contentsOf: url, encoding: .utf8)
        var blocks: [String] = []
        var current: [String]?
        var skipping = false
        var previous: Substring = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```swift" {
                current = []
                skipping = previous.hasPrefix(notCompiledMarker)
            } else if current != nil, line == "```" {
                if !skipping { blocks.append(current!.joined(separator: "\n")) }
                current = nil
            } else if current != nil {
                current!.append(String(line))
            }
            previous = line
        }
        return blocks
    }

    /// The lines of `block` that must appear in the tests: no imports, no blank ends.
    static func comparedLines(of block: String) -> [String] {
        var lines = block.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.removeAll { $0.hasPrefix("import ") || $0.hasPrefix("@testable import ") }
        while lines.first?.isEmpty == true { lines.removeFirst() }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// Whether `lines` occur in `source` one after another, all with the same extra indent.
    static func contains(_ source: [Substring], _ lines: [String]) -> Bool {
        guard let first = lines.first, !first.isEmpty else { return lines.isEmpty }
        for start in source.indices where source[start].hasSuffix(first) {
            let indent = String(source[start].dropLast(first.count))
            guard indent.allSatisfy({ $0 == " " }), start + lines.count <= source.count else {
                continue
            }
            let matches = zip(source[start...], lines).allSatisfy { sourceLine, line in
                line.isEmpty ? sourceLine.isEmpty : sourceLine == indent + line
            }
            if matches { return true }
        }
        return false
    }

    static func testSources() throws -> [Substring] {
        let names = try FileManager.default.contentsOfDirectory(atPath: testsDirectory.path)
        var lines: [Substring] = []
        for name in names.sorted() where name.hasSuffix(".swift") {
            let text = try String(
                contentsOf: testsDirectory.appendingPathComponent(name), encoding: .utf8)
            lines += text.split(separator: "\n", omittingEmptySubsequences: false)
        }
        return lines
    }

    @Test("Every Swift block of the guide appears verbatim in Tests/GuideTests", arguments: guides)
    func blocksAreTested(guide: String) throws {
        let text = try String(
            contentsOf: Self.repository.appendingPathComponent("Docs").appendingPathComponent(
                guide),
            encoding: .utf8)
        #expect(text.contains("\n```swift\n"), "\(guide) has no ```swift block")
        let blocks = try Self.swiftBlocks(of: guide)
        let source = try Self.testSources()
        for (index, block) in blocks.enumerated()
        where !block.hasPrefix("// swift-tools-version") {
            #expect(
                Self.contains(source, Self.comparedLines(of: block)),
                "\(guide), Swift block \(index + 1) is not in Tests/GuideTests:\n\(block)")
        }
    }

    /// The manifest block of Getting Started.
    static func manifest() throws -> String {
        let manifests = try swiftBlocks(of: "GettingStarted.md").filter {
            $0.hasPrefix("// swift-tools-version")
        }
        try #require(manifests.count == 1)
        return manifests[0]
    }

    @Test("The Getting Started manifest names FlowKit's products, platforms and first version")
    func manifestMatchesThePackage() throws {
        let manifest = try Self.manifest()
        let package = try String(
            contentsOf: Self.repository.appendingPathComponent("Package.swift"), encoding: .utf8)
        let changelog = try String(
            contentsOf: Self.repository.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        for product in ["FlowKit", "FlowKitTesting"] {
            #expect(manifest.contains(".product(name: \"\(product)\", package: \"FlowKit\")"))
            #expect(package.contains(".library(name: \"\(product)\""))
        }
        let platforms = manifest.split(separator: "\n").first { $0.contains("platforms:") }
        #expect(platforms != nil && package.contains(platforms!))
        let version = try #require(manifest.firstMatch(of: /from: "([0-9.]+)"/)?.1)
        #expect(changelog.contains("## [\(version)]"))
    }

    @Test("The Getting Started manifest is a valid package manifest (swift package dump-package)")
    func manifestIsValid() throws {
        // A package named Bookshelf that depends on this repository by path, through a link
        // named FlowKit (SwiftPM names a path dependency after its folder).
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("GuideTests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = folder.appendingPathComponent("Bookshelf")
        let link = folder.appendingPathComponent("FlowKit")
        for path in ["Sources/Bookshelf", "Tests/BookshelfTests"] {
            try FileManager.default.createDirectory(
                at: app.appendingPathComponent(path), withIntermediateDirectories: true)
        }
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: Self.repository)
        let manifest = try Self.manifest().replacing(
            /\.package\(url: "[^"]*", from: "[^"]*"\)/,
            with: ".package(path: \"\(link.path)\")")
        try manifest.write(
            to: app.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "package", "--package-path", app.path, "dump-package"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains("\"name\" : \"Bookshelf\""), "\(text)")
    }
}
