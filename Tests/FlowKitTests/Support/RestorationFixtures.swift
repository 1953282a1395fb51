import Foundation

@testable import FlowKit

// A small bookshelf app for the restoration tests: a switch `app` whose `login` flow
// (recorded history) gives way to `main`, a flow with three tabs (`catalog`, a stack of
// screens built from the `Shelf` route family; `search`; `profile`). Sheets are global
// routes of `main`. Every node it makes is tracked weakly, and every entry guard counts its
// calls, so tests can prove what was released and that each guard decided once.

enum Shelf: Codable, Hashable, Sendable {
    case list
    case detail(id: Int)
    case review(id: Int, stars: Int)
}

enum Sheet: Codable, Hashable, Sendable {
    case share(id: Int)
    case rate
}

enum LoginStep: Codable, Hashable, Sendable {
    case welcome
    case password
}

/// A route value that cannot be stored.
struct OpaqueRoute: Hashable, Sendable {
    let id: Int
}

struct SavedSession: Codable, Sendable, Equatable {
    var user: String
}

struct StateRefused: Error {}

/// What the fixture app is told and what it records.
@MainActor
final class RestoreWorld {
    /// Every node the fixtures made (by factories or not).
    let bag = WeakBag()
    /// Entry-guard calls, by guard key (a node's route, else its name).
    var guardCalls: [String: Int] = [:]
    /// Guard keys whose guard refuses.
    var refused: Set<String> = []
    /// `guard KEY` and `restore KEY` lines, in order.
    var journal: [String] = []
    /// The session a `main` built by its factory starts with.
    var signedIn: SavedSession?

    static func key(of node: FlowController) -> String {
        node.route.map(\.description) ?? node.name
    }

    /// Tracks `node` and gives it a counting guard (which `extra` may also refuse).
    @discardableResult
    func install<Node: FlowController>(
        _ node: Node, extra: (@MainActor (Node) -> FlowGuardDecision)? = nil
    ) -> Node {
        bag.track(node, "\(node.name) \(Self.key(of: node))")
        node.entryGuard = { [weak self, weak node] in
            guard let self, let node else { return .allow }
            let key = Self.key(of: node)
            self.guardCalls[key, default: 0] += 1
            self.journal.append("guard \(key)")
            if self.refused.contains(key) { return .refuse("\(key) is refused") }
            return extra?(node) ?? .allow
        }
        return node
    }

    func makeApp(initial: FlowController? = nil) -> FlowSwitch {
        let app = install(FlowSwitch(name: "app", initial: initial))
        app.register("login") { self.makeLogin() }
        app.register("main") { self.makeMain(session: self.signedIn) }
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
        try! login.embed(steps)
        return login
    }

    func makeMain(session: SavedSession?) -> MainFlow {
        let main = install(MainFlow(world: self, session: session)) { main in
            main.session == nil ? .refuse("nobody is signed in") : .allow
        }
        let list = install(FlowController(name: "list", route: FlowRoute(Shelf.list)))
        let catalog = install(FlowStack(name: "catalog", route: "catalog", root: list))
        catalog.register(Shelf.self) { shelf, _ in self.makeScreen(shelf) }
        let search = install(SearchScreen(world: self))
        let profile = install(FlowController(name: "profile", route: "profile"))
        let tabs = install(
            FlowTabs(name: "tabs", route: "tabs", tabs: [catalog, search, profile]))
        try! main.embed(tabs)
        main.registerGlobal(Sheet.self) { sheet, _ in
            switch sheet {
            case .share: return self.install(FlowController(name: "share"))
            case .rate:
                return self.install(FlowStack(name: "rate", root: FlowController(name: "stars")))
            }
        }
        return main
    }

    func makeScreen(_ shelf: Shelf) -> FlowController {
        switch shelf {
        case .list: return install(FlowController(name: "list"))
        case .detail: return install(DetailScreen(world: self))
        case .review: return install(FlowController(name: "review"))
        }
    }
}

@MainActor
final class MainFlow: FlowController, FlowRestorable {
    let world: RestoreWorld
    var session: SavedSession?

    init(world: RestoreWorld, session: SavedSession?) {
        self.world = world
        self.session = session
        super.init(name: "main", route: "main")
    }

    func saveState() -> SavedSession? { session }

    func restoreState(_ state: SavedSession) throws {
        world.journal.append("restore \(RestoreWorld.key(of: self))")
        session = state
    }
}

@MainActor
final class DetailScreen: FlowController, FlowRestorable {
    let world: RestoreWorld
    var scroll = 0

    init(world: RestoreWorld) {
        self.world = world
        super.init(name: "detail")
    }

