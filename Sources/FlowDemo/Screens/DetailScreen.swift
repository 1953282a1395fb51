import FlowKit

/// One book, on the catalog's stack or the favourites' stack. Entering it records the view in
/// the ``UserSession``; `back` (the platform's back button) pops it, `logout` signs out from
/// here, `fav` adds the book to the session's favourites, and `rate` presents a
/// ``RatingSheet`` and awaits its result: a rating is recorded, a closed sheet says so.
///
/// `stars <n>` here, without the sheet, gives an *unsaved* rating that `save` records. While
/// one is unsaved the screen refuses to exit while it is active (its exit guard): a swipe
/// back refuses to begin, `back`, `logout`, a link elsewhere and reselecting the tab are
/// refused too.
final class DetailScreen: FlowController, DemoScreen {
    private let registration: LiveNodeCounter.Registration
    /// The book shown.
    let book: Book
    /// The rating given with `stars <n>` here and not saved yet.
    private(set) var unsavedStars: Int?

    init(book: Book, counter: LiveNodeCounter) {
        registration = counter.register()
        self.book = book
        super.init(name: "detail", route: FlowRoute(CatalogRoute.detail(id: book.id)))
        // The rating sheet `rate` presents, for restoration: a snapshot taken while the sheet
        // was open rebuilds it with this factory.
        register(RatingSheet.route) { RatingSheet(book: book, counter: counter) }
    }

    override func didEnter() {
        (try? dependencies.require(SessionKey.self))?.recordView(of: book)
        // Restored with its rating sheet open: no `run` awaits that sheet, so await it here.
        if let sheet = presentedChild as? RatingSheet {
            task { [weak self, weak sheet] in
                guard let self, let sheet else { return }
                await self.awaitRating { try await self.awaitRestoredSheet(sheet) }
            }
        }
    }

    var title: String { book.title }

    var commandNames: [String] {
        unsavedStars == nil ? ["rate", "fav", "logout"] : ["rate", "save", "fav", "logout"]
    }

    var unlistedCommandNames: [String] { ["stars"] }

    /// Refuses to exit while the screen is active with an unsaved rating.
    override func shouldExit() -> FlowGuardDecision {
        guard let stars = unsavedStars, isActive else { return .allow }
        return .refuse("an unsaved rating of \(stars) stars; 'save' keeps it")
    }

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
            if let stars = unsavedStars {
                lines.append(
                    "Your rating: \(stars) of \(RatingSheet.maxStars) stars, not saved ('save' "
                        + "keeps it)")
            } else if let stars = session.ratings[book.id] {
                lines.append("Your rating: \(stars) of \(RatingSheet.maxStars) stars")
            }
            if session.isFavourite(book) {
                lines.append("One of your favourites")
            }
        }
        return lines
    }

    func perform(_ command: String, arguments: [String]) {
        switch command {
        case "rate":
            task { [weak self] in await self?.rate() }
        case "fav":
            addToFavourites()
        case "stars":
            giveUnsavedRating(arguments.first)
        case "save":
            saveRating()
        case "logout":
            if case .refuse(let reason) = shouldExit() {
                console.write(
                    "Refused: logout would close \(book.title): \(reason).", style: .error)
                return
            }
            send(LogoutRequested())
        default:
            preconditionFailure("DetailScreen: '\(command)' is not a command here")
        }
    }

    /// Adds the book to the session's favourites (the favourites tab lists them).
    private func addToFavourites() {
        guard let session = try? dependencies.require(SessionKey.self) else { return }
        if session.addFavourite(book) {
            console.write(
                "Added \(book.title) to your favourites (\(session.favouriteBookIDs.count)); "
                    + "'tab favourites' lists them.", style: .success)
        } else {
            console.write("\(book.title) is already one of your favourites.", style: .notice)
        }
    }

    /// `stars <n>` on this screen: a rating kept here, unsaved, until `save`.
    private func giveUnsavedRating(_ word: String?) {
        guard let word, let stars = Int(word), (1...RatingSheet.maxStars).contains(stars) else {
            console.write(
                "Refused: give a number of stars from 1 to \(RatingSheet.maxStars) (stars <n>).",
                style: .error)
            return
        }
        unsavedStars = stars
        console.write(
            "Rated \(book.title) \(stars) of \(RatingSheet.maxStars) stars, not saved yet: "
                + "'save' keeps it; until then this screen refuses to close.", style: .notice)
    }

    /// `save`: records the unsaved rating.
    private func saveRating() {
        guard let stars = unsavedStars,
            let session = try? dependencies.require(SessionKey.self)
        else { return }
        session.rate(book, stars: stars)
        unsavedStars = nil
        console.write(
            "You gave \(book.title) \(stars) of \(RatingSheet.maxStars) stars.", style: .success)
    }

    /// Presents the rating sheet and awaits its result.
    private func rate() async {
        await awaitRating {
            try await run(RatingSheet(book: book, counter: registration.counter), .present)
        }
    }

    /// Awaits a sheet restored over this screen: `result(of:)` dismisses it once it finished,
    /// as `run` does for the sheets it presents.
    private func awaitRestoredSheet(_ sheet: RatingSheet) async throws -> Int {
        try await result(of: sheet)
    }

    /// Records the rating `sheet` gives, or says why there is none.
    private func awaitRating(_ sheet: () async throws -> Int) async {
        do {
            let stars = try await sheet()
            try dependencies.require(SessionKey.self).rate(book, stars: stars)
            unsavedStars = nil
            console.write(
                "You gave \(book.title) \(stars) of \(RatingSheet.maxStars) stars.",
                style: .success)
        } catch FlowError.flowCancelled {
            // The sheet was closed (or the app is stopping: this screen is then gone too).
            guard state == .entered else { return }
            console.write("Rating cancelled: the sheet was closed without a rating.")
        } catch {
            guard state == .entered else { return }
            console.write("Could not rate \(book.title): \(error)", style: .error)
        }
    }

    func whyNot(_ command: String) -> String {
        switch command {
        case "login": return "already signed in; logout first."
        case "close": return "only on the rating sheet; 'rate' opens it."
        case "save": return "nothing unsaved; 'stars <n>' rates the book here."
        default: return "only on the list; 'back' returns to it."
        }
    }
}
