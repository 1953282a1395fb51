import FlowKit
import FlowKitLinks
import Testing

/// A link that changes two columns of a split view is one transaction.
@Suite("Links into split views")
@MainActor
struct SplitLinkTests {
    private struct Genre: Hashable, Sendable { var name: String }
    private struct Book: Hashable, Sendable { var id: Int }

    @Test("A link that picks a genre and shows a book is one transaction, in exit and entry order")
    func multiColumnLinkIsOneTransaction() throws {
        let content = FlowStack(
            name: "content", route: "content", root: FlowController(name: "all"))
        content.register(Genre.self) { genre, _ in
            FlowController(name: "genre-\(genre.name)", route: FlowRoute(genre))
        }
        let detail = FlowStack(name: "detail", route: "detail", root: FlowController(name: "none"))
        detail.register(Book.self) { book, _ in
            FlowController(name: "book-\(book.id)", route: FlowRoute(book))
        }
        let split = FlowSplit(
            name: "split", sidebar: FlowController(name: "sections"), content: content,
            detail: detail)
        let host = RecordingFlowHost()
        let runtime = try FlowRuntime(root: split, host: host)
        try runtime.start()
        runtime.trace.removeAll()
        host.removeAll()

        var router = FlowURLRouter(scheme: "shelf")
        try router.addEach("/genres/:genre/books/:id") { match in
            [
                [.child("content"), .root(Genre(name: try match.string("genre")))],
                [.child("detail"), .root(Book(id: try match.int("id", in: 1...99)))],
            ]
        }
        #expect(try router.paths(for: "shelf://genres/poetry/books/7").count == 2)
        #expect(throws: FlowURLError.self) {
            try router.steps(for: "shelf://genres/poetry/books/7")
        }

        try runtime.open("shelf://genres/poetry/books/7", with: router)
        #expect(host.changes.count == 1)
        #expect(
            host.changes.first?.description
                == "navigate split -split/detail/none -split/content/all "
                + "+split/content/genre-poetry +split/detail/book-7")
        let log = runtime.trace.lines.filter { $0.hasPrefix("exit") || $0.hasPrefix("enter") }
        #expect(
            log == [
                "exit split/detail/none", "exit split/content/all",
                "enter split/content/genre-poetry", "enter split/detail/book-7",
            ])
        #expect(split.focusedColumn == .detail)

        // A bad parameter changes nothing.
        #expect(throws: FlowURLError.self) {
            try runtime.open("shelf://genres/poetry/books/100", with: router)
        }
        #expect(host.changes.count == 1)
        #expect(detail.entries.map(\.name) == ["book-7"])
    }
}
