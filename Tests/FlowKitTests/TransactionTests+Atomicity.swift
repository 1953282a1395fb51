import Testing

@testable import FlowKit

@MainActor
@Suite("Bad input throws a specific FlowError and changes nothing")
struct AtomicityTests {
    /// Runs `body`, expects `error`, and checks the tree, host record and trace are unchanged.
    func expectRefusal(
        _ error: FlowError, in app: (runtime: FlowRuntime, host: RecordingFlowHost),
        sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
    ) {
        let before = observe(app.runtime, app.host)
        #expect(throws: error, sourceLocation: sourceLocation) { try body() }
        #expect(observe(app.runtime, app.host) == before, sourceLocation: sourceLocation)
    }

    @Test("Attaching a node that already has a parent")
    func alreadyAttached() throws {
        let app = try makeApp()
        let other = FlowStack(name: "other")
        try app.stack.push(other)
        expectRefusal(
            .alreadyAttached(node: "app/main/stack/list", parent: "app/main/stack"),
            in: (app.runtime, app.host)
        ) { try other.push(app.list) }
        expectRefusal(
            .alreadyAttached(node: "app/main/stack/list", parent: "app/main/stack"),
            in: (app.runtime, app.host)
        ) { try app.main.present(app.list) }
        expectRefusal(
            .alreadyAttached(node: "app", parent: "its runtime (root)"),
            in: (app.runtime, app.host)
        ) { try other.push(app.app) }
    }

    @Test("Re-attaching an exited node")
    func reattachingExitedNode() throws {
        let app = try makeApp()
        let detail = FlowController(name: "detail")
        try app.stack.push(detail)
        try app.stack.pop()
        expectRefusal(.nodeExited(node: "app/main/stack/detail"), in: (app.runtime, app.host)) {
            try app.stack.push(detail)
        }
        expectRefusal(.nodeExited(node: "app/main/stack/detail"), in: (app.runtime, app.host)) {
            try app.app.switch(to: detail)
        }
    }

    @Test("Changing an exited container")
    func changingExitedContainer() throws {
        let app = try makeApp()
        let inner = FlowStack(name: "inner", root: FlowController(name: "a"))
        try app.stack.push(inner)
        try app.stack.pop()
        expectRefusal(
            .containerExited(container: "app/main/stack/inner"), in: (app.runtime, app.host)
        ) {
            try inner.push(FlowController(name: "b"))
        }
    }

