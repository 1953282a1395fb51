import FlowKit

/// The main flow's navigation stack: the list at the bottom, a detail screen over it.
final class CatalogStack: FlowStack {
    private let registration: LiveNodeCounter.Registration

    init(counter: LiveNodeCounter, root: FlowController) {
        registration = counter.register()
        super.init(name: "stack", route: "stack", root: root)
        // Deep links build the screens of the catalog: one factory for the route family.
        register(CatalogRoute.self) { route, context in
            switch route {
            case .list:
                return ListScreen(counter: counter)
            case .detail(let id):
                let store = try context.dependencies.require(CatalogStoreKey.self)
                guard let book = store.books.first(where: { $0.id == id }) else {
                    throw CatalogError.unknownBook(id)
                }
                return DetailScreen(book: book, counter: counter)
            }
        }
    }
}
