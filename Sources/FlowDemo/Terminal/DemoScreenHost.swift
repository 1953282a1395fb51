import FlowKit

/// The terminal as a platform whose transitions take time: the ``FlowTransitionHost`` behind
/// the demo's ``FlowTransitions`` (UIKit's rules).
///
///     let host = DemoScreenHost(duration: .milliseconds(250), clock: clock)
///     let transitions = FlowTransitions(host: host)
///     // a push starts at clock.now and ends 250 ms later:
///     host.catchUp()   // ends the steps whose time has come; the next ones start
///
/// With a zero ``duration`` (piped input, the default in tests) every step ends inside
/// ``perform(_:in:completion:)``, so the screen always shows the tree. Otherwise a step takes
/// ``duration`` on the app's ``DemoClock``, and only ``catchUp()`` ends it: the runner calls it
/// as real time passes, tests after moving a ``ManualDemoClock``. Nothing here waits.
@MainActor
public final class DemoScreenHost: FlowTransitionHost {
    /// A step the terminal is showing, and when it ends.
    public struct Transition: Equatable, Sendable {
        /// The step.
        public let step: FlowTransitionStep
        /// What it does, in words: `push detail`, `pop detail`, `present rate`.
        public let title: String
        /// The clock reading when it started.
        public let start: Duration
        /// The clock reading when it ends.
        public let end: Duration
    }

    public let transitionRules = FlowTransitionRules.uiKit
    /// How long a step takes; zero: no time at all.
    public let duration: Duration
    /// The clock steps are timed with.
    public let clock: any DemoClock
    /// The steps running, oldest first.
    public private(set) var running: [Transition] = []
    /// What the steps performed did, in words, oldest first (the most recent 100).
    public private(set) var log: [String] = []
    private var completions: [FlowTransitionCompletion] = []
    /// The names of the nodes the steps showed, by identity: a node that left the tree is
    /// still on screen until a step removes it, and `tree` names it.
    private var names: [FlowNodeID: String] = [:]

    /// Creates a host whose steps take `duration` on `clock`.
    public init(duration: Duration, clock: any DemoClock) {
        self.duration = duration
        self.clock = clock
    }

    /// Whether a step is running.
    public var isAnimating: Bool { !running.isEmpty }

    public func perform(
        _ step: FlowTransitionStep, in runtime: FlowRuntime,
        completion: FlowTransitionCompletion
    ) {
        remember(step, in: runtime)
        let words = title(of: step, in: runtime)
        if log.count >= 100 { log.removeFirst(50) }
        log.append(words)
        if duration == .zero || step.kind == .stop {
            if step.kind == .stop {
                running.removeAll()
                completions.removeAll()
            }
            completion.done()
            return
        }
        let now = clock.now
        running.append(
            Transition(step: step, title: words, start: now, end: now + duration))
        completions.append(completion)
    }

    /// Ends every step whose end has come by the clock, in order; the steps their
    /// completions start are timed from now, and end in turn if their time has come too
    /// (never: they start now).
    public func catchUp() {
        let now = clock.now
        while let index = running.indices.min(by: { running[$0].end < running[$1].end }),
            running[index].end <= now
        {
            running.remove(at: index)
            completions.remove(at: index).done()
        }
    }

    /// How far the oldest running step has gone, from 0 to 1, and what it does; `nil` when
    /// none runs.
    public func progress() -> (title: String, fraction: Double)? {
        guard let first = running.first else { return nil }
        let total = first.end - first.start
        let done = clock.now - first.start
        let fraction = total > .zero ? min(1, max(0, done / total)) : 1
        return (first.title, fraction)
    }

    /// The name of the node `id` as a step showed it (`#id` if no step did).
    public func name(of id: FlowNodeID, in runtime: FlowRuntime) -> String {
        runtime.node(id: id)?.name ?? names[id] ?? id.description
    }

    /// The step in words, from the node names of the tree.
    private func title(of step: FlowTransitionStep, in runtime: FlowRuntime) -> String {
        func name(_ id: FlowNodeID?) -> String { id.map { names[$0] ?? $0.description } ?? "" }
        switch step.kind {
        case .start: return "start"
        case .setEntries(let from, let to):
            if to.count > from.count && to.starts(with: from) { return "push \(name(to.last))" }
            if from.count > to.count && from.starts(with: to) { return "pop \(name(from.last))" }
            return "show \(to.map { name($0) }.joined(separator: ", "))"
        case .setChildren(_, let to): return "show \(to.map { name($0) }.joined(separator: ", "))"
        case .select(_, let to):
            let tabs = runtime.node(id: step.container)?.children ?? []
            return "select " + (tabs.indices.contains(to) ? tabs[to].name : "tab \(to + 1)")
        case .present(let id): return "present \(name(id))"
        case .dismiss(let id): return "dismiss \(name(id))"
        case .stop: return "stop"
        }
    }

    /// Notes the names of the nodes `step` shows.
    private func remember(_ step: FlowTransitionStep, in runtime: FlowRuntime) {
        var ids: [FlowNodeID] = [step.container]
        switch step.kind {
        case .setEntries(_, let to), .setChildren(_, let to): ids += to
        case .present(let id): ids.append(id)
        default: break
        }
        var pending = ids.compactMap { runtime.node(id: $0) }
        if step.kind == .start, let root = runtime.root { pending = [root] }
        while let node = pending.popLast() {
            names[node.id] = node.name
            if step.kind == .start { pending += node.children }
        }
    }
}
