import FlowKit
import FlowKitTesting

/// The scene values of the random test's app: documents (unique values: at most one scene
/// shows each) and panes (not unique; their kind shows a placeholder while it waits for late
/// restoration data).
enum FuzzDocument: Codable, Hashable, Sendable { case doc(Int) }
enum FuzzPane: Codable, Hashable, Sendable { case pane(Int) }

/// The screens of a scene's stack: `s(n)` pushed (`s(7)` refuses to enter), `sheet(n)`
/// presented. They convert themselves for snapshots (`FlowSnapshotValueConvertible`), so
/// every scene saved and restored in the random test goes through a conversion, which debug
/// builds check against the synthesized `Codable` form (`{"s": {"_0": 3}}`).
enum FuzzScreen: Codable, Hashable, Sendable, FlowSnapshotValueConvertible {
    case s(Int)
    case sheet(Int)

    var snapshotValue: FlowSnapshotValue {
        switch self {
        case .s(let n): return .enumCase("s", ["_0": .int(Int64(n))])
        case .sheet(let n): return .enumCase("sheet", ["_0": .int(Int64(n))])
        }
    }

    init(snapshotValue value: FlowSnapshotValue) throws {
        guard let (name, fields) = value.enumCase, case .int(let stored)? = fields["_0"],
            let n = Int(exactly: stored)
        else { throw value.typeMismatch(FuzzScreen.self) }
        switch name {
        case "s": self = .s(n)
        case "sheet": self = .sheet(n)
        default: throw value.typeMismatch(FuzzScreen.self)
        }
    }
}

/// A command or an app-wide event from outside: a tree handles an even `n`; an odd one goes
/// past the scene's root to the app's handler.
struct FuzzAppEvent: FlowEvent {
    let n: Int
}

/// Where a connecting scene's tree comes from, as the generator picks it.
enum FuzzSceneRestoration: Hashable, Sendable {
    case none, stored, later
    case storedUnder(Int)
}

/// One operation on the app above the scenes (``FlowApp``), mixed with the model's
/// operations in the same episodes. Scene `n` has the identity `s<n>`; a value `v` is
/// `doc(v)` below 3, else `pane(v - 3)`.
enum FuzzSceneOp: Hashable, Sendable, CustomStringConvertible {
    /// The platform connects scene `n`.
    case connect(Int, value: Int?, FuzzSceneRestoration)
    /// The platform reports a fact (legal or not) about scene `n`.
    case fact(Int, FlowSceneFact)
    /// The late restoration data of scene `n` arrives: its stored snapshot, or none.
    case lateData(Int, fromStore: Bool)
    /// The platform carries out what the app asked of it (open, close, bring forward).
    case serve
    /// A link from outside: `s(0)`, then `s(push)` pushed if given, then `sheet(sheet)`
    /// presented if given; a scene value, a delivery identity, the scene that received it.
    case open(push: Int?, sheet: Int?, value: Int?, delivery: Int?, receivedBy: Int?)
    /// A command to the focused scene.
    case perform(Int, delivery: Int?)
    /// An app-wide event to every connected scene.
    case broadcast(Int)
    /// Today's operations inside scene `n`'s tree: a push, a pop, a sheet, a dismissal.
    case push(Int, screen: Int)
    case pop(Int)
    case present(Int, sheet: Int)
    case dismiss(Int)
    /// "Open in a new window": `s(screen)` moved from scene `n` to a new scene of `value`.
    case moveOut(Int, screen: Int, value: Int, removing: Bool)
    /// The app asks the host to close scene `n`.
    case requestClose(Int)
    /// The app is let go: every scene, runtime and node it made must be released.
    case releaseApp

    /// The operation's kind, to tell failures apart while shrinking.
    var name: String {
        switch self {
        case .serve: return "serve"
        case .releaseApp: return "releaseApp"
        default: return Mirror(reflecting: self).children.first?.label ?? "\(self)"
        }
    }

