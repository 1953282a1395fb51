import FlowKit
import FlowKitTesting
import Testing

/// Gives `node` a handler that captures it (and `other`), so that only FlowKit's release at
/// a refusal or an exit can free it.
@MainActor
@discardableResult
private func capturingItself<Node: FlowController>(
    _ node: Node, and other: AnyObject? = nil
) -> Node {
    node.on(Ping.self) { _ in
        _ = (node, other)
        return .handled
    }
    return node
}

@MainActor
@Suite("Route factories: what a refused build made is released")
struct RouteFactoryTests {
    @Test(
        "A factory that builds the wrong route: its node is marked exited and released",
        .bug(id: "21.5", "factoryRouteMismatch kept the built node alive and attachable"))
    func mismatchReleasesTheNode() throws {
        let (runtime, host, _, _, stack, _) = try makeApp()
        let bag = WeakBag()
        stack.register("x") {
            let node = capturingItself(FlowController(name: "x", route: "other"))
            bag.track(node, "x")
            return node
        }
        let before = observe(runtime, host)
        #expect(
            throws: FlowError.factoryRouteMismatch(
                route: "x", node: "app/main/stack", built: "x", builtRoute: "other")
        ) {
            try stack.navigate(to: ["x"])
        }
        #expect(observe(runtime, host) == before)
        #expect(bag.alive.isEmpty)
    }

    @Test("A factory that returns a node in use: what it made for the call is released")
    func nodeInUseReleasesWhatTheFactoryMade() throws {
        let (runtime, host, _, _, stack, list) = try makeApp()
        let bag = WeakBag()
        stack.register("wrapped") {
            // The node is attached below a wrapper the factory also made.
            let wrapper = FlowController(name: "wrapper")
            let node = capturingItself(FlowController(name: "wrapped"), and: wrapper)
            try! wrapper.embed(node)
            bag.track(wrapper, "wrapper")
            bag.track(node, "wrapped")
            return node
        }
        stack.register("list-again") { list }  // the app's own entry, in use
        let before = observe(runtime, host)
        #expect(
            throws: FlowError.factoryNodeInUse(
                route: "wrapped", node: "app/main/stack", built: "wrapper/wrapped")
        ) {
            try stack.navigate(to: ["wrapped"])
        }
        #expect(bag.alive.isEmpty)
        #expect(throws: FlowError.self) { try stack.navigate(to: ["list-again"]) }
        // The app's node is untouched.
        #expect(list.state == .entered && list.parent === stack)
        #expect(observe(runtime, host) == before)
    }

    @Test("A node the app made before the factory ran is never marked exited by a refusal")
    func appNodeStaysUsable() throws {
        let (runtime, _, _, _, stack, _) = try makeApp()
        let mine = FlowController(name: "mine", route: "other")
        stack.register("x") { mine }
        #expect(throws: FlowError.self) { try stack.navigate(to: ["x"]) }
        #expect(mine.state == .created)
        try stack.push(mine)
        #expect(stack.top === mine && runtime.focusedNode === mine)
    }

    // MARK: Refused changes release what factories built

    @Test("A refused navigate releases factory-built nodes with self-capturing handlers")
    func refusedNavigateReleasesBuiltNodes() throws {
        let (runtime, host, _, _, stack, _) = try makeApp()
        let bag = WeakBag()
        stack.register("detail") {
            let detail = FlowController(name: "detail", route: "detail")
            detail.on(Ping.self) { _ in
                _ = detail  // captures itself
                return .handled
            }
            let inner = FlowStack(name: "inner", root: FlowController(name: "first"))
            inner.on(Ping.self) { _ in
                _ = inner
                return .handled
            }
            try! detail.embed(inner)
            detail.task { _ = detail }
            detail.entryGuard = { [detail] in
                _ = detail; return .refuse("not now")
            }
            bag.track(detail, "detail")
            bag.track(inner, "inner")
            return detail
        }
        let before = observe(runtime, host)
        #expect(throws: FlowError.entryRefused(node: "app/main/stack/detail", reason: "not now")) {
            try stack.navigate(to: ["detail"])
        }
        #expect(observe(runtime, host) == before)
        #expect(!runtime.trace.lines.contains { $0.hasPrefix("enter") && $0.contains("detail") })
        #expect(bag.alive == [])
    }

    @Test("Defaults built below an app-made node for a refused push are released; the node stays")
    func refusedPushReleasesDefaults() throws {
        let (runtime, _, _, _, stack, _) = try makeApp()
        let bag = WeakBag()
        let flow = FlowController(name: "flow")
        flow.register("start") {
            let start = FlowController(name: "start", route: "start")
            start.on(Ping.self) { _ in
                _ = start
                return .handled
            }
            start.entryGuard = { .refuse("closed") }
            bag.track(start, "start")
            return start
        }
        flow.initialRoute = "start"
        #expect(throws: FlowError.entryRefused(node: "app/main/stack/flow/start", reason: "closed"))
        {
            try stack.push(flow)
        }
        #expect(bag.alive == [])
        #expect(flow.state == .created && flow.children.isEmpty)
        flow.register("start") { FlowController(name: "start", route: "start") }
        try stack.push(flow)  // the app's node can still be used
        #expect(flow.children.map(\.path) == ["app/main/stack/flow/start"])
        _ = runtime
    }

    @Test(
        "A factory that builds the wrong route or a node in use throws, changing nothing",
        .bug(id: "9", "a factory that built the wrong route or a node in use trapped"))
    func factoryMistakesAreTypedErrors() throws {
        let (runtime, host, app, _, stack, _) = try makeApp()
        stack.register("wrong") { FlowController(name: "wrong", route: "other") }
        let inUse = FlowController(name: "inUse", route: "reused")
        let holder = FlowController(name: "holder")
        try holder.embed(inUse)
        stack.register("reused") { inUse }
        let before = observe(runtime, host)
        #expect(
            throws: FlowError.factoryRouteMismatch(
                route: "wrong", node: "app/main/stack", built: "wrong", builtRoute: "other")
        ) {
            try stack.navigate(to: ["wrong"])
        }
        #expect(
            throws: FlowError.factoryNodeInUse(
                route: "reused", node: "app/main/stack", built: "holder/inUse")
        ) {
            try stack.navigate(to: ["reused"])
        }
        #expect(observe(runtime, host) == before)
        _ = (app, holder)
    }
}
