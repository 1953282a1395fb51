import FlowKit
import Testing

/// The routes of a small book app: `app` (a switch) with `login` and `main`; `main` embeds a
/// stack of `Screen` routes; a detail presents `share`; `settings` is a global route.
enum Screen: Hashable, Sendable {
    case list
    case detail(id: Int)
}

struct Session: Sendable, Equatable {
    let user: String
}

enum SessionKey: RequiredDependencyKey {
    typealias Value = Session
}

enum CatalogSizeKey: DependencyKey {
    static let defaultValue = 0
}

/// A detail screen built from its route alone (its `init` passes no route).
@MainActor
final class BookDetail: FlowController {
    let bookID: Int
    init(id: Int) {
        self.bookID = id
        super.init(name: "detail")
        register("share") { FlowController(name: "share") }
    }
}

@MainActor
final class RoutedApp {
    let app = FlowSwitch(name: "app")
    let runtime: FlowRuntime
    let host = RecordingFlowHost()
    let bag = WeakBag()
    var guardCalls = 0

    init(signedIn: Bool, catalogSize: Int = 64) throws {
        runtime = try FlowRuntime(root: app, host: host)
        app.dependencies[CatalogSizeKey.self] = catalogSize
        if signedIn { app.dependencies.set(Session(user: "alice"), for: SessionKey.self) }
        app.register("login") {
            let login = FlowController(name: "login", route: "login")
            login.embed(FlowController(name: "form"), orFail: ())
            return login
        }
        app.register("main") { [unowned self] in self.makeMain() }
        app.registerGlobal("settings") { [unowned self] in
            let node = FlowController(name: "settings")
            self.bag.track(node, "settings")
            return node
        }
        app.initialRoute = signedIn ? "main" : "login"
        try runtime.start()
    }

    func makeMain() -> FlowController {
        let main = FlowController(name: "main", route: "main")
        main.entryGuard = { [unowned self, unowned main] in
            self.guardCalls += 1
            return main.dependencies.value(for: SessionKey.self) == nil
                ? .redirect(to: [.child("login")]) : .allow
        }
        let stack = FlowStack(name: "stack", route: "stack")
        stack.register(Screen.self) { [unowned self] screen, context in
            let size = context.dependencies[CatalogSizeKey.self]
            switch screen {
            case .list:
                let list = FlowController(name: "list")
                self.bag.track(list, "list")
                return list
            case .detail(let id):
                guard (1...size).contains(id) else { throw NoSuchBook(id: id) }
                let detail = BookDetail(id: id)
                self.bag.track(detail, "detail \(id)")
                return detail
            }
        }
        stack.initialRoute = FlowRoute(Screen.list)
        main.embed(stack, orFail: ())
        return main
    }

    func signIn() {
        app.dependencies.set(Session(user: "alice"), for: SessionKey.self)
    }

    var login: FlowController? { app.current?.route == "login" ? app.current : nil }
    var stack: FlowStack? { app.current?.children.first as? FlowStack }
}

struct NoSuchBook: Error, CustomStringConvertible {
    let id: Int
    var description: String { "no book \(id)" }
}

extension FlowController {
    /// Composition that cannot fail in these fixtures (fresh nodes).
    func embed(_ child: FlowController, orFail: Void) {
        do { try embed(child) } catch { Issue.record("embed failed: \(error)") }
    }
}

func bookPath(_ id: Int) -> [FlowStep] {
    [.child("main"), .child("stack"), .child(Screen.list), .push(Screen.detail(id: id))]
}
