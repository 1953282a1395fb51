import FlowDemo
import FlowKit
import Testing

/// The terminal as a platform whose transitions take time: the swipe back (`swipe`,
/// `release`, `cancel`), the unsaved rating that refuses it, and commands typed while a
/// transition runs (`--animate`), on a manual clock.
@MainActor
@Suite("Transitions in the demo")
struct TransitionsDemoTests {
    /// The transcript of `commands` after `login alice wonderland` and `select 3`.
    func onPersuasion(
        _ commands: [String], app: DemoApp
    ) async -> [String] {
        _ = await app.start()
        _ = await app.run("login alice wonderland")
        _ = await app.run("select 3")
        var lines: [String] = []
        for command in commands { lines += await app.echoAndRun(command) }
        return lines
    }

    /// The panel lines of Persuasion's detail screen, with `extra` content lines and `here`.
    func persuasionPanel(
        extra: [String] = [], here: String = "back, rate, fav, logout, tab <name>"
    ) -> [String] {
        [
            "+-- Persuasion " + String(repeating: "-", count: 57),
            "| app/main/tabs/catalog/book/detail",
            "| Tabs: [Catalog] Favourites Profile",
            "|",
            "| Persuasion",
            "| by Jane Austen, 1817 (novel)",
            "|",
            "| Anne Elliot gets a second chance with the naval officer she once refused.",
            "|",
            "| Signed in as Alice; books opened this session: 1",
        ] + extra + [
            "|",
            "| Here: " + here,
            "| Anywhere: open, about, tree, trace, help, quit",
            "+" + String(repeating: "-", count: 71),
        ]
    }

    let swiping = ["|", "| Swiping back: 0% ('release' closes this screen, 'cancel' keeps it)"]

