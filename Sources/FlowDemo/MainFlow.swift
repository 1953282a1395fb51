import FlowKit

/// The signed-in part of the app: embeds the catalog stack (list, then details) and owns
/// the ``UserSession`` (set on it under ``SessionKey`` by the app root).
///
/// It handles ``BookSelected`` by pushing a detail screen onto its stack: the list does not
/// know what comes after it.
final class MainFlow: FlowController {
    private let registration: LiveNodeCounter.Registration
    private let counter: LiveNodeCounter
    /// The embedded stack (also the only child).
    let stack: CatalogStack

    init(counter: LiveNodeCounter) {
        registration = counter.register()
        self.counter = counter
        stack = CatalogStack(counter: counter, root: ListScreen(counter: counter))
        super.init(name: "main")
        do {
            try embed(stack)
        } catch {
            preconditionFailure("MainFlow: \(error)")
        }
        on(BookSelected.self) { [unowned self] selected in
            do {
                try stack.push(DetailScreen(book: selected.book, counter: self.counter))
            } catch {
                console.write("Could not open \(selected.book.title): \(error)", style: .error)
            }
            return .handled
        }
    }
}
