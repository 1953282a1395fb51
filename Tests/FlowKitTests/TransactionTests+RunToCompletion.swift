import FlowKit
import Testing

@MainActor
@Suite("Run-to-completion")
struct RunToCompletionTests {
    @Test("Events sent from a handler are delivered after the current one, first in first out")
    func eventsFromHandlersAreQueued() throws {
        let (runtime, _, app, _, _, list) = try makeApp()
        var log: [String] = []
        app.on(Ping.self) { ping in
            log.append("begin \(ping.value)")
            if ping.value == 0 {
                list.send(Ping(value: 1))
                list.send(Ping(value: 2))
            }
            if ping.value == 1 { list.send(Ping(value: 3)) }
            log.append("end \(ping.value)")
            return .handled
        }
        list.send(Ping(value: 0))
        #expect(
            log == [
                "begin 0", "end 0", "begin 1", "end 1", "begin 2", "end 2", "begin 3", "end 3",
            ])
        _ = runtime
    }

    @Test("Handlers never run re-entrantly, even across nodes and types")
    func noReentrancy() throws {
        let (runtime, _, app, main, _, list) = try makeApp()
        var depth = 0
        var maxDepth = 0
        var count = 0
        func enter() {
            depth += 1
            maxDepth = max(maxDepth, depth)
            count += 1
        }
        main.on(Pong.self) { _ in
            enter()
            defer { depth -= 1 }
            if count < 6 { list.send(Ping()) }
            return .handled
        }
        app.on(Ping.self) { _ in
            enter()
            defer { depth -= 1 }
            list.send(Pong())
            return .handled
        }
        list.send(Ping())
        #expect(maxDepth == 1)
        #expect(count == 6)  // Ping, Pong, Ping, Pong, Ping, Pong
        _ = runtime
    }

    @Test("An event sent from a lifecycle hook is delivered after the change completes")
    func eventsFromHooksWaitForTheChange() throws {
        let journal = Journal()
        let (runtime, _, app, _, stack, _) = try makeApp(journal: journal)
        final class Announcing: LoggingNode {
            override func didEnter() {
                super.didEnter()
                send(Ping(value: 42))
            }
        }
        app.on(Ping.self) { ping in
            journal.entries.append("handled \(ping.value)")
            return .handled
        }
        journal.entries = []
        try stack.push(Announcing("detail", journal: journal))
        #expect(
            journal.entries == [
                "enter detail", "inactive list", "active detail", "handled 42",
            ])
        _ = runtime
    }

    @Test("An event whose sender is detached before its turn is dropped and traced")
    func detachedSendersAreDropped() throws {
        let (runtime, _, app, _, stack, list) = try makeApp()
        let detail = FlowController(name: "detail")
        try stack.push(detail)
        var delivered: [Int] = []
        app.on(Ping.self) { ping in
            delivered.append(ping.value)
            if ping.value == 1 {
                detail.send(Ping(value: 2))  // queued…
                _ = try? stack.pop()  // …and its sender leaves before its turn
            }
            return .handled
        }
        runtime.trace.removeAll()
        list.send(Ping(value: 1))
        #expect(delivered == [1])
        #expect(
            runtime.trace.lines == [
                "send Ping from app/main/stack/list",
                "exit app/main/stack/detail",
                "change pop app/main/stack -app/main/stack/detail",
                "activate app/main/stack/list",
                "handled Ping at app",
                "dropped Ping from app/main/stack/detail (sender left the tree)",
            ])
    }

    @Test("Events sent from exit hooks of a removed subtree are dropped, never delivered")
    func eventsFromExitingNodesAreDropped() throws {
        let (runtime, _, app, _, stack, _) = try makeApp()
        final class Farewell: FlowController {
            override func willExit() { send(Ping(value: 9)) }
        }
        try stack.push(Farewell(name: "detail"))
        var delivered = 0
        app.on(Ping.self) { _ in
            delivered += 1
            return .handled
        }
        try stack.pop()
        #expect(delivered == 0)
        #expect(
            runtime.trace.lines.last
                == "dropped Ping from app/main/stack/detail (sender left the tree)")
    }

    @Test("A change asked for inside a lifecycle hook runs as the next transaction")
    func changesInsideHooksAreQueued() throws {
        let (runtime, host, _, _, stack, _) = try makeApp()
        final class Eager: FlowController {
            var error: (any Error)?
            override func didEnter() {
                do {
                    try (parent as? FlowStack)?.push(FlowController(name: "other"))
                } catch {
                    self.error = error
                }
            }
        }
        let eager = Eager(name: "eager")
        runtime.trace.removeAll()
        try stack.push(eager)
        #expect(eager.error == nil)
        #expect(stack.entries.map(\.name) == ["list", "eager", "other"])
        #expect(
            host.changes.map(\.description).suffix(2) == [
                "push app/main/stack +app/main/stack/eager",
                "push app/main/stack +app/main/stack/other",
            ])
        #expect(
            runtime.trace.lines.filter { !$0.hasPrefix("activate") && !$0.hasPrefix("deactivate") }
                == [
                    "enter app/main/stack/eager",
                    "change push app/main/stack +app/main/stack/eager",
                    "enter app/main/stack/other",
                    "change push app/main/stack +app/main/stack/other",
                ])
    }

    @Test("Several runtimes live side by side without sharing queues or traces")
    func runtimesAreIndependent() throws {
        let first = try makeApp()
        let second = try makeApp()
        var log: [String] = []
        first.app.on(Ping.self) { _ in
            log.append("first")
            second.list.send(Pong())
            return .handled
        }
        second.app.on(Pong.self) { _ in
            log.append("second")
            return .handled
        }
        first.list.send(Ping())
        #expect(log == ["first", "second"])
        #expect(first.runtime.trace.lines.contains("handled Ping at app"))
        #expect(!first.runtime.trace.lines.contains("handled Pong at app"))
        #expect(second.runtime.trace.lines.contains("handled Pong at app"))
    }

    @Test(
        "An event sent by a refusing guard is delivered before the refusal reaches the caller",
        .bug(id: "9.6", "the queue did not drain when the outermost operation threw"))
    func queueDrainsOnRefusal() throws {
        let (runtime, _, _, main, stack, _) = try makeApp()
        var pings = 0
        main.on(Ping.self) { _ in
            pings += 1
            return .handled
        }
        let top = FlowController(name: "top")
        try stack.push(top)
        top.exitGuard = { [unowned top] in
            top.send(Ping())
            return .refuse("busy")
        }
        #expect(throws: FlowError.exitRefused(node: "app/main/stack/top", reason: "busy")) {
            try stack.pop()
        }
        #expect(pings == 1)
        _ = runtime
    }

    @Test(
        "An event queued with runtime.send before stop() is traced as dropped",
        .bug(id: "9.12", "an event queued with runtime.send before stop() vanished untraced"))
    func runtimeSendBeforeStop() throws {
        let (runtime, _, app, _, _, _) = try makeApp()
        var unhandled = 0
        runtime.onUnhandledEvent = { _, _ in unhandled += 1 }
        app.on(Ping.self) { [unowned runtime] _ in
            runtime.send(Pong())
            try? runtime.stop()
            return .handled
        }
        runtime.send(Ping())
        #expect(runtime.trace.lines.last == "dropped Pong (no focused node: the runtime stopped)")
        #expect(unhandled == 0)
    }

    @Test(
        "A handler that removes the sender and forwards ends the event: it is dropped",
        .bug(id: "9.13", "an event forwarded after its sender left the tree was still delivered"))
    func forwardAfterSenderRemoved() throws {
        let (runtime, _, app, _, stack, _) = try makeApp()
        var appSaw = false
        app.on(Ping.self) { _ in
            appSaw = true
            return .handled
        }
        stack.on(Ping.self) { [unowned stack] _ in
            _ = try? stack.pop()
            return .forward
        }
        let detail = FlowController(name: "detail")
        try stack.push(detail)
        detail.send(Ping())
        #expect(!appSaw)
        #expect(
            runtime.trace.lines.last
                == "dropped Ping from app/main/stack/detail (sender left the tree)")
    }
}
