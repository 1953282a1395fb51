import FlowKit
import FlowKitTesting
import Testing

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
            let node = FlowController(name: "x", route: "other")
            node.on(Ping.self) { _ in
                _ = node  // captures itself
                return .handled
            }
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
            let node = FlowController(name: "wrapped")
            node.on(Ping.self) { _ in
                _ = (node, wrapper)  // keeps both alive
                return .handled
            }
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
}
