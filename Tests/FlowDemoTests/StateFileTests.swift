import FlowKit
import Foundation
import Testing

@testable import FlowDemo

/// `flowdemo --state FILE`: the navigation restored from FILE at start and saved there at quit.
@MainActor
@Suite("State file")
struct StateFileTests {
    /// A path in a new temporary directory (no file there yet).
    static func temporaryStateFile(named name: String = "state.json") throws -> DemoStateFile {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("flowdemo-state-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return DemoStateFile(path: directory.appendingPathComponent(name).path)
    }

    /// A new app with `file`.
    static func makeApp(file: DemoStateFile?) throws -> DemoApp {
        try DemoApp.shipped(clock: ManualDemoClock(), stateFile: file)
    }

    /// The session of the app's main flow, if one is shown.
    static func session(of app: DemoApp) -> UserSession? {
        ((app.runtime.root as? FlowSwitch)?.current as? MainFlow)?.session
    }

    /// The commands of the first run of the round trip: a page, a filter-free list on page 2,
    /// a detail in the catalog, a favourite, a rating, the favourites tab with a detail and
    /// its rating sheet open.
    static let firstRun = [
        "login alice wonderland", "next", "select 10", "fav", "rate", "stars 4", "tab favourites",
        "select 1", "rate",
    ]

    /// Saves what `commands` leave in `file` (the run ends with `quit`).
    static func save(_ commands: [String], in file: DemoStateFile) async throws {
        let app = try makeApp(file: file)
        _ = await app.transcript(of: commands + ["quit"])
        #expect(app.liveNodes.alive == 0)
    }

    /// The saved text of a first run, for the corrupt-file cases to damage.
    static func savedText() async throws -> String {
        let file = try temporaryStateFile()
        try await save(firstRun, in: file)
        return try String(contentsOf: file.url, encoding: .utf8)
    }

    // MARK: Round trip

    @Test("A second run starts on the same tab, stacks, detail and sheet, signed in")
    func roundTrip() async throws {
        let file = try Self.temporaryStateFile()
        let first = try Self.makeApp(file: file)
        let start = await first.start()
        #expect(
            start.contains(
                "No saved state in \(file.path) yet: a fresh start; quit saves it there."))
        for command in Self.firstRun { _ = await first.run(command) }
        let tree = first.runtime.treeDescription()
        let prompt = first.prompt
        #expect(prompt == "app/main/tabs/favourites/detail/rate> ")
        let quit = await first.run("quit")
        #expect(
            quit.first
                == "Saved the state to \(file.path): flowdemo --state \(file.path) starts here.")
        #expect(first.liveNodes.alive == 0)

