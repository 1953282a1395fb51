import FlowKit

/// A navigation stack of book screens: the favourites tab (the favourites list at the
/// bottom, detail screens pushed over it), or a column of the catalog's split
/// (``CatalogSplit``): `books` (the book list) and `book` (empty until a book is selected).
///
/// Each tab has its own stack, so each keeps its own screens while another tab is selected.
/// The name is also the stack's route (`favourites`, `books`, `book`): a navigation path step
/// with that route selects the tab or focuses the column.
final class BookStack: FlowStack {
    private let registration: LiveNodeCounter.Registration

    init(name: String, counter: LiveNodeCounter, root: FlowController? = nil) {
        registration = counter.register()
        super.init(name: name, route: FlowRoute(name), root: root)
        // Deep links (and, later, restored paths) build the book screens: one factory for the
        // route family, the same in both stacks.
        register(CatalogRoute.self) { route, context in
            try BookStack.screen(for: route, joining: context, counter: counter)
        }
    }

    /// The favourites tab: the favourites list, details pushed over it.
    static func favourites(counter: LiveNodeCounter) -> BookStack {
        BookStack(name: "favourites", counter: counter, root: FavouritesScreen(counter: counter))
    }

    /// The screen for `route`, about to join the stack `context` describes.
    ///
    /// - Throws: ``CatalogError/unknownBook(_:)`` for a detail of a book the catalog does not
    ///   have; an error if the catalog is missing from the scope.
    static func screen(
        for route: CatalogRoute, joining context: FlowRouteContext, counter: LiveNodeCounter
    ) throws -> FlowController {
        switch route {
        case .list:
            return ListScreen(counter: counter)
        case .favourites:
            return FavouritesScreen(counter: counter)
        case .detail(let id):
            let store = try context.dependencies.require(CatalogStoreKey.self)
            guard let book = store.books.first(where: { $0.id == id }) else {
                throw CatalogError.unknownBook(id)
            }
            return DetailScreen(book: book, counter: counter)
        }
    }
}
