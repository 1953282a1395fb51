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

    /// Creates a session for `account` holding what `saved` holds (its username is not
    /// checked here: ``SavedSession/makeSession(accounts:catalog:)`` does that).
    init(account: Account, restoring saved: SavedSession) {
        self.account = account
        viewedBookIDs = saved.viewedBookIDs
        favouriteBookIDs = saved.favouriteBookIDs
        for rating in saved.ratings { ratings[rating.book] = rating.stars }
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

/// What the main flow saves of its ``UserSession`` in a snapshot (`flowdemo --state`): who is
/// signed in, by username, and what they did. Never the password: restoring looks the account
/// up by its username in the auth service.
///
///     {"favouriteBookIDs": [12], "ratings": [{"book": 12, "stars": 4}],
///      "username": "alice", "viewedBookIDs": [3, 12]}
public struct SavedSession: Codable, Sendable, Equatable {
    /// One rating.
    public struct Rating: Codable, Sendable, Equatable {
        /// The book's identifier.
        public var book: Int
        /// From 1 to ``RatingSheet/maxStars``.
        public var stars: Int

        /// Creates a rating.
        public init(book: Int, stars: Int) {
            self.book = book
            self.stars = stars
        }
    }

    /// The signed-in account's username.
    public var username: String
    /// ``UserSession/viewedBookIDs``.
    public var viewedBookIDs: [Int]
    /// ``UserSession/favouriteBookIDs``.
    public var favouriteBookIDs: [Int]
    /// ``UserSession/ratings``, by book identifier.
    public var ratings: [Rating]

    /// Creates a saved session.
    public init(username: String, viewedBookIDs: [Int], favouriteBookIDs: [Int], ratings: [Rating])
    {
        self.username = username
        self.viewedBookIDs = viewedBookIDs
        self.favouriteBookIDs = favouriteBookIDs
        self.ratings = ratings
    }

    /// What `session` holds, the ratings by book identifier.
    @MainActor
    public init(session: UserSession) {
        self.init(
            username: session.account.username, viewedBookIDs: session.viewedBookIDs,
            favouriteBookIDs: session.favouriteBookIDs,
            ratings: session.ratings.sorted { $0.key < $1.key }.map {
                Rating(book: $0.key, stars: $0.value)
            })
    }

    /// The session this saved state describes, for the account with its username.
    ///
    /// - Throws: ``SavedSessionError`` if no account has the username, a book is not in
    ///   `catalog`, a book is listed twice, or a rating is out of range.
    @MainActor
    public func makeSession(accounts: [Account], catalog: CatalogStore) throws -> UserSession {
        let key = AuthService.key(for: username)
        guard let account = accounts.first(where: { AuthService.key(for: $0.username) == key })
        else { throw SavedSessionError.unknownUser(username) }
        let known = Set(catalog.books.map(\.id))
        for list in [viewedBookIDs, favouriteBookIDs, ratings.map(\.book)] {
            var seen = Set<Int>()
            for id in list {
                guard known.contains(id) else { throw SavedSessionError.unknownBook(id) }
                guard seen.insert(id).inserted else { throw SavedSessionError.repeatedBook(id) }
            }
        }
        for rating in ratings where !(1...RatingSheet.maxStars).contains(rating.stars) {
            throw SavedSessionError.badRating(book: rating.book, stars: rating.stars)
        }
        return UserSession(account: account, restoring: self)
    }
}

/// Why a ``SavedSession`` was refused.
public enum SavedSessionError: Error, Equatable, CustomStringConvertible {
    /// No account has this username.
    case unknownUser(String)
    /// The catalog has no book with this identifier.
    case unknownBook(Int)
    /// A list names this book twice.
    case repeatedBook(Int)
    /// A rating out of range.
    case badRating(book: Int, stars: Int)

    public var description: String {
        switch self {
        case .unknownUser(let username):
            return "no account has the username '\(username)'"
        case .unknownBook(let id):
            return "the catalog has no book \(id)"
        case .repeatedBook(let id):
            return "book \(id) is listed twice"
        case .badRating(let book, let stars):
            return "book \(book) has \(stars) stars; a rating is from 1 to \(RatingSheet.maxStars)"
        }
    }
}
