import FlowKit

/// One book. Entering it records the view in the ``UserSession``; `back` (the platform's
/// back button) pops it, `logout` signs out from here.
final class DetailScreen: FlowController, DemoScreen {
    private let registration: LiveNodeCounter.Registration
    /// The book shown.
    let book: Book

    init(book: Book, counter: LiveNodeCounter) {
        registration = counter.register()
        self.book = book
        super.init(name: "detail")
    }

    override func didEnter() {
        (try? dependencies.require(SessionKey.self))?.recordView(of: book)
    }

    var title: String { book.title }

    var commandNames: [String] { ["logout"] }

    func content() -> [String] {
        var lines = [
            book.title,
            "by \(book.author), \(book.yearText) (\(book.genre))",
            "",
            book.summary,
        ]
        if let session = try? dependencies.require(SessionKey.self) {
            lines.append("")
            lines.append(
                "Signed in as \(session.account.displayName); books opened this session: "
                    + "\(session.viewedBookIDs.count)")
        }
        return lines
    }

    func perform(_ command: String, arguments: [String]) {
        precondition(command == "logout", "DetailScreen: '\(command)' is not a command here")
        send(LogoutRequested())
    }

    func whyNot(_ command: String) -> String {
        switch command {
        case "login": return "already signed in; logout first."
        default: return "only on the list; 'back' returns to it."
        }
    }
}
