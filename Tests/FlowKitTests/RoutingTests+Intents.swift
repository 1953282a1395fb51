import FlowKit
import FlowKitTesting
import Testing

/// A route whose factory always throws.
private struct Broken: Hashable, Sendable {}

@MainActor
@Suite("Pending intents: kept through failed navigations, dropped by a stop, always traced")
struct IntentTests {
    /// A signed-out RoutedApp whose deep link to book 12 was redirected to sign-in, with
    /// routes for every way a navigation can fail.
    private func redirectedApp() throws -> RoutedApp {
        let fixture = try RoutedApp(signedIn: false)
        fixture.app.on(FlowFinished<Session>.self) { [unowned fixture] done in
            fixture.app.dependencies.set(done.result, for: SessionKey.self)
            try fixture.app.switch(to: "main")
            return .handled
        }
        fixture.app.register("locked") {
            let node = FlowController(name: "locked", route: "locked")
            node.entryGuard = { .refuse("locked") }
            return node
        }
        fixture.app.register(Broken.self) { _, _ in throw NoSuchBook(id: 0) }
        fixture.app.register("mismatch") { FlowController(name: "other", route: "other") }
        #expect(throws: FlowError.redirected(node: "app/main", to: "login")) {
            try fixture.runtime.navigate(to: bookPath(12))
        }
        return fixture
    }

    @Test("The pending intent is a value: the change's kind, node and name, the redirect, its flow")
    func pendingIntentValue() throws {
        let fixture = try redirectedApp()
        let pending = try #require(fixture.runtime.redirectedIntent)
        let kept = try #require(fixture.runtime.trace.lines.first { $0.hasPrefix("intent kept") })
        #expect(pending.kind == .navigate)
        #expect(pending.node == "app")
        #expect(pending.nodeID == fixture.app.id)
        #expect(kept == "intent kept \(pending) (app/main redirected to login)")
        #expect(pending.description.hasPrefix("navigate app to main / stack"))
        #expect(pending.redirect == "login")
        #expect(pending.flow == "app/login")
        fixture.login?.finish(with: Session(user: "alice"))
        #expect(fixture.runtime.redirectedIntent == nil)
    }

    @Test(
        "A navigation that throws keeps the pending intent; sign-in still lands on the link",
        .bug(id: "21.2", "a throwing navigation dropped the pending deep link"))
    func throwingNavigationKeepsTheIntent() throws {
        let fixture = try redirectedApp()
        let pending = try #require(fixture.runtime.redirectedIntent)
        let form = try #require(fixture.login?.children.first)
        let traceBefore = fixture.runtime.trace.lines
        // Every way a navigation can throw, from the root and from inside the sign-in flow.
        #expect(throws: FlowError.self) { try fixture.runtime.navigate(to: ["nowhere"]) }
        #expect(throws: FlowError.self) { try fixture.runtime.navigate(to: ["locked"]) }
        #expect(throws: FlowError.self) { try fixture.runtime.navigate(to: [FlowRoute(Broken())]) }
        #expect(throws: FlowError.self) { try fixture.runtime.navigate(to: ["mismatch"]) }
        #expect(throws: FlowError.self) { try fixture.runtime.open("nowhere") }
        #expect(throws: FlowError.self) { try form.unwind(to: "nowhere") }
        form.exitGuard = { .refuse("unsaved") }
        #expect(throws: FlowError.exitRefused(node: "app/login/form", reason: "unsaved")) {
            try fixture.runtime.navigate(to: ["locked"])
        }
        form.exitGuard = nil
        #expect(fixture.runtime.redirectedIntent == pending)
        // A failing change changes nothing, the trace included.
        #expect(fixture.runtime.trace.lines == traceBefore)
        fixture.login?.finish(with: Session(user: "alice"))
        #expect((fixture.runtime.focusedNode as? BookDetail)?.bookID == 12)
    }

    @Test("A navigation that succeeds outside the sign-in flow still replaces the intent")
    func succeedingNavigationReplaces() throws {
        let fixture = try redirectedApp()
        fixture.app.register("about") { FlowController(name: "about", route: "about") }
        try fixture.runtime.navigate(to: ["about"])
        #expect(fixture.runtime.redirectedIntent == nil)
        #expect(
            fixture.runtime.trace.lines.contains {
                $0.hasPrefix("intent replaced") && $0.hasSuffix("(a newer navigation from app)")
            })
    }

    @Test(
        "stop() before a queued redirect runs drops the intent, traced, and frees its nodes",
        .bug(id: "21.9", "a skipped redirect left its intent pending on a stopped runtime"))
    func stopBeforeRedirectDropsIntent() throws {
        let (runtime, _, app, main, stack, list) = try makeApp()
        app.register("login") { FlowController(name: "login", route: "login") }
        let bag = WeakBag()
        list.on(Ping.self) { _ in
            let guarded = FlowController(name: "guarded")
            bag.track(guarded, "guarded")
            guarded.entryGuard = { .redirect(to: [.child("login")]) }
            #expect(throws: FlowError.redirected(node: "app/main/stack/guarded", to: "login")) {
                try stack.push(guarded)
            }
            try runtime.stop()
            return .handled
        }
        list.send(Ping())
        #expect(!runtime.isRunning)
        #expect(runtime.redirectedIntent == nil)
        let intents = runtime.trace.lines.filter { $0.hasPrefix("intent ") }
        #expect(intents.count == 2)
        #expect(intents.first?.hasPrefix("intent kept push app/main/stack") == true)
        #expect(intents.last?.hasPrefix("intent dropped push app/main/stack") == true)
        #expect(intents.last?.hasSuffix("(the runtime stopped)") == true)
        #expect(bag.alive.isEmpty)
        _ = main
    }

    @Test("stop() while the sign-in flow waits drops the intent instead of replaying it")
    func stopWhileSignInWaits() throws {
        let fixture = try redirectedApp()
        try fixture.runtime.stop()
        #expect(fixture.runtime.redirectedIntent == nil)
        #expect(
            fixture.runtime.trace.lines.contains {
                $0.hasPrefix("intent dropped") && $0.hasSuffix("(the runtime stopped)")
            })
    }
}
