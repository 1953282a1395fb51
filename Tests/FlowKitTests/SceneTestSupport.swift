import FlowKit

/// The scene values of the test app: a main window, a window per book, a settings window.
enum TestWindow: Codable, Hashable, Sendable {
    case main
    case book(id: Int)
    case settings
}

/// The screens of the test app's stacks.
enum TestScreen: Codable, Hashable, Sendable {
    case list
    case detail(id: Int)
}

/// An app-wide event that no screen handles.
struct SceneSignOut: FlowEvent {}

/// A command the main stack handles.
struct SceneRefresh: FlowEvent {}

/// The signed-in account, app-wide.
enum SceneAccountKey: DependencyKey {
    static let defaultValue: String? = nil
}

/// A scene host that records what the app asked of it.
@MainActor
final class SceneHostSpy: FlowSceneHost {
    var calls: [String] = []
    func openScene(value: FlowRoute) { calls.append("open \(value)") }
    func closeScene(_ id: FlowSceneID) { calls.append("close \(id)") }
    func activateScene(_ id: FlowSceneID) { calls.append("activate \(id)") }
}

/// A screen that counts its exits and is tracked weakly.
@MainActor
final class SceneScreen: FlowController {
    static var exits: [String] = []

    override func willExit() { SceneScreen.exits.append(name) }
}

/// The test app: `main` windows show a stack of `list` and `detail(id:)` screens (an account
/// guard on details above 100), `book` windows a stack with their book only (unique values),
/// `settings` a single screen that takes no links.
@MainActor
func makeSceneApp(
    store: (any FlowSceneStore)? = nil, placeholder: Bool = false, bag: WeakBag? = nil
) throws -> (FlowApp, SceneHostSpy) {
    let app = FlowApp(store: store)
    let host = SceneHostSpy()
    app.host = host
    let accepts: @MainActor (FlowLink) -> Bool = { link in
        link.path.first?.route != FlowRoute("settings-only")
    }
    var makePlaceholder: (@MainActor (TestWindow) -> FlowController)?
    if placeholder {
        makePlaceholder = { _ in FlowController(name: "placeholder") }
    }
    try app.register(
        TestWindow.self, uniqueValues: true, accepts: accepts, placeholder: makePlaceholder
    ) { window, _ in
        makeWindowRoot(window, bag: bag)
    }
    return (app, host)
}

@MainActor
func makeWindowRoot(_ window: TestWindow, bag: WeakBag?) -> FlowController {
    switch window {
    case .main:
        return makeMainStack(bag: bag)
    case .book(let id):
        let stack = FlowStack(name: "book", route: "book")
        stack.register(TestScreen.self) { screen, _ in
            guard screen == .detail(id: id) else {
                throw FlowError.notInTree(node: "\(screen)")
            }
            let node = SceneScreen(name: "detail")
            bag?.track(node, "book detail")
            return node
        }
        stack.initialRoute = FlowRoute(TestScreen.detail(id: id))
        return stack
    case .settings:
        return FlowController(name: "settings", route: "settings")
    }
}

@MainActor
func makeMainStack(bag: WeakBag? = nil) -> FlowStack {
    let stack = FlowStack(name: "main", route: "main")
    bag?.track(stack, "main stack")
    stack.register(TestScreen.self) { screen, context in
        switch screen {
        case .list:
            let node = SceneScreen(name: "list")
            bag?.track(node, "list")
            return node
        case .detail(let id):
            let node = SceneScreen(name: "detail")
            bag?.track(node, "detail \(id)")
            if id > 100 {
                node.entryGuard = { [unowned node] in
                    node.dependencies[SceneAccountKey.self] == nil
                        ? .redirect(to: [.child("login")]) : .allow
                }
            }
            return node
        }
    }
    stack.register("login") { FlowController(name: "login", route: "login") }
    stack.on(SceneRefresh.self) { _ in .handled }
    stack.on(FlowFinished<String>.self) { [unowned stack] _ in
        try stack.pop()  // sign-in done: the kept link is carried on
        return .handled
    }
    stack.initialRoute = FlowRoute(TestScreen.list)
    return stack
}

/// A link to book `id` in a main window's stack, opening a book window if none takes it.
func bookLink(_ id: Int) -> FlowLink {
    FlowLink(
        [.child(TestScreen.list), .push(TestScreen.detail(id: id))],
        sceneValue: FlowRoute(TestWindow.book(id: id)))
}

/// The app trace's lines that are app records.
@MainActor
func appLines(_ app: FlowApp) -> [String] {
    app.trace.lines
}
