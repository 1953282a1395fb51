import Foundation
import Testing

/// Docs/Architecture.md's map ("The map: where everything lives") names every source file and
/// every source folder of the package, so that it stays the map of the folders. The other
/// lists the docs keep of the code (README's layout, Package.swift's compiled guides,
/// Architecture.md's observable properties and platform entry points, Reliability.md's traps)
/// are checked in `ArchitectureMapTests+Lists.swift`.
@Suite("Architecture map")
struct ArchitectureMapTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The map section of Docs/Architecture.md.
    static func map() throws -> String {
        let url = repository.appendingPathComponent("Docs/Architecture.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        let start = try #require(text.range(of: "## The map: where everything lives"))
        return String(text[start.lowerBound...])
    }

    /// Every `.swift` file under `Sources`, as a path relative to `Sources` (catalogs and
    /// resources have none).
    static func sourceFiles() throws -> [String] {
        let sources = repository.appendingPathComponent("Sources")
        let enumerator = try #require(FileManager.default.enumerator(atPath: sources.path))
        var files: [String] = []
        while let path = enumerator.nextObject() as? String {
            if path.hasSuffix(".swift") { files.append(path) }
        }
        return files.sorted()
    }

    @Test("Every source file is named in the map, in its folder's row")
    func everyFileIsMapped() throws {
        let map = try Self.map()
        let rows = map.split(separator: "\n").filter { $0.hasPrefix("| ") }
        let files = try Self.sourceFiles()
        #expect(files.count > 100)
        for file in files {
            let components = file.split(separator: "/").map(String.init)
            let name = components.last!
            let folder = components.dropLast().joined(separator: "/")
            // The row of the file's folder: `Sources/TARGET/SUB` for other targets,
            // `SUB/` within FlowKit; a nested folder may be named with the file
            // (`Internal/LineDiff.swift` in the FlowKitTesting row).
            let found = rows.contains { row in
                let namesFile =
                    row.contains("`\(name)`")
                    || row.contains("`\(components.suffix(2).joined(separator: "/"))`")
                let namesFolder: Bool
                if components.first == "FlowKit" && components.count > 2 {
                    namesFolder = row.hasPrefix("| `\(components[1])/`")
                } else {
                    namesFolder =
                        row.contains("`Sources/\(folder)`")
                        || row.contains("`Sources/\(components.first!)`")
                }
                return namesFile && namesFolder
            }
            #expect(
                found,
                "Docs/Architecture.md's map does not name Sources/\(file) in its folder's row")
        }
    }

    @Test("Every folder of Sources/FlowKit has a row in the map")
    func everyFolderIsMapped() throws {
        let map = try Self.map()
        let folders = Set(
            try Self.sourceFiles().compactMap { file -> String? in
                let components = file.split(separator: "/")
                guard components.first == "FlowKit", components.count > 2 else { return nil }
                return String(components[1])
            })
        #expect(folders.count >= 10)
        for folder in folders {
            #expect(map.contains("| `\(folder)/` |"), "no row for Sources/FlowKit/\(folder)")
        }
    }
}