    func saveState() -> Int? { scroll == 0 ? nil : scroll }

    func restoreState(_ state: Int) throws {
        world.journal.append("restore \(RestoreWorld.key(of: self))")
        scroll = state
    }
}

@MainActor
final class SearchScreen: FlowController, FlowRestorable {
    let world: RestoreWorld
    var query = ""

    init(world: RestoreWorld) {
        self.world = world
        super.init(name: "search", route: "search")
    }

    func saveState() -> String? { query }

    func restoreState(_ state: String) throws {
        world.journal.append("restore \(RestoreWorld.key(of: self))")
        if state == "reject" { throw StateRefused() }
        query = state
    }
}

/// The saved state of `node`, as text (empty if it saves none).
@MainActor
func savedStateText(of node: FlowController) -> String {
    guard let restorable = node as? any FlowRestorable else { return "" }
    func text<Node: FlowRestorable>(_ node: Node) -> String {
        node.saveState().map { " state=\($0)" } ?? ""
    }
    return text(restorable)
}

/// The live tree in full: names, kinds, routes, focus (`*`) and presentation (`^`) marks,
/// tab selections and saved states, one node a line.
@MainActor
func describeTree(_ runtime: FlowRuntime) -> String {
    guard let root = runtime.root else { return "" }
    var lines: [String] = []
    func visit(_ node: FlowController, depth: Int) {
        var line = String(repeating: "  ", count: depth)
        line += node.isActive ? "* " : "  "
        line += node.isPresented ? "^" : ""
        line += "\(node.name) [\(FlowSnapshot.Node.Kind(of: node).rawValue)]"
        if let route = node.route { line += " route=\(route)" }
        if let tabs = node as? FlowTabs { line += " selected=\(tabs.selectedIndex)" }
        line += " \(node.state)" + savedStateText(of: node)
        lines.append(line)
        for child in node.children { visit(child, depth: depth + 1) }
        if let presented = node.presentedChild { visit(presented, depth: depth + 1) }
    }
    visit(root, depth: 0)
    return lines.joined(separator: "\n")
}

/// The offline composition below `root`: every node's identity, name, parent, state and tab
/// selection, so a test can prove a failed restoration left it exactly as it was.
@MainActor
func composition(of root: FlowController) -> [String] {
    var lines: [String] = []
    var pending: [(FlowController, Int)] = [(root, 0)]
    while let (node, depth) = pending.popLast() {
        let parent = node.parent.map { "\(ObjectIdentifier($0).hashValue)" } ?? "none"
        var line = "\(depth) \(node.name) id=\(ObjectIdentifier(node).hashValue) parent=\(parent)"
        line +=
            " \(node.state)" + ((node as? FlowTabs).map { " selected=\($0.selectedIndex)" } ?? "")
        line += node.isPresented ? " presented" : ""
        lines.append(line)
        if let presented = node.presentedChild { pending.append((presented, depth + 1)) }
        for child in node.children.reversed() { pending.append((child, depth + 1)) }
    }
    return lines
}

/// The running fixture app in the state the round-trip test saves: signed in after a login
/// that recorded its history; the catalog stack four deep with a sheet over its top; details
/// and search with saved state; the search tab selected.
@MainActor
func makeSavedApp(world: RestoreWorld) throws -> FlowRuntime {
    let app = world.makeApp()
    let runtime = try FlowRuntime(root: app)
    try runtime.start()
    try runtime.navigate(to: [
        .child("login"), .child("steps"), .child(LoginStep.welcome), .push(LoginStep.password),
    ])
    world.signedIn = SavedSession(user: "alice")
    try app.switch(to: "main")
    try runtime.navigate(to: [
        .child("main"), .child("tabs"), .child("catalog"), .child(Shelf.list),
        .push(Shelf.detail(id: 1)), .push(Shelf.detail(id: 2)),
        .push(Shelf.review(id: 2, stars: 5)), .present(Sheet.share(id: 2)),
    ])
    let catalog = runtime.node(at: "app/main/tabs/catalog") as! FlowStack
    (catalog.entries[1] as! DetailScreen).scroll = 120
    (catalog.entries[2] as! DetailScreen).scroll = 40
    (runtime.node(at: "app/main/tabs/search") as! SearchScreen).query = "dune"
    try (runtime.node(at: "app/main/tabs") as! FlowTabs).select(at: 1)
    return runtime
}

/// `snapshot` through JSON and back, as an app saves and loads it.
func jsonRoundTrip(_ snapshot: FlowSnapshot) throws -> FlowSnapshot {
    try JSONDecoder().decode(FlowSnapshot.self, from: try JSONEncoder().encode(snapshot))
}
