import FlowKit
import FlowKitTesting
import Testing

/// An event that carries a node: a wireframe that routes by events.
private struct ShowScreen: FlowEvent {
    let screen: FlowController
}

/// An event that holds references and names itself.
private struct Named: FlowEvent {
    let label: String
    var traceName: String { "Named(\(label))" }
}

@MainActor
@Suite("Trace: records keep what they print, never a node")
struct TraceTests {
    @Test(
        "A node carried by an event is released when it exits, with the default trace on",
        .bug(id: "21.1", "the trace ring kept event values, and the nodes they carried"))
    func eventCarriedNodeIsReleased() throws {
        let child = FlowController(name: "child")
        let root = FlowSwitch(name: "root", initial: child)
        root.on(ShowScreen.self) { [unowned root] event in
            try root.switch(to: event.screen)
            return .handled
        }
        let runtime = try FlowRuntime(root: root)
        try runtime.start()
        let bag = WeakBag()
        do {
            let login = FlowController(name: "login")
            bag.track(login, "login")
            child.send(ShowScreen(screen: login))
        }
        #expect(root.current?.name == "login")
        try root.switch(to: FlowController(name: "main"))
        #expect(bag.alive.isEmpty)
        // The trace still prints the event.
        #expect(runtime.trace.isEnabled)
        #expect(runtime.trace.lines.contains("send ShowScreen from root/child"))
        #expect(runtime.trace.lines.contains("handled ShowScreen at root"))
    }

    @Test("An event that holds references keeps its own trace name; trivial events print as before")
    func namesAreKept() throws {
        let (runtime, _, _, _, _, list) = try makeApp()
        runtime.trace.removeAll()
        list.send(Named(label: "x"))
        list.send(Ping(value: 3))
        #expect(
            runtime.trace.lines == [
                "send Named(x) from app/main/stack/list",
                "unhandled Named(x) from app/main/stack/list",
                "send Ping from app/main/stack/list", "unhandled Ping from app/main/stack/list",
            ])
    }

    @Test("A dropped event that carried a node does not keep it either")
    func droppedEventReleasesItsNode() throws {
        let (runtime, _, _, _, stack, _) = try makeApp()
        let bag = WeakBag()
        let detail = FlowController(name: "detail")
        try stack.push(detail)
        detail.on(Ping.self) { [unowned detail] _ in
            // Sent while this event is handled: queued, and dropped once detail has left.
            do {
                let carried = FlowController(name: "carried")
                bag.track(carried, "carried")
                detail.send(ShowScreen(screen: carried))
            }
            try stack.pop()
            return .handled
        }
        detail.send(Ping())
        #expect(runtime.trace.lines.contains { $0.hasPrefix("dropped ShowScreen from") })
        #expect(bag.alive.isEmpty)
    }

    @Test("Several trace observers see every record; a removed one sees no more")
    func traceObservers() throws {
        let (runtime, _, app, _, _, list) = try makeApp()
        var first: [String] = []
        var second: [String] = []
        let one = runtime.trace.addObserver { first.append($0.description) }
        runtime.trace.addObserver { second.append($0.description) }
        app.on(Ping.self) { _ in .handled }
        list.send(Ping())
        runtime.trace.removeObserver(one)
        list.send(Ping())
        #expect(first == ["send Ping from app/main/stack/list", "handled Ping at app"])
        #expect(second == first + first)
    }
}
