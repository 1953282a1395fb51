import FlowKit
import Testing

@testable import FlowDemo

/// The catalog as a split view: side by side from 100 columns, one stack below, resized live
/// without losing anything, and a compact back that clears the book column.
@MainActor
@Suite("Demo split view")
struct SplitDemoTests {
    /// A new app `width` columns wide, signed in as Alice.
    func signedIn(width: Int) async throws -> DemoApp {
        let app = try DemoApp.shipped(clock: ManualDemoClock(), width: width)
        _ = await app.start()
        _ = await app.run("login alice wonderland")
        return app
    }

    /// The catalog's split of `app`.
    func split(of app: DemoApp) throws -> CatalogSplit {
        try #require(app.runtime.node(at: "app/main/tabs/catalog") as? CatalogSplit)
    }

    /// The message lines of `lines` (no panel).
    func messages(_ lines: [String]) -> [String] {
        lines.filter { !$0.hasPrefix("|") && !$0.hasPrefix("+--") }
    }

    @Test("--width 120: the list and the book side by side, both active; tree marks both")
    func wideShowsColumnsSideBySide() async throws {
        let app = try await signedIn(width: 120)
        let selected = await app.run("select 3")
        let tree = await app.run("tree")

        // Two panels on each line: the focused list (marked *) and the book.
        let top = try #require(selected.first)
        #expect(top.hasPrefix("+-- * Books ---"))
        #expect(top.contains(" +-- Persuasion ---"))
        #expect(top.count == 120)
        #expect(
            selected.contains {
                $0.hasPrefix("| app/main/tabs/catalog/books/list ")
                    && $0.hasSuffix("| app/main/tabs/catalog/book/detail")
            })
        #expect(
            selected.allSatisfy { $0.hasPrefix("|") || $0.hasPrefix("+--") || $0.hasPrefix("+-") })
        #expect(selected.allSatisfy { DemoText.width($0) <= 120 })
        #expect(
            tree == [
                "* app",
                "  * main",
                "    * tabs",
                "      * catalog",
                "        * books",
                "          * list",
                "        + book",
                "          + detail",
                "        favourites",
                "          list",
                "        profile",
                "FlowController instances alive: 11 (11 in the tree; * marks the focused path, "
                    + "+ the other active nodes)",
                "Split catalog: expanded (120 columns): books and book side by side, all active "
                    + "while shown; focus in books.",
            ])
        let split = try split(of: app)
        #expect(!split.isCollapsed && split.focusedColumn == .sidebar)
        #expect(split.books.entries[0].isActive && split.book.entries[0].isActive)
    }

    @Test("--width 60: the same input shows one stack, the book on top")
    func narrowShowsOneStack() async throws {
        let app = try await signedIn(width: 60)
        let selected = await app.run("select 3")
        let tree = await app.run("tree")

        #expect(selected.first == "+-- Persuasion " + String(repeating: "-", count: 57))
        #expect(selected.contains("| app/main/tabs/catalog/book/detail"))
        #expect(!selected.contains { $0.contains("Books") })
        #expect(
            tree == [
                "* app",
                "  * main",
                "    * tabs",
                "      * catalog",
                "          books",
                "            list",
                "        * book",
                "          * detail",
                "        favourites",
                "          list",
                "        profile",
                "FlowController instances alive: 11 (11 in the tree; * marks the focused path)",
                "Split catalog: collapsed (60 columns, under 100): one stack (list, detail), only "
                    + "its top active; focus in book.",
            ])
        let split = try split(of: app)
        #expect(split.isCollapsed && !split.books.entries[0].isActive)
    }

    @Test("A resize collapses and expands the split; the book, its sheet and the filter survive")
    func resizeLosesNothing() async throws {
        let app = try await signedIn(width: 120)
        try await resizeAndBack(app)
        _ = await app.run("quit")
        #expect(app.liveNodes.alive == 0)
    }

    /// The body of ``resizeLosesNothing()``, which holds nodes until it returns.
    func resizeAndBack(_ app: DemoApp) async throws {
        _ = await app.run("filter austen")
        _ = await app.run("select 2")
        _ = await app.run("rate")  // the focus moves to the book column, a sheet over the book
        let split = try split(of: app)
        let list = try #require(split.books.entries.first as? ListScreen)
        let detail = try #require(split.detail)
        let sheet = try #require(detail.presentedChild)
        #expect(app.runtime.focusedNode === sheet)
        app.runtime.trace.removeAll()

        let narrow = await app.resizeStep(to: 60)
        #expect(
            narrow.lines.map(\.text) == [
                "The screen is 60 columns wide now (under 100): catalog collapses into one stack; "
                    + "nothing exits or enters."
            ])
        #expect(narrow.split == nil && narrow.panel?.title == "Rate this book")
        #expect(split.isCollapsed && split.compactStack.map(\.id) == [list.id, detail.id])
        #expect(app.runtime.focusedNode === sheet)

        let wide = await app.resizeStep(to: 130)
        #expect(
            wide.lines.map(\.text) == [
                "The screen is 130 columns wide now: catalog shows its columns side by side "
                    + "again; nothing exits or enters."
            ])
        #expect(wide.split?.panels.map(\.title) == ["Books", "Rate this book"])
        #expect(!split.isCollapsed && app.runtime.focusedNode === sheet)
        #expect(split.books.entries.first === list && split.detail === detail)
        #expect(detail.presentedChild === sheet)
        #expect(list.filter == "austen")
        #expect(list.isActive && sheet.isActive)
        // Nothing exited or entered either way: only activation moved.
        #expect(
            !app.runtime.trace.lines.contains { $0.hasPrefix("exit") || $0.hasPrefix("enter") })
        #expect(
            app.runtime.trace.lines.filter { $0.hasPrefix("change") } == [
                "change platformCollapse app/main/tabs/catalog",
                "change platformExpand app/main/tabs/catalog",
            ])
        // The same width again changes nothing; the sheet still takes its stars.
        #expect(await app.resizeStep(to: 130).lines.isEmpty)
        #expect(messages(await app.run("stars 4")) == ["You gave Emma 4 of 5 stars."])
    }

    @Test("Collapsed, back pops the one stack: the book column is cleared, the list comes back")
    func compactBackClearsTheBook() async throws {
        let app = try await signedIn(width: 60)
        _ = await app.run("filter dickens")
        _ = await app.run("select 2")
        let split = try split(of: app)
        let list = try #require(split.books.entries.first)
        weak let detail = split.detail
        #expect(detail != nil)
        app.runtime.trace.removeAll()

        let back = await app.run("back")

        #expect(detail == nil)
        #expect(split.book.entries.isEmpty && split.compactStack.map(\.id) == [list.id])
        #expect(app.runtime.focusedNode === list)
        #expect(back.contains("| Filter: \"dickens\" (6 of 64 books)"))
        #expect(
            app.runtime.trace.lines == [
                "exit app/main/tabs/catalog/book/detail",
                "change platformPop app/main/tabs/catalog -app/main/tabs/catalog/book/detail",
                "deactivate app/main/tabs/catalog/book",
                "activate app/main/tabs/catalog/books",
                "activate app/main/tabs/catalog/books/list",
            ])
        // Expanded again: an empty book column beside the same list.
        let wide = await app.resizeStep(to: 100)
        #expect(wide.split?.panels.map(\.title) == ["Books", "Book"])
        #expect(split.books.entries.first === list && split.book.entries.isEmpty)
        #expect(await app.run("back") == ["back: already at the list."])
    }

    @Test("Side by side, another column's command moves the focus; a selection replaces")
    func commandsMoveTheFocus() async throws {
        let app = try await signedIn(width: 120)
        let split = try split(of: app)
        _ = await app.run("select 1")
        weak let first = split.detail
        _ = await app.run("stars 3")  // the book's command: the focus moves to the book column
        #expect(split.focusedColumn == .detail)
        #expect(
            messages(await app.run("select 2")) == [
                "Refused: showing Emma would close Pride and Prejudice: an unsaved rating of 3 "
                    + "stars; 'save' keeps it."
            ])
        #expect(split.focusedColumn == .sidebar)  // select is the list's
        _ = await app.run("save")
        _ = await app.run("select 2")
        #expect(first == nil)  // replaced and released
        #expect(split.book.entries.count == 1 && split.detail?.book.title == "Emma")
        _ = await app.run("fav")  // the book's: the focus moves back to it
        #expect(split.focusedColumn == .detail)
        #expect(
            await app.run("back") == [
                "back: the split shows its columns side by side and this column has nothing "
                    + "under its screen; 'select <n>' on the list shows another book."
            ])
    }

    @Test("The runner re-reads the width on a resize (SIGWINCH), unless --width fixed it")
    func runnerFollowsResizes() async throws {
        var widths = [60, 120]
        let app = try DemoApp.shipped(clock: ManualDemoClock(), width: 120)
        var written = ""
        let runner = DemoRunner(
            app: app, terminal: .plain, layoutWidth: { widths.removeFirst() },
            write: { written += $0 })
        await runner.run(
            ScriptedInput([
                .text("login alice wonderland\nselect 3\n"), .resize, .text("tree\n"), .resize,
                .text("quit\n"),
            ]))
        #expect(
            written.contains(
                "The screen is 60 columns wide now (under 100): catalog collapses into one stack; "
                    + "nothing exits or enters.\n+-- Persuasion ---"))
        #expect(written.contains("focus in book."))
        #expect(
            written.contains(
                "The screen is 120 columns wide now: catalog shows its columns side by side "
                    + "again; nothing exits or enters.\n+-- Books ---"))
        // Expanded again, the focus stays in the column that was on top: the book.
        #expect(written.contains(" +-- * Persuasion ---"))
        #expect(widths.isEmpty && app.liveNodes.alive == 0)
    }

    @Test("--width takes whole columns from 20 to 1000; a bad or repeated value is refused")
    func widthOption() throws {
        #expect(try DemoOptions(arguments: ["--width", "120"]).width == 120)
        #expect(try DemoOptions(arguments: ["--width=60"]).width(terminalColumns: 200) == 60)
        #expect(try DemoOptions(arguments: []).width(terminalColumns: 150) == 150)
        #expect(try DemoOptions(arguments: []).width(terminalColumns: nil) == 80)
        #expect(throws: DemoOptionsError.badColumns("--width", "19")) {
            try DemoOptions(arguments: ["--width", "19"])
        }
        #expect(throws: DemoOptionsError.badColumns("--width", "")) {
            try DemoOptions(arguments: ["--width"])
        }
        #expect(throws: DemoOptionsError.repeatedOption("--width")) {
            try DemoOptions(arguments: ["--width", "100", "--width=90"])
        }
    }
}
