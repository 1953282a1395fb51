import FlowKit
import Foundation

/// The snapshot door: bytes decoded as a ``FlowSnapshot`` by `JSONDecoder`, then restored
/// into a fresh bookshelf app (a switch, a login flow with recorded history, guarded tabs
/// with a stack, restorable screens, sheets).
///
/// Oracle: FlowKit's own JSON (`FlowSnapshot(json:)`) reads the bytes as the snapshot
/// `JSONDecoder` reads (numbers compared as numbers: FlowKit reads `1.0` as a double where
/// JSONDecoder finds the integer 1), or throws a `DecodingError`. A restoration that throws throws a ``FlowSnapshotError`` or a ``FlowError``,
/// leaves the runtime not started and the root's composition as it was, releases every node
/// it built (a weak census), and `start()` works after it. One that succeeds asked the guard
/// of every node in the tree, entered nothing a guard refused, and gives a tree whose
/// snapshot survives JSON unchanged and restores into a fresh app as the same snapshot, and
/// restored lazily, once every tab is built, gives the same snapshot and report.
@MainActor
enum SnapshotsTarget {
    static func run(_ data: Data) {
        let decoded = try? JSONDecoder().decode(FlowSnapshot.self, from: data)
        do {
            let own = try FlowSnapshot(json: Array(data))
            oracle(
                own.numbersAsDoubles == decoded?.numbersAsDoubles,
                "FlowKit's JSON reads another snapshot than JSONDecoder")
        } catch {
            oracle(error is DecodingError, "FlowKit's JSON threw an untyped error: \(error)")
        }
        guard let snapshot = decoded else { return }
        let world = ShelfWorld()
        let app = world.makeApp()
        let runtime: FlowRuntime
        do {
            runtime = try FlowRuntime(root: app)
        } catch {
            return oracle(false, "the app does not start: \(error)")
        }
        let before = world.composition(of: app)
        let preexisting = world.bag.alive
        do {
            try runtime.start(restoring: snapshot, routeTypes: [LoginStep.self])
        } catch {
            oracle(
                error is FlowSnapshotError || error is FlowError,
                "restoration threw an untyped error: \(error)")
            oracle(!runtime.isRunning, "a failed restoration left the runtime running")
            oracle(
                world.composition(of: app) == before,
                "a failed restoration changed the root: \(error)")
            let leaked = world.bag.alive.filter { !preexisting.contains($0) }
            oracle(leaked.isEmpty, "a failed restoration (\(error)) kept nodes alive: \(leaked)")
            do {
                try runtime.start()
            } catch {
                oracle(false, "start() failed after a failed restoration: \(error)")
            }
            return
        }
        checkRestored(runtime, world: world)
        checkLazy(snapshot, eager: runtime)
    }

    /// The same document restored lazily: once every tab is built, the same snapshot and the
    /// same nodes left out as the eager restoration.
    static func checkLazy(_ snapshot: FlowSnapshot, eager: FlowRuntime) {
        let world = ShelfWorld()
        do {
            let runtime = try FlowRuntime(root: world.makeApp())
            try runtime.start(restoring: snapshot, routeTypes: [LoginStep.self], lazily: true)
            try runtime.restorePendingBranches()
            let lazySnapshot = try runtime.snapshot()
            let eagerSnapshot = try eager.snapshot()
            oracle(
                lazySnapshot == eagerSnapshot,
                "restored lazily, the tree differs from the eager one")
            // The same nodes left out; a reason may differ in wording (Docs/Restoration.md,
            // "Restoring lazily": a route type is known once a factory for it was met).
            let lazySkipped = Set((runtime.restoreReport?.skipped ?? []).map(\.path))
            let eagerSkipped = Set((eager.restoreReport?.skipped ?? []).map(\.path))
            oracle(
                lazySkipped == eagerSkipped,
                "restored lazily, the report differs from the eager one: only lazily "
                    + "\(lazySkipped.subtracting(eagerSkipped)), only eagerly "
                    + "\(eagerSkipped.subtracting(lazySkipped))")
        } catch {
            oracle(false, "a snapshot restored eagerly does not restore lazily: \(error)")
        }
    }

