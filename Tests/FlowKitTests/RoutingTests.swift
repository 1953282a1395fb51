import FlowKit
import Testing

@MainActor
@Suite("Routing: route families, paths with steps, global routes, unwind, redirects")
struct RoutingTests {
    @Test("One family factory builds detail(id:) for any id, and the node carries its route")
    func familyFactoryBuildsAnyID() throws {
        let fixture = try RoutedApp(signedIn: true)
        for id in [1, 7, 64] {
            try fixture.runtime.navigate(to: bookPath(id))
            let detail = try #require(fixture.runtime.focusedNode as? BookDetail)
            #expect(detail.bookID == id)
            #expect(detail.route == FlowRoute(Screen.detail(id: id)))
            #expect(fixture.stack?.entries.map(\.name) == ["list", "detail"])
        }
        #expect(fixture.runtime.focusedRoutes.last == FlowRoute(Screen.detail(id: 64)))
    }

    @Test("A factory that throws (book 99 of 64) is a typed error and changes nothing")
    func throwingFactoryChangesNothing() throws {
        let fixture = try RoutedApp(signedIn: true)
        let before = observe(fixture.runtime, fixture.host)
        #expect(
            throws: FlowError.factoryFailed(
                route: "detail(id: 99)", node: "app/main/stack", error: "no book 99")
        ) {
            try fixture.runtime.navigate(to: bookPath(99))
        }
        #expect(observe(fixture.runtime, fixture.host) == before)
    }

    @Test(
        "A path with push and present steps restores stack [list, detail 7] + share, in one change")
    func pathWithPresentedStep() throws {
        let fixture = try RoutedApp(signedIn: true)
        try fixture.app.switch(to: "login")  // start from a different flow
        fixture.signIn()
        fixture.host.removeAll()
        fixture.runtime.trace.removeAll()
        try fixture.runtime.navigate(to: bookPath(7) + [.present("share")])
        #expect(fixture.host.changes.count == 1)
        #expect(
            fixture.runtime.trace.lines.filter {
                !$0.hasPrefix("activate") && !$0.hasPrefix("deac")
            }
                == [
                    "exit app/login/form", "exit app/login",
                    "enter app/main", "enter app/main/stack", "enter app/main/stack/list",
                    "enter app/main/stack/detail", "enter app/main/stack/detail/share",
                    "change navigate app -app/login +app/main",
                ])
        #expect(fixture.stack?.entries.map(\.name) == ["list", "detail"])
        #expect(fixture.runtime.focusedNode?.path == "app/main/stack/detail/share")
        #expect(fixture.runtime.focusedNode?.isPresented == true)
        // Navigating to the same path again changes nothing; to detail 8 replaces the top.
        try fixture.runtime.navigate(to: bookPath(7) + [.present("share")])
        #expect(fixture.host.changes.count == 1)
        try fixture.runtime.navigate(to: bookPath(8))
        #expect(
            fixture.host.changes.last?.description
                == "navigate app/main/stack -app/main/stack/detail +app/main/stack/detail")
        #expect(fixture.bag.alive.filter { $0.hasPrefix("detail") } == ["detail 8"])
    }

    @Test("A push step after a node that is not a stack entry is a typed error")
    func pushOutsideStack() throws {
        let fixture = try RoutedApp(signedIn: true)
        #expect(throws: FlowError.pushOutsideStack(node: "app/main", route: "list")) {
            try fixture.runtime.navigate(to: [.child("main"), .push(Screen.list)])
        }
    }

    @Test(
        "A global route opens over the focused node from three depths, and closes leak-free",
        arguments: [0, 1, 2])
    func globalRouteFromAnyDepth(depth: Int) throws {
        let fixture = try RoutedApp(signedIn: true)
        if depth >= 1 { try fixture.runtime.navigate(to: bookPath(3)) }
        if depth >= 2 { try fixture.runtime.navigate(to: bookPath(3) + [.present("share")]) }
        let focused = try #require(fixture.runtime.focusedNode)
        let before = fixture.stack?.entries.map(\.name)
        try focused.open("settings")
        do {
            let settings = try #require(fixture.runtime.focusedNode)
            #expect(settings.name == "settings" && settings.parent === focused)
            #expect(settings.isPresented)
            #expect(fixture.stack?.entries.map(\.name) == before)  // nothing torn down
            #expect(fixture.host.changes.last?.kind == .open)
            try focused.open("settings")  // already open: nothing changes
            #expect(fixture.runtime.focusedNode === settings)
        }
        try focused.dismiss()
        #expect(!fixture.bag.alive.contains("settings"))
    }

    @Test("Opening an unknown global route is a typed error")
    func unknownGlobalRoute() throws {
        let fixture = try RoutedApp(signedIn: true)
        #expect(throws: FlowError.unknownGlobalRoute(route: "help", node: "app/main/stack/list")) {
            try fixture.runtime.open("help")
        }
    }

    @Test("Unwind from a modal inside a pushed flow back to the list: one change, no leaks")
    func unwindToList() throws {
        let fixture = try RoutedApp(signedIn: true)
        let stack = try #require(fixture.stack)
        let list = try #require(stack.top)
        weak var weakFlow: FlowController?
        weak var weakModal: FlowController?
        do {
            let flow = FlowController(name: "checkout")
            let inner = FlowStack(name: "inner", root: FlowController(name: "cart"))
            try flow.embed(inner)
            try stack.push(flow)
            let modal = FlowController(name: "payment")
            try inner.top!.present(modal)
            weakFlow = flow
            weakModal = modal
        }
        fixture.host.removeAll()
        fixture.runtime.trace.removeAll()
        try fixture.runtime.unwind(to: list)
        #expect(
            fixture.host.changes.map(\.description) == [
                "unwind app/main/stack -app/main/stack/checkout"
            ])
        #expect(
            fixture.runtime.trace.lines.filter { $0.hasPrefix("exit") } == [
                "exit app/main/stack/checkout/inner/cart/payment",
                "exit app/main/stack/checkout/inner/cart",
                "exit app/main/stack/checkout/inner", "exit app/main/stack/checkout",
            ])
        #expect(fixture.runtime.focusedNode === list)
        #expect(weakFlow == nil && weakModal == nil)
    }

    @Test("Unwind by route and to the node that builds a route; a missing target is an error")
    func unwindByRoute() throws {
        let fixture = try RoutedApp(signedIn: true)
        try fixture.runtime.navigate(to: bookPath(5) + [.present("share")])
        try fixture.runtime.unwind(to: FlowRoute(Screen.list))
        #expect(fixture.runtime.focusedNode?.path == "app/main/stack/list")
        try fixture.runtime.navigate(to: bookPath(5) + [.present("share")])
        let share = try #require(fixture.runtime.focusedNode)
        try share.unwind(toNodeBuilding: "share")  // the detail builds share: share goes
        #expect(fixture.runtime.focusedNode?.path == "app/main/stack/detail")
        let before = observe(fixture.runtime, fixture.host)
        #expect(
            throws: FlowError.unwindTargetNotFound(
                target: "route nowhere", node: "app/main/stack/detail")
        ) {
            try fixture.runtime.unwind(to: "nowhere")
        }
        #expect(observe(fixture.runtime, fixture.host) == before)
    }

    @Test("Logged out, a deep link redirects to sign-in; finishing sign-in resumes to the target")
    func redirectThenResume() throws {
        let fixture = try RoutedApp(signedIn: false)
        fixture.app.on(FlowFinished<Session>.self) { [unowned fixture] done in
            fixture.app.dependencies.set(done.result, for: SessionKey.self)
            try fixture.app.switch(to: "main")  // the app moves on; then the link resumes
            return .handled
        }
        #expect(throws: FlowError.redirected(node: "app/main", to: "login")) {
            try fixture.runtime.navigate(to: bookPath(12))
        }
        #expect(fixture.runtime.focusedNode?.path == "app/login/form")
        #expect(fixture.runtime.redirectedIntent != nil)
        #expect(fixture.bag.alive.isEmpty)  // the refused change's nodes were discarded
        let login = try #require(fixture.login)
        login.finish(with: Session(user: "alice"))
        #expect(login.state == .exited)
        #expect(fixture.runtime.focusedNode?.path == "app/main/stack/detail")
        #expect((fixture.runtime.focusedNode as? BookDetail)?.bookID == 12)
        #expect(fixture.runtime.redirectedIntent == nil)
        let intents = fixture.runtime.trace.lines.filter { $0.hasPrefix("intent") }
        #expect(intents.count == 2)
        #expect(intents.first?.hasPrefix("intent kept navigate app to main / stack") == true)
        #expect(intents.last?.hasPrefix("intent replayed") == true)
    }

    @Test("A sign-in that leaves without finishing drops the intent")
    func cancelledSignInDrops() throws {
        let fixture = try RoutedApp(signedIn: false)
        fixture.app.register("about") { FlowController(name: "about", route: "about") }
        #expect(throws: FlowError.redirected(node: "app/main", to: "login")) {
            try fixture.runtime.navigate(to: bookPath(12))
        }
        try fixture.app.switch(to: "about")  // the login flow leaves unfinished
        #expect(fixture.runtime.redirectedIntent == nil)
        #expect(
            fixture.runtime.trace.lines.contains {
                $0.hasPrefix("intent dropped") && $0.hasSuffix("(app/login left without finishing)")
            })
    }

    @Test("A second deep link while signing in replaces the first; a wrong try keeps it")
    func secondLinkReplaces() throws {
        let fixture = try RoutedApp(signedIn: false)
        fixture.app.on(FlowFinished<Session>.self) { [unowned fixture] done in
            fixture.app.dependencies.set(done.result, for: SessionKey.self)
            try fixture.app.switch(to: "main")  // the app moves on; then the link resumes
            return .handled
        }
        #expect(throws: FlowError.redirected(node: "app/main", to: "login")) {
            try fixture.runtime.navigate(to: bookPath(12))
        }
        fixture.login?.children.first?.send(Ping())  // a wrong password: nothing finishes
        #expect(fixture.runtime.redirectedIntent?.description.contains("detail(id: 12)") == true)
        #expect(throws: FlowError.redirected(node: "app/main", to: "login")) {
            try fixture.runtime.navigate(to: bookPath(30))
        }
        #expect(fixture.runtime.trace.lines.contains { $0.hasPrefix("intent replaced") })
        fixture.login?.finish(with: Session(user: "alice"))
        #expect((fixture.runtime.focusedNode as? BookDetail)?.bookID == 30)
    }

    @Test("Factories and entry guards read the scope the node is about to join")
    func prospectiveScope() throws {
        enum AppKey: RequiredDependencyKey { typealias Value = String }
        let app = FlowSwitch(name: "app")
        app.dependencies.set("the app", for: AppKey.self)
        let runtime = try FlowRuntime(root: app)
        try runtime.start()
        let nav = FlowStack(name: "nav")
        var built: String?
        var guarded: String?
        nav.register("list") { [unowned nav] in
            built = try? nav.dependencies.require(AppKey.self)
            return FlowController(name: "list", route: "list")
        }
        nav.initialRoute = "list"
        nav.entryGuard = { [unowned nav] in
            guarded = nav.dependencies.value(for: AppKey.self)
            return .allow
        }
        try app.switch(to: nav)
        #expect(built == "the app")
        #expect(guarded == "the app")
        #expect(runtime.focusedNode?.path == "app/nav/list")
    }
}
