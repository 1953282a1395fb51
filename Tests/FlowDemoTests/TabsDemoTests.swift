import FlowKit
import FlowKitTesting
import Testing

@testable import FlowDemo

/// The main flow's tabs: `tab <name>` selects through `FlowTabs.select`, every tab keeps its
/// own stack, reselecting pops to the root, favourites have their own stack, `tree ids` shows
/// identities, deep links select the catalog tab, and quitting releases every tab.
@MainActor
@Suite("Demo tabs")
struct TabsDemoTests {
    /// An app signed in as Bob, its output so far dropped.
    private func signedIn() async throws -> DemoApp {
        let app = try makeApp()
        _ = await app.start()
        _ = await app.run("login bob builder")
        return app
    }

    /// The message lines of `lines` (no panel).
    private func messages(_ lines: [String]) -> [String] {
        lines.filter { !$0.hasPrefix("|") && !$0.hasPrefix("+--") }
    }

    private func tabs(of app: DemoApp) throws -> FlowTabs {
        try #require(app.runtime.node(at: "app/main/tabs") as? FlowTabs)
    }

    /// The names of the entries of the stack at `path`; for the catalog's split, of its
    /// one stack when collapsed (``FlowSplit/compactStack``).
    private func entries(_ app: DemoApp, _ path: String) -> [String] {
        let node = app.runtime.node(at: path)
        if let split = node as? FlowSplit { return split.compactStack.map(\.name) }
        return (node as? FlowStack)?.entries.map(\.name) ?? []
    }