    static func checkRestored(_ runtime: FlowRuntime, world: ShelfWorld) {
        guard let root = runtime.root else { return oracle(false, "no root after restoring") }
        var pending = [root]
        while let node = pending.popLast() {
            let key = ShelfWorld.key(of: node)
            if world.guarded.contains(ObjectIdentifier(node)) {
                oracle(world.guardCalls[key, default: 0] > 0, "the guard of \(key) was not asked")
                oracle(!world.refused(node), "\(node.path) entered though its guard refuses")
            }
            pending.append(contentsOf: node.children)
            if let presented = node.presentedChild { pending.append(presented) }
        }
        let saved: FlowSnapshot
        do {
            saved = try runtime.snapshot()
        } catch {
            return oracle(false, "a restored tree has no snapshot: \(error)")
        }
        do {
            let copy = try JSONDecoder().decode(
                FlowSnapshot.self, from: try JSONEncoder().encode(saved))
            oracle(copy == saved, "a snapshot changed through JSON")
        } catch {
            oracle(false, "a snapshot does not survive JSON: \(error)")
        }
        let world2 = ShelfWorld()
        do {
            let runtime2 = try FlowRuntime(root: world2.makeApp())
            let report = try runtime2.start(restoring: saved, routeTypes: [LoginStep.self])
            oracle(report.isComplete, "a snapshot of a restored tree restores partly: \(report)")
            let again = try runtime2.snapshot()
            oracle(again == saved, "restoring a snapshot again changed it")
        } catch {
            oracle(false, "a snapshot of a restored tree does not restore: \(error)")
        }
    }
}

enum ShelfRoute: Codable, Hashable, Sendable {
    case list
    case detail(id: Int)
    case review(id: Int, stars: Int)
}

enum SheetRoute: Codable, Hashable, Sendable {
    case share(id: Int)
    case rate
}

enum LoginStep: Codable, Hashable, Sendable {
    case welcome
    case password
}

struct Session: Codable, Sendable, Equatable {
    var user: String
}

struct StateRefused: Error {}

/// The bookshelf app and what it records: every node it makes (weakly), every guard call.
/// Guards refuse the detail and sheet of book 13; `main` refuses without a session.
@MainActor
final class ShelfWorld {
    private final class Weak {
        weak var object: FlowController?
        let label: String
        init(_ object: FlowController, _ label: String) {
            self.object = object
            self.label = label
        }
    }

    private var made: [Weak] = []
    var guardCalls: [String: Int] = [:]
    var guarded: Set<ObjectIdentifier> = []
    /// The session a `main` starts with.
    var signedIn: Session?

    /// The labels of the nodes still alive.
    var bag: (alive: [String], count: Int) {
        let alive = made.filter { $0.object != nil }.map(\.label)
        return (alive, alive.count)
    }

    static func key(of node: FlowController) -> String {
        node.route.map(\.description) ?? node.name
    }

    func refused(_ node: FlowController) -> Bool {
        if let main = node as? MainScreen { return main.session == nil }
        if let route = node.route?.value(as: ShelfRoute.self), route == .detail(id: 13) {
            return true
        }
        return node.route?.value(as: SheetRoute.self) == .share(id: 13)
    }

    @discardableResult
    func install<Node: FlowController>(_ node: Node) -> Node {
        made.append(Weak(node, "\(node.name) \(Self.key(of: node))"))
        guarded.insert(ObjectIdentifier(node))
        node.entryGuard = { [weak self, weak node] in
            guard let self, let node else { return .allow }
            self.guardCalls[Self.key(of: node), default: 0] += 1
            return self.refused(node) ? .refuse("\(Self.key(of: node)) is refused") : .allow
        }
        return node
    }

    func makeApp() -> FlowSwitch {
        let app = install(FlowSwitch(name: "app"))
        app.register("login") { self.makeLogin() }
        app.register("main") { self.makeMain() }
        app.initialRoute = "login"
        return app
    }

    func makeLogin() -> FlowController {
        let login = install(FlowController(name: "login", route: "login"))
        login.history = .recorded
        let steps = install(FlowStack(name: "steps", route: "steps"))
        steps.register(LoginStep.self) { step, _ in
            self.install(FlowController(name: "\(step)", route: FlowRoute(step)))
        }
        steps.initialRoute = FlowRoute(LoginStep.welcome)
        try? login.embed(steps)
        return login
    }

