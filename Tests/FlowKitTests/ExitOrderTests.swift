import FlowKit
import FlowKitTesting
import Testing

/// A stack `nav > [list, a, b]` whose entry `b` presents `sheet`, started; every node logs
/// its exit guard's call into `asked`.
@MainActor
private final class CoveredStack {
    let list = FlowController(name: "list", route: "list")
    let a = FlowController(name: "a", route: "a")
    let b = FlowController(name: "b", route: "b")
    let sheet = FlowController(name: "sheet")
    let nav: FlowStack
    let host = RecordingFlowHost()
    let runtime: FlowRuntime
    var asked: [String] = []
    /// Names whose exit guard refuses.
    var refusing: Set<String> = []

    init() throws {
        nav = FlowStack(name: "nav", root: list)
        try nav.push(a)
        try nav.push(b)
        try b.present(sheet)
        runtime = try FlowRuntime(root: nav, host: host)
        for node in [list, a, b, sheet] {
            node.exitGuard = { [unowned self, unowned node] in
                self.asked.append(node.name)
                return self.refusing.contains(node.name) ? .refuse("busy") : .allow
            }
        }
        try runtime.start()
        host.removeAll()
        runtime.trace.removeAll()
    }

    var exits: [String] { runtime.trace.lines.filter { $0.hasPrefix("exit ") } }
}

/// The last change the trace recorded.
@MainActor
private func lastChange(in runtime: FlowRuntime) -> FlowChange? {
    runtime.trace.records.compactMap { record -> FlowChange? in
        if case .change(let change) = record { return change }
        return nil
    }.last
}

/// The exit lines of the trace.
@MainActor
private func exitLines(of runtime: FlowRuntime) -> [String] {
    runtime.trace.lines.filter { $0.hasPrefix("exit ") }
}

/// `stack > [list, a, b]`, started with an empty trace; `a` registers `y` and is prepared by
/// `prepare` before `b` is pushed.
@MainActor
private func keptEntryStack(
    prepare: (FlowController) throws -> Void
) throws -> (runtime: FlowRuntime, stack: FlowStack, a: FlowController, b: FlowController) {
    let a = FlowController(name: "a", route: "a")
    let b = FlowController(name: "b", route: "b")
    a.register("y") { FlowController(name: "y") }
    let stack = FlowStack(name: "stack", root: FlowController(name: "list", route: "list"))
    try stack.push(a)
    try prepare(a)
    try stack.push(b)
    let runtime = try FlowRuntime(root: stack)
    try runtime.start()
    runtime.trace.removeAll()
    return (runtime, stack, a, b)
}

@MainActor
@Suite("Exit order: one order for every change (top-most first, each subtree innermost first)")
struct ExitOrderTests {
    @Test(
        "unwind(to:) exits popped entries top-most first, as pop(to:) does",
        .bug(id: "21.3", "unwind exited popped entries bottom-first"),
        arguments: ["unwind", "pop(to:)", "navigate", "setStack", "platformDidPop"])
    func unwindExitsTopMostFirst(operation: String) throws {
        let app = try CoveredStack()
        switch operation {
        case "unwind": try app.runtime.unwind(to: app.list)
        case "pop(to:)": try app.nav.pop(to: app.list)
        case "navigate": try app.nav.navigate(to: ["list"])
        case "setStack": try app.nav.setStack([app.list])
        default: try app.nav.platformDidPop(to: app.list)
        }
        #expect(app.exits == ["exit nav/b/sheet", "exit nav/b", "exit nav/a"])
        #expect(lastChange(in: app.runtime)?.exited == ["nav/b", "nav/a"])
        if operation != "platformDidPop" {
            // Guards are asked in exit order too.
            #expect(app.asked == ["sheet", "b", "a"])
        }
    }

    @Test(
        "A refusing guard names the same node whether unwind or pop(to:) asks",
        .bug(id: "21.6", "unwind asked its guards bottom-first"))
    func refusalNamesTheTopMostNode() throws {
        for useUnwind in [true, false] {
            let app = try CoveredStack()
            app.refusing = ["a", "b"]
            #expect(throws: FlowError.exitRefused(node: "nav/b", reason: "busy")) {
                if useUnwind {
                    try app.runtime.unwind(to: app.list)
                } else {
                    try app.nav.pop(to: app.list)
                }
            }
            #expect(app.nav.entries.map(\.name) == ["list", "a", "b"])
        }
    }

    @Test(
        "An unwind that pops is reported in the stack it pops, which a host re-reads",
        .bug(id: "21.4", "unwind was reported in its target entry"))
    func unwindReportsTheStack() throws {
        let app = try CoveredStack()
        try app.runtime.unwind(to: app.list)
        #expect(app.host.changes.map(\.description) == ["unwind nav -nav/b -nav/a"])
        #expect(app.host.changes.first?.containerID == app.nav.id)
        // The same entries popped with popToRoot report the same container.
        let other = try CoveredStack()
        try other.nav.popToRoot()
        #expect(other.host.changes.first?.container == "nav")
    }

    @Test("An unwind that only dismisses is reported in the presenter")
    func unwindDismissReportsPresenter() throws {
        let app = try CoveredStack()
        try app.sheet.unwind(to: app.b)
        #expect(app.host.changes.map(\.description) == ["unwind nav/b -nav/b/sheet"])
    }

    @Test(
        "A navigation that keeps an entry exits the entries above it before what it replaces below",
        .bug(id: "21.6", "a kept entry's content exited before the entries above it"))
    func keptEntryContentExitsAfterEntriesAbove() throws {
        let x = FlowController(name: "x", route: "x")
        let (runtime, stack, a, b) = try keptEntryStack { a in
            a.history = .recorded
            try a.embed(x)
        }
        var asked: [String] = []
        for node in [x, b] {
            node.exitGuard = { [unowned node] in
                asked.append(node.name)
                return .allow
            }
        }
        try stack.navigate(to: ["a"], history: .deep, historyDefault: "y")
        #expect(asked == ["b", "x"])
        #expect(exitLines(of: runtime) == ["exit stack/b", "exit stack/a/x"])
        #expect(lastChange(in: runtime)?.exited == ["stack/b", "stack/a/x"])
        #expect(stack.entries.map(\.name) == ["list", "a"])
        #expect(a.children.map(\.name) == ["y"])
    }

    @Test(
        "A path that dismisses what a kept entry presents pops the entries above it first",
        .bug(id: "21.6", "a kept entry's presented node exited before the entries above it"))
    func keptEntryDismissalAfterEntriesAbove() throws {
        let (runtime, stack, a, _) = try keptEntryStack { a in
            try a.present(FlowController(name: "sheet"))
        }
        // One change: a's content is replaced (its sheet dismissed) and b, above it, popped.
        try stack.navigate(to: ["a"], history: .deep, historyDefault: "y")
        #expect(exitLines(of: runtime) == ["exit stack/b", "exit stack/a/sheet"])
        #expect(a.presentedChild == nil && a.children.map(\.name) == ["y"])
    }
}
