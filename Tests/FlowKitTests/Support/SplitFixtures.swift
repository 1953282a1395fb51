import FlowKit

/// A stack that logs its hooks like ``LoggingNode``.
@MainActor
final class LoggingStack: FlowStack {
    let journal: Journal

    init(_ name: String, route: FlowRoute? = nil, root: FlowController? = nil, journal: Journal) {
        self.journal = journal
        super.init(name: name, route: route, root: root)
    }

    override func didEnter() { journal.entries.append("enter \(name)") }
    override func willExit() { journal.entries.append("exit \(name)") }
    override func didBecomeActive() { journal.entries.append("active \(name)") }
    override func didResignActive() { journal.entries.append("inactive \(name)") }
}

/// A three-column split app: `split` → sidebar (stack [sections]), content (stack [list]),
/// detail (stack [item]), started with a recording host. Every node logs its hooks.
@MainActor
final class SplitApp {
    let journal = Journal()
    let host = RecordingFlowHost()
    let sidebar: LoggingStack
    let content: LoggingStack
    let detail: LoggingStack
    let split: FlowSplit
    let runtime: FlowRuntime

    init(focus: FlowSplit.Column = .sidebar, withDetail: Bool = true) throws {
        sidebar = LoggingStack(
            "sidebar", route: "sidebar", root: LoggingNode("sections", journal: journal),
            journal: journal)
        content = LoggingStack(
            "content", route: "content", root: LoggingNode("list", journal: journal),
            journal: journal)
        detail = LoggingStack(
            "detail", route: "detail",
            root: withDetail ? LoggingNode("item", route: "item", journal: journal) : nil,
            journal: journal)
        split = FlowSplit(
            name: "split", sidebar: sidebar, content: content, detail: detail, focus: focus)
        runtime = try FlowRuntime(root: split, host: host)
        try runtime.start()
    }

    /// Forgets what was logged, reported and traced so far.
    func reset() {
        journal.entries.removeAll()
        host.removeAll()
        runtime.trace.removeAll()
    }

    var focus: [String] { runtime.focusedPath.map(\.path) }
    var active: [String] { runtime.activeNodes.map(\.path) }
    var compact: [String] { split.compactStack.map(\.name) }
}

extension FlowRuntime {
    /// Whether every node's `isActive` agrees with ``FlowRuntime/activeNodes``, and every
    /// node of the focused path is active.
    var activationIsConsistent: Bool {
        guard let root else { return activeNodes.isEmpty }
        let active = Set(activeNodes.map(ObjectIdentifier.init))
        var pending = [root]
        while let node = pending.popLast() {
            if node.isActive != active.contains(ObjectIdentifier(node)) { return false }
            pending.append(contentsOf: node.children)
            if let presented = node.presentedChild { pending.append(presented) }
        }
        return focusedPath.allSatisfy(\.isActive)
    }
}
