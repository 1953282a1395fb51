import FlowKit

/// A sheet that asks for a rating of one book: `stars <n>` finishes it with n (1 to 5);
/// `close` (the platform's close button) dismisses it without a rating, which cancels the
/// detail screen's `run`.
///
/// Its route is `"rate"`, built by the detail screen's factory, so a snapshot taken while it
/// is open restores it (`flowdemo --state`); the restored detail screen then awaits it with
/// `result(of:)`.
final class RatingSheet: FlowController, ResultFlow, DemoScreen {
    typealias Result = Int

    /// The sheet's route, registered on every detail screen.
    static let route: FlowRoute = "rate"

    /// The highest rating.
    nonisolated static let maxStars = 5

    private let registration: LiveNodeCounter.Registration
    /// The book being rated.
    let book: Book

    init(book: Book, counter: LiveNodeCounter) {
        registration = counter.register()
        self.book = book
        super.init(name: "rate", route: Self.route)
    }

    var title: String { "Rate this book" }

    var commandNames: [String] { ["stars", "close"] }

    func content() -> [String] {
        [
            "How many stars for \(book.title)?",
            "stars <n> rates it from 1 to \(Self.maxStars); close leaves without a rating.",
        ]
    }

    func perform(_ command: String, arguments: [String]) {
        precondition(command == "stars", "RatingSheet: '\(command)' is not a command here")
        guard let word = arguments.first, let stars = Int(word), (1...Self.maxStars).contains(stars)
        else {
            console.write(
                "Refused: give a number of stars from 1 to \(Self.maxStars) (stars <n>).",
                style: .error)
            return
        }
        finish(with: stars)
    }

    func whyNot(_ command: String) -> String {
        switch command {
        case "back": return "the sheet is not on a stack; 'close' dismisses it."
        default: return "rate the book or close the sheet first."
        }
    }
}
