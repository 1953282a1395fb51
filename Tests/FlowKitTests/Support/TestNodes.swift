import FlowKit

/// A node that logs its lifecycle hooks into a shared journal.
@MainActor
final class Journal {
    var entries: [String] = []
}

@MainActor
class LoggingNode: FlowController {
    let journal: Journal?

    init(_ name: String, route: FlowRoute? = nil, journal: Journal? = nil) {
        self.journal = journal
        super.init(name: name, route: route)
    }

    override func didEnter() { journal?.entries.append("enter \(name)") }
    override func willExit() { journal?.entries.append("exit \(name)") }
    override func didBecomeActive() { journal?.entries.append("active \(name)") }
    override func didResignActive() { journal?.entries.append("inactive \(name)") }
}

struct Ping: FlowEvent {
    var value = 0
}

struct Pong: FlowEvent {}

struct SignOut: FlowEvent {}

/// Builds `app` (a switch) → `main` → `stack` → [`list`], started, with a recording host.
@MainActor
func makeApp(
    journal: Journal? = nil
) throws -> (
    runtime: FlowRuntime, host: RecordingFlowHost, app: FlowSwitch, main: FlowController,
    stack: FlowStack, list: FlowController
) {
    let list = LoggingNode("list", journal: journal)
    let stack = FlowStack(name: "stack", root: list)
    let main = LoggingNode("main", journal: journal)
    try main.embed(stack)
    let app = FlowSwitch(name: "app", initial: main)
    let host = RecordingFlowHost()
    let runtime = try FlowRuntime(root: app, host: host)
    try runtime.start()
    return (runtime, host, app, main, stack, list)
}

/// Tracks objects weakly so a test can prove they deallocated.
@MainActor
final class WeakBag {
    private final class Ref {
        weak var object: AnyObject?
        init(_ object: AnyObject) { self.object = object }
    }

    private var items: [(String, Ref)] = []

    func track(_ object: AnyObject, _ label: String) {
        items.append((label, Ref(object)))
    }

    var alive: [String] { items.filter { $0.1.object != nil }.map(\.0) }
}

/// Everything observable about a runtime: the tree picture, the host's record, the trace.
struct Observable: Equatable {
    let tree: String
    let changes: [FlowChange]
    let trace: [FlowTraceRecord]
    let focus: [String]
}

@MainActor
func observe(_ runtime: FlowRuntime, _ host: RecordingFlowHost) -> Observable {
    Observable(
        tree: runtime.treeDescription(), changes: host.changes, trace: runtime.trace.records,
        focus: runtime.focusedPath.map(\.path))
}

/// Builds a chain root → n1 → … → n`depth` (each embeds the next), started.
@MainActor
func makeChain(depth: Int) throws -> (runtime: FlowRuntime, nodes: [FlowController]) {
    var nodes: [FlowController] = [FlowController(name: "root")]
    for index in 1...depth {
        let node = FlowController(name: "n\(index)")
        try nodes.last!.embed(node)
        nodes.append(node)
    }
    let runtime = try FlowRuntime(root: nodes[0])
    try runtime.start()
    return (runtime, nodes)
}
