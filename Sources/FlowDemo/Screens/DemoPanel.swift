/// The text frame the terminal draws a screen in.
///
/// In a transcript (``lines``) it is an open frame 72 columns wide, whatever its content:
///
///     +-- Books -------------------------------------------------------------
///     | app/main/tabs/catalog/list
///     | Tabs: [Catalog] Favourites Profile
///     |
///     | (the screen's content)
///     |
///     | Here: next, prev, page <n>, filter [text], select <n>, logout, tab <name>
///     | Anywhere: open, about, tree, trace, help, quit
///     +----------------------------------------------------------------------
///
/// The `Tabs:` line is the tab bar, the selected tab in brackets; it is there when the focused
/// screen is in a tab and no sheet covers it.
///
/// On a terminal (``box(width:colored:unicode:)``) it is a closed box fitted to the width:
/// every line is exactly that wide, and values too long for it end in an ellipsis.
public struct DemoPanel: Equatable, Sendable {
    /// The width of the transcript frame's top and bottom rules.
    static let width = 72
    /// The widest box drawn on a terminal, however wide the terminal is.
    public static let maxBoxWidth = 100
    /// The narrowest box: a terminal narrower than this gets a box this wide.
    public static let minBoxWidth = 10

    /// The title in the top rule.
    public var title: String
    /// The focused path, e.g. `app/main/tabs/catalog/list`.
    public var path: String
    /// The tab bar, the selected tab in brackets (`[Catalog] Favourites Profile`); `nil` when
    /// no tab bar is on screen.
    public var tabBar: String?
    /// The window bar, the focused window in brackets (`[1 Books] · 2 Sign in`); `nil` while
    /// the demo has one window.
    public var windowBar: String?
    /// The screen's body lines.
    public var content: [String]
    /// The commands of the focused screen, as typed.
    public var localCommands: [String]
    /// The commands every screen takes.
    public var globalCommands: [String]

    /// Creates a panel.
    public init(
        title: String, path: String, tabBar: String? = nil, content: [String],
        localCommands: [String], globalCommands: [String]
    ) {
        self.title = title
        self.path = path
        self.tabBar = tabBar
        self.content = content
        self.localCommands = localCommands
        self.globalCommands = globalCommands
    }

    /// The body rows below the top rule, without the frame. The `Anywhere:` row is left out
    /// when ``globalCommands`` is empty (the second panel of a split view).
    var rows: [String] {
        var rows =
            (windowBar.map { ["Windows: " + $0] } ?? []) + [path]
            + (tabBar.map { ["Tabs: " + $0] } ?? []) + [""] + content + [""]
        if !localCommands.isEmpty {
            rows.append("Here: " + localCommands.joined(separator: ", "))
        }
        if !globalCommands.isEmpty {
            rows.append("Anywhere: " + globalCommands.joined(separator: ", "))
        }
        return rows
    }

    /// The transcript frame as lines, without trailing spaces.
    public var lines: [String] {
        let head = "+-- \(title) "
        var lines = [head + String(repeating: "-", count: max(3, Self.width - head.count))]
        lines += rows.map { $0.isEmpty ? "|" : "| " + $0 }
        lines.append("+" + String(repeating: "-", count: Self.width - 1))
        return lines
    }

    /// ``rows`` wrapped to `width` cells at spaces (a wrapped row goes on indented by two).
    func rows(wrappedTo width: Int) -> [String] {
        rows.flatMap { DemoText.wrap($0, width: width, indent: "  ") }
    }

    /// The transcript frame exactly `width` cells wide (a panel of a split view), with `rows`
    /// (already wrapped, see ``rows(wrappedTo:)``): the rules span the width, and shorter
    /// lines are padded with spaces to the width.
    func lines(fittedTo width: Int, rows: [String]) -> [String] {
        let head = DemoText.fit("+-- \(title) ", width: width, ellipsis: "...")
        var lines = [head + String(repeating: "-", count: max(0, width - DemoText.width(head)))]
        lines += rows.map {
            DemoText.pad($0.isEmpty ? "|" : "| " + $0, to: width, ellipsis: "...")
        }
        lines.append("+" + String(repeating: "-", count: max(0, width - 1)))
        return lines
    }

    /// The closed box for a terminal `columns` wide: at most ``maxBoxWidth`` and at least
    /// ``minBoxWidth`` columns, every line exactly as wide as the box.
    ///
    /// - Parameters:
    ///   - columns: The terminal's width.
    ///   - colored: Whether to colour the frame, title, path and command labels.
    ///   - unicode: Whether to draw with box-drawing characters and `…` (else ASCII).
    public func box(width columns: Int, colored: Bool, unicode: Bool) -> [String] {
        box(width: columns, colored: colored, unicode: unicode, rows: nil)
    }

    /// The closed box `columns` wide (at least ``minBoxWidth``), with `rows` if given (a
    /// panel of a split view, its rows wrapped; its width is not capped at ``maxBoxWidth``:
    /// the split shares the width it is given), else ``rows`` (at most ``maxBoxWidth``).
    func box(width columns: Int, colored: Bool, unicode: Bool, rows given: [String]?) -> [String] {
        let capped = given == nil ? Self.maxBoxWidth : Int.max
        let rows = given ?? rows
        let width = min(capped, max(Self.minBoxWidth, columns))
        let inner = width - 4
        let ellipsis = unicode ? "…" : "..."
        let glyph =
            unicode
            ? (
                horizontal: "─", vertical: "│", topLeft: "┌", topRight: "┐", bottomLeft: "└",
                bottomRight: "┘"
            )
            : (
                horizontal: "-", vertical: "|", topLeft: "+", topRight: "+", bottomLeft: "+",
                bottomRight: "+"
            )
        func frame(_ text: String) -> String { DemoStyle.trace.apply(to: text, colored: colored) }

        // Top: corner, two rules, the title between spaces, rules to the other corner.
        let shownTitle = DemoText.fit(title, width: width - 7, ellipsis: ellipsis)
        let titlePart = shownTitle.isEmpty ? "" : " " + shownTitle + " "
        let fill = width - 4 - DemoText.width(titlePart)
        var lines = [
            frame(glyph.topLeft + String(repeating: glyph.horizontal, count: 2))
                + DemoStyle.emphasis.apply(to: titlePart, colored: colored)
                + frame(String(repeating: glyph.horizontal, count: fill) + glyph.topRight)
        ]
        for (index, row) in rows.enumerated() {
            let padded = DemoText.pad(row, to: inner, ellipsis: ellipsis)
            let body: String
            if index == 0 {
                body = colored ? "\u{1B}[36m\(padded)\u{1B}[0m" : padded
            } else if let label = ["Tabs:", "Here:", "Anywhere:"].first(where: {
                padded.hasPrefix($0)
            }) {
                body =
                    DemoStyle.emphasis.apply(to: label, colored: colored)
                    + padded.dropFirst(label.count)
            } else {
                body = padded
            }
            lines.append(frame(glyph.vertical) + " " + body + " " + frame(glyph.vertical))
        }
        lines.append(
            frame(
                glyph.bottomLeft + String(repeating: glyph.horizontal, count: width - 2)
                    + glyph.bottomRight))
        return lines
    }
}