    var description: String {
        switch self {
        case .connect(let n, let value, let restoration):
            let v = value.map { ", value: \(fuzzSceneValue($0))" } ?? ""
            return "try app.connect(\"s\(n)\"\(v), restoration: .\(restoration))"
        case .fact(let n, let fact): return "try app.report(.\(fact), for: \"s\(n)\")"
        case .lateData(let n, let fromStore):
            return "try app.restorationDidArrive(for: \"s\(n)\", snapshot: "
                + (fromStore ? "store.snapshot(of: \"s\(n)\"))" : "nil)")
        case .serve: return "platform.serve()  // opens, closes, activates what the app asked"
        case .open(let push, let sheet, let value, let delivery, let receivedBy):
            var path = ".child(s(0))"
            if let push { path += ", .push(s(\(push)))" }
            if let sheet { path += ", .present(sheet(\(sheet)))" }
            let v = value.map { ", sceneValue: \(fuzzSceneValue($0))" } ?? ""
            let d = delivery.map { ", delivery: d\($0)" } ?? ""
            let r = receivedBy.map { ", receivedBy: \"s\($0)\"" } ?? ""
            return "try app.open(FlowLink([\(path)]\(v))\(d)\(r))"
        case .perform(let n, let delivery):
            return "try app.perform(FuzzAppEvent(n: \(n))"
                + (delivery.map { ", delivery: d\($0)" } ?? "") + ")"
        case .broadcast(let n): return "app.broadcast(FuzzAppEvent(n: \(n)))"
        case .push(let n, let screen): return "try s\(n).stack.push(s(\(screen)))"
        case .pop(let n): return "try s\(n).stack.pop()"
        case .present(let n, let sheet): return "try s\(n).stack.top.present(sheet(\(sheet)))"
        case .dismiss(let n): return "try s\(n).stack.top.dismiss()"
        case .moveOut(let n, let screen, let value, let removing):
            return "try app.openInNewScene(link(s(\(screen)), \(fuzzSceneValue(value))), "
                + "from: \"s\(n)\", removingFromSource: \(removing))"
        case .requestClose(let n): return "try app.requestClose(\"s\(n)\")"
        case .releaseApp: return "app = nil  // everything it made must be released"
        }
    }
}

/// The scene value `v` stands for.
func fuzzSceneValue(_ v: Int) -> FlowRoute {
    v < 3 ? FlowRoute(FuzzDocument.doc(v)) : FlowRoute(FuzzPane.pane(v - 3))
}

/// What the generator knows of the scenes: each scene's phase by number, whether it waits
/// for late data, and whether the host has requests waiting.
struct FuzzSceneView {
    var phases: [Int: FlowScenePhase] = [:]
    var restoring: Set<Int> = []
    var hasRequests = false
}

/// A scene host that keeps what the app asked of it until the platform serves it; each
/// window's tree is shown by a strict ``SimulatedPlatform`` of its own (UIKit's rules, no
/// time) through `FlowTransitions`.
@MainActor
final class FuzzSceneHost: FlowSceneHost {
    /// Each scene's platform (replaced when the scene gets a new runtime).
    var platforms: [FlowSceneID: SimulatedPlatform] = [:]
    /// Each scene's `FlowTransitions` over its platform.
    var transitions: [FlowSceneID: FlowTransitions] = [:]
    /// The illegal calls of the platforms replaced since.
    var retiredIllegalCalls: [String] = []

    func flowHost(for scene: FlowScene) -> (any FlowHost)? {
        let platform = SimulatedPlatform(rules: .uiKit, duration: 0)
        if let earlier = platforms[scene.id] {
            retiredIllegalCalls += earlier.illegalCalls.map { "\(scene.id): \($0)" }
        }
        platforms[scene.id] = platform
        let pipeline = FlowTransitions(host: platform)
        transitions[scene.id] = pipeline
        return pipeline
    }

    enum Request {
        case open(FlowRoute)
        case close(FlowSceneID)
        case activate(FlowSceneID)
    }

    var requests: [Request] = []

    func openScene(value: FlowRoute) { requests.append(.open(value)) }
    func closeScene(_ id: FlowSceneID) { requests.append(.close(id)) }
    func activateScene(_ id: FlowSceneID) { requests.append(.activate(id)) }
}

/// An object held weakly, with what it was.
struct FuzzWeakRef {
    weak var object: AnyObject?
    let label: String
}

