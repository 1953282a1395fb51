import FlowKit
import Foundation
import Synchronization

/// The event every dispatch case sends: the root adds `value` to its counter.
struct Ping: FlowEvent {
    let value: Int
}

/// The chain depths (hops from the sending leaf up to the handling root) every dispatch case
/// runs at.
let dispatchDepths = [1, 10, 100]

/// Events per timed repetition at each depth (about a millisecond for FlowKit).
func dispatchEvents(depth: Int) -> Int {
    switch depth {
    case ..<10: return 20_000
    case ..<100: return 10_000
    default: return 2_000
    }
}

// MARK: - FlowKit

/// How a benchmark's runtime traces.
enum BenchTrace {
    /// `FlowTrace(isEnabled: false)`: what every FlowKit case uses unless it says otherwise.
    case off
    /// `FlowTrace(isEnabled: true)`.
    case on
    /// Whatever `FlowRuntime(root:)` does when the app passes no trace: the default
    /// `FlowTrace()`, however the library defines it.
    case defaultTrace

    /// A runtime for `root`, without a host, tracing this way.
    @MainActor
    func runtime(root: FlowController) throws -> FlowRuntime {
        switch self {
        case .off: return try FlowRuntime(root: root, host: nil, trace: FlowTrace(isEnabled: false))
        case .on: return try FlowRuntime(root: root, host: nil, trace: FlowTrace(isEnabled: true))
        case .defaultTrace: return try FlowRuntime(root: root)
        }
    }
}

/// A FlowKit chain: a root that handles ``Ping`` and `depth` nested nodes below it, entered in
/// a runtime.
@MainActor
struct FlowKitChain {
    let runtime: FlowRuntime
    let leaf: FlowController
    let counter: Counter

    init(depth: Int, trace: BenchTrace) throws {
        let counter = Counter()
        let root = FlowController(name: "root")
        root.on(Ping.self) { event in
            counter.value &+= event.value
            return .handled
        }
        var node = root
        for _ in 0..<depth {
            let child = FlowController(name: "node")
            try node.embed(child)
            node = child
        }
        runtime = try trace.runtime(root: root)
        try runtime.start()
        precondition(node.state == .entered && runtime.focusedNode === node)
        leaf = node
        self.counter = counter
    }
}

// MARK: - Baselines

/// The physical limit: final classes linked by unretained references, walked without any
/// reference counting, the handler found by a stored flag.
final class RawChainNode {
    unowned(unsafe) var next: RawChainNode?
    let handlesPing: Bool
    var total = 0

    init(next: RawChainNode?, handlesPing: Bool) {
        self.next = next
        self.handlesPing = handlesPing
    }
}

/// A hand-written chain of ``RawChainNode``s; `nodes` keeps them alive.
struct RawChain {
    let nodes: [RawChainNode]
    var leaf: RawChainNode { nodes[nodes.count - 1] }
    var root: RawChainNode { nodes[0] }

    init(depth: Int) {
        var nodes = [RawChainNode(next: nil, handlesPing: true)]
        for _ in 0..<depth {
            nodes.append(RawChainNode(next: nodes[nodes.count - 1], handlesPing: false))
        }
        self.nodes = nodes
    }

    @inline(never)
    static func send(_ event: Ping, from leaf: RawChainNode) {
        unowned(unsafe) var node = leaf
        while !node.handlesPing { node = node.next.unsafelyUnwrapped }
        node.total &+= event.value
    }
}

/// A UIResponder-style chain: a class hierarchy with an overridable `next` backed by a weak
/// reference, and overridable `canHandle`/`handle`, walked from the first responder up.
class ChainResponder {
    weak var parentResponder: ChainResponder?

    /// The next responder (UIKit's `next`), overridable.
    var next: ChainResponder? { parentResponder }

    func canHandle(_ event: Ping) -> Bool { false }
    func handle(_ event: Ping) {}

    /// Offers `event` to this responder, then to each `next` until one handles it.
    @inline(never)
    final func send(_ event: Ping) -> Bool {
        var responder: ChainResponder? = self
        while let current = responder {
            if current.canHandle(event) {
                current.handle(event)
                return true
            }
            responder = current.next
        }
        return false
    }
}

/// A screen in the responder-style chain: forwards everything.
class ScreenResponder: ChainResponder {}

/// A flow in the responder-style chain (a subclass of a subclass, as UIKit's are).
class FlowResponder: ScreenResponder {}

/// The root of the responder-style chain: handles ``Ping``.
final class RootResponder: FlowResponder {
    var total = 0
    override func canHandle(_ event: Ping) -> Bool { true }
    override func handle(_ event: Ping) { total &+= event.value }
}

/// A ``ChainResponder`` chain of `depth` hops; `nodes` keeps them alive (parents are weak).
struct ResponderChain {
    let root: RootResponder
    let nodes: [ChainResponder]
    var leaf: ChainResponder { nodes[nodes.count - 1] }

    init(depth: Int) {
        root = RootResponder()
        var nodes: [ChainResponder] = [root]
        for index in 0..<depth {
            let node: ChainResponder = index.isMultiple(of: 2) ? FlowResponder() : ScreenResponder()
            node.parentResponder = nodes[nodes.count - 1]
            nodes.append(node)
        }
        self.nodes = nodes
    }
}

