// The small app the code of Docs/Testing.md, Navigation.md, Dependencies.md and
// ResponderChain.md runs against (a copy of FlowKitTestingTests' sample app): `app` (a
// switch) shows `login`, or `main` with a stack `list` → `detail`, where `detail` can
// present `share`.

import FlowKit

struct Select: FlowEvent {
    var item: Int
}

struct Back: FlowEvent {}

struct Share: FlowEvent {}

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

final class SampleApp: FlowSwitch {
    init(startSignedIn user: String? = nil) {
        let first: FlowController = user.map { MainFlow(user: $0) } ?? LoginScreen()
        super.init(name: "app", initial: first)
        register("login") { LoginScreen() }
        register("main") { MainFlow(user: "guest") }
    }
}

final class LoginScreen: FlowController {
    init() {
        super.init(name: "login", route: "login")
    }
}

final class MainFlow: FlowController {
    let stack: FlowStack

    init(session: Session) {
        stack = FlowStack(name: "stack", route: "stack", root: ListScreen())
        super.init(name: "main", route: "main")
        try! embed(stack)
        dependencies.set(session, for: SessionKey.self)
        stack.register("detail") { DetailScreen(item: 1) }
    }

    convenience init(user: String) {
        self.init(session: Session(user: user))
    }
}

final class ListScreen: FlowController {
    init() {
        super.init(name: "list", route: "list")
        on(Select.self) { [unowned self] event in
            try? (self.parent as? FlowStack)?.push(DetailScreen(item: event.item))
            return .handled
        }
    }
}

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
            try? self.present(ShareSheet())
            return .handled
        }
    }
}

final class ShareSheet: FlowController {
    init() {
        super.init(name: "share", route: "share")
    }
}

/// A settings flow: `general` (its initial route) or `account`, whose initial route is
/// `overview` and which can show `edit`.
final class SettingsFlow: FlowController {
    init(history: FlowHistoryPolicy = .none) {
        super.init(name: "settings", route: "settings")
        self.history = history
        register("general") { FlowController(name: "general", route: "general") }
        register("account") {
            let account = FlowController(name: "account", route: "account")
            account.register("overview") { FlowController(name: "overview", route: "overview") }
            account.register("edit") { FlowController(name: "edit", route: "edit") }
            account.initialRoute = "overview"
            return account
        }
        initialRoute = "general"
    }
}

/// A screen with edits the user may not have saved.
final class EditorScreen: FlowController {
    var hasUnsavedEdits = false

    init() {
        super.init(name: "editor", route: "editor")
    }
}
