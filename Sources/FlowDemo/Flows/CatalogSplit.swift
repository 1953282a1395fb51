import FlowKit

/// The catalog tab: a split view with the book list in its sidebar column (`books`, a
/// ``BookStack`` whose root is the ``ListScreen``) and the chosen book in its detail column
/// (`book`, a ``BookStack`` that is empty until a book is selected).
///
///     catalog                CatalogSplit (FlowSplit), route "catalog": the tab
///       books                BookStack, the sidebar column
///         list               ListScreen
///       book                 BookStack, the detail column: empty, or the book shown
///         detail             DetailScreen, shown by BookSelected (replacing the one before)
///           rate             RatingSheet, presented by the detail screen
///
/// It handles ``BookSelected`` from its list itself: a selection replaces what the detail
/// column shows as one change (`show(_:in:)`: the book shown before exits and is released).
/// The focus stays where it was. The favourites tab stays a plain stack: the main flow
/// pushes its details.
///
/// Wide (``DemoLayout``, at least 100 columns) both columns are active at once and the
/// terminal draws them side by side; narrow, the split is collapsed into one stack (the list,
/// then the book) and only its top is active. The split reads the layout when it enters, and
/// the app tells it when the width changes. Nothing exits or enters either way.
final class CatalogSplit: FlowSplit {
    private let registration: LiveNodeCounter.Registration
    private let counter: LiveNodeCounter

    init(counter: LiveNodeCounter) {
        registration = counter.register()
        self.counter = counter
        super.init(
            name: "catalog", route: "catalog",
            sidebar: BookStack(name: "books", counter: counter, root: ListScreen(counter: counter)),
            detail: BookStack(name: "book", counter: counter))
        respond(to: BookSelected.self) { [counter] split, selected in
            split.select(selected.book, counter: counter)
            return .handled
        }
    }

    /// The list column (the sidebar).
    var books: BookStack {
        guard let stack = node(for: .sidebar) as? BookStack else {
            preconditionFailure("CatalogSplit: the sidebar is a BookStack")
        }
        return stack
    }

    /// The detail column: empty, or the book shown.
    var book: BookStack {
        guard let stack = node(for: .detail) as? BookStack else {
            preconditionFailure("CatalogSplit: the detail column is a BookStack")
        }
        return stack
    }

    /// The detail screen shown, if a book is selected.
    var detail: DetailScreen? { book.entries.last as? DetailScreen }

    /// A narrow screen shows the split collapsed from the start.
    override func didEnter() {
        guard let layout = try? dependencies.require(DemoLayoutKey.self), layout.isCompact
        else { return }
        do {
            try platformDidCollapse()
        } catch {
            console.write("Could not collapse the catalog: \(error)", style: .error)
        }
    }

    /// Shows `book` in the detail column, replacing the book shown before (one change). A
    /// detail screen with an unsaved rating refuses to close: the selection is refused.
    private func select(_ book: Book, counter: LiveNodeCounter) {
        do {
            try show(DetailScreen(book: book, counter: counter), in: .detail)
        } catch FlowError.exitRefused(_, let reason) {
            let shown = detail?.book.title ?? "the book shown"
            console.write(
                "Refused: showing \(book.title) would close \(shown): \(reason).", style: .error)
        } catch {
            console.write("Could not show \(book.title): \(error)", style: .error)
        }
    }
}
