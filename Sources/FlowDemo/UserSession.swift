/// The signed-in session: who is signed in, what they looked at, rated and kept as favourites.
///
/// The app root creates one when sign-in succeeds and hands it to the main flow, which sets it
/// on itself under ``SessionKey``, so it is visible only inside the main flow's subtree and is
/// released with it on logout. Everything the main flow knows beyond its navigation (which
/// tab, which screens: all addressable by routes) is here, in plain values.
@MainActor
public final class UserSession {
    /// The signed-in account.
    public let account: Account
    /// The identifiers of the books opened in this session, first view first, no repeats.
    public private(set) var viewedBookIDs: [Int] = []
    /// The ratings given in this session, by book identifier: 1 to 5 stars.
    public private(set) var ratings: [Int: Int] = [:]
    /// The identifiers of the books added to the favourites, first added first, no repeats.
    public private(set) var favouriteBookIDs: [Int] = []

    /// Creates a session for `account`.
    public init(account: Account) {
        self.account = account
    }

    /// Records that the detail screen showed `book`.
    public func recordView(of book: Book) {
        if !viewedBookIDs.contains(book.id) { viewedBookIDs.append(book.id) }
    }

    /// Records that the user gave `book` `stars` stars (the latest rating counts).
    public func rate(_ book: Book, stars: Int) {
        ratings[book.id] = stars
    }

    /// Adds `book` to the favourites; `false` if it was one already (nothing changes).
    @discardableResult
    public func addFavourite(_ book: Book) -> Bool {
        guard !favouriteBookIDs.contains(book.id) else { return false }
        favouriteBookIDs.append(book.id)
        return true
    }

    /// Whether `book` is one of the favourites.
    public func isFavourite(_ book: Book) -> Bool {
        favouriteBookIDs.contains(book.id)
    }
}
