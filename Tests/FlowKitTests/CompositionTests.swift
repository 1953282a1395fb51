import FlowKit
import Testing

/// Attach rules: where a node may be attached, and the paths composition gives it.
@MainActor
@Suite("Composition: attach rules and paths")
struct CompositionTests {
    @Test(
        "Attaching a childless node to itself throws wouldCreateCycle (no hang)",
        .bug(
            id: "9.3",
            "attaching a childless node to itself hung instead of throwing wouldCreateCycle"))
    func selfAttachment() throws {
        let node = FlowController(name: "n")
        #expect(throws: FlowError.wouldCreateCycle(node: "n", parent: "n")) { try node.embed(node) }
        #expect(throws: FlowError.wouldCreateCycle(node: "n", parent: "n")) {
            try node.present(node)
        }
        let stack = FlowStack(name: "s")
        #expect(throws: FlowError.wouldCreateCycle(node: "s", parent: "s")) {
            try stack.push(stack)
        }
        #expect(throws: FlowError.wouldCreateCycle(node: "s", parent: "s")) {
            try stack.setStack([stack])
        }
        #expect(node.children.isEmpty && node.presentedChild == nil && stack.entries.isEmpty)

        let (runtime, host, _, _, live, _) = try makeApp()
        let before = observe(runtime, host)
        #expect(
            throws: FlowError.wouldCreateCycle(node: "app/main/stack", parent: "app/main/stack")
        ) {
            try live.push(live)
        }
        #expect(observe(runtime, host) == before)
    }

    @Test(
        "A node that is entered elsewhere cannot become another runtime's root or child",
        .bug(id: "9.7", "a node entered in one runtime could become another runtime's root"))
    func enteredNodesCannotMove() throws {
        let (runtime, _, _, _, _, list) = try makeApp()
        #expect(
            throws: FlowError.alreadyAttached(node: "app/main/stack/list", parent: "app/main/stack")
        ) {
            _ = try FlowRuntime(root: list)
        }
        _ = runtime
    }

    @Test(
        "A root that is attached or another runtime's root is a typed error",
        .bug(id: "9", "a runtime root that was attached or another runtime's root trapped"))
    func runtimeRootErrors() throws {
        let root = FlowController(name: "root")
        let first = try FlowRuntime(root: root)
        #expect(throws: FlowError.alreadyAttached(node: "root", parent: "its runtime (root)")) {
            _ = try FlowRuntime(root: root)
        }
        let parent = FlowController(name: "parent")
        let child = FlowController(name: "child")
        try parent.embed(child)
        #expect(throws: FlowError.alreadyAttached(node: "parent/child", parent: "parent")) {
            _ = try FlowRuntime(root: child)
        }
        _ = first
    }

    @Test(
        "Paths follow offline composition; errors from default expansion name real paths",
        .bug(id: "9.15", "paths went stale after offline composition; errors named stale paths"))
    func pathsAreNeverStale() throws {
        let leaf = FlowController(name: "leaf")
        let stack = FlowStack(name: "stack", root: leaf)
        #expect(leaf.path == "stack/leaf")
        let flow = FlowController(name: "flow")
        try flow.embed(stack)
        #expect(leaf.path == "flow/stack/leaf")

        let (runtime, host, _, _, live, _) = try makeApp()
        let broken = FlowController(name: "broken")
        broken.initialRoute = "missing"
        let before = observe(runtime, host)
        #expect(
            throws: FlowError.unknownRoute(route: "missing", node: "app/main/stack/broken")
        ) {
            try live.push(broken)
        }
        #expect(observe(runtime, host) == before)
        #expect(broken.path == "broken")
    }
}