    @Test("Making a node its own ancestor")
    func cycles() throws {
        let app = try makeApp()
        let outer = FlowController(name: "outer")
        let inner = FlowStack(name: "inner")
        try outer.embed(inner)
        #expect(throws: FlowError.wouldCreateCycle(node: "outer", parent: "outer/inner")) {
            try inner.push(outer)
        }
        #expect(throws: FlowError.wouldCreateCycle(node: "outer", parent: "outer")) {
            try outer.present(outer)
        }
        #expect(inner.entries.isEmpty && outer.presentedChild == nil)
        _ = app
    }

    @Test("Popping the last entry of a stack, or from an empty one")
    func poppingTheLastEntry() throws {
        let app = try makeApp()
        expectRefusal(
            .cannotPopLastEntry(stack: "app/main/stack", entry: "app/main/stack/list"),
            in: (app.runtime, app.host)
        ) { try app.stack.pop() }
        expectRefusal(
            .cannotPopLastEntry(stack: "app/main/stack", entry: "app/main/stack/list"),
            in: (app.runtime, app.host)
        ) { try app.stack.platformDidPop() }
        try app.stack.setStack([])
        expectRefusal(.emptyStack(stack: "app/main/stack"), in: (app.runtime, app.host)) {
            try app.stack.popToRoot()
        }
        expectRefusal(.emptyStack(stack: "app/main/stack"), in: (app.runtime, app.host)) {
            try app.stack.pop()
        }
    }

    @Test("Pop-to a node that is not on the stack")
    func popToStranger() throws {
        let app = try makeApp()
        let stranger = FlowController(name: "stranger")
        expectRefusal(
            .notInStack(stack: "app/main/stack", node: "stranger"), in: (app.runtime, app.host)
        ) {
            try app.stack.pop(to: stranger)
        }
        expectRefusal(
            .notInStack(stack: "app/main/stack", node: "app/main"), in: (app.runtime, app.host)
        ) {
            try app.stack.platformDidPop(to: app.main)
        }
    }

    @Test("Dismissing when nothing is presented")
    func dismissingNothing() throws {
        let app = try makeApp()
        expectRefusal(.nothingPresented(presenter: "app/main"), in: (app.runtime, app.host)) {
            try app.main.dismiss()
        }
        expectRefusal(.nothingPresented(presenter: "app/main"), in: (app.runtime, app.host)) {
            try app.main.platformDidDismiss()
        }
    }

    @Test("Presenting while something is presented")
    func presentingTwice() throws {
        let app = try makeApp()
        let first = FlowController(name: "first")
        try app.main.present(first)
        expectRefusal(
            .alreadyPresenting(presenter: "app/main", presented: "app/main/first"),
            in: (app.runtime, app.host)
        ) { try app.main.present(FlowController(name: "second")) }
        // Presenting from the presented node is the way to stack modals.
        try first.present(FlowController(name: "second"))
        #expect(app.runtime.focusedNode?.path == "app/main/first/second")
    }

    @Test("An exit guard refusing cancels the whole change")
    func exitGuardRefuses() throws {
        let app = try makeApp()
        let editor = FlowController(name: "editor")
        let field = FlowController(name: "field")
        try editor.embed(field)
        try app.stack.push(editor)
        field.exitGuard = { .refuse("unsaved edits") }
        let refusal = FlowError.exitRefused(
            node: "app/main/stack/editor/field", reason: "unsaved edits")
        expectRefusal(refusal, in: (app.runtime, app.host)) { try app.stack.pop() }
        expectRefusal(refusal, in: (app.runtime, app.host)) { try app.stack.popToRoot() }
        expectRefusal(refusal, in: (app.runtime, app.host)) { try app.stack.setStack([app.list]) }
        expectRefusal(
            FlowError.exitRefused(node: "app/main/stack/editor/field", reason: "unsaved edits"),
            in: (app.runtime, app.host)
        ) { try app.app.switch(to: FlowController(name: "login")) }
        #expect(editor.state == .entered && field.state == .entered)
        // The platform already popped: guards are not consulted.
        try app.stack.platformDidPop()
        #expect(field.state == .exited)
    }

    @Test("An entry guard refusing cancels the change, defaults included")
    func entryGuardRefuses() throws {
        let app = try makeApp()
        let gated = FlowController(name: "gated", route: "gated")
        gated.register("inside") { FlowController(name: "inside", route: "inside") }
        gated.initialRoute = "inside"
        gated.entryGuard = { .refuse("sign in first") }
        expectRefusal(
            .entryRefused(node: "app/main/stack/gated", reason: "sign in first"),
            in: (app.runtime, app.host)
        ) { try app.stack.push(gated) }
        #expect(gated.children.isEmpty)  // the default child built in the check was undone
        #expect(gated.state == .created && gated.parent == nil)
        // The refused change dropped its prospective link too: no path through the stack.
        #expect(gated.path == "gated")
        gated.entryGuard = nil
        try app.stack.push(gated)
        #expect(app.runtime.focusedNode?.path == "app/main/stack/gated/inside")
    }

    @Test("Unknown routes throw and change nothing")
    func unknownRoutes() throws {
        let app = try makeApp()
        app.stack.register("detail") { FlowController(name: "detail", route: "detail") }
        expectRefusal(
            .unknownRoute(route: "nowhere", node: "app/main/stack"), in: (app.runtime, app.host)
        ) {
            try app.stack.navigate(to: ["nowhere"])
        }
        expectRefusal(
            .unknownRoute(route: "deeper", node: "app/main/stack/detail"),
            in: (app.runtime, app.host)
        ) {
            try app.stack.navigate(to: ["detail", "deeper"])
        }
    }

    @Test("Duplicate nodes in setStack and starting twice")
    func duplicatesAndRestarts() throws {
        let app = try makeApp()
        let a = FlowController(name: "a")
        expectRefusal(.duplicateNode(node: "a"), in: (app.runtime, app.host)) {
            try app.stack.setStack([app.list, a, a])
        }
        expectRefusal(.runtimeAlreadyStarted, in: (app.runtime, app.host)) {
            try app.runtime.start()
        }
    }

    @Test("A missing required dependency names the key and the node")
    func missingDependency() throws {
        let app = try makeApp()
        #expect(throws: FlowError.missingDependency(key: "ServiceKey", node: "app/main/stack/list"))
        {
            try app.list.dependencies.require(ServiceKey.self)
        }
        let message = FlowError.missingDependency(key: "ServiceKey", node: "app/main/stack/list")
            .description
        #expect(message.contains("ServiceKey") && message.contains("app/main/stack/list"))
    }

    @Test(
        "Node names are checked on their UTF-8 bytes: short, long, non-ASCII and sliced",
        arguments: [
            ("n", true), ("detail", true), ("d\u{E9}tail", true), ("\u{1F600}", true),
            ("a-name-longer-than-fifteen-bytes", true), ("", false), ("/", false),
            ("a/b", false), ("de/\u{301}tail", false), ("a-name-longer-than-fifteen/bytes", false),
            ("trailing/", false),
        ])
    func nodeNames(_ name: String, _ valid: Bool) {
        #expect(_isValidNodeName(name) == valid)
        // The same text as a slice made into a new string, and with a long prefix (stored on
        // the heap, not inline).
        let sliced = String(("xx" + name).dropFirst(2))
        #expect(_isValidNodeName(sliced) == valid)
        if !name.isEmpty {
            #expect(_isValidNodeName(String(repeating: "p", count: 40) + name) == valid)
        }
    }
}