    @Test("A cancelled swipe keeps the detail; a released one pops it to the list")
    func cancelledThenCommittedSwipe() async throws {
        let app = try makeApp()
        let transcript = await onPersuasion(
            ["swipe", "cancel", "tree", "swipe", "release", "tree"], app: app)
        let treeWithDetail = [
            "> tree", "* app", "  * main", "    * tabs", "      * catalog", "          books",
            "            list", "        * book", "          * detail", "        favourites",
            "          list", "        profile",
            "FlowController instances alive: 11 (11 in the tree; * marks the focused path)",
            "Split catalog: collapsed (80 columns, under 100): one stack (list, detail), only "
                + "its top active; focus in book.",
        ]
        // Collapsed (80 columns), the catalog's split is one stack: the swipe is on it.
        let begun =
            ["> swipe"]
            + [
                "Swipe back begun on app/main/tabs/catalog, collapsed into one stack (0%): "
                    + "'release' closes Persuasion, 'cancel' keeps it."
            ] + persuasionPanel(extra: swiping, here: "swipe [n%], release, cancel")

        #expect(
            transcript
                == begun
                + ["> cancel", "Cancelled at 0%: Persuasion stays on app/main/tabs/catalog."]
                + persuasionPanel() + treeWithDetail + begun
                + ["> release", "Released at 0%: the swipe back closed Persuasion."]
                + Array(transcript.drop { $0 != "+-- Books " + String(repeating: "-", count: 62) })
        )
        let end = Array(transcript.suffix(13))
        #expect(
            end == [
                "> tree", "* app", "  * main", "    * tabs", "      * catalog", "        * books",
                "          * list", "          book", "        favourites", "          list",
                "        profile",
                "FlowController instances alive: 10 (10 in the tree; * marks the focused path)",
                "Split catalog: collapsed (80 columns, under 100): one stack (list), only its "
                    + "top active; focus in books.",
            ])
        #expect(transcript.contains("| app/main/tabs/catalog/books/list"))
        // The released swipe is the platform's pop of the collapsed stack, mapped onto the
        // columns: the book column is cleared.
        #expect(
            app.runtime.trace.lines.filter { $0.hasPrefix("change platformPop") } == [
                "change platformPop app/main/tabs/catalog -app/main/tabs/catalog/book/detail"
            ])
        #expect(app.transitions.isShowingTree)
    }

    @Test("swipe 60% begins and moves the swipe; other navigation waits for its end")
    func swipeProgressAndRefusals() async throws {
        let app = try makeApp()
        let transcript = await onPersuasion(
            ["swipe 60%", "swipe 75", "back", "rate", "swipe 120%", "release"], app: app)

        #expect(
            transcript.filter { !$0.hasPrefix("|") && !$0.hasPrefix("+") } == [
                "> swipe 60%",
                "Swipe back begun on app/main/tabs/catalog, collapsed into one stack (60%): "
                    + "'release' closes Persuasion, 'cancel' keeps it.",
                "> swipe 75",
                "Swiped back 75%.",
                "> back",
                "back: a swipe back is in progress; 'release' or 'cancel' it first.",
                "> rate",
                "rate: a swipe back is in progress; 'release' or 'cancel' it first.",
                "> swipe 120%",
                "Refused: give how far to swipe, from 0% to 100%; usage: swipe [n%].",
                "> release",
                "Released at 75%: the swipe back closed Persuasion.",
            ])
        #expect(app.prompt == "app/main/tabs/catalog/books/list> ")
    }

    @Test("An unsaved rating refuses the swipe at begin, and back; saved, the swipe goes ahead")
    func unsavedRatingRefusesTheSwipe() async throws {
        let app = try makeApp()
        let transcript = await onPersuasion(
            ["stars 4", "swipe", "back", "release", "save", "swipe", "release"], app: app)
        let unsaved = [
            "| Your rating: 4 of 5 stars, not saved ('save' keeps it)"
        ]
        let here = "back, rate, save, fav, logout, tab <name>"

        #expect(
            Array(transcript.prefix(while: { $0 != "> save" }))
                == ["> stars 4"]
                + [
                    "Rated Persuasion 4 of 5 stars, not saved yet: 'save' keeps it; until then "
                        + "this screen refuses to close."
                ] + persuasionPanel(extra: unsaved, here: here) + [
                    "> swipe",
                    "Refused: the swipe back would close Persuasion: an unsaved rating of 4 "
                        + "stars; 'save' keeps it.",
                    "> back",
                    "Refused: back would close Persuasion: an unsaved rating of 4 stars; 'save' "
                        + "keeps it.",
                    "> release",
                    "release: no swipe in progress; 'swipe' begins one.",
                ])
        #expect(
            transcript.filter { $0.hasPrefix(">") || !$0.hasPrefix("|") && !$0.hasPrefix("+") }
                .drop { $0 != "> save" } == [
                    "> save",
                    "You gave Persuasion 4 of 5 stars.",
                    "> swipe",
                    "Swipe back begun on app/main/tabs/catalog, collapsed into one stack (0%): "
                        + "'release' closes Persuasion, 'cancel' keeps it.",
                    "> release",
                    "Released at 0%: the swipe back closed Persuasion.",
                ])
        #expect(
            app.runtime.trace.lines.filter { $0.hasPrefix("change platformPop") } == [
                "change platformPop app/main/tabs/catalog -app/main/tabs/catalog/book/detail"
            ])
    }

    @Test("help lists the swipe and stars under Also here; swipe off a stack says why")
    func helpAndNoStack() async throws {
        let app = try makeApp()
        let help = await onPersuasion(["help"], app: app)
        let also = Array(help.drop { $0 != "Also here (not on the panel):" }.prefix(3))

        #expect(
            also == [
                "Also here (not on the panel):",
                "  stars <n>     rate the book n of 5 stars (on the book itself: unsaved until "
                    + "save)",
                "  swipe [n%]    the platform's swipe back: begin it on this stack, or move it "
                    + "to n%",
            ])
        _ = await app.run("back")
        #expect(await app.run("swipe") == ["swipe: nothing to go back to here."])
        _ = await app.run("select 1")
        _ = await app.run("rate")
        #expect(
            await app.run("swipe") == ["swipe: a sheet covers the stack; 'close' dismisses it."])
        #expect(await app.run("cancel") == ["cancel: no swipe in progress; 'swipe' begins one."])
    }

    /// Moves `clock` on by 250 ms at a time until the screen has caught up with the tree.
    func catchUp(_ app: DemoApp, _ clock: ManualDemoClock) {
        for _ in 0..<10 where app.screen.isAnimating {
            clock.advance(by: .milliseconds(250))
            app.screen.catchUp()
        }
    }

    @Test("Commands typed during a transition run at once; the screen catches up, step by step")
    func burstDuringATransition() async throws {
        let clock = ManualDemoClock()
        let app = try DemoApp.shipped(clock: clock, transitionTime: .milliseconds(250))
        _ = await app.start()
        catchUp(app, clock)  // the start, then the login flow's form
        _ = await app.run("login alice wonderland")
        catchUp(app, clock)  // the main flow
        _ = await app.run("select 3")  // the push starts: 250 ms
        #expect(app.screen.isAnimating)
        var transcript: [String] = []
        for command in ["swipe", "back", "select 5", "tab favourites", "tree"] {
            transcript += await app.echoAndRun(command)
        }
        clock.advance(by: .milliseconds(100))
        transcript += await app.echoAndRun("tree")

        #expect(
            transcript.filter { !$0.hasPrefix("|") && !$0.hasPrefix("+") } == [
                "> swipe",
                // The screen shows the list alone until the push ends.
                "Refused: no swipe back on app/main/tabs/catalog now (a transition runs); try "
                    + "again once the screen has caught up.",
                "> back",
                "> select 5",
                "> tab favourites",
                "Favourites selected: nothing exited or entered; Catalog keeps its columns: "
                    + "books (list), book (detail).",
                "> tree",
                "* app", "  * main", "    * tabs", "        catalog", "          books",
                "            list", "          book", "            detail", "      * favourites",
                "        * list", "        profile",
                "FlowController instances alive: 11 (11 in the tree; * marks the focused path)",
                "Split catalog: collapsed (80 columns, under 100): one stack (list, detail), "
                    + "only its top active; focus in book.",
                "On screen, still catching up with the tree (push detail; select favourites):",
                "  app/main/tabs/catalog/books: list",
                "  app/main/tabs/favourites: list",
                "> tree",
                "* app", "  * main", "    * tabs", "        catalog", "          books",
                "            list", "          book", "            detail", "      * favourites",
                "        * list", "        profile",
                "FlowController instances alive: 11 (11 in the tree; * marks the focused path)",
                "Split catalog: collapsed (80 columns, under 100): one stack (list, detail), "
                    + "only its top active; focus in book.",
                "On screen, still catching up with the tree (push detail; select favourites):",
                "  app/main/tabs/catalog/books: list",
                "  app/main/tabs/favourites: list",
            ])
        // The push of Persuasion and the tab selection end; the pop (the collapsed split's
        // back: the book column cleared) and the selection of Great Expectations typed
        // meanwhile reach the screen as one step in the book column.
        clock.advance(by: .milliseconds(150))
        let caughtUp = await app.run("tree")
        #expect(
            Array(caughtUp.suffix(4)) == [
                "On screen, still catching up with the tree (show detail):",
                "  app/main/tabs/catalog/books: list",
                "  app/main/tabs/catalog/book: detail",
                "  app/main/tabs/favourites: list",
            ])
        clock.advance(by: .milliseconds(250))
        #expect(
            await app.run("tree").dropLast().last
                == "FlowController instances alive: 11 (11 in the tree; * marks the focused path)")
        #expect(app.transitions.isShowingTree && app.transitions.isIdle)
        #expect(
            app.screen.log == [
                "start", "show login", "show main", "push detail", "select favourites",
                "show detail",
            ])
        #expect(!app.runtime.trace.lines.contains { $0.hasPrefix("failure") })
    }

    @Test("--animate takes milliseconds; a bad or repeated value is refused with the usage")
    func animateOption() throws {
        #expect(try DemoOptions(arguments: ["--animate", "120"]).animationMilliseconds == 120)
        #expect(try DemoOptions(arguments: ["--animate=0"]).animationMilliseconds == 0)
        let none = try DemoOptions(arguments: [])
        #expect(
            [
                none.animationMilliseconds(interactive: true),
                none.animationMilliseconds(
                    interactive: false),
            ] == [250, 0])
        #expect(throws: DemoOptionsError.badMilliseconds("--animate", "fast")) {
            try DemoOptions(arguments: ["--animate", "fast"])
        }
        #expect(throws: DemoOptionsError.badMilliseconds("--animate", "")) {
            try DemoOptions(arguments: ["--animate"])
        }
        #expect(throws: DemoOptionsError.badMilliseconds("--animate", "9000")) {
            try DemoOptions(arguments: ["--animate=9000"])
        }
        #expect(throws: DemoOptionsError.repeatedOption("--animate")) {
            try DemoOptions(arguments: ["--animate", "1", "--animate", "2"])
        }
        #expect(
            DemoOptionsError.badMilliseconds("--animate", "fast").description
                == "flowdemo: --animate needs a whole number of milliseconds from 0 to 5000 "
                + "(--animate MS), not 'fast'; see swift run flowdemo --help")
    }
}
