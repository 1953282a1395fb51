import Testing

@testable import FlowKit

/// A screen whose handler captures itself strongly and that runs a task until cancelled.
@MainActor
final class StickyScreen: FlowController {
    var exits = 0
    var sawCancellation = false

    init(_ name: String) {
        super.init(name: name)
        on(Ping.self) { _ in
            _ = self.name  // strong self capture on purpose
            return .forward
        }
        exitGuard = {
            _ = self.name; return .allow
        }  // strong capture in a guard too
        task {
            while !Task.isCancelled { await Task.yield() }
            self.sawCancellation = true
        }
    }

    override func willExit() { exits += 1 }
}

/// Builds a subtree of sticky screens: `root` embedding a stack of two entries, one of which
/// presents a modal; a service lives in the root's scope. Everything is tracked in `bag`.
@MainActor
func makeStickySubtree(_ name: String, bag: WeakBag) throws -> StickyScreen {
    let root = StickyScreen(name)
    let inner = FlowStack(name: "inner")
    let first = StickyScreen("first")
    let second = StickyScreen("second")
    try inner.setStack([first, second])
    try root.embed(inner)
    let modal = StickyScreen("modal")
    try second.present(modal)
    let service = Service("\(name)-service")
    root.dependencies.set(service, for: ServiceKey.self)
    for (node, label) in [
        (root, name), (inner, "inner"), (first, "first"), (second, "second"),
        (modal, "modal"),
    ] as [(FlowController, String)] {
        bag.track(node, "\(name).\(label)")
    }
    bag.track(service, "\(name).service")
    return root
}

@MainActor
@Suite("Teardown")
struct TeardownTests {
    @Test("The spare change offline composition reuses is emptied after each use: no node kept")
    func offlineCompositionKeepsNothing() throws {
        weak var weakStack: FlowStack?
        weak var weakScreen: FlowController?
        weak var weakRefused: FlowController?
        do {
            let stack = FlowStack(name: "stack", root: FlowController(name: "base"))
            let screen = FlowController(name: "screen")
            try stack.push(screen)  // offline: a single attach, made without a change
            try stack.pop()  // offline: structure only, through the spare change
            let refused = FlowController(name: "refused")
            try stack.push(refused)
            #expect(throws: FlowError.self) { try stack.push(refused) }  // already attached
            weakStack = stack
            weakScreen = screen
            weakRefused = refused
            #expect(_Transaction.spareOffline?.insertions.isEmpty == true)
            #expect(_Transaction.spareOffline?.layouts.isEmpty == true)
            #expect(_Transaction.spareOffline?.domain == nil)
        }
        #expect(weakStack == nil && weakScreen == nil && weakRefused == nil)

        // A large one is not kept: its arrays' capacity would stay allocated for good.
        let big = FlowStack(name: "big")
        try big.setStack((0..<200).map { FlowController(name: "n\($0)") })
        #expect(_Transaction.spareOffline == nil)
        try big.pop()
        #expect(_Transaction.spareOffline?.isWorthKeeping == true)
    }

    enum Removal: String, CaseIterable, Sendable {
        case pop, popTo, popToRoot, setStack, switchChild, dismiss, platformPop,
            platformPopTo, platformDismiss, navigate, stop
    }

    @Test("Every node of a removed subtree exits once and deallocates", arguments: Removal.allCases)
    func removedSubtreesDeallocate(_ removal: Removal) async throws {
        let bag = WeakBag()
        var sawCancellation: [() -> Bool] = []
        do {
            let (runtime, _, app, _, stack, list) = try makeApp()
            let victim = try makeStickySubtree("victim", bag: bag)
            let nodes = [victim] + victim.allDescendants()
            let sticky = nodes.compactMap { $0 as? StickyScreen }
            sawCancellation = sticky.map { node in { node.sawCancellation } }
            switch removal {
            case .pop, .popTo, .popToRoot, .platformPop, .platformPopTo, .setStack, .navigate:
                try stack.push(victim)
            case .switchChild, .stop:
                try app.switch(to: victim)
            case .dismiss, .platformDismiss:
                try list.present(victim)
            }
            #expect(nodes.allSatisfy { $0.state == .entered })
            #expect(sticky.allSatisfy { $0.runningTaskCount == 1 })
            switch removal {
            case .pop: try stack.pop()
            case .popTo: try stack.pop(to: list)
            case .popToRoot: try stack.popToRoot()
            case .setStack: try stack.setStack([list])
            case .switchChild: try app.switch(to: FlowController(name: "other"))
            case .dismiss: try list.dismiss()
            case .platformPop: try stack.platformDidPop()
            case .platformPopTo: try stack.platformDidPop(to: list)
            case .platformDismiss: try list.platformDidDismiss()
            case .navigate:
                stack.register("settings") { FlowController(name: "settings", route: "settings") }
                try stack.navigate(to: ["settings"])  // pushes settings
                #expect(victim.state == .entered)
                list.register("x") { FlowController(name: "x", route: "x") }
                stack.register("list") { FlowController(name: "list", route: "list") }
                try stack.navigate(to: ["settings"], reentering: true)  // everything exits
            case .stop: try runtime.stop()
            }
            for node in nodes {
                #expect(node.state == .exited, "\(node.path) should have exited")
                #expect(node.parent == nil && node.children.isEmpty && node.presentedChild == nil)
                #expect(node.runningTaskCount == 0)
            }
            #expect(sticky.map(\.exits) == Array(repeating: 1, count: sticky.count))
            let exitLines = runtime.trace.lines.filter {
                $0.hasPrefix("exit ") && $0.contains("victim")
            }
            #expect(exitLines.count == nodes.count)
        }
        // Tasks were cancelled at exit; each observes it, finishes and releases its node.
        try await Task.yieldUntil { sawCancellation.allSatisfy { $0() } }
        #expect(sawCancellation.allSatisfy { $0() })
        sawCancellation = []
        try await Task.yieldUntil { bag.alive.isEmpty }
        #expect(bag.alive == [])
    }

