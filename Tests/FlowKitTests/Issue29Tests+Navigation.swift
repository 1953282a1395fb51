import FlowKitTesting
import Testing

@testable import FlowKit

/// A flow that signs in: it finishes with the user's name.
@MainActor
private final class SignIn: FlowController, ResultFlow {
    typealias Result = String
    init() { super.init(name: "login", route: "login") }
}

/// An event a handler answers with two navigations in one turn.
private struct TwoLinks: FlowEvent {}

@MainActor
@Suite("Issue 29: navigation, results, intents")
struct Issue29NavigationTests {
    // MARK: 29.12

    @Test(
        "No navigation builds or removes tabs: a root step, reentering and a history restore throw tabsAreFixed",
        .bug(
            id: "29.12",
            "a root step, reentering or history restore at a FlowTabs replaced its tabs"))
    func navigationCannotReplaceTabs() throws {
        let app = try TabbedApp()
        let tabs = app.tabs.tabs.map(ObjectIdentifier.init)
        var built = 0
        app.tabs.register("c") {
            built += 1
            return FlowController(name: "c", route: "c")
        }
        let fixed = FlowError.tabsAreFixed(container: "app")
        // A new node: the root step used to make it the only tab.
        #expect(throws: fixed) { try app.runtime.navigate(to: [.root("c")]) }
        // A tab's own route: the root step used to keep it and remove the other tabs.
        #expect(throws: fixed) { try app.runtime.navigate(to: [.root("catalog")]) }
        #expect(throws: fixed) { try app.tabs.navigate(to: [.root("favourites"), .root("x")]) }
        // Reentering used to remove every tab (and build what the path names).
        #expect(throws: fixed) { try app.tabs.navigate(to: [FlowRoute](), reentering: true) }
        #expect(throws: fixed) { try app.tabs.navigate(to: ["favourites"], reentering: true) }
        // A kept tab container given its history anew lost its tabs the same way.
        #expect(throws: fixed) { try app.runtime.navigate(to: [FlowRoute](), history: .shallow) }
        #expect(throws: fixed) {
            try app.runtime.navigate(to: [FlowRoute](), history: .deep, historyDefault: "c")
        }
        // A child step that names no tab selects nothing and builds nothing.
        #expect(throws: FlowError.unknownRoute(route: "c", node: "app")) {
            try app.runtime.navigate(to: ["c"])
        }
        #expect(built == 0)
        #expect(app.tabs.tabs.map(ObjectIdentifier.init) == tabs)
        #expect(app.tabs.selectedIndex == 0)
        #expect(app.journal.entries.isEmpty)
        #expect(app.host.changes.isEmpty)
        #expect(app.runtime.activationIsConsistent)
        // A child step that names a tab selects it; a root step inside the tab still replaces
        // what the tab shows.
        app.favourites.register("other") { LoggingNode("other", route: "other") }
        try app.runtime.navigate(to: [.child("favourites"), .root("other")])
        #expect(app.tabs.selectedIndex == 1)
        #expect(app.favourites.entries.map(\.name) == ["other"])
        #expect(app.tabs.tabs.map(ObjectIdentifier.init) == tabs)
    }

    @Test(
        "A tab container a navigation builds keeps the tabs its factory gave it",
        .bug(id: "29.12", "a root step at a tab container built in the same path replaced its tabs")
    )
    func newTabContainerKeepsItsTabs() throws {
        let app = FlowSwitch(name: "app", initial: FlowController(name: "home", route: "home"))
        app.register("tabs") {
            let tabs = FlowTabs(
                name: "tabs", route: "tabs",
                tabs: [
                    FlowController(name: "a", route: "a"), FlowController(name: "b", route: "b"),
                ])
            tabs.register("c") { FlowController(name: "c", route: "c") }
            return tabs
        }
        let host = RecordingFlowHost()
        let runtime = try FlowRuntime(root: app, host: host)
        try runtime.start()
        host.removeAll()
        #expect(throws: FlowError.tabsAreFixed(container: "app/tabs")) {
            try runtime.navigate(to: [.child("tabs"), .root("c")])
        }
        #expect(app.current?.name == "home")
        #expect(host.changes.isEmpty)
        try runtime.navigate(to: ["tabs", "b"])
        #expect((app.current as? FlowTabs)?.tabs.map(\.name) == ["a", "b"])
        #expect(runtime.focusedPath.map(\.path) == ["app", "app/tabs", "app/tabs/b"])
    }

    // MARK: 29.15

    @Test(
        "A runtime released while a task awaits result(of:) frees itself and the wait ends with flowCancelled",
        .bug(
            id: "29.15",
            "a task awaiting result(of:) kept a released runtime alive, waiting forever"))
    func releasedRuntimeEndsResultOf() async throws {
        weak var weakRuntime: FlowRuntime?
        let bag = WeakBag()
        let task: Task<Int, any Error>
        let ranTask: Task<Int, any Error>
        do {
            let list = FlowController(name: "list")
            let stack = FlowStack(name: "stack", root: list)
            let app = FlowSwitch(name: "app", initial: stack)
            let runtime = try FlowRuntime(root: app)
            try runtime.start()
            weakRuntime = runtime
            let picker = Picker()
            try list.present(picker)
            bag.track(picker, "picker")
            bag.track(list, "list")
            task = Task { try await list.result(of: picker) }
            await waitUntil { picker._extras?.resultWaiter != nil }
            // `run` in the same place, for comparison.
            ranTask = Task { try await picker.run(Picker("second"), .present) }
            await waitUntil { picker.presentedChild != nil }
            #expect(picker.presentedChild?.name == "second")
        }
        // The app's only reference is gone: the runtime stops itself and frees everything.
        await waitUntil { weakRuntime == nil }
        #expect(weakRuntime == nil)
        if weakRuntime != nil {
            // Kept alive, it would wait forever: end the test's waits.
            task.cancel()
            ranTask.cancel()
        }
        let ran = await failure(of: ranTask)
        #expect(ran as? FlowError == .flowCancelled(flow: "app/stack/list/picker/second"))
        let awaited = await failure(of: task)
        #expect(awaited as? FlowError == .flowCancelled(flow: "app/stack/list/picker"))
        await waitUntil { bag.alive.isEmpty }
        #expect(bag.alive.isEmpty)
    }

    // MARK: 29.18

    /// `root` ─ `f0` ─ `c` ─ `d` ─ `d0`, started; `d` builds `x`, `c` builds `y`, `f0`
    /// builds `a`. Every node logs its hooks; `bag` tracks every node.
    private func nestedTree(
        journal: Journal, bag: WeakBag
    ) throws -> (runtime: FlowRuntime, host: RecordingFlowHost, root: FlowController) {
        func make(_ name: String) -> LoggingNode {
            let node = LoggingNode(name, route: FlowRoute(name), journal: journal)
            // A handler that captures its node: only a discard (or an exit) releases it.
            node.on(Ping.self) { _ in
                _ = node
                return .forward
            }
            bag.track(node, name)
            return node
        }
        let root = LoggingNode("root", journal: journal)
        let f0 = make("f0")
        let c = make("c")
        let d = make("d")
        try root.embed(f0)
        try f0.embed(c)
        try c.embed(d)
        try d.embed(make("d0"))
        d.register("x") { make("x") }
        c.register("y") { make("y") }
        f0.register("a") { make("a") }
        let host = RecordingFlowHost()
        let runtime = try FlowRuntime(root: root, host: host)
        try runtime.start()
        journal.entries.removeAll()
        host.removeAll()
        return (runtime, host, root)
    }

    @Test(
        "navigate(toEach:): a node built into a container a later path removes never enters, at any depth",
        .bug(
            id: "29.18",
            "a node built into a container a later path removed entered and never exited"),
        arguments: [
            // x into d, two levels below the removed c
            [FlowStep.child("f0"), .child("c"), .child("d"), .root("x")],
            // y into c itself, the removed container
            [FlowStep.child("f0"), .child("c"), .root("y")],
        ])
    func laterPathRemovesTheContainer(first: [FlowStep]) throws {
        let journal = Journal()
        let bag = WeakBag()
        let (runtime, host, root) = try nestedTree(journal: journal, bag: bag)
        try root.navigate(toEach: [first, [.child("f0"), .root("a")]])
        // The removed subtree exits once, innermost first; the built node neither enters nor
        // exits; then a enters.
        #expect(
            journal.entries == [
                "exit d0", "exit d", "exit c", "enter a", "active a",
            ])
        #expect(root.children.first?.children.map(\.name) == ["a"])
        #expect(runtime.activationIsConsistent)
        #expect(host.changes.count == 1)
        #expect(host.changes.first?.exited == ["root/f0/c"])
        #expect(host.changes.first?.entered == ["root/f0/a"])
        #expect(bag.alive == ["f0", "a"])
    }

    @Test(
        "navigate(toEach:): a later path that builds into a container an earlier one removed builds nothing that enters",
        .bug(
            id: "29.18",
            "a node built into a container an earlier path removed entered and never exited"),
        arguments: [false, true])
    func earlierPathRemovesTheContainer(restoringHistory: Bool) throws {
        let journal = Journal()
        let bag = WeakBag()
        let (runtime, host, root) = try nestedTree(journal: journal, bag: bag)
        let f0 = try #require(root.children.first)
        do {
            let d = try #require(f0.children.first?.children.first)
            // The later path replaces d0 with x: by a root step, or by a history restore of d
            // (no record: its default, x).
            let later =
                restoringHistory
                ? FlowNavigationTarget(from: d, to: [], history: .shallow, historyDefault: "x")
                : FlowNavigationTarget(from: d, to: [.root("x")])
            try runtime.navigate(toEach: [
                FlowNavigationTarget(from: f0, to: [.root("a")]), later,
            ])
        }
        #expect(
            journal.entries == [
                "exit d0", "exit d", "exit c", "enter a", "active a",
            ])
        #expect(f0.children.map(\.name) == ["a"])
        #expect(runtime.activationIsConsistent)
        #expect(host.changes.count == 1)
        #expect(bag.alive == ["f0", "a"])
    }

    // MARK: 29.19

    @Test(
        "Two changes redirected in one turn: the first one's failed redirect keeps the second's intent",
        .bug(id: "29.19", "a failed redirect dropped a newer intent whose own redirect succeeded"))
    func failedRedirectKeepsANewerIntent() throws {
        var signedIn = false
        let app = FlowSwitch(name: "app", initial: FlowController(name: "home", route: "home"))
        app.register("home") { FlowController(name: "home", route: "home") }
        app.register("login") { SignIn() }
        app.register("orders") {
            let node = FlowController(name: "orders", route: "orders")
            // Its redirect cannot be performed: no factory builds the route.
            node.entryGuard = { signedIn ? .allow : .redirect(to: [.child("nowhere")]) }
            return node
        }
        app.register("account") {
            let node = FlowController(name: "account", route: "account")
            node.entryGuard = { signedIn ? .allow : .redirect(to: [.child("login")]) }
            return node
        }
        app.on(FlowFinished<String>.self) { _ in
            signedIn = true
            try app.switch(to: "home")  // the app moves on: the intent is replayed
            return .handled
        }
        let runtime = try FlowRuntime(root: app)
        var failures: [String] = []
        runtime.onError = { failures.append("\($0.kind): \($0.error)") }
        try runtime.start()
        let home = try #require(app.current)
        // Both navigations are refused in one turn, before either redirect has run.
        home.on(TwoLinks.self) { _ in
            #expect(throws: FlowError.redirected(node: "app/orders", to: "nowhere")) {
                try runtime.navigate(to: ["orders"])
            }
            #expect(throws: FlowError.redirected(node: "app/account", to: "login")) {
                try runtime.navigate(to: ["account"])
            }
            return .handled
        }
        home.send(TwoLinks())
        // The first redirect failed (its intent had already been replaced); the second one
        // showed the sign-in flow, and its intent waits for it.
        #expect(failures.count == 1)
        #expect(
            failures == ["redirect: \(FlowError.unknownRoute(route: "nowhere", node: "app"))"])
        let login = try #require(app.current as? SignIn)
        #expect(runtime.redirectedIntent?.description == "navigate app to account")
        #expect(
            runtime.trace.lines.filter { $0.hasPrefix("intent ") } == [
                "intent kept navigate app to orders (app/orders redirected to nowhere)",
                "intent replaced navigate app to orders (a newer change was redirected)",
                "intent kept navigate app to account (app/account redirected to login)",
            ])
        login.finish(with: "ada")
        #expect(runtime.redirectedIntent == nil)
        #expect(runtime.focusedPath.map(\.path) == ["app", "app/account"])
        #expect(
            runtime.trace.lines.last { $0.hasPrefix("intent ") }
                == "intent replayed navigate app to account (app/login finished)")
    }
}
