// The code of Docs/Concepts.md. GuideCodeBlockTests checks that every ```swift block of the
// page appears here verbatim: change the page and this file together.

import FlowKit
import Testing

/// Sent by a screen when the user taps "Sign out".
struct SignOutTapped: FlowEvent {}

@MainActor
@Suite("Concepts page")
struct ConceptsTests {
    @Test("Nodes, containers, the focused path and the lifecycle states")
    func treeAndStates() throws {
        let home = FlowController(name: "home")
        let detail = FlowController(name: "detail")
        let stack = FlowStack(name: "stack", root: home)
        let app = FlowSwitch(name: "app", initial: stack)
        let runtime = try FlowRuntime(root: app)
        try runtime.start()
        try stack.push(detail)

        #expect(detail.path == "app/stack/detail")
        #expect(runtime.focusedPath.map(\.name) == ["app", "stack", "detail"])
        #expect(detail.isActive)  // on the focused path
        #expect(home.state == .entered && !home.isActive)  // covered: entered, inactive

        try stack.pop()
        #expect(detail.state == .exited)  // exited for good: it cannot be pushed again
    }

    @Test("The responder chain: an event bubbles up to the first node that handles it")
    func responderChain() throws {
        let home = FlowController(name: "home")
        let app = FlowSwitch(name: "app", initial: FlowStack(name: "stack", root: home))
        let runtime = try FlowRuntime(root: app)
        try runtime.start()

        app.on(SignOutTapped.self) { _ in .handled }
        home.send(SignOutTapped())  // home, then stack, then app handles it
        #expect(
            runtime.trace.lines.suffix(2) == [
                "send SignOutTapped from app/stack/home",
                "handled SignOutTapped at app",
            ])
    }

    @Test("Routes and transactions: a refused change changes nothing")
    func routesAndTransactions() throws {
        let tabs = FlowSwitch(name: "tabs")
        tabs.register("feed") { FlowController(name: "feed", route: "feed") }
        tabs.register("profile") { FlowController(name: "profile", route: "profile") }
        tabs.initialRoute = "feed"
        let runtime = try FlowRuntime(root: tabs)
        try runtime.start()

        try runtime.navigate(to: ["profile"])  // one transaction: exit feed, enter profile
        #expect(runtime.focusedRoutes == ["profile"])

        let profile = try #require(runtime.focusedNode)
        profile.exitGuard = { .refuse("unsaved edits") }
        #expect(throws: FlowError.self) { try runtime.navigate(to: ["feed"]) }
        #expect(runtime.focusedRoutes == ["profile"])  // nothing exited, nothing entered
    }
}
