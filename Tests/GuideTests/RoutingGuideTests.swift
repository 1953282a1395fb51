// The code of Docs/Routing.md. GuideCodeBlockTests checks that every ```swift block of the
// page appears here verbatim: change the page and this file together.

import FlowKit
import FlowKitLinks
import Testing

enum Screen: Hashable, Sendable {
    case list
    case detail(id: Int)
}

enum CatalogSizeKey: DependencyKey {
    static let defaultValue = 64
}

struct NoSuchBook: Error {
    let id: Int
}

@MainActor
func makeBooksStack() -> FlowStack {
    let stack = FlowStack(name: "stack", route: "stack")
    stack.register(Screen.self) { screen, context in
        switch screen {
        case .list:
            return FlowController(name: "list")
        case .detail(let id):
            guard (1...context.dependencies[CatalogSizeKey.self]).contains(id) else {
                throw NoSuchBook(id: id)
            }
            let detail = FlowController(name: "detail")
            detail.register("share") { FlowController(name: "share") }
            return detail
        }
    }
    stack.initialRoute = FlowRoute(Screen.list)
    return stack
}

@MainActor
@Suite("Routing guide")
struct RoutingGuideTests {
    @Test("Families, a path with push and present steps, a global route, unwind and URLs")
    func routingWalkthrough() throws {
        let app = FlowSwitch(name: "app")
        app.register("welcome") { FlowController(name: "welcome", route: "welcome") }
        app.register("books") {
            let books = FlowController(name: "books", route: "books")
            try? books.embed(makeBooksStack())
            return books
        }
        app.initialRoute = "welcome"
        let runtime = try FlowRuntime(root: app)
        try runtime.start()

        try runtime.navigate(to: [
            .child("books"), .child("stack"), .child(Screen.list),
            .push(Screen.detail(id: 7)), .present("share"),
        ])
        print(runtime.treeDescription())
        // * app
        //   * books
        //     * stack
        //         list
        //       * detail
        //         * ^share
        #expect(runtime.focusedNode?.path == "app/books/stack/detail/share")
        let detail = runtime.node(at: "app/books/stack/detail")
        #expect(detail?.route == FlowRoute(Screen.detail(id: 7)))
        #expect(throws: FlowError.self) {
            try runtime.navigate(to: [
                .child("books"), .child("stack"), .child(Screen.list), .push(Screen.detail(id: 99)),
            ])
        }

        app.registerGlobal("settings") { FlowController(name: "settings") }
        try runtime.open("settings")
        print(runtime.focusedNode!.path)  // app/books/stack/detail/share/settings
        #expect(runtime.focusedNode?.path == "app/books/stack/detail/share/settings")

        let list = runtime.node(at: "app/books/stack/list")!
        try runtime.unwind(to: list)  // dismisses settings and share, pops detail
        print(runtime.focusedNode!.path)  // app/books/stack/list
        #expect(runtime.focusedNode === list)
        #expect(runtime.node(at: "app/books/stack")?.children.count == 1)

        var router = FlowURLRouter(scheme: "books")
        try router.add("/books/:id") { match in
            let id = try match.int("id", in: 1...64)
            return [
                .child("books"), .child("stack"), .child(Screen.list), .push(Screen.detail(id: id)),
            ]
        }
        try runtime.open("books://books/12", with: router)
        print(runtime.focusedNode!.route!)  // detail(id: 12)

        do {
            try runtime.open("books://books/99", with: router)
        } catch let error as FlowURLError {
            print(error)  // the link's id '99' is not valid: out of range 1...64
        }
        #expect(runtime.focusedNode?.path == "app/books/stack/detail")
        #expect(runtime.focusedNode?.route == FlowRoute(Screen.detail(id: 12)))
    }

    @Test("A guard redirects to sign-in; finishing sign-in replays the navigation")
    func redirectAndResume() throws {
        enum SessionKey: DependencyKey {
            static let defaultValue: String? = nil
        }

        let shop = FlowSwitch(name: "shop")
        shop.register("login") { FlowController(name: "login", route: "login") }
        shop.register("home") { FlowController(name: "home", route: "home") }
        shop.register("account") {
            let account = FlowController(name: "account", route: "account")
            account.entryGuard = { [unowned account] in
                let signedIn = account.dependencies[SessionKey.self] != nil
                return signedIn ? .allow : .redirect(to: [.child("login")])
            }
            return account
        }
        shop.initialRoute = "login"
        shop.on(FlowFinished<String>.self) { done in
            shop.dependencies[SessionKey.self] = done.result  // signed in
            try shop.switch(to: "home")  // the app moves on: then the kept change is replayed
            return .handled
        }
        let shopRuntime = try FlowRuntime(root: shop)
        try shopRuntime.start()

        do {
            try shopRuntime.navigate(to: [.child("account")])
        } catch FlowError.redirected(let node, let target) {
            print("\(node) sent us to \(target) first")  // shop/account sent us to login first
        }
        shopRuntime.node(at: "shop/login")!.finish(with: "alice")
        print(shopRuntime.focusedNode!.path)  // shop/account
        #expect(shopRuntime.focusedNode?.path == "shop/account")
        #expect(shopRuntime.trace.lines.filter { $0.hasPrefix("intent") }.count == 2)
    }
}
