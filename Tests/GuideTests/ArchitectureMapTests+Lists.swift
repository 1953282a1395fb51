import Foundation
import Testing

/// The lists the docs keep of the code, checked against it: README's layout against the
/// folders, Package.swift's list of compiled guides against the guides, Architecture.md's
/// observable properties and platform entry points against the public API, and
/// Reliability.md's traps against the public preconditions and `CrashTests`.
extension ArchitectureMapTests {
    static func text(_ path: String) throws -> String {
        try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
    }

    /// The part of `text` from the heading `heading` to the next heading of its level.
    static func section(_ heading: String, of text: String) throws -> String {
        let start = try #require(text.range(of: "\n\(heading)\n"))
        let level = String(heading.prefix { $0 == "#" })
        let rest = text[start.upperBound...]
        let end = rest.range(of: "\n\(level) ")?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }

    /// The `code` spans of `text`.
    static func codeSpans(in text: some StringProtocol) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// The table rows of `text` (lines starting with `| `), as their cells.
    static func rows(in text: String) -> [[String]] {
        text.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| ---") }
            .map { row in
                row.split(separator: "|", omittingEmptySubsequences: false).dropFirst()
                    .dropLast().map { $0.trimmingCharacters(in: .whitespaces) }
            }
    }

    static func folders(in path: String) throws -> Set<String> {
        let url = repository.appendingPathComponent(path)
        let names = try FileManager.default.contentsOfDirectory(atPath: url.path)
        return Set(
            names.filter { name in
                var isFolder: ObjCBool = false
                return !name.hasPrefix(".")
                    && FileManager.default.fileExists(
                        atPath: url.appendingPathComponent(name).path, isDirectory: &isFolder)
                    && isFolder.boolValue
            })
    }

    static func flowKit() throws -> SourceScanner {
        try SourceScanner(folder: "Sources/FlowKit", in: repository)
    }

    // MARK: README's layout

