import FlowKit

/// The scene counts the routing case runs at.
let sceneCounts = [1, 10, 100]

/// The scene values of the benchmark app.
enum BenchWindow: Codable, Hashable, Sendable {
    case main
}

/// A window's tree: a stack whose entries are built from `Int` routes, starting at entry 0.
@MainActor
func makeBenchWindow() -> FlowStack {
    let stack = FlowStack(name: "stack", route: "stack")
    stack.register(Int.self) { id, _ in FlowController(name: "entry") }
    stack.initialRoute = FlowRoute(0)
    return stack
}

/// An app (trace off, in-memory store, no host) with `count` connected main windows; window
/// `i` shows entry `i` on top of entry 0.
@MainActor
func makeBenchApp(scenes count: Int) throws -> FlowApp {
    let app = FlowApp(trace: FlowTrace(isEnabled: false))
    try app.register(BenchWindow.self) { _, _ in makeBenchWindow() }
    for index in 0..<count {
        let scene = try app.connect(
            FlowSceneID("w\(index)"), value: FlowRoute(BenchWindow.main), restoration: .none)
        scene.runtime!.trace.isEnabled = false
        if index > 0 { try scene.runtime!.navigate(to: [.child(0), .push(index)]) }
    }
    return app
}

/// Scenes: routing a link among N scenes, and a scene's connect and disconnect against a lone
/// runtime's start and stop.
///
/// - `Scenes.routeLink/scenes=N`: `open` of a link whose target the last-connected scene
///   shows, so the "already shows the target" lookup walks every scene's active nodes
///   before it finds it (the decision, focusing the target, no host to bring it forward).
/// - `Scenes.routeLinkResolve/scenes=N`: a link no scene shows, resolved by the first
///   candidate (the lookup misses in every scene, then one navigation pushes and the next
///   link pops it back).
/// - `Scenes.connectClose` vs `Scenes.runtimeStartStop`: a fresh scene connected and closed
///   (factory, runtime, start, stop, no snapshot) against `FlowRuntime(root:)`, `start()` and
///   `stop()` of the same tree.
/// - `Scenes.connectDisconnect` vs `Scenes.runtimeStartSnapshotStop`: the same with the
///   disconnect's snapshot saved to the in-memory store, against start, `snapshot()`, stop.
@MainActor
func runSceneBenchmarks(_ harness: Harness) throws {
    let links = 1_000
    for count in sceneCounts {
        let name = "Scenes.routeLink/scenes=\(count)"
        if harness.selects(name) {
            let app = try makeBenchApp(scenes: count)
            let target = max(count - 1, 0)
            let link = FlowLink(count == 1 ? [.child(0)] : [.child(0), .push(target)])
            try harness.measure(
                name, operations: links, setup: {},
                run: {
                    var sum: UInt = 0
                    for _ in 0..<links {
                        let decision = try app.open(link)
                        precondition(decision.rule == .showsTarget, "\(decision)")
                        sum &+= UInt(decision.reason.utf8.count)
                    }
                    return sum
                })
        }
        let resolveName = "Scenes.routeLinkResolve/scenes=\(count)"
        if harness.selects(resolveName) {
            let app = try makeBenchApp(scenes: count)
            let there = FlowLink([.child(0), .push(1_000)])
            let back = FlowLink([.child(0)], target: FlowRoute(-1))
            try harness.measure(
                resolveName, operations: links, setup: {},
                run: {
                    var sum: UInt = 0
                    for index in 0..<links {
                        let decision = try app.open(index % 2 == 0 ? there : back)
                        precondition(decision.rule == .resolvesRoute, "\(decision)")
                        sum &+= UInt(decision.reason.utf8.count)
                    }
                    return sum
                })
        }
    }
    let cycles = 1_000
    try harness.measure(
        "Scenes.runtimeStartStop", operations: cycles, setup: {},
        run: {
            var sum: UInt = 0
            for _ in 0..<cycles {
                let runtime = try BenchTrace.off.runtime(root: makeBenchWindow())
                try runtime.start()
                sum &+= UInt(runtime.focusedPath.count)
                try runtime.stop()
            }
            return sum
        })
    try harness.measure(
        "Scenes.connectClose", operations: cycles,
        setup: { try makeBenchApp(scenes: 0) },
        run: { app in
            var sum: UInt = 0
            for _ in 0..<cycles {
                let scene = try app.connect(
                    "w", value: FlowRoute(BenchWindow.main), restoration: .none)
                sum &+= UInt(scene.runtime!.focusedPath.count)
                try app.report(.close, for: "w")
            }
            return sum
        })
    try harness.measure(
        "Scenes.runtimeStartSnapshotStop", operations: cycles, setup: {},
        run: {
            var sum: UInt = 0
            for _ in 0..<cycles {
                let runtime = try BenchTrace.off.runtime(root: makeBenchWindow())
                try runtime.start()
                sum &+= UInt(try runtime.snapshot().root.children.count)
                try runtime.stop()
            }
            return sum
        })
    try harness.measure(
        "Scenes.connectDisconnect", operations: cycles,
        setup: { try makeBenchApp(scenes: 0) },
        run: { app in
            var sum: UInt = 0
            for _ in 0..<cycles {
                let scene = try app.connect("w", value: FlowRoute(BenchWindow.main))
                sum &+= UInt(scene.runtime!.focusedPath.count)
                try app.report(.disconnect, for: "w")
            }
            return sum
        })
    func perOperation(_ name: String) -> Double? {
        harness.result(name)?.nanosecondsPerOperation
    }
    func ratio(_ label: String, _ numerator: Double?, _ denominator: Double?) {
        guard let numerator, let denominator else { return }
        let text = String(Int((numerator / denominator * 100).rounded()))
        print(pad(label, 64) + leftPad("\(text)%", 10))
    }
    print("Scenes (ratios in percent)")
    for count in sceneCounts.dropFirst() {
        ratio(
            "  route a link, \(count) scenes / 1 scene",
            perOperation("Scenes.routeLink/scenes=\(count)"),
            perOperation("Scenes.routeLink/scenes=1"))
        ratio(
            "  resolve a link, \(count) scenes / 1 scene",
            perOperation("Scenes.routeLinkResolve/scenes=\(count)"),
            perOperation("Scenes.routeLinkResolve/scenes=1"))
    }
    ratio(
        "  connect+close / start+stop (target <= 120%)", perOperation("Scenes.connectClose"),
        perOperation("Scenes.runtimeStartStop"))
    ratio(
        "  connect+disconnect / start+snapshot+stop", perOperation("Scenes.connectDisconnect"),
        perOperation("Scenes.runtimeStartSnapshotStop"))
}
