// The code of Docs/GettingStarted.md, block by block. GuideCodeBlockTests checks that every
// ```swift block of the guide appears here verbatim, so the two cannot drift: change the
// guide and this file together.
//
// The guide's app module is called Bookshelf; here its code is part of this test target, so
// the guide's `import Bookshelf` lines are the only lines not repeated here.

import FlowKit
import FlowKitTesting
import Testing

// MARK: Sources/Bookshelf/Library.swift

/// The books the app shows. A value type, so it can be shared across the tree.
struct Library: Sendable {
    var titles: [Int: String]
}

/// Where screens find the library; an empty one unless a node sets it.
enum LibraryKey: DependencyKey {
    static let defaultValue = Library(titles: [:])
}

/// Sent by the list when the user picks a book.
struct BookSelected: FlowEvent {
    let id: Int
}

// MARK: Sources/Bookshelf/Screens.swift

/// The first screen: the list of books.
final class BookListScreen: FlowController {
    init() {
        super.init(name: "list")
    }

    /// Your UI calls this when a row is tapped.
    func select(bookID: Int) {
        send(BookSelected(id: bookID))
    }
}

/// The second screen: one book, whose title it looks up in the library.
final class BookDetailScreen: FlowController {
    let bookID: Int
    private(set) var title = ""

    init(bookID: Int) {
        self.bookID = bookID
        super.init(name: "detail")
    }

    override func didEnter() {
        title = dependencies[LibraryKey.self].titles[bookID] ?? "Unknown book"
    }
}

// MARK: Sources/Bookshelf/BrowseFlow.swift

/// The flow: a navigation stack that starts at the list and pushes a detail screen for
/// each book the user selects.
final class BrowseFlow: FlowStack {
    init(library: Library) {
        super.init(name: "browse", root: BookListScreen())
        dependencies[LibraryKey.self] = library  // visible to every screen below
        on(BookSelected.self) { [unowned self] event in
            try self.push(BookDetailScreen(bookID: event.id))
            return .handled  // stop here: the event goes no further up
        }
    }
}

// MARK: Tests/BookshelfTests/BrowseFlowTests.swift

@MainActor
@Test func selectingABookShowsItsDetail() throws {
    let flow = BrowseFlow(library: Library(titles: [1: "Emma", 2: "Middlemarch"]))
    let runtime = try FlowRuntime(root: flow)
    try runtime.start()

    let list = try #require(flow.top as? BookListScreen)
    list.select(bookID: 2)  // the list sends BookSelected; the flow pushes the detail

    let detail = try #require(flow.top as? BookDetailScreen)
    #expect(detail.title == "Middlemarch")
    #expect(
        runtime.treeDescription() == """
            * browse
                list
              * detail
            """)

    try flow.pop()  // back to the list: the detail screen exits and is released
    #expect(flow.entries.count == 1)
}

@MainActor
@Test func everyStepIsAccountedFor() throws {
    let harness = try FlowTestHarness(root: BrowseFlow(library: Library(titles: [1: "Emma"])))
    harness.send(BookSelected(id: 1), from: harness.node("browse/list"))
    harness.expectTrace([
        "send BookSelected from browse/list",
        "enter browse/detail",
        "change push browse +browse/detail",
        "deactivate browse/list",
        "activate browse/detail",
        "handled BookSelected at browse",
    ])

    harness.leaks.track(harness.node("browse/detail"))
    let flow = harness.node("browse", as: BrowseFlow.self)
    try harness.perform { _ = try flow.pop() }
    harness.expectTrace([
        "exit browse/detail",
        "change pop browse -browse/detail",
        "activate browse/list",
    ])
    harness.finish()  // fails on any unchecked record, and if the detail screen leaked
}
