/// The text frame the terminal draws a screen in.
///
///     +-- Books -------------------------------------------------------------
///     | app > main > stack > list
///     |
///     | (the screen's content)
///     |
///     | Here: next, prev, filter [text], select <n>, logout
///     | Anywhere: tree, trace, help, quit
///     +----------------------------------------------------------------------
struct DemoPanel: Equatable {
    /// The width of the top and bottom rules.
    static let width = 72

    var title: String
    var breadcrumb: [String]
    var content: [String]
    var localCommands: [String]
    var globalCommands: [String]

    /// The panel as lines, without trailing spaces.
    var lines: [String] {
        let head = "+-- \(title) "
        var lines = [head + String(repeating: "-", count: max(3, Self.width - head.count))]
        lines.append("| " + breadcrumb.joined(separator: " > "))
        lines.append("|")
        lines += content.map { $0.isEmpty ? "|" : "| " + $0 }
        lines.append("|")
        if !localCommands.isEmpty {
            lines.append("| Here: " + localCommands.joined(separator: ", "))
        }
        lines.append("| Anywhere: " + globalCommands.joined(separator: ", "))
        lines.append("+" + String(repeating: "-", count: Self.width - 1))
        return lines
    }
}
