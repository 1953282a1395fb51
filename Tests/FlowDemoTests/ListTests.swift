import FlowDemo
import FlowKit
import Testing

@MainActor
@Suite("Book list")
struct ListTests {
    /// An app signed in as Bob, its output so far dropped.
    private func signedIn() async throws -> DemoApp {
        let app = try makeApp()
        _ = await app.start()
        _ = await app.run("login bob builder")
        return app
    }

    @Test("Paging moves a page at a time and refuses to go past either end")
    func paging() async throws {
        let app = try await signedIn()
        var transcript: [String] = []
        for command in ["prev", "next", "next", "prev"] {
            transcript += await app.echoAndRun(command)
        }
        for _ in 0..<6 { _ = await app.run("next") }
        transcript += await app.echoAndRun("next")

        #expect(
            transcript
                == ["> prev", "Already on the first page.", "> next"]
                + bookPanel(page: 2, of: 8, filter: nil, rows: page2)
                + ["> next"]
                + bookPanel(page: 3, of: 8, filter: nil, rows: page3)
                + ["> prev"]
                + bookPanel(page: 2, of: 8, filter: nil, rows: page2)
                + ["> next", "Already on the last page (8 of 8)."])
    }

    @Test("The filter matches title, author or genre, resets to page 1, and clears")
    func filtering() async throws {
        let app = try await signedIn()
        _ = await app.run("next")
        var transcript: [String] = []
        for command in ["filter WAR", "next", "filter zzz", "select 1", "filter"] {
            transcript += await app.echoAndRun(command)
        }

        #expect(
            transcript
                == ["> filter WAR", "3 of 64 books match \"WAR\"."]
                + bookPanel(
                    page: 1, of: 1, filter: "\"WAR\" (3 of 64 books)",
                    rows: [
                        "  1. The War of the Worlds - H. G. Wells, 1898",
                        "  2. War and Peace - Leo Tolstoy, 1869",
                        "  3. The Art of War - Sun Tzu, c. 500 BC",
                    ])
                + ["> next", "Already on the last page (1 of 1).", "> filter zzz"]
                + ["0 of 64 books match \"zzz\"."]
                + bookPanel(
                    page: 1, of: 1, filter: "\"zzz\" (0 of 64 books)",
                    rows: ["  (no book matches)"])
                + ["> select 1", "No book 1: the list is empty.", "> filter"]
                + ["Filter cleared: 64 books."]
                + bookPanel(page: 1, of: 8, filter: nil, rows: page1))
    }

    @Test("Selecting an out-of-range or malformed number prints an error and changes nothing")
    func selectOutOfRange() async throws {
        let app = try await signedIn()
        let tree = app.runtime.treeDescription()
        var transcript: [String] = []
        for command in ["select 65", "select 0", "select -1", "select x", "select", "select 1 2"] {
            transcript += await app.echoAndRun(command)
        }

        #expect(
            transcript == [
                "> select 65", "No book 65: choose a number from 1 to 64.",
                "> select 0", "No book 0: choose a number from 1 to 64.",
                "> select -1", "No book -1: choose a number from 1 to 64.",
                "> select x", "Usage: select <n>, where n is a number shown in the list.",
                "> select", "Usage: select <n>, where n is a number shown in the list.",
                "> select 1 2", "Refused: too many words; usage: select <n>.",
            ])
        #expect(app.runtime.treeDescription() == tree)
        #expect(app.liveNodes.alive == 10)
    }

    @Test("Selecting a book pushes its detail; back pops it and keeps the list's filter")
    func selectAndBack() async throws {
        let app = try await signedIn()
        _ = await app.run("filter war")
        var transcript = await app.echoAndRun("trace")
        transcript += await app.echoAndRun("select 2")
        transcript += await app.echoAndRun("back")

        let detail = """
            +-- War and Peace ------------------------------------------------------
            | app/main/tabs/catalog/book/detail
            | Tabs: [Catalog] Favourites Profile
            |
            | War and Peace
            | by Leo Tolstoy, 1869 (historical)
            |
            | Russian families through the Napoleonic wars.
            |
            | Signed in as Bob; books opened this session: 1
            |
            | Here: back, rate, fav, logout, tab <name>
            | Anywhere: open, about, tree, trace, help, quit
            +-----------------------------------------------------------------------
            """
        #expect(
            transcript
                == [
                    "> trace",
                    "Trace on: FlowKit's trace lines follow as they happen.",
                    "> select 2",
                    "  trace: send BookSelected from app/main/tabs/catalog/books/list",
                    "  trace: enter app/main/tabs/catalog/book/detail",
                    "  trace: change show app/main/tabs/catalog +app/main/tabs/catalog/book/detail",
                    "  trace: deactivate app/main/tabs/catalog/books/list",
                    "  trace: deactivate app/main/tabs/catalog/books",
                    "  trace: activate app/main/tabs/catalog/book",
                    "  trace: activate app/main/tabs/catalog/book/detail",
                    "  trace: handled BookSelected at app/main/tabs/catalog",
                ] + lines(detail)
                + [
                    "> back",
                    "  trace: exit app/main/tabs/catalog/book/detail",
                    "  trace: change platformPop app/main/tabs/catalog -app/main/tabs/catalog/book/detail",
                    "  trace: deactivate app/main/tabs/catalog/book",
                    "  trace: activate app/main/tabs/catalog/books",
                    "  trace: activate app/main/tabs/catalog/books/list",
                ]
                + bookPanel(
                    page: 1, of: 1, filter: "\"war\" (3 of 64 books)",
                    rows: [
                        "  1. The War of the Worlds - H. G. Wells, 1898",
                        "  2. War and Peace - Leo Tolstoy, 1869",
                        "  3. The Art of War - Sun Tzu, c. 500 BC",
                    ], opened: 1))
    }

    @Test("Commands of other screens say why they do not apply; unknown words get a hint")
    func commandsOfOtherScreens() async throws {
        let app = try await signedIn()
        let tree = app.runtime.treeDescription()

        #expect(await app.run("back") == ["back: already at the list."])
        #expect(
            await app.run("login alice wonderland") == ["login: already signed in; logout first."])
        #expect(
            await app.run("fly away") == [
                "Unknown command 'fly'. Try: next, prev, page, filter, select, logout, tab, "
                    + "open, about, tree, trace, help, quit."
            ])
        #expect(app.runtime.treeDescription() == tree)
    }

    @Test("page N jumps to a page; out of range or malformed, it says so and changes nothing")
    func pageJumps() async throws {
        let app = try await signedIn()
        var transcript: [String] = []
        for command in ["page 3", "page 3", "page 9", "page 0", "page x", "page", "page 2 3"] {
            transcript += await app.echoAndRun(command)
        }

        #expect(
            transcript
                == ["> page 3"] + bookPanel(page: 3, of: 8, filter: nil, rows: page3)
                + [
                    "> page 3", "Already on page 3 of 8.",
                    "> page 9", "No page 9: choose a page from 1 to 8.",
                    "> page 0", "No page 0: choose a page from 1 to 8.",
                    "> page x", "Usage: page <n>, where n is from 1 to 8.",
                    "> page", "Usage: page <n>, where n is from 1 to 8.",
                    "> page 2 3", "Refused: too many words; usage: page <n>.",
                ])
    }

    @Test("Extra words are refused the same way by every command that takes a fixed number")
    func extraWordsAreRefusedAlike() async throws {
        let app = try await signedIn()
        _ = await app.run("select 1")
        var transcript: [String] = []
        for command in [
            "back now", "logout please", "fav now", "tab catalog now", "tree ids now", "trace on",
            "help me", "quit now",
        ] {
            transcript += await app.echoAndRun(command)
        }

        #expect(
            transcript == [
                "> back now", "Refused: too many words; usage: back.",
                "> logout please", "Refused: too many words; usage: logout.",
                "> fav now", "Refused: too many words; usage: fav.",
                "> tab catalog now", "Refused: too many words; usage: tab <name>.",
                "> tree ids now", "Refused: too many words; usage: tree [ids].",
                "> trace on", "Refused: too many words; usage: trace.",
                "> help me", "Refused: too many words; usage: help, ?.",
                "> quit now", "Refused: too many words; usage: quit.",
            ])
        #expect(!app.hasQuit)
        #expect(app.runtime.focusedNode?.path == "app/main/tabs/catalog/book/detail")
    }

    @Test("On a book, list commands say where they work")
    func listCommandsOnADetail() async throws {
        let app = try await signedIn()
        _ = await app.run("select 1")

        #expect(await app.run("next") == ["next: only on the list; 'back' returns to it."])
        #expect(await app.run("select 2") == ["select: only on the list; 'back' returns to it."])
        #expect(await app.run("login bob builder") == ["login: already signed in; logout first."])
    }

    private let page1 = [
        "  1. Pride and Prejudice - Jane Austen, 1813",
        "  2. Emma - Jane Austen, 1815",
        "  3. Persuasion - Jane Austen, 1817",
        "  4. Sense and Sensibility - Jane Austen, 1811",
        "  5. Great Expectations - Charles Dickens, 1861",
        "  6. A Tale of Two Cities - Charles Dickens, 1859",
        "  7. Oliver Twist - Charles Dickens, 1838",
        "  8. David Copperfield - Charles Dickens, 1850",
    ]

    private let page2 = [
        "  9. Bleak House - Charles Dickens, 1853",
        " 10. A Christmas Carol - Charles Dickens, 1843",
        " 11. Moby-Dick - Herman Melville, 1851",
        " 12. Jane Eyre - Charlotte Bronte, 1847",
        " 13. Wuthering Heights - Emily Bronte, 1847",
        " 14. Middlemarch - George Eliot, 1871",
        " 15. Frankenstein - Mary Shelley, 1818",
        " 16. Dracula - Bram Stoker, 1897",
    ]

    private let page3 = [
        " 17. The Picture of Dorian Gray - Oscar Wilde, 1890",
        " 18. The Importance of Being Earnest - Oscar Wilde, 1895",
        " 19. Alice's Adventures in Wonderland - Lewis Carroll, 1865",
        " 20. Through the Looking-Glass - Lewis Carroll, 1871",
        " 21. Treasure Island - Robert Louis Stevenson, 1883",
        " 22. Strange Case of Dr Jekyll and Mr Hyde - Robert Louis Stevenson, 1886",
        " 23. Kidnapped - Robert Louis Stevenson, 1886",
        " 24. The Adventures of Sherlock Holmes - Arthur Conan Doyle, 1892",
    ]

    /// The list's panel for Bob, written out line by line.
    private func bookPanel(
        page: Int, of pages: Int, filter: String?, rows: [String], opened: Int = 0
    ) -> [String] {
        [
            "+-- Books --------------------------------------------------------------",
            "| app/main/tabs/catalog/books/list",
            "| Tabs: [Catalog] Favourites Profile",
            "|",
            "| Signed in as Bob; books opened this session: \(opened)",
            "| Filter: " + (filter ?? "none (64 books)"),
            "|",
        ] + rows.map { "| " + $0 }
            + [
                "|",
                "| Page \(page) of \(pages)",
                "|",
                "| Here: next, prev, page <n>, filter [text], select <n>, logout, tab <name>",
                "| Anywhere: open, about, tree, trace, help, quit",
                "+-----------------------------------------------------------------------",
            ]
    }
}
