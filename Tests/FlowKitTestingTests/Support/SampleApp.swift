import FlowKit

/// A small app for the harness's tests: `app` (a switch) shows `login`, or `main` with a
/// stack `list` → `detail`, where `detail` can present `share`.
struct SignIn: FlowEvent {
    var user: String
}

struct SignOut: FlowEvent {}

struct Select: FlowEvent {
    var item: Int
}

struct Back: FlowEvent {}

struct Share: FlowEvent {}

/// An event no node handles.
struct Ping: FlowEvent {}

/// A service living in the main flow's dependency scope.
final class Session: Sendable {
    let user: String

    init(user: String) {
        self.user = user
    }
}

enum SessionKey: RequiredDependencyKey {
    typealias Value = Session
}

@MainActor
final class SampleApp: FlowSwitch {
    init(startSignedIn user: String? = nil) {
        let first: FlowController = user.map { MainFlow(user: $0) } ?? LoginScreen()
        super.init(name: "app", initial: first)
        register("login") { LoginScreen() }
        register("main") { MainFlow(user: "guest") }
        on(SignIn.self) { [unowned self] event in
            try? self.switch(to: MainFlow(user: event.user))
            return .handled
        }
        on(SignOut.self) { [unowned self] _ in
            try? self.switch(to: LoginScreen())
            return .handled
        }
    }
}

@MainActor
final class LoginScreen: FlowController {
    init() {
        super.init(name: "login", route: "login")
    }
}

@MainActor
final class MainFlow: FlowController {
    let stack: FlowStack

    init(user: String) {
        stack = FlowStack(name: "stack", route: "stack", root: ListScreen())
        super.init(name: "main", route: "main")
        try! embed(stack)
        dependencies.set(Session(user: user), for: SessionKey.self)
        stack.register("detail") { DetailScreen(item: 1) }
    }
}

@MainActor
final class ListScreen: FlowController {
    init() {
        super.init(name: "list", route: "list")
        on(Select.self) { [unowned self] event in
            try? (self.parent as? FlowStack)?.push(DetailScreen(item: event.item))
            return .handled
        }
    }
}

@MainActor
final class DetailScreen: FlowController {
    let item: Int

    init(item: Int) {
        self.item = item
        super.init(name: "detail", route: "detail")
        on(Back.self) { [unowned self] _ in
            _ = try? (self.parent as? FlowStack)?.pop()
            return .handled
        }
        on(Share.self) { [unowned self] _ in
            try? self.present(FlowController(name: "share"))
            return .handled
        }
    }
}
