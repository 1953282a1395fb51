import FlowKit
import Foundation
import Testing

@testable import FlowDemo

/// The demo's windows, on FlowKit's scenes: `window new [link]`, `windows`, `window N`,
/// `close`, `reclaim N`, `open` through the app's router, sign-out everywhere, and `--state`
/// with several windows.
@MainActor
@Suite("Windows in the demo")
struct WindowsDemoTests {
    /// A started app, signed in as Alice, with book 3 open in window 1.
    static func signedIn(stateFile: DemoStateFile? = nil) async throws -> DemoApp {
        let app = try DemoApp.shipped(clock: ManualDemoClock(), stateFile: stateFile)
        _ = await app.start()
        _ = await app.run("login alice wonderland")
        _ = await app.run("select 3")
        return app
    }

    /// The focused screen's title in window `id`, or `nil` if it has no tree.
    static func title(in app: DemoApp, window id: FlowSceneID) -> String? {
        (app.windows.scene(id)?.runtime?.focusedNode as? any DemoScreen)?.title
    }

    /// The messages of a command (no panel).
    static func messages(_ app: DemoApp, _ command: String) async -> [String] {
        await app.step(command).lines.map(\.text)
    }

    @Test("A new window with a link builds the link's screens in its own tree; nothing moves")
    func newWindowWithLink() async throws {
        let app = try await Self.signedIn()
        let first = try #require(app.windows.scene("1")?.runtime?.focusedNode?.id)
        #expect(
            await Self.messages(app, "window new flowdemo://books/12") == [
                "Opening flowdemo://books/12 in a new window: it builds the screens from the link's route.",
                "Window 2 opened (Alice is signed in there too, a session of its own).",
            ])
        #expect(app.windows.focusedScene?.id == "2")
        #expect(Self.title(in: app, window: "2") == "Jane Eyre")
        // Window 1 still shows its own book, with the same node.
        #expect(app.windows.scene("1")?.runtime?.focusedNode?.id == first)
        #expect(app.windows.scene("1")?.phase == .background)
        // No node is in two windows' trees.
        let one = Set(try #require(app.windows.scene("1")?.runtime).activeNodes.map(\.id))
        let two = Set(try #require(app.windows.scene("2")?.runtime).activeNodes.map(\.id))
        #expect(one.isDisjoint(with: two))
        _ = await app.quit()
        #expect(app.liveNodes.alive == 0)
    }

    @Test(
        "open: a window that shows the target is brought forward, else the focused one, else the others, else a new one"
    )
    func routing() async throws {
        let app = try await Self.signedIn()
        _ = await app.run("window new flowdemo://books/12")
        _ = await app.run("window 1")
        // 1. A window that shows the target: brought forward.
        #expect(
            await Self.messages(app, "open flowdemo://books/12") == [
                "Opened flowdemo://books/12 in window 2, brought forward: it shows detail(id: 12)."
            ])
        #expect(app.windows.focusedScene?.id == "2")
        // 2. The focused window resolves the route.
        #expect(
            await Self.messages(app, "open flowdemo://books/9") == [
                "Opened flowdemo://books/9 in window 2: the focused scene resolves the route."
            ])
        #expect(Self.title(in: app, window: "2") == "Bleak House")
        // 3. The focused window refuses (an unsaved rating): the next one takes it.
        _ = await app.run("stars 4")
        let refused = await Self.messages(app, "open flowdemo://books/5")
        #expect(refused.count == 2)
        #expect(refused.first?.hasPrefix("Window 2 does not take it: ") == true)
        #expect(
            refused.last
                == "Opened flowdemo://books/5 in window 1, brought forward: an open scene resolves the route."
        )
        #expect(app.windows.focusedScene?.id == "1")
        // 4. Every window refuses: a new window opens for the link.
        _ = await app.run("stars 2")
        let opened = await Self.messages(app, "open flowdemo://books/7")
        #expect(
            opened.suffix(2) == [
                "No window takes flowdemo://books/7: no open scene takes it: opening a scene for extra.",
                "Window 3 opened (Alice is signed in there too, a session of its own).",
            ])
        #expect(app.windows.focusedScene?.id == "3")
        #expect(Self.title(in: app, window: "3") == "Oliver Twist")
        // Each decision is an app trace record that says why.
        let rules = app.windows.trace.records.compactMap { record -> FlowRoutingDecision.Rule? in
            guard case .app(.routed(_, let decision)) = record else { return nil }
            return decision.rule
        }
        #expect(
            rules == [
                .resolvesRoute, .showsTarget, .resolvesRoute, .resolvesRoute, .opensScene,
                .resolvesRoute,
            ])
        _ = await app.quit()
        #expect(app.liveNodes.alive == 0)
    }

    @Test("A reclaimed window's tree is released, and it comes back with its screens")
    func reclaimAndComeBack() async throws {
        let app = try await Self.signedIn()
        _ = await app.run("window new flowdemo://books/12")
        weak let detail = app.windows.scene("2")?.runtime?.focusedNode
        weak let runtime = app.windows.scene("2")?.runtime
        _ = await app.run("window 1")
        let before = try #require(app.windows.scene("2")?.runtime).treeDescription()
        #expect(
            await Self.messages(app, "reclaim 2") == [
                "The system reclaimed window 2: its snapshot is saved, its tree stopped and released; 'window 2' brings it back."
            ])
        #expect(app.windows.scene("2")?.phase == .disconnected)
        await app.settle()
        #expect(detail == nil)
        #expect(runtime == nil)
        #expect(try app.windows.store.snapshot(of: "2") != nil)
        #expect(
            await Self.messages(app, "window 2") == [
                "Window 2 is back with its screens (restored from its snapshot)."
            ])
        #expect(app.windows.focusedScene?.id == "2")
        #expect(app.windows.scene("2")?.runtime?.treeDescription() == before)
        #expect(Self.title(in: app, window: "2") == "Jane Eyre")
        _ = await app.quit()
        #expect(app.liveNodes.alive == 0)
    }

    @Test("logout with several windows signs every window out and closes all but the main one")
    func signOutEverywhere() async throws {
        let app = try await Self.signedIn()
        _ = await app.run("window new")
        _ = await app.run("window new flowdemo://books/12")
        _ = await app.run("window 2")
        _ = await app.run("reclaim 3")
        weak let session = StateFileTests.session(of: app)
        #expect(session != nil)
        #expect(
            await Self.messages(app, "logout") == [
                "Signing out everywhere: the app sends LogoutRequested to windows 1, 2; windows 2, 3 close.",
                "Window 2 closed: its tree stopped, its snapshot is deleted.",
                "Window 3 (reclaimed) is discarded: its snapshot is deleted.",
                "Alice signed out: the app root tore the main flow down and shows a new login flow.",
                "The session is gone (checked with a weak reference).",
            ])
        #expect(app.windows.scenes.map(\.id) == ["1"])
        #expect(app.windows.focusedScene?.id == "1")
        #expect(Self.title(in: app, window: "1") == "Sign in")
        #expect(try app.windows.store.snapshot(of: "2") == nil)
        #expect(try app.windows.store.snapshot(of: "3") == nil)
        #expect(session == nil)
        _ = await app.quit()
        #expect(app.liveNodes.alive == 0)
    }

    @Test("Bad input about windows says why and changes nothing")
    func badInput() async throws {
        let app = try await Self.signedIn()
        _ = await app.run("window new")
        let before = app.windows.scenes.map { "\($0.id) \($0.phase)" }
        let focused = app.runtime.focusedNode?.id
        let cases: [(String, String)] = [
            ("window 9", "No window '9': the windows are 1, 2; nothing changed."),
            ("reclaim 9", "No window '9': the windows are 1, 2; nothing changed."),
            (
                "reclaim 2",
                "Refused: window 2: it is in front; the system reclaims windows in the background."
            ),
            (
                "window",
                "Refused: say which; usage: window new [link], or window <n> (see 'windows')."
            ),
            ("reclaim", "Refused: say which window; usage: reclaim <n>."),
            ("window 2", "Window 2 is already in front."),
            (
                "window new flowdemo://books/99",
                "Cannot open flowdemo://books/99 in a new window: "
            ),
        ]
        for (command, expected) in cases {
            let lines = await Self.messages(app, command)
            #expect(lines.count == 1 && lines[0].hasPrefix(expected), "\(command): \(lines)")
            #expect(app.windows.scenes.map { "\($0.id) \($0.phase)" } == before, "\(command)")
            #expect(app.runtime.focusedNode?.id == focused, "\(command)")
        }
        _ = await app.run("window 1")
        #expect(
            await Self.messages(app, "close") == [
                "Refused: window 1 is the main window and stays open ('quit' ends the demo)."
            ])
        #expect(app.windows.scenes.count == 2)
        _ = await app.quit()
        #expect(app.liveNodes.alive == 0)
    }

    @Test("close closes a secondary window (a sheet first); the main window comes forward")
    func closeWindow() async throws {
        let app = try await Self.signedIn()
        _ = await app.run("window new flowdemo://books/12")
        _ = await app.run("rate")
        #expect(  // the sheet's close button
            await Self.messages(app, "close") == [
                "Rating cancelled: the sheet was closed without a rating."
            ])
        #expect(app.windows.scenes.count == 2)
        weak let runtime = app.windows.scene("2")?.runtime
        #expect(
            await Self.messages(app, "close") == [
                "Window 2 closed: its tree stopped, its snapshot is deleted."
            ])
        #expect(app.windows.scenes.map(\.id) == ["1"])
        #expect(app.windows.focusedScene?.id == "1")
        #expect(runtime == nil)
        #expect(try app.windows.store.snapshot(of: "2") == nil)
        _ = await app.quit()
        #expect(app.liveNodes.alive == 0)
    }

    @Test("--state saves every window (a reclaimed one too) and restores each with the focus")
    func stateFileRestoresEveryWindow() async throws {
        let file = try StateFileTests.temporaryStateFile()
        let app = try await Self.signedIn(stateFile: file)
        _ = await app.run("window new flowdemo://books/12")
        _ = await app.run("window new")
        _ = await app.run("tab profile")
        _ = await app.run("window 1")
        _ = await app.run("reclaim 2")
        let trees = app.windows.scenes.map { $0.runtime?.treeDescription() }
        let saved = try app.windowsState()
        _ = await app.quit()
        #expect(app.liveNodes.alive == 0)
        #expect(saved.windows.map(\.wasReclaimed) == [false, true, false])

        let again = try DemoApp.shipped(clock: ManualDemoClock(), stateFile: file)
        let start = await again.start()
        #expect(
            start.contains("Restored windows 1, 2, 3 saved in \(file.path) (window 1 in front)."))
        #expect(again.windows.scenes.map(\.id) == ["1", "2", "3"])
        #expect(again.windows.focusedScene?.id == "1")
        #expect(again.windows.scenes.allSatisfy { $0.phase.isConnected })
        #expect(again.windows.scene("1")?.runtime?.treeDescription() == trees[0])
        #expect(again.windows.scene("3")?.runtime?.treeDescription() == trees[2])
        #expect(Self.title(in: again, window: "2") == "Jane Eyre")
        #expect(Self.title(in: again, window: "3") == "Profile")
        _ = await again.quit()
        #expect(again.liveNodes.alive == 0)
    }

    @Test("The window bar shows once there are two windows, the focused one in brackets")
    func windowBar() async throws {
        let app = try await Self.signedIn()
        #expect(app.currentPanel()?.windowBar == nil)
        _ = await app.run("window new")
        #expect(app.currentPanel()?.windowBar == "1 Persuasion · [2 Books]")
        #expect(
            app.currentPanel()?.lines.dropFirst().first == "| Windows: 1 Persuasion · [2 Books]")
        _ = await app.run("window 1")
        _ = await app.run("reclaim 2")
        #expect(app.currentPanel()?.windowBar == "[1 Persuasion] · 2 reclaimed")
        #expect(
            app.currentPanel()?.globalCommands == [
                "open", "about", "window", "windows", "reclaim", "tree", "trace", "help", "quit",
            ])
        _ = await app.quit()
    }
}