/// The real side of the scene operations: an app, its store and host, and what must be
/// released.
@MainActor
final class FuzzScenes {
    let store = FlowInMemorySceneStore()
    let host = FuzzSceneHost()
    private(set) var app: FlowApp?
    /// Every node, runtime and app it made, weakly: all released once the app is let go.
    var made: [FuzzWeakRef] = []
    /// What must be released by now (a disconnected or closed scene's tree and runtime).
    var mustGo: [FuzzWeakRef] = []
    /// The tree each scene had when the system reclaimed it.
    var treeAtDisconnect: [FlowSceneID: String] = [:]
    /// Scenes discarded or closed: no snapshot may be left for them (until connected again).
    var gone: Set<FlowSceneID> = []
    /// Delivery identities the router accepted in this launch.
    var deliveries: Set<Int> = []
    /// Each handling of a ``FuzzAppEvent``: its `n`, the scene, and where (`tree`, `app`).
    var handled: [(n: Int, scene: FlowSceneID, place: String)] = []

    init() {
        makeApp()
    }

    /// A new app (the previous one let go).
    func makeApp() {
        let app = FlowApp(name: "fuzz", store: store, trace: FlowTrace(limit: 2_000))
        app.host = host
        made.append(FuzzWeakRef(object: app, label: "app"))
        do {
            try app.register(FuzzDocument.self, uniqueValues: true) { [unowned self] _, scene in
                self.root(for: scene.id)
            }
            try app.register(
                FuzzPane.self,
                placeholder: { [unowned self] _ in
                    let node = FlowController(name: "placeholder")
                    self.made.append(FuzzWeakRef(object: node, label: "placeholder"))
                    return node
                }
            ) { [unowned self] _, scene in
                self.root(for: scene.id)
            }
        } catch {
            preconditionFailure("FuzzScenes: \(error)")
        }
        app.on(FuzzAppEvent.self) { [unowned self] event, scene in
            self.handled.append((event.n, scene.id, "app"))
        }
        self.app = app
    }

    /// Lets the app go.
    func releaseApp() {
        app = nil
        host.requests = []
        deliveries = []
    }

    /// A scene's tree: a stack whose entries are `s(n)` screens (from `s(0)`), each able to
    /// present `sheet(n)`; it handles even ``FuzzAppEvent``s itself.
    func root(for scene: FlowSceneID) -> FlowController {
        let stack = FlowStack(name: "stack", route: "stack")
        made.append(FuzzWeakRef(object: stack, label: "\(scene) stack"))
        stack.register(FuzzScreen.self) { [unowned self] screen, _ in self.screen(screen, scene) }
        stack.initialRoute = FlowRoute(FuzzScreen.s(0))
        stack.on(FuzzAppEvent.self) { [unowned self] event in
            guard event.n % 2 == 0 else { return .forward }
            self.handled.append((event.n, scene, "tree"))
            return .handled
        }
        return stack
    }

    /// The node of `screen`, as the factories build it.
    func screen(_ screen: FuzzScreen, _ scene: FlowSceneID) -> FlowController {
        let node: FlowController
        switch screen {
        case .s(let n):
            // With its route, so that a snapshot rebuilds it (a push from the tester too).
            node = FlowController(name: "s\(n)", route: FlowRoute(screen))
            if n == 7 { node.entryGuard = { .refuse("s7 never enters") } }
        case .sheet(let n):
            node = FlowController(name: "sheet\(n)", route: FlowRoute(screen))
        }
        node.register(FuzzScreen.self) { [unowned self] screen, _ in self.screen(screen, scene) }
        made.append(FuzzWeakRef(object: node, label: "\(scene) \(node.name)"))
        return node
    }

    /// The view the generator reads.
    var view: FuzzSceneView {
        var view = FuzzSceneView()
        for scene in app?.scenes ?? [] {
            guard let n = Int(scene.id.rawValue.dropFirst()) else { continue }
            view.phases[n] = scene.phase
            if scene.isRestoring { view.restoring.insert(n) }
        }
        view.hasRequests = !host.requests.isEmpty
        return view
    }
}

/// Every node of the tree below `root` (presented nodes included).
@MainActor
func fuzzTreeNodes(_ root: FlowController?) -> [FlowController] {
    guard let root else { return [] }
    var result: [FlowController] = []
    var pending = [root]
    while let node = pending.popLast() {
        result.append(node)
        pending += node.children
        if let presented = node.presentedChild { pending.append(presented) }
    }
    return result
}
