import FlowKit
import Testing

/// A node that runs a closure when it enters.
@MainActor
private final class EnterAction: FlowController {
    var action: (() -> Void)?

    override func didEnter() { action?() }
}

/// References dropped on other threads: FlowKit tears down on the main actor and never
/// follows a link to a freed object.
@MainActor
@Suite("Concurrency: releases off the main actor")
struct ConcurrencyTests {
    /// Embeds `child` in a new parent named `parentName` that provides `greeting`, then lets
    /// the parent's last reference die on another thread. Returns whether the parent was freed.
    private func orphanOffMainActor(
        _ child: FlowController, parentName: String, greeting: String
    ) async throws -> Bool {
        weak var weakParent: FlowController?
        do {
            let parent = FlowController(name: parentName)
            parent.dependencies[Greeting.self] = greeting
            try parent.embed(child)
            weakParent = parent
            let box = [parent]
            let release = Task.detached {
                await Task.yield()
                _ = box.count  // the last reference dies on this thread
            }
            _ = consume box
            await release.value
        }
        return weakParent == nil
    }

    @Test(
        "A parent released on another thread leaves its child a nil parent, never a dangling one",
        .bug(id: "9.2", "a parent released on another thread left its child a dangling parent"))
    func parentReleasedOffMainActor() async throws {
        for round in 0..<20 {
            let child = FlowController(name: "child")
            let parentFreed = try await orphanOffMainActor(
                child, parentName: "p\(round)", greeting: "from parent")
            #expect(parentFreed)
            #expect(child.parent == nil)
            #expect(child.path == "child")
            #expect(child.dependencies[Greeting.self] == Greeting.defaultValue)
            let stack = FlowStack(name: "stack")
            try stack.push(child)  // the child is free again
            #expect(child.parent === stack)
        }
    }

    @Test(
        "An orphan whose parent was freed off the main actor enters elsewhere with that tree's values"
    )
    func orphanEntersAfterOffMainRelease() async throws {
        // Entering computes each node's scope from its parent along the unretained chain link
        // (`_next`). The freed parent must never be reached through it: attaching sets the link
        // afresh. Under AddressSanitizer (CI) a stale link would be a use after free.
        let (runtime, _, app, _, stack, _) = try makeApp()
        app.dependencies[Greeting.self] = "from the running tree"
        for round in 0..<20 {
            let child = FlowController(name: "child\(round)")
            let grandchild = FlowController(name: "grandchild")
            try child.embed(grandchild)
            let parentFreed = try await orphanOffMainActor(
                child, parentName: "p\(round)", greeting: "from the freed parent")
            #expect(parentFreed)
            try stack.push(child)  // enters: child and grandchild compute their scopes
            #expect(child.state == .entered && grandchild.state == .entered)
            #expect(grandchild.dependencies[Greeting.self] == "from the running tree")
            try stack.pop()
        }
        _ = runtime
    }

    @Test(
        "A runtime whose last reference dies on another thread still stops on the main actor",
        .bug(
            id: "9.7",
            "a runtime released on another thread did not stop its tree on the main actor"))
    func runtimeReleasedOffMainActor() async throws {
        weak var weakRuntime: FlowRuntime?
        weak var weakRoot: FlowController?
        do {
            let root = FlowController(name: "root")
            let runtime = try FlowRuntime(root: root)
            try runtime.start()
            weakRuntime = runtime
            weakRoot = root
            let box = [runtime]
            let release = Task.detached {
                await Task.yield()
                _ = box.count
            }
            _ = consume box
            await release.value
        }
        for _ in 0..<1000 where weakRoot != nil { await Task.yield() }
        #expect(weakRuntime == nil && weakRoot == nil)
    }
}

/// The registry of applying runtimes holds them unretained
/// (`_RuntimeActivity.applying`): these tests drop every reference the app has to a runtime
/// while it applies a change, then ask it for more. Under AddressSanitizer (`scripts/sanitize.sh
/// address`, run by CI) a runtime freed while registered would be a reported use after free.
@Suite("Unretained registry of applying runtimes")
@MainActor
struct UnretainedRegistryTests {
    @Test("A hook that drops the last reference to its runtime and asks for a change")
    func hookDropsTheRuntime() throws {
        let journal = Journal()
        let stack = FlowStack(name: "stack", root: LoggingNode("list", journal: journal))
        var runtime: FlowRuntime? = try FlowRuntime(root: stack)
        weak let released = runtime
        try runtime?.start()
        let dropper = EnterAction(name: "dropper")
        dropper.action = {
            runtime = nil  // the app's only reference: the runtime now lives by its own call
            do {
                try stack.push(LoggingNode("after", journal: journal))  // queued on it
            } catch {
                Issue.record("push from a hook threw: \(error)")
            }
        }
        journal.entries.removeAll()
        try stack.push(dropper)
        // The queued push ran before the runtime's call returned; then the runtime, released,
        // stopped its tree (innermost first) and was freed.
        #expect(
            journal.entries == [
                "inactive list", "enter after", "active after", "exit after", "exit list",
            ])
        #expect(released == nil)
        #expect(stack.state == .exited)
        #expect(runtime == nil)
    }

    @Test("Many rounds: changes queued from hooks of runtimes the app let go of")
    func manyRounds() throws {
        for round in 0..<200 {
            let stack = FlowStack(name: "stack", root: FlowController(name: "root"))
            var runtime: FlowRuntime? = try FlowRuntime(root: stack)
            weak let released = runtime
            try runtime?.start()
            let dropper = EnterAction(name: "dropper\(round)")
            dropper.action = {
                runtime = nil
                do {
                    try stack.push(FlowController(name: "a"))
                    try stack.pop()
                } catch {
                    Issue.record("a change from a hook threw: \(error)")
                }
                stack.send(Ping(value: round))
            }
            try stack.push(dropper)
            #expect(released == nil)
        }
    }
}