    func makeMain() -> MainScreen {
        let main = install(MainScreen())
        main.session = signedIn
        let list = install(FlowController(name: "list", route: FlowRoute(ShelfRoute.list)))
        let catalog = install(FlowStack(name: "catalog", route: "catalog", root: list))
        catalog.register(ShelfRoute.self) { shelf, _ in self.makeScreen(shelf) }
        let search = install(SearchScreen())
        let profile = install(FlowController(name: "profile", route: "profile"))
        let tabs = install(
            FlowTabs(name: "tabs", route: "tabs", tabs: [catalog, search, profile]))
        try? main.embed(tabs)
        main.registerGlobal(SheetRoute.self) { sheet, _ in
            switch sheet {
            case .share: return self.install(FlowController(name: "share"))
            case .rate:
                return self.install(FlowStack(name: "rate", root: FlowController(name: "stars")))
            }
        }
        return main
    }

    func makeScreen(_ shelf: ShelfRoute) -> FlowController {
        switch shelf {
        case .list: return install(FlowController(name: "list"))
        case .detail: return install(DetailScreen())
        case .review: return install(FlowController(name: "review"))
        }
    }

    /// Every node below `root` with its identity, parent, state and selection.
    func composition(of root: FlowController) -> [String] {
        var lines: [String] = []
        var pending: [(FlowController, Int)] = [(root, 0)]
        while let (node, depth) = pending.popLast() {
            let parent = node.parent.map { "\(ObjectIdentifier($0).hashValue)" } ?? "none"
            var line = "\(depth) \(node.name) id=\(ObjectIdentifier(node).hashValue)"
            line += " parent=\(parent) \(node.state)"
            if let tabs = node as? FlowTabs { line += " selected=\(tabs.selectedIndex)" }
            lines.append(line + (node.isPresented ? " presented" : ""))
            if let presented = node.presentedChild { pending.append((presented, depth + 1)) }
            for child in node.children.reversed() { pending.append((child, depth + 1)) }
        }
        return lines
    }
}

@MainActor
final class MainScreen: FlowController, FlowRestorable {
    var session: Session?

    init() { super.init(name: "main", route: "main") }

    func saveState() -> Session? { session }

    func restoreState(_ state: Session) throws { session = state }
}

@MainActor
final class DetailScreen: FlowController, FlowRestorable {
    var scroll = 0

    init() { super.init(name: "detail") }

    func saveState() -> Int? { scroll == 0 ? nil : scroll }

    func restoreState(_ state: Int) throws { scroll = state }
}

@MainActor
final class SearchScreen: FlowController, FlowRestorable {
    var query = ""

    init() { super.init(name: "search", route: "search") }

    func saveState() -> String? { query }

    func restoreState(_ state: String) throws {
        if state == "reject" { throw StateRefused() }
        query = state
    }
}

extension FlowSnapshot {
    /// The snapshot with every number as a `Double`: FlowKit's JSON reads a number by its
    /// form (`1.0` is a `double`), JSONDecoder probes for an integer first (`1.0` is the
    /// `int` 1); both restore the same values.
    var numbersAsDoubles: FlowSnapshot {
        var copy = self
        copy.root = root.numbersAsDoubles
        copy.history = history.map { entry in
            var entry = entry
            entry.routes = entry.routes.map(\.numbersAsDoubles)
            return entry
        }
        return copy
    }
}

extension FlowSnapshot.Node {
    var numbersAsDoubles: FlowSnapshot.Node {
        var copy = self
        copy.route = route?.numbersAsDoubles
        copy.state = state?.numbersAsDoubles
        copy.children = children.map(\.numbersAsDoubles)
        copy.presented = presented?.numbersAsDoubles
        return copy
    }
}

extension FlowSnapshot.Route {
    var numbersAsDoubles: FlowSnapshot.Route {
        FlowSnapshot.Route(type: type, value: value.numbersAsDoubles)
    }
}

extension FlowSnapshotValue {
    var numbersAsDoubles: FlowSnapshotValue {
        switch self {
        case .int(let number): return .double(Double(number))
        case .array(let items): return .array(items.map(\.numbersAsDoubles))
        case .object(let items): return .object(items.mapValues(\.numbersAsDoubles))
        default: return self
        }
    }
}
