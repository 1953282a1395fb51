/// A split view's panels drawn side by side: one ``DemoPanel`` per column, the focused one
/// marked with `*` before its title.
///
/// In a transcript (``lines``) the frames are open like a single panel's, each half of
/// ``width`` (the first panel gets the odd column), with one space between them:
///
///     +-- * Books --------------------------- +-- Persuasion ------------------------
///     | app/main/tabs/catalog/books/list      | app/main/tabs/catalog/book/detail
///     | Tabs: [Catalog] Favourites Profile    |
///     …
///
/// Rows too long for a panel are wrapped at spaces. Both panels have as many rows (the
/// shorter one is padded with empty rows), so every line starts with the first panel's
/// frame. On a terminal (``box(colored:unicode:)``) each panel is a closed box half the
/// width.
public struct DemoSplitView: Equatable, Sendable {
    /// The columns' panels, in display order.
    public var panels: [DemoPanel]
    /// The index of the focused panel.
    public var focused: Int
    /// The width the panels share, in columns.
    public var width: Int

    /// Creates a split view of `panels`, the one at `focused` focused, `width` columns wide.
    public init(panels: [DemoPanel], focused: Int, width: Int) {
        self.panels = panels
        self.focused = focused
        self.width = width
    }

    /// The panels as drawn, each with its width and its rows wrapped to `inner(width)`
    /// cells: the focused one's title marked, all with the same number of rows.
    func drawnPanels(inner: (Int) -> Int) -> [(panel: DemoPanel, width: Int, rows: [String])] {
        let drawn = zip(panels, panelWidths).enumerated().map { index, column in
            var panel = column.0
            if index == focused { panel.title = "* " + panel.title }
            return (panel, column.1, panel.rows(wrappedTo: inner(column.1)))
        }
        let count = drawn.map(\.2.count).max() ?? 0
        return drawn.map { ($0.0, $0.1, $0.2 + Array(repeating: "", count: count - $0.2.count)) }
    }

    /// The width of each panel: equal shares of ``width`` less the gaps between them, the
    /// first ones getting the remainder.
    var panelWidths: [Int] {
        let count = max(1, panels.count)
        let room = max(count * DemoPanel.minBoxWidth, width - (count - 1))
        return (0..<count).map { room / count + ($0 < room % count ? 1 : 0) }
    }

    /// The transcript lines, without trailing spaces.
    public var lines: [String] {
        let columns = drawnPanels { $0 - 2 }.map {
            $0.panel.lines(fittedTo: $0.width, rows: $0.rows)
        }
        return Self.sideBySide(columns)
    }

    /// The closed boxes for a terminal, side by side.
    ///
    /// - Parameters:
    ///   - colored: Whether to colour the frames, titles, paths and command labels.
    ///   - unicode: Whether to draw with box-drawing characters and `…` (else ASCII).
    public func box(colored: Bool, unicode: Bool) -> [String] {
        let columns = drawnPanels { $0 - 4 }.map {
            $0.panel.box(width: $0.width, colored: colored, unicode: unicode, rows: $0.rows)
        }
        return Self.sideBySide(columns)
    }

    /// Joins columns of lines with one space between them, trailing spaces removed.
    private static func sideBySide(_ columns: [[String]]) -> [String] {
        let count = columns.map(\.count).max() ?? 0
        return (0..<count).map { row in
            let line = columns.map { $0.indices.contains(row) ? $0[row] : "" }
                .joined(separator: " ")
            return String(line.reversed().drop { $0 == " " }.reversed())
        }
    }
}
