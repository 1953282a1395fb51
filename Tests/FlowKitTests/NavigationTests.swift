import FlowKit
import Testing

/// Who signed in: the result a login flow finishes with.
private struct Account: Sendable, Equatable {
    let name: String
}

@MainActor
@Suite("Navigating to a path")
struct NavigationTests {
    /// `app` with two subtrees built from route factories, every node logging into `journal`
    /// and tracked weakly in `bag`:
    ///
    ///     app ─ a ─ a1 ─ a1x | a1y
    ///         │   └ a2
    ///         └ b ─ b1 ─ b1x | b1y
    ///             └ b2
    ///
    /// `a` records its history (`.recorded`); the others do not.
    func makeTree(
        journal: Journal, bag: WeakBag
    ) throws -> (
        FlowRuntime, RecordingFlowHost, FlowController
    ) {
        func node(
            _ name: String, initial: FlowRoute?, children: [String: [String]]
        )
            -> FlowController
        {
            let made = LoggingNode(name, route: FlowRoute(name), journal: journal)
            bag.track(made, name)
            made.initialRoute = initial
            if name == "a" { made.history = .recorded }
            for child in children[name] ?? [] {
                made.register(FlowRoute(child)) {
                    node(
                        child, initial: children[child]?.first.map { FlowRoute($0) },
                        children: children)
                }
            }
            return made
        }
        let shape: [String: [String]] = [
            "a": ["a1", "a2"], "a1": ["a1x", "a1y"], "b": ["b1", "b2"], "b1": ["b1x", "b1y"],
        ]
        let app = FlowController(name: "app")
        app.initialRoute = "a"
        for child in ["a", "b"] {
            app.register(FlowRoute(child)) {
                node(child, initial: shape[child]?.first.map { FlowRoute($0) }, children: shape)
            }
        }
        let host = RecordingFlowHost()
        let runtime = try FlowRuntime(root: app, host: host)
        try runtime.start()
        journal.entries = []
        return (runtime, host, app)
    }

