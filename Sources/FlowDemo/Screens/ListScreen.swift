import FlowKit

/// The catalog, a page at a time, with a text filter: the bottom of the catalog tab's stack.
/// Selecting a book sends ``BookSelected``; the main flow decides what happens next.
///
/// Its page and filter are plain state of this node: they survive a detail screen being
/// pushed over it (covered is not exited) and vanish with it on logout. It saves them in
/// snapshots (``FlowRestorable``, `flowdemo --state`).
final class ListScreen: FlowController, DemoScreen, FlowRestorable {
    /// What the list saves: its page and filter.
    struct SavedState: Codable, Sendable, Equatable {
        /// The page, from 0.
        var page: Int
        /// The filter text; empty for none.
        var filter: String
    }

    /// Books per page.
    static let pageSize = 8

    private let registration: LiveNodeCounter.Registration
    /// The current filter text; empty for none.
    private(set) var filter = ""
    /// The current page, from 0.
    private(set) var page = 0

    init(counter: LiveNodeCounter) {
        registration = counter.register()
        super.init(name: "list", route: FlowRoute(CatalogRoute.list))
    }

    /// The page and filter, or nothing on the first page without a filter.
    func saveState() -> SavedState? {
        page == 0 && filter.isEmpty ? nil : SavedState(page: page, filter: filter)
    }

    /// Takes back a page and filter: the filter sanitised as typed input is (and refused over
    /// ``DemoInput/maxLineLength`` characters), the page kept within the filtered list.
    func restoreState(_ state: SavedState) throws {
        let clean = String(DemoInput.sanitized(state.filter).trimmingWhitespace)
        guard clean.count <= DemoInput.maxLineLength else {
            throw ListStateError.filterTooLong(clean.count)
        }
        let store = try dependencies.require(CatalogStoreKey.self)
        filter = clean
        let count = store.books(matching: clean).count
        page = min(max(0, state.page), max(0, (count - 1) / Self.pageSize))
    }

    private var store: CatalogStore {
        do {
            return try dependencies.require(CatalogStoreKey.self)
        } catch {
            preconditionFailure("\(error)")
        }
    }

    private var shown: [Book] { store.books(matching: filter) }

    private var pageCount: Int { max(1, (shown.count + Self.pageSize - 1) / Self.pageSize) }

    var title: String { "Books" }

    var commandNames: [String] {
        ["next", "prev", "page", "filter", "select", "logout"]
    }

    func content() -> [String] {
        let books = shown
        var lines: [String] = []
        if let session = try? dependencies.require(SessionKey.self) {
            lines.append(
                "Signed in as \(session.account.displayName); books opened this session: "
                    + "\(session.viewedBookIDs.count)")
        }
        lines.append(
            filter.isEmpty
                ? "Filter: none (\(books.count) books)"
                : "Filter: \"\(filter)\" (\(books.count) of \(store.books.count) books)")
        lines.append("")
        let start = page * Self.pageSize
        let end = min(start + Self.pageSize, books.count)
        if books.isEmpty {
            lines.append("  (no book matches)")
        } else {
            for index in start..<end {
                let book = books[index]
                let number = String(index + 1)
                let padded = String(repeating: " ", count: max(0, 3 - number.count)) + number
                lines.append("\(padded). \(book.title) - \(book.author), \(book.yearText)")
            }
        }
        lines.append("")
        lines.append("Page \(page + 1) of \(pageCount)")
        return lines
    }

    func perform(_ command: String, arguments: [String]) {
        switch command {
        case "next":
            if page + 1 < pageCount {
                page += 1
            } else {
                console.write(
                    "Already on the last page (\(pageCount) of \(pageCount)).", style: .notice)
            }
        case "prev":
            if page > 0 {
                page -= 1
            } else {
                console.write("Already on the first page.", style: .notice)
            }
        case "page":
            jump(arguments)
        case "filter":
            filter = arguments.joined(separator: " ")
            page = 0
            let count = shown.count
            console.write(
                filter.isEmpty
                    ? "Filter cleared: \(count) books."
                    : "\(count) of \(store.books.count) books match \"\(filter)\".",
                style: .notice)
        case "select":
            select(arguments)
        case "logout":
            send(LogoutRequested())
        default:
            preconditionFailure("ListScreen: '\(command)' is not a command of this screen")
        }
    }

    func whyNot(_ command: String) -> String {
        switch command {
        case "back": return "already at the list."
        case "login": return "already signed in; logout first."
        case "rate": return "open a book first (select <n>), then rate it."
        case "fav": return "open a book first (select <n>), then 'fav' adds it."
        case "stars", "close": return "only on the rating sheet; open a book and 'rate' it."
        default: return "not a command of the list."
        }
    }

    private func jump(_ arguments: [String]) {
        guard let text = arguments.first, let number = Int(text) else {
            console.write(
                "Usage: page <n>, where n is from 1 to \(pageCount).", style: .error)
            return
        }
        guard (1...pageCount).contains(number) else {
            console.write(
                "No page \(number): choose a page from 1 to \(pageCount).", style: .error)
            return
        }
        if number - 1 == page {
            console.write("Already on page \(number) of \(pageCount).", style: .notice)
        }
        page = number - 1
    }

    private func select(_ arguments: [String]) {
        selectBook(
            arguments, from: shown, noun: "book", whenEmpty: "the list is empty.")
    }
}

extension FlowController {
    /// `select <n>` on a numbered list of `books`: sends ``BookSelected`` for the n-th, or
    /// says why it cannot (`No <noun> 9: …`, `whenEmpty` when there are none).
    func selectBook(
        _ arguments: [String], from books: [Book], noun: String, whenEmpty: String
    ) {
        guard let text = arguments.first, let number = Int(text) else {
            console.write(
                "Usage: select <n>, where n is a number shown in the list.", style: .error)
            return
        }
        guard books.indices.contains(number - 1) else {
            console.write(
                books.isEmpty
                    ? "No \(noun) \(number): \(whenEmpty)"
                    : "No \(noun) \(number): choose a number from 1 to \(books.count).",
                style: .error)
            return
        }
        send(BookSelected(book: books[number - 1]))
    }
}

/// Why a list's saved state was refused.
enum ListStateError: Error, CustomStringConvertible {
    /// The saved filter is longer than a command line may be.
    case filterTooLong(Int)

    var description: String {
        switch self {
        case .filterTooLong(let count):
            return "the filter has \(count) characters; at most \(DemoInput.maxLineLength)"
        }
    }
}