/// A closure-forwarding chain, the coordinator way: each child's callback calls its
/// parent's through a `[weak parent]` capture.
final class ClosureNode {
    var onPing: (Ping) -> Void = { _ in }
}

/// A chain of ``ClosureNode``s; `nodes` keeps them alive.
struct ClosureChain {
    let nodes: [ClosureNode]
    let counter: Counter
    var leaf: ClosureNode { nodes[nodes.count - 1] }

    init(depth: Int) {
        let counter = Counter()
        let root = ClosureNode()
        root.onPing = { event in counter.value &+= event.value }
        var nodes = [root]
        for _ in 0..<depth {
            let child = ClosureNode()
            let parent = nodes[nodes.count - 1]
            child.onPing = { [weak parent] event in parent?.onPing(event) }
            nodes.append(child)
        }
        self.nodes = nodes
        self.counter = counter
    }
}

/// A thread-safe count for the notification observer (its block must be `Sendable`).
final class AtomicCounter: Sendable {
    let value = Atomic<Int>(0)
}

/// One observer at the "root" of a private `NotificationCenter`; the "leaf" posts.
struct NotificationChain {
    static let name = Notification.Name("FlowKitBench.Ping")
    let center = NotificationCenter()
    let counter = AtomicCounter()
    let observer: any NSObjectProtocol
    let sender = NSObject()

    init() {
        let counter = counter
        observer = center.addObserver(forName: Self.name, object: nil, queue: nil) { _ in
            counter.value.add(1, ordering: .relaxed)
        }
    }
}

// MARK: - Cases

/// Event dispatch from a leaf `depth` hops below the handling root: FlowKit beside the
/// hand-written limit, a UIResponder-style weak chain, closure forwarding and
/// `NotificationCenter`.
@MainActor
func runDispatchBenchmarks(_ harness: Harness) throws {
    for depth in dispatchDepths {
        let events = dispatchEvents(depth: depth)
        let hops = (label: "hop", count: depth)

        let flow = try FlowKitChain(depth: depth, trace: .off)
        harness.measure("Dispatch.flowkit/depth=\(depth)", operations: events, perUnit: hops) {
            let before = flow.counter.value
            for _ in 0..<events { flow.leaf.send(Ping(value: 1)) }
            precondition(flow.counter.value == before + events, "FlowKit lost events")
            return UInt(flow.counter.value)
        }

        let raw = RawChain(depth: depth)
        let rawLeaf = raw.leaf
        harness.measure("Dispatch.rawChain/depth=\(depth)", operations: events, perUnit: hops) {
            let before = raw.root.total
            for _ in 0..<events { RawChain.send(Ping(value: 1), from: rawLeaf) }
            precondition(raw.root.total == before + events, "raw chain lost events")
            return UInt(raw.root.total)
        }

        let responders = ResponderChain(depth: depth)
        let responderLeaf = responders.leaf
        harness.measure(
            "Dispatch.responderWeak/depth=\(depth)", operations: events, perUnit: hops
        ) {
            let before = responders.root.total
            var handled = 0
            for _ in 0..<events where responderLeaf.send(Ping(value: 1)) { handled += 1 }
            precondition(handled == events && responders.root.total == before + events)
            return UInt(responders.root.total)
        }

        let closures = ClosureChain(depth: depth)
        let closureLeaf = closures.leaf
        harness.measure(
            "Dispatch.closureWeak/depth=\(depth)", operations: events, perUnit: hops
        ) {
            let before = closures.counter.value
            for _ in 0..<events { closureLeaf.onPing(Ping(value: 1)) }
            precondition(closures.counter.value == before + events, "closure chain lost events")
            return UInt(closures.counter.value)
        }

        let notifications = NotificationChain()
        harness.measure(
            "Dispatch.notificationCenter/depth=\(depth)", operations: events, perUnit: hops
        ) {
            let before = notifications.counter.value.load(ordering: .relaxed)
            for _ in 0..<events {
                notifications.center.post(
                    name: NotificationChain.name, object: notifications.sender)
            }
            let after = notifications.counter.value.load(ordering: .relaxed)
            precondition(after == before + events, "NotificationCenter lost notifications")
            return UInt(after)
        }
        notifications.center.removeObserver(notifications.observer)
    }

    // The trace is on by default: one case shows what it costs with the trace enabled
    // explicitly, one with the runtime's default trace (`FlowRuntime(root:)`), whatever that is.
    let depth = 10
    let events = dispatchEvents(depth: depth)
    for (name, trace) in [("flowkitTraced", BenchTrace.on), ("flowkitDefaultTrace", .defaultTrace)]
    {
        let traced = try FlowKitChain(depth: depth, trace: trace)
        harness.measure(
            "Dispatch.\(name)/depth=\(depth)", operations: events,
            perUnit: (label: "hop", count: depth)
        ) {
            let before = traced.counter.value
            for _ in 0..<events { traced.leaf.send(Ping(value: 1)) }
            precondition(traced.counter.value == before + events, "FlowKit lost events")
            return UInt(traced.counter.value)
        }
    }
}
