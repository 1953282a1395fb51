import FlowKit

/// The favourites tab's list: the books added with `fav` on a detail screen, first added
/// first. `select <n>` sends ``BookSelected``, like the catalog's list; the main flow pushes
/// the detail onto this tab's own stack.
///
/// The favourites themselves live in the ``UserSession``; this screen only shows them.
final class FavouritesScreen: FlowController, DemoScreen {
    private let registration: LiveNodeCounter.Registration

    init(counter: LiveNodeCounter) {
        registration = counter.register()
        super.init(name: "list", route: FlowRoute(CatalogRoute.favourites))
    }

    private var session: UserSession? { try? dependencies.require(SessionKey.self) }

    /// The favourite books, in the order they were added.
    private var favourites: [Book] {
        guard let session, let store = try? dependencies.require(CatalogStoreKey.self) else {
            return []
        }
        return session.favouriteBookIDs.compactMap { id in
            store.books.first { $0.id == id }
        }
    }

    var title: String { "Favourites" }

    var commandNames: [String] { ["select", "logout"] }

    func content() -> [String] {
        let books = favourites
        var lines: [String] = []
        if let session {
            lines.append("Signed in as \(session.account.displayName); favourites: \(books.count)")
            lines.append("")
        }
        if books.isEmpty {
            lines.append("  (none yet: open a book in the catalog and type 'fav')")
        }
        for (index, book) in books.enumerated() {
            let number = String(index + 1)
            let padded = String(repeating: " ", count: max(0, 3 - number.count)) + number
            lines.append("\(padded). \(book.title) - \(book.author), \(book.yearText)")
        }
        return lines
    }

    func perform(_ command: String, arguments: [String]) {
        switch command {
        case "select":
            select(arguments)
        case "logout":
            send(LogoutRequested())
        default:
            preconditionFailure("FavouritesScreen: '\(command)' is not a command of this screen")
        }
    }

    func whyNot(_ command: String) -> String {
        switch command {
        case "back": return "already at the favourites list."
        case "login": return "already signed in; logout first."
        case "rate", "fav": return "open a favourite first (select <n>)."
        case "stars", "close": return "only on the rating sheet; open a book and 'rate' it."
        default: return "only on the catalog's list; 'tab catalog' shows it."
        }
    }

    private func select(_ arguments: [String]) {
        selectBook(
            arguments, from: favourites, noun: "favourite",
            whenEmpty: "there are none yet ('fav' on a book adds it).")
    }
}