    @Test("Each exited node ran its exit hook exactly once")
    func exitHooksRunOnce() throws {
        let bag = WeakBag()
        let (runtime, _, _, _, stack, _) = try makeApp()
        let victim = try makeStickySubtree("victim", bag: bag)
        let nodes = ([victim] + victim.allDescendants()).compactMap { $0 as? StickyScreen }
        try stack.push(victim)
        try stack.pop()
        #expect(nodes.map(\.exits) == Array(repeating: 1, count: nodes.count))
        #expect(nodes.count == 4)
        _ = runtime
    }

    @Test("A popped subtree's dependency values are released with it")
    func dependencyValuesAreReleased() throws {
        let (runtime, _, _, main, stack, _) = try makeApp()
        weak var weakService: Service?
        do {
            let detail = FlowController(name: "detail")
            let service = Service("detail-only")
            weakService = service
            detail.dependencies.set(service, for: ServiceKey.self)
            try stack.push(detail)
            #expect(try detail.dependencies.require(ServiceKey.self) === service)
            #expect(main.dependencies.value(for: ServiceKey.self) == nil)
            try stack.pop()
        }
        #expect(weakService == nil)
        _ = runtime
    }

    @Test("Tearing down a deep chain does not recurse (10,000 levels)")
    func deepChainTeardown() throws {
        let (runtime, _, _, _, stack, _) = try makeApp()
        weak var weakLeaf: FlowController?
        do {
            let top = FlowController(name: "c0")
            var node = top
            for index in 1..<10_000 {
                let next = FlowController(name: "c\(index)")
                try node.embed(next)
                node = next
            }
            weakLeaf = node
            try stack.push(top)
            try stack.pop()
        }
        #expect(weakLeaf == nil)
        _ = runtime
    }

    @Test("An app that keeps a detached node can still use it safely")
    func detachedNodesAreSafe() throws {
        let (runtime, _, _, _, stack, _) = try makeApp()
        let keeper = FlowController(name: "keeper")
        let child = FlowController(name: "child")
        try keeper.embed(child)
        try stack.push(keeper)
        try stack.pop()
        #expect(child.parent == nil)
        #expect(child.path == "app/main/stack/keeper/child")  // last path, for messages
        child.send(Ping())  // dropped, no crash
        #expect(
            runtime.trace.lines.last
                == "dropped Ping from app/main/stack/keeper/child (sender left the tree)")
        #expect(throws: FlowError.nodeExited(node: "app/main/stack/keeper")) {
            try stack.push(keeper)
        }
    }

    @Test(
        "Guards, routes and history set on an exited node are ignored, so nothing is kept",
        .bug(
            id: "9.8",
            "guards, routes, handlers and tasks set on an exited node were kept, and kept it alive")
    )
    func settersOnExitedNodes() throws {
        let (runtime, _, _, _, stack, _) = try makeApp()
        weak var weakNode: FlowController?
        do {
            let node = FlowController(name: "gone")
            weakNode = node
            try stack.push(node)
            try stack.pop()
            node.exitGuard = {
                _ = node; return .allow
            }
            node.entryGuard = {
                _ = node; return .allow
            }
            node.initialRoute = "x"
            node.history = .deep
            node.on(Ping.self) { _ in
                _ = node; return .handled
            }
            node.register("y") {
                _ = node; return FlowController(name: "y", route: "y")
            }
            node.task { _ = node }
            #expect(node.exitGuard == nil && node.entryGuard == nil)
            #expect(node.initialRoute == nil && node.history == .none)
        }
        #expect(weakNode == nil)
        _ = runtime
    }
}

extension FlowController {
    /// Every node below this one (embedded and presented), pre-order.
    func allDescendants() -> [FlowController] {
        var result: [FlowController] = []
        var stack: [FlowController] = []
        _appendSubtreeInEntryOrder(to: &result, using: &stack)
        return Array(result.dropFirst())
    }
}

extension Task where Success == Never, Failure == Never {
    /// Yields until `condition` holds, at most `limit` times (no clocks, no sleeps).
    @MainActor
    static func yieldUntil(limit: Int = 10_000, _ condition: () -> Bool) async throws {
        for _ in 0..<limit where !condition() { await Task.yield() }
    }
}
