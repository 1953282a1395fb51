import FlowKit

/// The signed-in part of the app: holds the tabs (catalog, favourites, profile) and owns the
/// ``UserSession`` (set on it under ``SessionKey``).
///
/// It handles ``BookSelected`` from the favourites tab by pushing a detail screen onto that
/// tab's stack (the catalog's split handles its own list's selections: ``CatalogSplit``):
/// neither list knows what comes after it. It finishes when
/// ``LogoutRequested`` reaches it: the app root awaits that.
///
/// What a save needs is in two places: the navigation (which tab, which screens) is made of
/// routes (`main`, `tabs`, the tab's name, then ``CatalogRoute`` values), and everything else
/// the user did is in ``session``, which the flow saves as a ``SavedSession`` (``saveState()``;
/// `flowdemo --state`). A main flow restored from it gets its session back before its entry
/// guard is asked, and the app root awaits it with `result(of:)`.
final class MainFlow: FlowController, ResultFlow, FlowRestorable {
    typealias Result = Void

    private let registration: LiveNodeCounter.Registration
    /// The tab container (also the only child).
    let tabs: MainTabs

    /// Creates the main flow for `session`; without one (a deep link's path built while
    /// logged out), the entry guard sends the user to sign in first.
    init(counter: LiveNodeCounter, session: UserSession? = nil) {
        registration = counter.register()
        tabs = MainTabs(counter: counter)
        super.init(name: "main", route: "main")
        if let session { dependencies.set(session, for: SessionKey.self) }
        do {
            try embed(tabs)
        } catch {
            preconditionFailure("MainFlow: \(error)")
        }
        // The detail goes on the stack of the screen that sent the event: the favourites'
        // (the catalog's split shows its own). Each tab keeps its own stack.
        on(BookSelected.self) { selected, origin in
            guard let stack = origin.parent as? FlowStack else { return .forward }
            try stack.push(DetailScreen(book: selected.book, counter: counter))
            return .handled
        }
        // Only a signed-in session enters: a deep link while logged out is sent to the login
        // screen first, and carried on to its target once the user has signed in.
        entryGuard = { [unowned self] in
            self.session == nil ? .redirect(to: [.child("login")]) : .allow
        }
        respond(to: LogoutRequested.self) { main, _ in
            main.finish(with: ())
            return .handled
        }
    }

    /// The signed-in session, set on this flow only.
    var session: UserSession? {
        dependencies.value(for: SessionKey.self)
    }

    /// Who is signed in (by username, never the password) and what they did.
    func saveState() -> SavedSession? {
        session.map(SavedSession.init(session:))
    }

    /// Makes the saved session the flow's own, for the account with the saved username.
    ///
    /// - Throws: ``SavedSessionError`` for a username no account has, or a book the catalog
    ///   does not have; an error if the auth service or the catalog is missing from the scope.
    func restoreState(_ state: SavedSession) throws {
        let accounts = try dependencies.require(AuthServiceKey.self).accounts
        let catalog = try dependencies.require(CatalogStoreKey.self)
        dependencies.set(
            try state.makeSession(accounts: accounts, catalog: catalog), for: SessionKey.self)
    }
}
