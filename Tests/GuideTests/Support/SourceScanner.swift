import Foundation

/// A line-based reader of FlowKit's own sources, for the tests that keep the docs' lists
/// (observable properties, platform entry points, traps) equal to the code. It knows the
/// house style (swift-format's layout: one declaration per line, four-space indent), not
/// Swift's grammar: what it cannot read, it reports as missing, so the tests fail loudly.
struct SourceScanner {
    /// One Swift file: its path relative to the repository, and its lines.
    struct File {
        let path: String
        let lines: [String]
    }

    /// A declaration found in a file.
    struct Declaration {
        /// The type it belongs to (`FlowSplit`), from the enclosing `class`, `struct`,
        /// `enum`, `actor`, `protocol` or `extension` at the file's top level.
        let type: String
        /// The line that declares it (trimmed), and its index in the file.
        let line: String
        let index: Int
        /// Its doc comment, without the `///`.
        let documentation: [String]
        /// Its body, up to the closing brace (empty for a declaration without one).
        let body: [String]
        let file: String
    }

    let files: [File]

    /// Every `.swift` file under `folder` (relative to the repository), sorted.
    init(folder: String, in repository: URL) throws {
        let root = repository.appendingPathComponent(folder)
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        var files: [File] = []
        while let path = enumerator?.nextObject() as? String {
            guard path.hasSuffix(".swift") else { continue }
            let text = try String(
                contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            files.append(
                File(
                    path: "\(folder)/\(path)",
                    lines: text.split(separator: "\n", omittingEmptySubsequences: false).map(
                        String.init)))
        }
        self.files = files.sorted { $0.path < $1.path }
    }

    static func indent(of line: String) -> Int { line.prefix { $0 == " " }.count }

    /// Whether `line` declares something `public` or `open` (not `public(set)` alone).
    static func isPublic(_ line: String) -> Bool {
        let words = line.trimmingCharacters(in: .whitespaces).split(separator: " ")
        return words.contains("public") || words.contains("open")
    }

    /// The top-level type `index` lies in.
    static func enclosingType(in lines: [String], before index: Int) -> String? {
        let pattern =
            /^(?:@\w+ )*(?:(?:public|open|final|internal|private|fileprivate) )*(?:class|struct|enum|actor|protocol|extension) (\w+)/
        for line in lines[...index].reversed() {
            if let match = line.firstMatch(of: pattern) { return String(match.1) }
        }
        return nil
    }

    /// The `///` lines right above the declaration at `index` (attributes skipped).
    static func documentation(in lines: [String], above index: Int) -> [String] {
        var result: [String] = []
        var current = index - 1
        while current >= 0 {
            let line = lines[current].trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("///") {
                result.insert(String(line.dropFirst(3)), at: 0)
            } else if line.hasPrefix("@") || line.hasPrefix("//") {
                // An attribute, or a plain comment between the doc comment and the code.
            } else {
                break
            }
            current -= 1
        }
        return result
    }

    /// The lines of the body that the line `index` opens (counting braces), or none if
    /// that line does not end with `{` (a stored property; a declaration over several
    /// lines, whose body this reader does not need).
    static func body(in lines: [String], from index: Int) -> [String] {
        guard lines[index].hasSuffix("{") else { return [] }
        var depth = 0
        var result: [String] = []
        for line in lines[index...] {
            for character in line {
                if character == "{" { depth += 1 } else if character == "}" { depth -= 1 }
            }
            result.append(line)
            if depth <= 0 { break }
        }
        return result
    }

    /// The declarations whose first line matches `pattern`.
    func declarations(matching pattern: Regex<Substring>) -> [Declaration] {
        var result: [Declaration] = []
        for file in files {
            for (index, line) in file.lines.enumerated() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard !trimmed.hasPrefix("//"), trimmed.firstMatch(of: pattern) != nil else {
                    continue
                }
                result.append(
                    Declaration(
                        type: Self.enclosingType(in: file.lines, before: index) ?? "?",
                        line: trimmed, index: index,
                        documentation: Self.documentation(in: file.lines, above: index),
                        body: Self.body(in: file.lines, from: index), file: file.path))
            }
        }
        return result
    }

    /// The declaration that encloses the line `index` of `file`: the nearest line above it,
    /// less indented, that declares an `init`, a `func`, a `var` or a `subscript`.
    static func enclosingDeclaration(in file: File, of index: Int) -> (line: String, index: Int)? {
        let indent = indent(of: file.lines[index])
        let pattern =
            /^(?:@\w+ )*(?:(?:public|open|override|final|static|class|private|fileprivate|internal|nonisolated|required|convenience|mutating|(?:\w+)\(set\)) )*(?:init|func|var|subscript)\b/
        var current = index - 1
        while current >= 0 {
            let line = file.lines[current]
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if !trimmed.isEmpty, Self.indent(of: line) < indent,
                trimmed.firstMatch(of: pattern) != nil
            {
                return (trimmed, current)
            }
            current -= 1
        }
        return nil
    }

    /// The argument labels of a function declared from `index` on, as Swift spells them in
    /// a name: `(to:)`, `(_:toShownEntry:)`, `()`.
    static func labels(in lines: [String], from index: Int) -> String {
        var text = ""
        for line in lines[index...] {
            text += line.trimmingCharacters(in: .whitespaces) + " "
            if line.contains(")") { break }
        }
        guard let open = text.firstIndex(of: "("), let close = text.firstIndex(of: ")") else {
            return "()"
        }
        let parameters = text[text.index(after: open)..<close]
        let labels = parameters.split(separator: ",").compactMap { parameter -> String? in
            let name = parameter.split(separator: ":").first?.split(separator: " ").first
            return name.map { "\($0):" }
        }
        return "(\(labels.joined()))"
    }
}
