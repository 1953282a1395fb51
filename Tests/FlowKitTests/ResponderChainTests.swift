import FlowKit
import Testing

@MainActor
@Suite("Responder chain")
struct ResponderChainTests {
    @Test("An event bubbles from the leaf through each real ancestor to the first handler")
    func bubblesToFirstHandler() throws {
        let (runtime, _, app, main, stack, list) = try makeApp()
        var visits: [String] = []
        for node in [list, stack, main] as [FlowController] {
            node.on(Ping.self) { _ in
                visits.append(node.name)
                return .forward
            }
        }
        app.on(Ping.self) { _ in
            visits.append("app")
            return .handled
        }
        runtime.trace.removeAll()
        list.send(Ping())
        #expect(visits == ["list", "stack", "main", "app"])
        #expect(
            runtime.trace.lines == [
                "send Ping from app/main/stack/list", "handled Ping at app",
            ])
    }

    @Test("The first handler that handles an event stops it")
    func firstHandlerStops() throws {
        let (runtime, _, app, main, _, list) = try makeApp()
        var visits: [String] = []
        main.on(Ping.self) { _ in
            visits.append("main")
            return .handled
        }
        app.on(Ping.self) { _ in
            visits.append("app")
            return .handled
        }
        runtime.trace.removeAll()
        list.send(Ping())
        #expect(visits == ["main"])
        #expect(runtime.trace.lines.last == "handled Ping at app/main")
    }

    @Test("Handlers only see events of their type; others pass by")
    func handlersAreTyped() throws {
        let (runtime, _, app, main, _, list) = try makeApp()
        defer { withExtendedLifetime(runtime) {} }
        var seen: [String] = []
        main.on(Pong.self) { _ in
            seen.append("main pong")
            return .handled
        }
        app.on(Ping.self) { ping in
            seen.append("app ping \(ping.value)")
            return .handled
        }
        list.send(Ping(value: 7))
        list.send(Pong())
        #expect(seen == ["app ping 7", "main pong"])
    }

    @Test("A presented node's next responder is its presenter")
    func presentedNodeForwardsToPresenter() throws {
        let (runtime, _, app, main, stack, list) = try makeApp()
        let modal = FlowController(name: "modal")
        try list.present(modal)
        var visits: [String] = []
        for node in [modal, list, stack, main, app] as [FlowController] {
            node.on(Ping.self) { _ in
                visits.append(node.path)
                return node === app ? .handled : .forward
            }
        }
        modal.send(Ping())
        #expect(
            visits == [
                "app/main/stack/list/modal", "app/main/stack/list", "app/main/stack",
                "app/main", "app",
            ])
        #expect(runtime.focusedNode === modal)
    }

    @Test("An unhandled event reaches the runtime's sink and the trace")
    func unhandledEventsReachTheSink() throws {
        let (runtime, _, _, _, _, list) = try makeApp()
        var sunk: [(String, String)] = []
        runtime.onUnhandledEvent = { event, origin in
            sunk.append((event.traceName, origin.path))
        }
        runtime.trace.removeAll()
        list.send(Ping())
        #expect(sunk.map(\.0) == ["Ping"])
        #expect(sunk.map(\.1) == ["app/main/stack/list"])
        #expect(
            runtime.trace.lines == [
                "send Ping from app/main/stack/list", "unhandled Ping from app/main/stack/list",
            ])
    }

    @Test("The handler receives the node the event was sent from")
    func handlerReceivesOrigin() throws {
        let (runtime, _, app, _, _, list) = try makeApp()
        defer { withExtendedLifetime(runtime) {} }
        var origin: FlowController?
        app.on(Ping.self) { _, from in
            origin = from
            return .handled
        }
        list.send(Ping())
        #expect(origin === list)
    }

    @Test("runtime.send starts at the focused leaf")
    func runtimeSendStartsAtFocus() throws {
        let (runtime, _, app, _, stack, _) = try makeApp()
        let detail = FlowController(name: "detail")
        try stack.push(detail)
        var origin: String?
        app.on(Ping.self) { _, from in
            origin = from.path
            return .handled
        }
        runtime.send(Ping())
        #expect(origin == "app/main/stack/detail")
    }

    @Test("Registering a handler again replaces it; removing it lets events pass")
    func replaceAndRemoveHandlers() throws {
        let (runtime, _, app, main, _, list) = try makeApp()
        var seen: [String] = []
        main.on(Ping.self) { _ in
            seen.append("first")
            return .handled
        }
        main.on(Ping.self) { _ in
            seen.append("second")
            return .handled
        }
        app.on(Ping.self) { _ in
            seen.append("app")
            return .handled
        }
        list.send(Ping())
        main.removeHandler(for: Ping.self)
        list.send(Ping())
        #expect(seen == ["second", "app"])
        #expect(!main.handles(Ping.self))
        #expect(app.handles(Ping.self))
        _ = runtime
    }

    @Test("Many event types on one node are each found (no filter collisions lose events)")
    func manyTypesOnOneNode() throws {
        let (runtime, _, app, _, _, list) = try makeApp()
        defer { withExtendedLifetime(runtime) {} }
        var seen: [Int] = []
        func register<E: FlowEvent>(_ type: E.Type, _ tag: Int) {
            app.on(type) { _ in
                seen.append(tag)
                return .handled
            }
        }
        register(E1.self, 1)
        register(E2.self, 2)
        register(E3.self, 3)
        register(E4.self, 4)
        register(E5.self, 5)
        register(E6.self, 6)
        register(E7.self, 7)
        register(E8.self, 8)
        register(E9.self, 9)
        list.send(E9())
        list.send(E1())
        list.send(E5())
        list.send(E2())
        list.send(E8())
        #expect(seen == [9, 1, 5, 2, 8])
    }

    @Test(
        "Dispatch walks every hop of deep chains to the root", arguments: [1, 10, 100, 1000])
    func deepChains(depth: Int) throws {
        let (runtime, nodes) = try makeChain(depth: depth)
        var handled = 0
        nodes[0].on(Ping.self) { _ in
            handled += 1
            return .handled
        }
        runtime.trace.removeAll()
        nodes.last!.send(Ping())
        #expect(handled == 1)
        #expect(runtime.trace.lines.last == "handled Ping at root")
    }

    // MARK: Throwing handlers

    struct Refusal: Error, CustomStringConvertible {
        var description: String { "refused by the handler" }
    }

    @Test("A throwing handler stops the event; the error is in onError and the trace once")
    func throwingHandler() throws {
        let (runtime, _, app, main, stack, list) = try makeApp()
        var failures: [FlowFailure] = []
        runtime.onError = { failures.append($0) }
        var appSaw = 0
        app.on(Ping.self) { _ in
            appSaw += 1
            return .handled
        }
        stack.on(Ping.self) { _ in .forward }
        main.on(Ping.self) { _ in throw Refusal() }
        list.send(Ping())
        #expect(appSaw == 0)
        #expect(
            failures.map(\.description) == [
                "handler Ping at app/main failed: refused by the handler"
            ])
        #expect(
            failures.first?.kind == .handler(event: "Ping") && failures.first?.node == "app/main")
        #expect(
            runtime.trace.lines.suffix(2) == [
                "send Ping from app/main/stack/list",
                "failed handler Ping at app/main: refused by the handler",
            ])
        // A guard's refusal thrown from a handler is no longer lost.
        let editor = FlowController(name: "editor")
        editor.entryGuard = { .refuse("read-only") }
        main.on(Ping.self) { _ in
            try stack.push(editor)
            return .handled
        }
        list.send(Ping())
        #expect(failures.count == 2)
        #expect(
            failures.last?.error as? FlowError
                == .entryRefused(node: "app/main/stack/editor", reason: "read-only"))
        #expect(runtime.trace.lines.filter { $0.hasPrefix("failed") }.count == 2)
    }

    @Test("respond(to:) passes the node, so a node that never enters is not kept alive")
    func respondPassesTheNode() throws {
        let (runtime, _, _, _, stack, _) = try makeApp()
        weak var weakEditor: FlowController?
        var saved: [String] = []
        do {
            let editor = FlowController(name: "editor")
            weakEditor = editor
            editor.respond(to: Ping.self) { editor, _ in
                saved.append(editor.path)
                return .handled
            }
            editor.entryGuard = { .refuse("never") }
            #expect(throws: FlowError.self) { try stack.push(editor) }
        }
        #expect(weakEditor == nil)
        let screen = FlowController(name: "screen")
        screen.respond(to: Ping.self) { screen, _ in
            saved.append(screen.path)
            return .handled
        }
        try stack.push(screen)
        screen.send(Ping())
        #expect(saved == ["app/main/stack/screen"])
        _ = runtime
    }

    @Test(
        "Replacing or removing a handler runs its captures' deinit outside the handler table",
        .bug(
            id: "9.16",
            "a handler's captures that registered or removed a handler in their deinit trapped with simultaneous accesses"
        ))
    func handlerReleaseReentersTheTable() throws {
        let (runtime, _, _, _, stack, _) = try makeApp()
        let node = FlowController(name: "screen")
        try stack.push(node)
        var log: [String] = []
        // Replacing a handler: the old one's captured object registers another handler as it
        // goes (this trapped with "simultaneous accesses": the release ran inside the write).
        do {
            let token = OnDeinit {
                node.on(Pong.self) { _ in
                    log.append("pong")
                    return .handled
                }
            }
            node.on(Ping.self) { _ in
                _ = token
                return .handled
            }
        }
        node.on(Ping.self) { _ in
            log.append("ping")
            return .handled
        }
        node.send(Ping())
        node.send(Pong())
        #expect(log == ["ping", "pong"])
        // Removing a handler: the removed one's captured object removes another as it goes.
        do {
            let token = OnDeinit { node.removeHandler(for: Pong.self) }
            node.on(SignOut.self) { _ in
                _ = token
                return .handled
            }
        }
        node.removeHandler(for: SignOut.self)
        #expect(!node.handles(SignOut.self) && !node.handles(Pong.self) && node.handles(Ping.self))
        node.send(Ping())
        node.send(Pong())
        #expect(log == ["ping", "pong", "ping"])
        _ = runtime
    }

    @Test(
        "A popped node's last release asks for changes and events: they run, on storage FlowKit no longer holds"
    )
    func releaseOfAPoppedNodeAsksForChanges() throws {
        // The popped node's last reference goes when the change that removed it is emptied
        // for reuse (unchecked storage); what its captures' deinit asks for must not touch
        // that change (it makes another) nor find the tree half changed.
        let other = FlowStack(name: "other", root: FlowController(name: "o0"))
        let stack = FlowStack(name: "stack", root: FlowController(name: "s0"))
        let app = FlowParallel(name: "app", regions: [stack, other])
        let runtime = try FlowRuntime(root: app)
        try runtime.start()
        var log: [String] = []
        weak var released: FlowController?
        do {
            let screen = FlowController(name: "s1")
            let token = OnDeinit {
                log.append("released")
                do {
                    try other.push(FlowController(name: "o1"))
                    try stack.push(FlowController(name: "s2"))
                } catch {
                    log.append("threw \(error)")
                }
                runtime.send(Ping())
            }
            screen.on(Ping.self) { _ in
                _ = token
                return .handled
            }
            app.on(Ping.self) { _ in
                log.append("ping")
                return .handled
            }
            try stack.push(screen)
            released = screen
        }
        try stack.pop()
        #expect(released == nil)
        #expect(log.first == "released" && !log.contains { $0.hasPrefix("threw") })
        #expect(other.entries.map(\.name) == ["o0", "o1"])
        #expect(stack.entries.map(\.name) == ["s0", "s2"])
        #expect(log.contains("ping"))
        #expect(runtime.root === app && app.state == .entered)
    }
}

struct E1: FlowEvent {}

struct E2: FlowEvent {}

struct E3: FlowEvent {}

struct E4: FlowEvent {}

struct E5: FlowEvent {}

struct E6: FlowEvent {}

struct E7: FlowEvent {}

struct E8: FlowEvent {}

struct E9: FlowEvent {}

/// Runs `action` (on the main actor, where the tests release it) when it is freed.
private final class OnDeinit {
    let action: @MainActor () -> Void

    init(_ action: @escaping @MainActor () -> Void) {
        self.action = action
    }

    deinit {
        let action = action
        MainActor.assumeIsolated { action() }
    }
}
