import Testing

@testable import FlowDemo

/// `open <link>` and the `about` global route in the demo.
@MainActor
@Suite("Demo deep links and the about screen")
struct DeepLinkDemoTests {
    /// The message lines of `lines` (no panel).
    func messages(_ lines: [String]) -> [String] {
        lines.filter { !$0.hasPrefix("|") && !$0.hasPrefix("+--") }
    }

    @Test("Logged out, a link leads to sign-in; a wrong password keeps it; signing in opens it")
    func linkWaitsForSignIn() async throws {
        let app = try makeApp()
        _ = await app.start()
        #expect(
            messages(await app.run("open flowdemo://books/12")) == [
                "Sign in first: flowdemo://books/12 opens once you have signed in."
            ])
        #expect(app.runtime.focusedNode?.path == "app/login/form")
        _ = await app.run("login alice nope")
        #expect(app.runtime.redirectedIntent?.description.contains("detail(id: 12)") == true)
        let signedIn = messages(await app.run("login alice wonderland"))
        #expect(signedIn.contains("Signed in: carrying on to the link opened before."))
        #expect(app.runtime.focusedNode?.path == "app/main/tabs/catalog/book/detail")
        #expect((app.runtime.focusedNode as? DetailScreen)?.book.id == 12)
        #expect(app.runtime.node(at: "app/main/tabs/catalog")?.children.count == 2)  // list, detail
    }

    @Test("A second link while signing in replaces the first")
    func secondLinkReplaces() async throws {
        let app = try makeApp()
        _ = await app.start()
        _ = await app.run("open flowdemo://books/12")
        let second = messages(await app.run("open flowdemo://books/3"))
        #expect(second.contains("The link opened before is replaced by the new one."))
        _ = await app.run("login bob builder")
        #expect((app.runtime.focusedNode as? DetailScreen)?.book.id == 3)
    }

    @Test("Signed in, a link opens from any screen, in one change")
    func linkFromAnyScreen() async throws {
        let app = try makeApp()
        _ = await app.start()
        _ = await app.run("login alice wonderland")
        #expect(
            messages(await app.run("open flowdemo://books/5")) == ["Opened flowdemo://books/5."])
        #expect((app.runtime.focusedNode as? DetailScreen)?.book.id == 5)
        _ = await app.run("rate")  // a sheet over the detail
        _ = await app.run("open flowdemo://books/9")  // from the sheet: dismissed, detail replaced
        #expect((app.runtime.focusedNode as? DetailScreen)?.book.id == 9)
        _ = await app.run("open flowdemo://books")
        #expect(app.runtime.focusedNode?.path == "app/main/tabs/catalog/books/list")
        _ = await app.run("quit")
        #expect(app.liveNodes.alive == 0)
    }

    @Test(
        "A bad link explains itself and changes nothing",
        arguments: [
            ("flowdemo://books/99", "the link's id '99' is not valid: out of range 1...64"),
            ("flowdemo://books/abc", "the link's id 'abc' is not valid: not a number"),
            ("http://books/1", "links of scheme 'http' are not handled here"),
            ("flowdemo://authors/1", "no link matches /authors/1"),
            ("flowdemo://books/../1", "the link has an invalid path segment '..' (dot segment)"),
            ("nonsense", "the link has no scheme"),
        ])
    func badLinks(link: String, reason: String) async throws {
        let app = try makeApp()
        _ = await app.start()
        _ = await app.run("login alice wonderland")
        let before = app.runtime.treeDescription()
        #expect(messages(await app.run("open \(link)")) == ["Cannot open \(link): \(reason)."])
        #expect(app.runtime.treeDescription() == before)
        #expect(app.runtime.redirectedIntent == nil)
    }

    @Test("about presents a global route over any screen; close dismisses it; nothing leaks")
    func aboutFromAnyScreen() async throws {
        let app = try makeApp()
        _ = await app.start()
        for setup in [[], ["login alice wonderland"], ["select 2"], ["rate"]] {
            for command in setup { _ = await app.run(command) }
            let under = app.runtime.focusedNode
            _ = await app.run("about")
            #expect(app.runtime.focusedNode?.name == "about")
            #expect(app.runtime.focusedNode?.parent === under)
            _ = await app.run("close")
            #expect(app.runtime.focusedNode === under)
        }
        _ = await app.run("quit")
        #expect(app.liveNodes.alive == 0)
    }
}
