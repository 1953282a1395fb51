import Testing

@testable import FlowKit

/// A node that runs a closure when it enters.
@MainActor
private final class EnterAction: FlowController {
    var action: (() -> Void)?

    override func didEnter() { action?() }
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
