import FlowKit

/// The signed-in part of the app: embeds the catalog stack (list, then details) and owns
/// the ``UserSession`` (set on it under ``SessionKey`` by the app root).
///
/// It handles ``BookSelected`` by pushing a detail screen onto its stack: the list does not
/// know what comes after it. It finishes when ``LogoutRequested`` reaches it: the app root
/// awaits that.
final class MainFlow: FlowController, ResultFlow {
    typealias Result = Void

    private let registration: LiveNodeCounter.Registration
    private let counter: LiveNodeCounter
    /// The embedded stack (also the only child).
    let stack: CatalogStack

    init(counter: LiveNodeCounter) {
        registration = counter.register()
        self.counter = counter
        stack = CatalogStack(counter: counter, root: ListScreen(counter: counter))
        super.init(name: "main", route: "main")
        do {
            try embed(stack)
        } catch {
            preconditionFailure("MainFlow: \(error)")
        }
        respond(to: BookSelected.self) { main, selected in
            try main.stack.push(DetailScreen(book: selected.book, counter: main.counter))
            return .handled
        }
        // Only a signed-in session enters: a deep link while logged out is sent to the login
        // screen first, and carried on to its target once the user has signed in.
        entryGuard = { [unowned self] in
            dependencies.value(for: SessionKey.self) == nil
                ? .redirect(to: [.child("login")]) : .allow
        }
        respond(to: LogoutRequested.self) { main, _ in
            main.finish(with: ())
            return .handled
        }
    }
}