    @Test("README's layout names every top-level folder, every target and FlowKit's folders")
    func readmeLayoutNamesTheFolders() throws {
        let layout = try Self.section("## Layout", of: try Self.text("README.md"))
        let rows = Self.rows(in: layout)
        #expect(rows.count >= 5, "README.md has no layout table")
        let named = rows.flatMap { Self.codeSpans(in: $0.first ?? "") }
        for folder in try Self.folders(in: "").sorted() where folder != "Sources" {
            #expect(
                named.contains { $0 == folder || $0.hasPrefix("\(folder)/") },
                "README.md's layout does not name the top-level folder \(folder)/")
        }
        for target in try Self.folders(in: "Sources").sorted() {
            #expect(
                named.contains("Sources/\(target)"),
                "README.md's layout does not name Sources/\(target)")
        }
        let row = try #require(
            rows.first { $0.first == "`Sources/FlowKit`" }, "no row for Sources/FlowKit")
        let listed = Set(Self.codeSpans(in: row.dropFirst().joined(separator: " ")))
        let actual = try Self.folders(in: "Sources/FlowKit").filter { !$0.hasSuffix(".docc") }
        #expect(
            listed == actual,
            """
            README.md's list of Sources/FlowKit's folders differs from the folders: \
            missing \(actual.subtracting(listed).sorted()), \
            not there \(listed.subtracting(actual).sorted())
            """)
    }

    // MARK: Compiled guides

    /// The guides in Docs/ that have a ```swift block.
    static func guidesWithSwiftCode() throws -> Set<String> {
        let docs = repository.appendingPathComponent("Docs")
        let names = try FileManager.default.contentsOfDirectory(atPath: docs.path)
        return Set(
            try names.filter { $0.hasSuffix(".md") }.filter { name in
                try Self.text("Docs/\(name)").contains("\n```swift\n")
            })
    }

    @Test("Package.swift's list of compiled guides is the guides with Swift code")
    func packageListsTheCompiledGuides() throws {
        let manifest = try Self.text("Package.swift").split(separator: "\n")
        let start = try #require(
            manifest.firstIndex { $0.contains("// The code of the guides") },
            "Package.swift has no comment listing the compiled guides")
        var listed: Set<String> = []
        for line in manifest[start...] {
            guard line.trimmingCharacters(in: .whitespaces).hasPrefix("//") else { break }
            for match in line.matches(of: /(\w+)\.md/) { listed.insert(String(match.1) + ".md") }
        }
        let actual = try Self.guidesWithSwiftCode()
        #expect(
            listed == actual,
            """
            Package.swift's list of compiled guides (the GuideTests target's comment) differs \
            from the guides with Swift code: missing \(actual.subtracting(listed).sorted()), \
            not there \(listed.subtracting(actual).sorted())
            """)
        let checked = Set(GuideCodeBlockTests.guides)
        #expect(
            checked == actual,
            """
            GuideCodeBlockTests.guides differs from the guides with Swift code: missing \
            \(actual.subtracting(checked).sorted()), not there \
            \(checked.subtracting(actual).sorted())
            """)
    }

    // MARK: Observable properties and platform entry points

    @Test("Architecture.md names every observable property, and only public properties")
    func architectureNamesTheObservableProperties() throws {
        let observation = try Self.section(
            "## Observation", of: try Self.text("Docs/Architecture.md"))
        let list = observation.components(separatedBy: "\n\n").first { !$0.isEmpty } ?? ""
        let properties = try Self.flowKit().declarations(matching: /\bvar \w+/)
            .filter { SourceScanner.isPublic($0.line) }
        let observable = properties.filter { property in
            property.body.contains { $0.contains("_observation()") }
        }
        #expect(observable.count >= 9)
        for property in observable {
            let name = "\(property.type).\(property.line.firstMatch(of: /var (\w+)/)!.1)"
            #expect(
                list.contains("`\(name)`"),
                """
                Docs/Architecture.md ("Observation") does not name the observable property \
                \(name) (\(property.file))
                """)
        }
        let declared = Set(
            properties.map { "\($0.type).\($0.line.firstMatch(of: /var (\w+)/)!.1)" })
        for span in Self.codeSpans(in: list) where span.wholeMatch(of: /Flow\w+\.\w+/) != nil {
            #expect(
                declared.contains(span),
                "Docs/Architecture.md (\"Observation\") names \(span), not a public property")
        }
    }

    @Test("Architecture.md names every platform entry point, and only those")
    func architectureNamesThePlatformEntryPoints() throws {
        let host = try Self.section("## The host", of: try Self.text("Docs/Architecture.md"))
        let scanner = try Self.flowKit()
        // FlowHost's own requirements (`platformDidChange(_:in:)`, …) tell the host of a
        // platform change; they are not ways in.
        let requirements = Set(
            scanner.declarations(matching: /func platformDid\w+/).filter { $0.type == "FlowHost" }
                .map { $0.line.firstMatch(of: /func (\w+)/)!.1 })
        var entryPoints: Set<String> = []
        for file in scanner.files {
            for (index, line) in file.lines.enumerated() {
                guard SourceScanner.isPublic(line),
                    let name = line.firstMatch(of: /func (platformDid\w+)\(/)?.1,
                    !requirements.contains(name)
                else { continue }
                let type = SourceScanner.enclosingType(in: file.lines, before: index) ?? "?"
                let labels = SourceScanner.labels(in: file.lines, from: index)
                entryPoints.insert("\(type).\(name)\(labels)")
            }
        }
        #expect(entryPoints.count >= 8)
        for entry in entryPoints.sorted() {
            #expect(
                host.contains("`\(entry)`"),
                "Docs/Architecture.md (\"The host\") does not name the platform entry point \(entry)"
            )
        }
        for span in Self.codeSpans(in: host) where span.contains(".platformDid") {
            #expect(
                entryPoints.contains(span),
                "Docs/Architecture.md (\"The host\") names \(span), not a public entry point")
        }
    }

    // MARK: Traps

    /// A public declaration that may trap: how the docs and tests name it (`FlowTabs(` for an
    /// initializer, `FlowTrace.limit` for a member), where it is, and whether its doc comment
    /// has a `- Precondition:` line.
    struct Trap: Hashable {
        let name: String
        let place: String
        let documented: Bool
    }

    /// Every public declaration of FlowKit that calls `precondition` or `preconditionFailure`
    /// or documents a `- Precondition:`.
    static func traps() throws -> [Trap] {
        let scanner = try flowKit()
        let declaration =
            /^(?:@\w+ )*(?:(?:public|open|override|final|static|class|nonisolated|required|convenience|mutating|(?:\w+)\(set\)) )*(?:init|func \w+|var \w+|subscript)\b/
        var traps: [String: Trap] = [:]
        func add(_ file: SourceScanner.File, _ index: Int) {
            let line = file.lines[index].trimmingCharacters(in: .whitespaces)
            guard SourceScanner.isPublic(line) else { return }
            let type = SourceScanner.enclosingType(in: file.lines, before: index) ?? "?"
            let name: String
            if line.firstMatch(of: /\binit\b/) != nil
                && line.firstMatch(of: /\b(?:func|var)\s/) == nil
            {
                name = "\(type)("
            } else if let member = line.firstMatch(of: /\bvar (\w+)/)?.1 {
                name = "\(type).\(member)"
            } else {
                name = "\(type).\(line.firstMatch(of: /\bfunc (\w+)/)?.1 ?? "?")("
            }
            let documented = SourceScanner.documentation(in: file.lines, above: index).contains {
                $0.contains("- Precondition:")
            }
            let trap = Trap(name: name, place: "\(file.path):\(index + 1)", documented: documented)
            if traps[name] == nil || !trap.documented { traps[name] = trap }
        }
        for file in scanner.files {
            for (index, line) in file.lines.enumerated() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("//") { continue }
                if trimmed.firstMatch(of: /\bprecondition(Failure)?\(/) != nil,
                    let enclosing = SourceScanner.enclosingDeclaration(in: file, of: index)
                {
                    add(file, enclosing.index)
                } else if trimmed.firstMatch(of: declaration) != nil,
                    SourceScanner.documentation(in: file.lines, above: index).contains(where: {
                        $0.contains("- Precondition:")
                    })
                {
                    add(file, index)
                }
            }
        }
        return traps.values.sorted { $0.name < $1.name }
    }

    /// CrashTests' exit tests that expect a failure: their display names.
    static func exitTestNames() throws -> [String] {
        let text = try Self.text("Tests/FlowKitTests/CrashTests.swift")
        return text.components(separatedBy: "@Test(\"").dropFirst().compactMap { test in
            guard test.contains("processExitsWith: .failure") else { return nil }
            return String(test.prefix { $0 != "\"" })
        }
    }

    @Test("Every public precondition is documented, listed in Reliability.md and exit-tested")
    func everyTrapIsDocumentedAndTested() throws {
        let traps = try Self.traps()
        #expect(traps.count >= 8)
        let section = try Self.section(
            "## What still traps, and why", of: try Self.text("Docs/Reliability.md"))
        let rows = Self.rows(in: section).map { $0.first ?? "" }
        let exitTests = try Self.exitTestNames()
        for trap in traps {
            #expect(
                trap.documented,
                """
                \(trap.place): \(trap.name) traps, and its doc comment has no \
                `- Precondition:` line
                """)
            #expect(
                rows.contains { $0.contains("`\(trap.name)") },
                """
                \(trap.place): \(trap.name) traps, and Docs/Reliability.md ("What still traps, \
                and why") has no row for it
                """)
            #expect(
                exitTests.contains { $0.contains(trap.name) },
                """
                \(trap.place): \(trap.name) traps, and CrashTests has no exit test \
                (`processExitsWith: .failure`) whose name names it
                """)
        }
        let names = Set(traps.map(\.name))
        for row in rows.dropFirst() {
            let spans = Self.codeSpans(in: row).compactMap {
                $0.firstMatch(of: /^Flow\w+(\(|\.\w+\(?)/).map { String($0.0) }
            }
            #expect(!spans.isEmpty, "Docs/Reliability.md's trap row names no API: \(row)")
            for span in spans {
                #expect(
                    names.contains(span),
                    "Docs/Reliability.md lists a trap of \(span), which no longer traps")
            }
        }
    }
}