    @Test(
        "Navigating across subtrees exits innermost first, enters outermost first, and frees what exited"
    )
    func acrossSubtrees() throws {
        let journal = Journal()
        let bag = WeakBag()
        let (runtime, host, _) = try makeTree(journal: journal, bag: bag)
        #expect(runtime.focusedRoutes == ["a", "a1", "a1x"])

        try runtime.navigate(to: ["b", "b1", "b1y"])

        #expect(
            journal.entries == [
                "exit a1x", "exit a1", "exit a", "enter b", "enter b1", "enter b1y",
                "active b", "active b1", "active b1y",
            ])
        #expect(host.changes.map(\.description) == ["start +app", "navigate app -app/a +app/b"])
        #expect(runtime.focusedPath.map(\.path) == ["app", "app/b", "app/b/b1", "app/b/b1/b1y"])
        #expect(bag.alive == ["b", "b1", "b1y"])
    }

    @Test("Navigating inside a subtree keeps the common ancestor and everything above it")
    func withinSubtree() throws {
        let journal = Journal()
        let bag = WeakBag()
        let (runtime, host, _) = try makeTree(journal: journal, bag: bag)
        let a = runtime.node(at: "app/a")

        try runtime.navigate(to: ["a", "a2"])

        #expect(journal.entries == ["exit a1x", "exit a1", "enter a2", "active a2"])
        // The change is reported at its domain: the deepest node containing all it touched.
        #expect(host.changes.map(\.description).last == "navigate app/a -app/a/a1 +app/a/a2")
        #expect(runtime.node(at: "app/a") === a)
        #expect(bag.alive == ["a", "a2"])
    }

    @Test("Re-entering from a domain exits everything below it, even nodes on the target path")
    func reentering() throws {
        let journal = Journal()
        let bag = WeakBag()
        let (runtime, _, app) = try makeTree(journal: journal, bag: bag)
        weak let a = runtime.node(at: "app/a")

        try #require(a).navigate(to: ["a1", "a1y"], reentering: true)
        #expect(
            journal.entries == [
                "exit a1x", "exit a1", "enter a1", "enter a1y", "active a1", "active a1y",
            ])
        journal.entries = []

        // An external self-transition of `a`: the domain is its parent.
        try app.navigate(to: ["a"], reentering: true)
        #expect(
            journal.entries == [
                "exit a1y", "exit a1", "exit a", "enter a", "enter a1", "enter a1x",
                "active a", "active a1", "active a1x",
            ])
        #expect(bag.alive == ["a", "a1", "a1x"])
        #expect(a == nil)
    }

    @Test("History restores the recorded path, or the default when nothing is recorded")
    func historyTargets() throws {
        let journal = Journal()
        let bag = WeakBag()
        let (runtime, _, _) = try makeTree(journal: journal, bag: bag)
        try runtime.navigate(to: ["a", "a1", "a1y"])
        try runtime.navigate(to: ["b"])
        #expect(runtime.recordedHistory(at: "app/a") == ["a1", "a1y"])
        try runtime.navigate(to: ["a"], history: .deep)
        #expect(runtime.focusedRoutes == ["a", "a1", "a1y"])

        try runtime.navigate(to: ["b"])
        try runtime.navigate(to: ["a"], history: .shallow)
        #expect(runtime.focusedRoutes == ["a", "a1", "a1x"])

        // `b` records nothing, so its history default is entered.
        try runtime.navigate(to: ["b"], history: .deep, historyDefault: "b2")
        #expect(runtime.focusedRoutes == ["b", "b2"])
        #expect(runtime.recordedHistory(at: "app/b") == nil)
    }

    @Test("An exit guard's refusal changes nothing: tree, host record, trace and journal")
    func exitGuardRefusal() throws {
        let journal = Journal()
        let bag = WeakBag()
        let (runtime, host, _) = try makeTree(journal: journal, bag: bag)
        let leaf = try #require(runtime.node(at: "app/a/a1/a1x"))
        leaf.exitGuard = { .refuse("unsaved edits") }
        let tree = runtime.treeDescription()
        let changes = host.changes
        let trace = runtime.trace.lines

        #expect(throws: FlowError.exitRefused(node: "app/a/a1/a1x", reason: "unsaved edits")) {
            try runtime.navigate(to: ["b", "b1", "b1y"])
        }

        #expect(runtime.treeDescription() == tree)
        #expect(host.changes == changes)
        #expect(runtime.trace.lines == trace)
        #expect(journal.entries == [])
        #expect(runtime.focusedRoutes == ["a", "a1", "a1x"])
        #expect(leaf.state == .entered)
        // The nodes built for the refused target were never entered and are gone.
        #expect(bag.alive == ["a", "a1", "a1x"])
    }

    @Test("An entry guard's refusal deep in the target changes nothing")
    func entryGuardRefusal() throws {
        let journal = Journal()
        let bag = WeakBag()
        let (runtime, host, app) = try makeTree(journal: journal, bag: bag)
        app.register("b") {
            let gated = LoggingNode("b", route: "b", journal: journal)
            gated.register("b1") {
                let b1 = LoggingNode("b1", route: "b1", journal: journal)
                b1.entryGuard = { .refuse("sign in first") }
                bag.track(b1, "gated b1")
                return b1
            }
            bag.track(gated, "gated b")
            return gated
        }
        let tree = runtime.treeDescription()
        let changes = host.changes
        let trace = runtime.trace.lines

        #expect(throws: FlowError.entryRefused(node: "app/b/b1", reason: "sign in first")) {
            try runtime.navigate(to: ["b", "b1"])
        }

        #expect(runtime.treeDescription() == tree)
        #expect(host.changes == changes)
        #expect(runtime.trace.lines == trace)
        #expect(journal.entries == [])
        #expect(bag.alive == ["a", "a1", "a1x"])
    }

    @Test("A login flow finishes with a result and the app moves on; the flow is freed")
    func finishingALoginFlow() throws {
        let journal = Journal()
        let bag = WeakBag()
        let app = FlowController(name: "app")
        app.initialRoute = "login"
        app.register("login") {
            let login = LoggingNode("login", route: "login", journal: journal)
            bag.track(login, "login")
            return login
        }
        app.register("main") {
            let main = LoggingNode("main", route: "main", journal: journal)
            bag.track(main, "main")
            return main
        }
        var signedIn: [Account] = []
        app.on(FlowFinished<Account>.self) { [unowned app] done, origin in
            signedIn.append(done.result)
            #expect(origin.name == "login")
            try? app.navigate(to: ["main"])
            return .handled
        }
        let runtime = try FlowRuntime(root: app)
        try runtime.start()
        journal.entries = []

        try #require(runtime.node(at: "app/login")).finish(with: Account(name: "ada"))

        #expect(signedIn == [Account(name: "ada")])
        #expect(journal.entries == ["exit login", "enter main", "active main"])
        #expect(bag.alive == ["main"])
    }

    @Test("navigate(to:) keeps what is on the way and exits only below the common ancestor")
    func minimalChange() throws {
        let (runtime, _) = try makeTabs(policy: .none)
        try runtime.navigate(to: ["tabs", "profile", "info"])
        let profile = runtime.node(at: "app/tabs/profile")
        runtime.trace.removeAll()
        try runtime.navigate(to: ["tabs", "profile", "edit"])
        #expect(runtime.node(at: "app/tabs/profile") === profile)
        #expect(
            runtime.trace.lines.filter { !$0.hasPrefix("activate") && !$0.hasPrefix("deact") }
                == [
                    "exit app/tabs/profile/info", "enter app/tabs/profile/edit",
                    "change navigate app/tabs/profile -app/tabs/profile/info +app/tabs/profile/edit",
                ])
    }
}