    @Test("Switching tabs keeps each tab's stack: the catalog's detail is there after favourites")
    func switchingKeepsStacks() async throws {
        let app = try await signedIn()
        _ = await app.run("select 3")
        _ = await app.run("fav")
        weak let detail = app.runtime.node(at: "app/main/tabs/catalog/book/detail")
        var transcript = await app.echoAndRun("tab favourites")
        transcript += await app.echoAndRun("tab catalog")

        #expect(
            transcript
                == lines(
                    """
                    > tab favourites
                    Favourites selected: nothing exited or entered; Catalog keeps its columns: books (list), book (detail).
                    +-- Favourites ---------------------------------------------------------
                    | app/main/tabs/favourites/list
                    | Tabs: Catalog [Favourites] Profile
                    |
                    | Signed in as Bob; favourites: 1
                    |
                    |   1. Persuasion - Jane Austen, 1817
                    |
                    | Here: select <n>, logout, tab <name>
                    | Anywhere: open, about, tree, trace, help, quit
                    +-----------------------------------------------------------------------
                    > tab catalog
                    Catalog selected: nothing exited or entered; Favourites keeps its stack: list.
                    +-- Persuasion ---------------------------------------------------------
                    | app/main/tabs/catalog/book/detail
                    | Tabs: [Catalog] Favourites Profile
                    |
                    | Persuasion
                    | by Jane Austen, 1817 (novel)
                    |
                    | Anne Elliot gets a second chance with the naval officer she once refused.
                    |
                    | Signed in as Bob; books opened this session: 1
                    | One of your favourites
                    |
                    | Here: back, rate, fav, logout, tab <name>
                    | Anywhere: open, about, tree, trace, help, quit
                    +-----------------------------------------------------------------------
                    """))
        #expect(detail != nil && detail === app.runtime.focusedNode)  // the same node, kept
        #expect(app.liveNodes.alive == 11)
    }

    @Test("Selecting a tab moves activation only: nothing exits, enters or is checked")
    func selectionMovesActivationOnly() async throws {
        let app = try await signedIn()
        _ = await app.run("select 1")
        let harness = FlowTestHarness(runtime: app.runtime)

        await harness.perform { _ = await app.run("tab FAVOURITES") }  // any case
        harness.expect([
            .change(.select, "app/main/tabs"),
            .deactivate("app/main/tabs/catalog/book/detail"),
            .deactivate("app/main/tabs/catalog/book"),
            .deactivate("app/main/tabs/catalog"),
            .activate("app/main/tabs/favourites"),
            .activate("app/main/tabs/favourites/list"),
        ])
        await harness.perform { _ = await app.run("tab profile") }
        harness.expect([
            .change(.select, "app/main/tabs"),
            .deactivate("app/main/tabs/favourites/list"),
            .deactivate("app/main/tabs/favourites"),
            .activate("app/main/tabs/profile"),
        ])
        harness.expectTree(
            """
            * app
              * main
                * tabs
                    catalog
                      books
                        list
                      book
                        detail
                    favourites
                      list
                  * profile
            """)
        harness.finish()
        #expect(try tabs(of: app).selectedIndex == 2)
    }

    @Test("tab with an unknown name, or none, says which tabs there are and changes nothing")
    func unknownTab() async throws {
        let app = try await signedIn()
        let tree = app.runtime.treeDescription()

        #expect(
            await app.run("tab settings") == [
                "No tab 'settings': the tabs are catalog, favourites, profile."
            ])
        #expect(
            await app.run("tab") == [
                "Refused: name a tab; usage: tab <name> (catalog, favourites, profile)."
            ])
        #expect(
            await app.run("tab catalog profile") == [
                "Refused: too many words; usage: tab <name>."
            ])
        #expect(app.runtime.treeDescription() == tree)
    }

    @Test("tab is for signed-in screens without a sheet over them; the tab bar shows exactly then")
    func tabWhereItApplies() async throws {
        let app = try makeApp()
        _ = await app.start()
        #expect(
            await app.run("tab catalog") == ["tab: sign in first; the book list comes after login."]
        )
        _ = await app.run("login bob builder")
        _ = await app.run("select 1")
        let sheet = await app.run("rate")
        #expect(!sheet.contains { $0.hasPrefix("| Tabs:") })
        #expect(!sheet.contains { $0.contains("tab <name>") })
        #expect(await app.run("tab profile") == ["tab: rate the book or close the sheet first."])
        let detail = await app.run("close")
        #expect(detail.contains("| Tabs: [Catalog] Favourites Profile"))
        _ = await app.run("about")
        #expect(await app.run("tab profile") == ["tab: close the about screen first."])
        #expect(app.runtime.focusedNode?.name == "about")
    }

    @Test("The favourites tab has its own stack: its details do not touch the catalog's")
    func favouritesStackIsIndependent() async throws {
        let app = try await signedIn()
        #expect(
            await app.run("fav") == ["fav: open a book first (select <n>), then 'fav' adds it."])
        _ = await app.run("select 3")
        _ = await app.run("fav")
        #expect(await app.run("fav") == ["Persuasion is already one of your favourites."])
        _ = await app.run("back")
        _ = await app.run("select 5")
        _ = await app.run("fav")
        _ = await app.run("tab favourites")
        #expect(
            await app.run("select 3") == ["No favourite 3: choose a number from 1 to 2."])
        app.runtime.trace.removeAll()

        let output = await app.run("select 2")

        #expect(
            app.runtime.trace.lines == [
                "send BookSelected from app/main/tabs/favourites/list",
                "enter app/main/tabs/favourites/detail",
                "change push app/main/tabs/favourites +app/main/tabs/favourites/detail",
                "deactivate app/main/tabs/favourites/list",
                "activate app/main/tabs/favourites/detail",
                "handled BookSelected at app/main",
            ])
        #expect(output.contains("+-- Great Expectations " + String(repeating: "-", count: 49)))
        #expect(output.contains("| app/main/tabs/favourites/detail"))
        #expect(output.contains("| Tabs: Catalog [Favourites] Profile"))
        #expect(entries(app, "app/main/tabs/favourites") == ["list", "detail"])
        #expect(entries(app, "app/main/tabs/catalog") == ["list", "detail"])
        let catalogDetail = app.runtime.node(at: "app/main/tabs/catalog/book/detail")
        #expect((catalogDetail as? DetailScreen)?.book.id == 5)

        _ = await app.run("back")  // pops the favourites' detail only
        #expect(entries(app, "app/main/tabs/favourites") == ["list"])
        #expect(app.runtime.node(at: "app/main/tabs/catalog/book/detail") === catalogDetail)
        #expect(
            try app.runtime.node(at: "app/main")?.dependencies.require(SessionKey.self)
                .favouriteBookIDs == [3, 5])
    }

    @Test("Reselecting the selected tab pops its stack to the root; at the root it says so")
    func reselectionPopsToRoot() async throws {
        let app = try await signedIn()
        #expect(try tabs(of: app).reselectionPopsToRoot)
        _ = await app.run("select 2")
        weak let detail = app.runtime.node(at: "app/main/tabs/catalog/book/detail")
        #expect(detail != nil)
        app.runtime.trace.removeAll()

        let output = await app.run("tab catalog")

        #expect(output.first == "Catalog reselected: popped to its root (detail exited).")
        #expect(output.contains("+-- Books " + String(repeating: "-", count: 62)))
        #expect(
            app.runtime.trace.lines == [
                // Collapsed, the tab bar pops the split's one stack as the platform does.
                "exit app/main/tabs/catalog/book/detail",
                "change platformPop app/main/tabs/catalog -app/main/tabs/catalog/book/detail",
                "deactivate app/main/tabs/catalog/book",
                "activate app/main/tabs/catalog/books",
                "activate app/main/tabs/catalog/books/list",
            ])
        #expect(detail == nil)
        #expect(await app.run("tab catalog") == ["Already on Catalog, at its root."])
        _ = await app.run("tab profile")
        #expect(await app.run("tab profile") == ["Already on Profile."])
        #expect(app.liveNodes.alive == 10)
    }

    @Test("tree ids prints each node's identity after its name; plain tree prints none")
    func treeWithIdentities() async throws {
        let app = try await signedIn()
        _ = await app.run("select 1")
        _ = await app.run("rate")  // a presented node too

        let plain = await app.run("tree")
        let withIDs = await app.run("tree ids")

        #expect(!plain.joined().contains("#"))
        // The tree, the count, and how the catalog's split is laid out.
        #expect(
            plain.dropLast(2)
                == app.runtime.treeDescription().split(separator: "\n").map(String.init))
        #expect(withIDs.count == plain.count)
        #expect(
            withIDs.dropLast().last
                == "FlowController instances alive: 12 (12 in the tree; * marks the focused path, "
                + "#n is a node's identity)")
        #expect(withIDs.last == plain.last)
        var seen: Set<FlowNodeID> = []
        for (line, plainLine) in zip(withIDs.dropLast(2), plain.dropLast(2)) {
            // `  * detail #42`: the plain line, a space, then the identity of a live node of
            // that name.
            #expect(line.hasPrefix(plainLine + " #"), "\(line)")
            let raw = try #require(line.split(separator: "#").last.flatMap { UInt64($0) })
            let node = try #require(app.runtime.node(id: FlowNodeID(rawValue: raw)), "\(line)")
            #expect(plainLine.hasSuffix(node.name), "\(line)")
            #expect(seen.insert(node.id).inserted)
        }
        #expect(seen.count == app.liveNodes.alive)
        let sheet = try #require(app.runtime.focusedNode)
        #expect(withIDs.contains("            * ^rate \(sheet.id)"))
        #expect(await app.run("tree --IDS") == withIDs)
        #expect(await app.run("tree x") == ["Refused: unknown option 'x'; usage: tree [ids]."])
    }

    @Test(
        "A deep link opened on another tab selects the catalog tab; the other tab keeps its stack")
    func deepLinkSelectsCatalog() async throws {
        let app = try await signedIn()
        _ = await app.run("select 3")
        _ = await app.run("fav")
        _ = await app.run("tab favourites")
        _ = await app.run("select 1")
        weak let favouriteDetail = app.runtime.node(at: "app/main/tabs/favourites/detail")
        app.runtime.trace.removeAll()

        let output = await app.run("open flowdemo://books/12")

        #expect(messages(output) == ["Opened flowdemo://books/12."])
        #expect(output.contains("| Tabs: [Catalog] Favourites Profile"))
        #expect(app.runtime.focusedNode?.path == "app/main/tabs/catalog/book/detail")
        #expect((app.runtime.focusedNode as? DetailScreen)?.book.id == 12)
        #expect(try tabs(of: app).selectedIndex == 0)
        // One transaction: the link's `.root` step replaces the book shown before (it exits),
        // and the tab container moves the selection.
        #expect(
            app.runtime.trace.lines.starts(with: [
                "exit app/main/tabs/catalog/book/detail",
                "enter app/main/tabs/catalog/book/detail",
                "change navigate app/main/tabs -app/main/tabs/catalog/book/detail "
                    + "+app/main/tabs/catalog/book/detail",
            ]))
        #expect(favouriteDetail != nil)  // untouched in its tab
        #expect(entries(app, "app/main/tabs/favourites") == ["list", "detail"])

        _ = await app.run("tab profile")
        _ = await app.run("open flowdemo://books")
        #expect(app.runtime.focusedNode?.path == "app/main/tabs/catalog/books/list")
        // Collapsed, the list comes on top; the book stays in its column.
        #expect(entries(app, "app/main/tabs/catalog") == ["list"])
        #expect(entries(app, "app/main/tabs/catalog/book") == ["detail"])
    }

    @Test("Every tab and screen has a route: a path from the root reaches a favourite's detail")
    func routesAddressEveryTab() async throws {
        let app = try await signedIn()
        _ = await app.run("select 2")

        try app.runtime.navigate(to: [
            .child("main"), .child("tabs"), .child("favourites"),
            .child(CatalogRoute.favourites), .push(CatalogRoute.detail(id: 6)),
        ])

        #expect(app.runtime.focusedNode?.path == "app/main/tabs/favourites/detail")
        #expect((app.runtime.focusedNode as? DetailScreen)?.book.id == 6)
        #expect(try tabs(of: app).selectedIndex == 1)
        #expect(entries(app, "app/main/tabs/catalog") == ["list", "detail"])  // kept
        try app.runtime.navigate(to: [.child("main"), .child("tabs"), .child("profile")])
        #expect(app.runtime.focusedNode?.path == "app/main/tabs/profile")
        #expect(
            app.runtime.node(at: "app/main")?.children.map { $0.route } == [FlowRoute("tabs")])
        #expect(
            try tabs(of: app).tabs.map(\.route)
                == ["catalog", "favourites", "profile"].map { FlowRoute($0) })
    }

    @Test("A deep link that leaves a tab dismisses the sheet over it first")
    func deepLinkDismissesSheetInLeftTab() async throws {
        let app = try await signedIn()
        _ = await app.run("select 3")
        _ = await app.run("fav")
        _ = await app.run("tab favourites")
        _ = await app.run("select 1")
        _ = await app.run("rate")
        weak let sheet = app.runtime.focusedNode
        #expect(sheet?.name == "rate")

        let output = messages(await app.run("open flowdemo://books/7"))

        #expect(
            output == [
                "Opened flowdemo://books/7.",
                "Rating cancelled: the sheet was closed without a rating.",
            ])
        #expect(sheet == nil)
        #expect(app.runtime.focusedNode?.path == "app/main/tabs/catalog/book/detail")
        _ = await app.run("tab favourites")
        #expect(app.runtime.focusedNode?.path == "app/main/tabs/favourites/detail")
        #expect(app.runtime.node(at: "app/main/tabs/favourites/detail")?.presentedChild == nil)
    }

    @Test("The profile shows the signed-in user and logs out; logout releases every tab")
    func profileAndLogout() async throws {
        let app = try await signedIn()
        _ = await app.run("select 1")
        _ = await app.run("fav")
        let profile = await app.run("tab profile")

        #expect(
            profile
                == lines(
                    """
                    Profile selected: nothing exited or entered; Catalog keeps its columns: books (list), book (detail).
                    +-- Profile ------------------------------------------------------------
                    | app/main/tabs/profile
                    | Tabs: Catalog Favourites [Profile]
                    |
                    | Signed in as Bob (username bob)
                    |
                    | Books opened this session: 1
                    | Favourites: 1
                    | Books rated: 0
                    |
                    | logout signs out: the main flow, with every tab, is torn down.
                    |
                    | Here: logout, tab <name>
                    | Anywhere: open, about, tree, trace, help, quit
                    +-----------------------------------------------------------------------
                    """))
        #expect(
            await app.run("back") == [
                "back: the profile is its tab's only screen; 'tab <name>' switches tabs."
            ])
        weak let tabs = app.runtime.node(at: "app/main/tabs")
        weak let catalogDetail = app.runtime.node(at: "app/main/tabs/catalog/book/detail")
        let output = await app.run("logout")
        #expect(output.first?.hasPrefix("Bob signed out") == true)
        #expect(tabs == nil && catalogDetail == nil)
        #expect(app.liveNodes.alive == 3)
    }

    @Test("Quitting with a deep stack in every tab releases every node")
    func quitReleasesEveryTab() async throws {
        let app = try await signedIn()
        for command in ["select 4", "fav", "tab favourites", "select 1", "tab profile"] {
            _ = await app.run(command)
        }
        let paths = [
            "app", "app/main", "app/main/tabs", "app/main/tabs/catalog",
            "app/main/tabs/catalog/books", "app/main/tabs/catalog/books/list",
            "app/main/tabs/catalog/book", "app/main/tabs/catalog/book/detail",
            "app/main/tabs/favourites", "app/main/tabs/favourites/list",
            "app/main/tabs/favourites/detail", "app/main/tabs/profile",
        ]
        let harness = FlowTestHarness(runtime: app.runtime, exhaustivity: .off)
        for path in paths { harness.leaks.track(harness.node(path)) }
        weak let session = try app.runtime.node(at: "app/main")?.dependencies.require(
            SessionKey.self)
        #expect(session != nil)
        #expect(app.liveNodes.alive == paths.count)

        let output = await app.run("quit")

        #expect(
            output == [
                "Quitting: the runtime stops and every node exits, innermost first.",
                "FlowController instances still alive: 0 (14 created in this run).",
            ])
        harness.leaks.expectAllReleased()
        harness.finish()
        #expect(session == nil)
        #expect(app.liveNodes.alive == 0)
    }
}
