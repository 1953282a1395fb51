/// The signed-in session: who is signed in and what they looked at.
///
/// The app root creates one when sign-in succeeds and sets it on the main flow under
/// ``SessionKey``, so it is visible only inside the main flow's subtree and is released with
/// it on logout.
@MainActor
public final class UserSession {
    /// The signed-in account.
    public let account: Account
    /// The identifiers of the books opened in this session, first view first, no repeats.
    public private(set) var viewedBookIDs: [Int] = []
    /// The ratings given in this session, by book identifier: 1 to 5 stars.
    public private(set) var ratings: [Int: Int] = [:]

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
}