        let second = try Self.makeApp(file: file)
        let restored = await second.start()
        #expect(
            Array(restored.prefix(3)) == [
                "FlowKit demo: the app is a tree of FlowControllers. Type 'help' for help.",
                "Restored the state saved in \(file.path): Alice is signed in.",
                "",
            ])
        #expect(
            restored.contains(
                "+-- Rate this book -----------------------------------------------------"))
        #expect(second.prompt == prompt)
        #expect(second.runtime.treeDescription() == tree)
        #expect(
            tree == """
                * app
                  * main
                    * tabs
                        catalog
                          books
                            list
                          book
                            detail
                      * favourites
                          list
                        * detail
                          * ^rate
                        profile
                """)
        let session = try #require(Self.session(of: second))
        #expect(session.account.username == "alice")
        #expect(session.favouriteBookIDs == [10])
        #expect(session.ratings == [10: 4])
        #expect(session.viewedBookIDs == [10])
        #expect(
            (second.runtime.node(at: "app/main/tabs") as? MainTabs)?.selectedTab?.name
                == "favourites")

        // The restored sheet is awaited: a rating reaches the session and dismisses it.
        let rated = await second.run("stars 2")
        #expect(rated.first == "You gave A Christmas Carol 2 of 5 stars.")
        #expect(session.ratings == [10: 2])
        #expect(second.prompt == "app/main/tabs/favourites/detail> ")
        // The catalog tab kept its stack, and its list its page.
        _ = await second.run("tab catalog")
        #expect(second.prompt == "app/main/tabs/catalog/book/detail> ")
        let list = await second.run("back")
        #expect(list.contains("| Page 2 of 8"))
        _ = await second.quit()
        #expect(second.liveNodes.alive == 0)
    }

    @Test("A restored sheet closed by the platform cancels the rating, as a run's would")
    func restoredSheetClosed() async throws {
        let file = try Self.temporaryStateFile()
        try await Self.save(["login bob builder", "select 2", "rate"], in: file)
        let app = try Self.makeApp(file: file)
        _ = await app.start()
        weak let sheet = app.runtime.node(at: "app/main/tabs/catalog/book/detail/rate")
        #expect(sheet != nil)

        let closed = await app.run("close")

        #expect(closed.first == "Rating cancelled: the sheet was closed without a rating.")
        #expect(sheet == nil)
        #expect(Self.session(of: app)?.ratings == [:])
        _ = await app.run("rate")  // a new sheet, shown by run
        #expect(await app.run("stars 5").first == "You gave Emma 5 of 5 stars.")
        _ = await app.quit()
        #expect(app.liveNodes.alive == 0)
    }

    @Test("Quitting at the login screen restores the login screen, and signing in still works")
    func restoredLoginFlow() async throws {
        let file = try Self.temporaryStateFile()
        try await Self.save(["login bob nope"], in: file)
        let app = try Self.makeApp(file: file)
        let start = await app.start()
        #expect(start.contains("Restored the state saved in \(file.path) (nobody is signed in)."))
        #expect(app.prompt == "app/login/form> ")

        let signedIn = await app.run("login bob builder")

        #expect(signedIn.first == "Signed in as Bob: the app root shows the main flow.")
        #expect(app.prompt == "app/main/tabs/catalog/books/list> ")
        _ = await app.run("logout")
        #expect(app.liveNodes.alive == 3)
        _ = await app.quit()
        #expect(app.liveNodes.alive == 0)
    }

    // MARK: What is saved

    @Test("The file is readable JSON with the username and never the password")
    func noPassword() async throws {
        for account in Account.shipped {
            let file = try Self.temporaryStateFile()
            try await Self.save(
                ["login \(account.username) \(account.password)", "select 3", "fav"], in: file)
            let text = try String(contentsOf: file.url, encoding: .utf8)

            #expect(!text.contains(account.password))
            #expect(text.contains("\"username\" : \"\(account.username)\""))
            #expect(text.contains("\n  \"v\" : 2\n"))  // pretty-printed
            let keys = text.split(separator: "\n").filter { $0.contains("\" : ") }
            #expect(!keys.isEmpty)
        }
    }

    @Test("The end of input saves, as quit does; so does an interrupt")
    func endOfInputSaves() async throws {
        let file = try Self.temporaryStateFile()
        let app = try Self.makeApp(file: file)

        let lines = await app.transcript(of: ["login alice wonderland", "select 7"])

        #expect(
            lines.suffix(4) == [
                "(end of input)",
                "Saved the state to \(file.path): flowdemo --state \(file.path) starts here.",
                "Quitting: the runtime stops and every node exits, innermost first.",
                "FlowController instances still alive: 0 (13 created in this run).",
            ])
        let snapshot = try JSONDecoder().decode(FlowSnapshot.self, from: Data(contentsOf: file.url))
        #expect(snapshot.version == FlowSnapshot.formatVersion)

        let interrupted = try Self.makeApp(file: file)
        _ = await interrupted.start()
        #expect(interrupted.prompt == "app/main/tabs/catalog/book/detail> ")
        _ = await interrupted.run("back")
        let output = await interrupted.interrupt()
        #expect(
            output.contains(
                "Saved the state to \(file.path): flowdemo --state \(file.path) starts here."))
        let again = try Self.makeApp(file: file)
        _ = await again.start()
        #expect(again.prompt == "app/main/tabs/catalog/books/list> ")
        _ = await again.quit()
    }

    @Test("The piped runner saves at the end of its input")
    func runnerSavesAtEndOfInput() async throws {
        let file = try Self.temporaryStateFile()
        let app = try Self.makeApp(file: file)
        var output = ""
        let runner = DemoRunner(app: app, terminal: .plain, write: { output += $0 })

        await runner.run(ScriptedInput([.text("login alice wonderland\nselect 4\n"), .endOfInput]))

        #expect(output.contains("Saved the state to \(file.path)"))
        let next = try Self.makeApp(file: file)
        _ = await next.start()
        #expect(next.prompt == "app/main/tabs/catalog/book/detail> ")
        _ = await next.quit()
    }

    // MARK: Files that do not restore

    /// A damaged copy of a saved file, and what the message must say.
    struct Damage: CustomStringConvertible, Sendable {
        var name: String
        var damage: @Sendable (String) -> String
        var reason: String

        var description: String { name }
    }

    nonisolated static let damages: [Damage] = [
        Damage(
            name: "truncated", damage: { String($0.prefix(200)) },
            reason: "it is not JSON (The given data was not valid JSON)"),
        Damage(
            name: "not JSON", damage: { _ in "login alice wonderland\n" },
            reason: "it is not JSON (The given data was not valid JSON)"),
        Damage(
            name: "empty", damage: { _ in "" },
            reason: "it is not JSON (The given data was not valid JSON)"),
        Damage(
            name: "wrong shape", damage: { _ in "[1, 2, 3]" },
            reason:
                "it is not a saved state: Expected to decode Dictionary<String, Any> but found an "
                + "array instead at the top level"),
        Damage(
            name: "no version",
            damage: { _ in "{\"root\": {\"name\": \"app\", \"kind\": \"switch\"}}" },
            reason: "it is not a saved state: 'version' is missing at the top level"),
        Damage(
            name: "wrong version",
            damage: { $0.replacingOccurrences(of: "\"v\" : 2", with: "\"v\" : 3") },
            reason: "the snapshot has format version 3; this FlowKit reads versions 1 to 2"),
        // A route of an unknown type costs its node (StateFileUpdateTests); with every catalog
        // route unknown, the favourites stack has no entry left and no default to build.
        Damage(
            name: "unknown route type",
            damage: { $0.replacingOccurrences(of: "FlowDemo.CatalogRoute", with: "Other.Route") },
            reason:
                "the snapshot does not fit the app at 'app/main/tabs/favourites': none of the "
                + "stack's entries was restored and it has no history or initial route to build "
                + "one from"),
        Damage(
            name: "nonexistent book",
            damage: {
                $0.replacingOccurrences(of: "\"id\" : 10", with: "\"id\" : 999")
                    .replacingOccurrences(
                        of: "\"favouriteBookIDs\" : [\n            10",
                        with: "\"favouriteBookIDs\" : [\n            11")
            },
            reason:
                "cannot build 'app/main/tabs/catalog/book/detail': the factory for route "
                + "detail(id: 999) on 'app/main/tabs/catalog/book' failed: the catalog has no book "
                + "999"),
        Damage(
            name: "unknown user",
            damage: { $0.replacingOccurrences(of: "\"alice\"", with: "\"mallory\"") },
            reason:
                "the saved state of 'app/main' was rejected: no account has the username "
                + "'mallory'"),
        Damage(
            name: "favourite that is gone",
            damage: {
                $0.replacingOccurrences(
                    of: "\"favouriteBookIDs\" : [\n            10",
                    with: "\"favouriteBookIDs\" : [\n            640")
            },
            reason: "the saved state of 'app/main' was rejected: the catalog has no book 640"),
        Damage(
            name: "rating out of range",
            damage: { $0.replacingOccurrences(of: "\"stars\" : 4", with: "\"stars\" : 40") },
            reason:
                "the saved state of 'app/main' was rejected: book 10 has 40 stars; a rating is "
                + "from 1 to 5"),
        Damage(
            name: "tab out of range",
            damage: {
                $0.replacingOccurrences(of: "\"i\" : 1", with: "\"i\" : 7")
            },
            reason: "the snapshot is impossible at 'app/main/tabs': "),
        Damage(
            name: "another app",
            damage: {
                $0.replacingOccurrences(of: "\"n\" : \"app\"", with: "\"n\" : \"shop\"")
            },
            reason: "the snapshot does not fit the app at 'app': "),
        Damage(
            name: "escape sequences",
            damage: {
                $0.replacingOccurrences(
                    of: "\"r\" : \"main\"",
                    with: "\"r\" : \"m\\u001b[2J\\u001b]0;x\\u0007ain\"")
            },
            reason: "cannot build 'app/main': 'app' has no factory for route main;"),
    ]

    @Test("A damaged or foreign file: one line saying why, and a fresh start", arguments: damages)
    func damagedFile(_ damage: Damage) async throws {
        let text = try await Self.savedText()
        let damaged = damage.damage(text)
        #expect(damaged != text)
        let file = try Self.temporaryStateFile()
        try Data(damaged.utf8).write(to: file.url)
        let app = try Self.makeApp(file: file)

        let start = await app.start()

        let message = try #require(start.dropFirst().first)
        #expect(message.hasPrefix("Could not restore state from \(file.path): \(damage.reason)"))
        #expect(message.hasSuffix("; starting fresh."))
        #expect(!message.contains("\u{1B}") && !message.contains("\u{7}"))
        #expect(Array(start.dropFirst(2)) == [""] + lines(loginPanel))
        #expect(app.runtime.treeDescription() == "* app\n  * login\n    * form")
        #expect(app.liveNodes.alive == 3)  // what a restoration built is gone
        #expect(
            await app.run("login alice wonderland").first?.hasPrefix("Signed in as Alice") == true)
        #expect(Self.session(of: app)?.favouriteBookIDs == [])
        _ = await app.quit()
        #expect(app.liveNodes.alive == 0)
    }

    @Test("A file that held no saved state is not overwritten at quit; a stale one is")
    func foreignFileKept() async throws {
        let file = try Self.temporaryStateFile()
        try Data("my notes\n".utf8).write(to: file.url)
        let app = try Self.makeApp(file: file)
        _ = await app.start()
        _ = await app.run("login alice wonderland")
        let quit = await app.run("quit")
        #expect(
            quit.first
                == "Not saving the state to \(file.path): it held no saved state at start, so it "
                + "is left as it was.")
        #expect(try String(contentsOf: file.url, encoding: .utf8) == "my notes\n")

        let stale = try await Self.savedText().replacingOccurrences(
            of: "\"v\" : 2", with: "\"v\" : 3")
        try Data(stale.utf8).write(to: file.url)
        let next = try Self.makeApp(file: file)
        _ = await next.start()
        _ = await next.quit()
        let saved = try JSONDecoder().decode(FlowSnapshot.self, from: Data(contentsOf: file.url))
        #expect(saved.version == FlowSnapshot.formatVersion)
    }

    @Test("A directory, a file too large: refused with a reason")
    func unusableFiles() async throws {
        let directory = try Self.temporaryStateFile(named: "dir")
        try FileManager.default.createDirectory(
            at: directory.url, withIntermediateDirectories: true)
        let app = try Self.makeApp(file: directory)
        let start = await app.start()
        #expect(
            start.contains(
                "Could not restore state from \(directory.path): it is a directory, not a file; "
                    + "starting fresh."))
        _ = await app.quit()

        let large = try Self.temporaryStateFile()
        try Data(repeating: 0x20, count: DemoStateFile.maximumSize + 1).write(to: large.url)
        let big = try Self.makeApp(file: large)
        let output = await big.start()
        #expect(
            output.contains(
                "Could not restore state from \(large.path): it is larger than 1000000 bytes; a "
                    + "saved state is a few kilobytes; starting fresh."))
        _ = await big.quit()
    }

    @Test("A guard that refuses a saved node: one line says so, and the rest is restored")
    func skippedNodes() async throws {
        let text = try await Self.savedText()
        // Without its saved session, the main flow's guard sends the user to sign in.
        var json = try #require(
            try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        var root = try #require(json["r"] as? [String: Any])
        var children = try #require(root["c"] as? [[String: Any]])
        children[0]["s"] = nil
        root["c"] = children
        json["r"] = root
        let file = try Self.temporaryStateFile()
        try JSONSerialization.data(withJSONObject: json).write(to: file.url)
        let app = try Self.makeApp(file: file)

        let start = await app.start()

        #expect(
            Array(start.prefix(4)) == [
                "FlowKit demo: the app is a tree of FlowControllers. Type 'help' for help.",
                "Restored the state saved in \(file.path) (nobody is signed in).",
                "Not restored: app/main: redirected to login.",
                "",
            ])
        #expect(app.prompt == "app/login/form> ")
        #expect(app.liveNodes.alive == 3)
        _ = await app.quit()
        #expect(app.liveNodes.alive == 0)
    }

    // MARK: Saving fails

    @Test("A file that cannot be written: a message at quit, and the teardown as usual")
    func unwritableFile() async throws {
        let missingDirectory = try Self.temporaryStateFile().url.deletingLastPathComponent()
            .appendingPathComponent("missing/state.json").path
        let app = try Self.makeApp(file: DemoStateFile(path: missingDirectory))
        _ = await app.start()
        _ = await app.run("login alice wonderland")

        let quit = await app.run("quit")

        #expect(
            quit == [
                "Could not save the state to \(missingDirectory): no such file or directory.",
                "Quitting: the runtime stops and every node exits, innermost first.",
                "FlowController instances still alive: 0 (12 created in this run).",
            ])
    }

    // MARK: Teardown after a restored start

    @Test("Signing out after a restored start releases the main flow, its tabs and the session")
    func signOutAfterRestore() async throws {
        let file = try Self.temporaryStateFile()
        try await Self.save(Self.firstRun, in: file)
        let app = try Self.makeApp(file: file)
        _ = await app.start()
        weak let main = app.runtime.node(at: "app/main")
        weak let tabs = app.runtime.node(at: "app/main/tabs")
        weak let catalogDetail = app.runtime.node(at: "app/main/tabs/catalog/book/detail")
        weak let favouriteDetail = app.runtime.node(at: "app/main/tabs/favourites/detail")
        weak let sheet = app.runtime.node(at: "app/main/tabs/favourites/detail/rate")
        weak let session = Self.session(of: app)
        #expect(main != nil && tabs != nil && catalogDetail != nil && favouriteDetail != nil)
        #expect(sheet != nil && session != nil)
        #expect(app.liveNodes.alive == 13)

        _ = await app.run("close")
        let output = await app.run("logout")

        #expect(
            Array(output.prefix(2)) == [
                "Alice signed out: the app root tore the main flow down and shows a new login flow.",
                "The session is gone (checked with a weak reference).",
            ])
        #expect(main == nil && tabs == nil && catalogDetail == nil && favouriteDetail == nil)
        #expect(sheet == nil && session == nil)
        #expect(app.liveNodes.alive == 3)
        #expect(app.runtime.treeDescription() == "* app\n  * login\n    * form")
        // The loop goes on: sign in again, and quit releases everything.
        _ = await app.run("login bob builder")
        #expect(app.prompt == "app/main/tabs/catalog/books/list> ")
        _ = await app.quit()
        #expect(app.liveNodes.alive == 0)
    }

    @Test("Quitting a restored start releases everything, the awaited sheet included")
    func quitAfterRestore() async throws {
        let file = try Self.temporaryStateFile()
        try await Self.save(Self.firstRun, in: file)
        let app = try Self.makeApp(file: file)
        _ = await app.start()
        weak let root = app.runtime.root
        #expect(app.runtime.node(at: "app")?.runningTaskCount == 1)

        let output = await app.quit()

        #expect(output.last == "FlowController instances still alive: 0 (13 created in this run).")
        #expect(root == nil)
    }

    // MARK: Options and the walkthrough

    @Test("--state FILE and --state=FILE are parsed; a missing or repeated one is refused")
    func options() throws {
        #expect(try DemoOptions(arguments: ["--state", "s.json"]).stateFile == "s.json")
        #expect(try DemoOptions(arguments: ["--state=s.json"]).stateFile == "s.json")
        #expect(try DemoOptions(arguments: []).stateFile == nil)
        #expect(throws: DemoOptionsError.missingFile("--state")) {
            try DemoOptions(arguments: ["--state"])
        }
        #expect(throws: DemoOptionsError.missingFile("--state")) {
            try DemoOptions(arguments: ["--state", "--help"])
        }
        #expect(throws: DemoOptionsError.missingFile("--state")) {
            try DemoOptions(arguments: ["--state="])
        }
        #expect(throws: DemoOptionsError.repeatedOption("--state")) {
            try DemoOptions(arguments: ["--state", "a", "--state", "b"])
        }
        #expect(
            DemoOptionsError.missingFile("--state").description
                == "flowdemo: --state needs a file name (--state FILE); see swift run flowdemo --help"
        )
        #expect(DemoOptions.helpText.contains("--state FILE"))
    }

    @Test("The walkthrough neither restores nor saves the state file")
    func walkthroughIgnoresStateFile() async throws {
        let file = try Self.temporaryStateFile()
        let app = try Self.makeApp(file: file)

        let lines = await app.walkthrough()

        #expect(lines[1] == "(The walkthrough neither restores nor saves \(file.path).)")
        #expect(
            Array(lines.dropFirst(2))
                == Array(
                    expectedWalkthrough.split(separator: "\n", omittingEmptySubsequences: false)
                        .map(String.init).dropFirst()))
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    // MARK: The binary

    @Test("The built flowdemo run twice with --state starts the second run where the first ended")
    func binaryRoundTrip() throws {
        let file = try Self.temporaryStateFile()
        let first = try runFlowdemo(
            stdin:
                "login alice wonderland\nfilter dickens\nselect 2\nfav\ntab profile\ntab favourites\nselect 1\n",
            arguments: ["--state", file.path])
        #expect(first.status == 0)
        #expect(first.stderr == "")
        #expect(
            first.stdout.contains(
                "No saved state in \(file.path) yet: a fresh start; quit saves it there.\n"))
        #expect(
            first.stdout.contains(
                "(end of input)\nSaved the state to \(file.path): flowdemo --state \(file.path) starts here.\n"
            ))
        #expect(!(try String(contentsOf: file.url, encoding: .utf8)).contains("wonderland"))

        let second = try runFlowdemo(
            stdin: "tree\ntab catalog\nback\nquit\n", arguments: ["--state=\(file.path)"])

        #expect(second.status == 0)
        #expect(second.stderr == "")
        let output = second.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init).filter { !$0.hasPrefix("|") && !$0.hasPrefix("+--") }
        #expect(
            output == [
                "FlowKit demo: the app is a tree of FlowControllers. Type 'help' for help.",
                "Restored the state saved in \(file.path): Alice is signed in.",
                "",
                "> tree",
                "* app",
                "  * main",
                "    * tabs",
                "        catalog",
                "          books",
                "            list",
                "          book",
                "            detail",
                "      * favourites",
                "          list",
                "        * detail",
                "        profile",
                "FlowController instances alive: 12 (12 in the tree; * marks the focused path)",
                "Split catalog: collapsed (80 columns, under 100): one stack (list, detail), only "
                    + "its top active; focus in book.",
                "> tab catalog",
                "Catalog selected: nothing exited or entered; Favourites keeps its stack: list, detail.",
                "> back",
                "> quit",
                "Saved the state to \(file.path): flowdemo --state \(file.path) starts here.",
                "Quitting: the runtime stops and every node exits, innermost first.",
                "FlowController instances still alive: 0 (12 created in this run).",
                "",
            ])
        // The catalog's list kept its filter: the panel after `back` shows it.
        #expect(second.stdout.contains("| Filter: \"dickens\" (6 of 64 books)"))
    }
}
