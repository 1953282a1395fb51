import Testing

@testable import FlowKit

/// The router's rules, one world per rule, and the order between them.
@MainActor
@Suite("Scene routing")
struct SceneRoutingTests {
    /// One row of the routing table: a world, a delivery, the expected decision and trace.
    enum Row: String, CaseIterable, CustomStringConvertible {
        case duplicate, waitsForRestoration, showsTarget, uniqueValueConnected
        case uniqueValueDisconnected, resolvesReceivedBy, resolvesFocused, resolvesOther
        case resolvesSkipsKind, opensScene, refused

        var description: String { rawValue }
    }

    /// Two main windows, `w1` then `w2` activated (w2 focused).
    func twoMainWindows() throws -> (FlowApp, SceneHostSpy) {
        let (app, host) = try makeSceneApp(placeholder: true)
        for id in ["w1", "w2"] {
            try app.connect(FlowSceneID(id), value: FlowRoute(TestWindow.main), restoration: .none)
            try app.report(.enterForeground, for: FlowSceneID(id))
            try app.report(.activate, for: FlowSceneID(id))
        }
        app.trace.removeAll()
        return (app, host)
    }

    @Test(
        "Each rule of the router decides as documented and says why in the trace",
        arguments: Row.allCases)
    func rule(row: Row) throws {
        let (app, host) = try twoMainWindows()
        var expectedRule: FlowRoutingDecision.Rule
        var expectedScene: FlowSceneID?
        var expectedTrace: [String]
        var expectedCalls: [String] = []
        let decision: FlowRoutingDecision
        switch row {
        case .duplicate:
            let delivery = FlowDeliveryID(source: "notification", token: "n1")
            try app.open(bookLink(4), delivery: delivery)
            app.trace.removeAll()
            decision = try app.open(bookLink(4), delivery: delivery)
            (expectedRule, expectedScene) = (.duplicate, nil)
            expectedTrace = [
                "route link detail(id: 4): duplicate: delivery notification:n1 ran already in this launch"
            ]
            expectedCalls = []
        case .waitsForRestoration:
            try app.report(.deactivate, for: "w1")
            try app.report(.enterBackground, for: "w1")
            try app.report(.disconnect, for: "w1")
            app.trace.removeAll()
            try app.connect("w1", restoration: .later)
            decision = try app.open(bookLink(4))
            (expectedRule, expectedScene) = (.waitsForRestoration, "w1")
            expectedTrace = [
                "scene w1 connected (main, waiting for restoration data)",
                "route link detail(id: 4): waitsForRestoration scene w1: scene w1 is restoring: "
                    + "routed once it is restored",
            ]
        case .showsTarget:
            try app.scene("w1")!.runtime!.navigate(to: bookLink(4).path)
            decision = try app.open(bookLink(4))
            (expectedRule, expectedScene) = (.showsTarget, "w1")
            expectedTrace = [
                "route link detail(id: 4): showsTarget scene w1: it shows detail(id: 4)"
            ]
            expectedCalls = ["activate w1"]
        case .uniqueValueConnected:
            try app.connect("b4", value: FlowRoute(TestWindow.book(id: 4)), restoration: .none)
            app.trace.removeAll()
            let link = FlowLink(
                [.child(TestScreen.detail(id: 4))], target: "reviews",
                sceneValue: FlowRoute(TestWindow.book(id: 4)))
            decision = try app.open(link)
            (expectedRule, expectedScene) = (.uniqueValue, "b4")
            expectedTrace = [
                "route link reviews: uniqueValue scene b4: it has the unique value book(id: 4)"
            ]
            expectedCalls = ["activate b4"]
        case .uniqueValueDisconnected:
            try app.connect("b4", value: FlowRoute(TestWindow.book(id: 4)), restoration: .none)
            try app.report(.disconnect, for: "b4")
            app.trace.removeAll()
            decision = try app.open(bookLink(4))
            (expectedRule, expectedScene) = (.uniqueValue, "b4")
            expectedTrace = [
                "route link detail(id: 4): uniqueValue scene b4: it has the unique value "
                    + "book(id: 4) and is disconnected: reconnecting"
            ]
            expectedCalls = ["activate b4"]
        case .resolvesReceivedBy:
            decision = try app.open(bookLink(4).withoutSceneValue, receivedBy: "w1")
            (expectedRule, expectedScene) = (.resolvesRoute, "w1")
            expectedTrace = [
                "route link detail(id: 4): resolvesRoute scene w1: it received the link resolves the route"
            ]
            expectedCalls = ["activate w1"]
        case .resolvesFocused:
            decision = try app.open(bookLink(4).withoutSceneValue)
            (expectedRule, expectedScene) = (.resolvesRoute, "w2")
            expectedTrace = [
                "route link detail(id: 4): resolvesRoute scene w2: the focused scene resolves the route"
            ]
        case .resolvesOther:
            try app.connect("s", value: FlowRoute(TestWindow.settings), restoration: .none)
            try app.report(.enterForeground, for: "s")
            try app.report(.activate, for: "s")
            app.trace.removeAll()
            decision = try app.open(bookLink(4).withoutSceneValue)
            (expectedRule, expectedScene) = (.resolvesRoute, "w2")
            expectedTrace = [
                "route link detail(id: 4): not scene s: 'settings' has no factory for route list; "
                    + "register one with register(_:factory:)",
                "route link detail(id: 4): resolvesRoute scene w2: an open scene resolves the route",
            ]
            expectedCalls = ["activate w2"]
        case .resolvesSkipsKind:
            let link = FlowLink([.child("settings-only")])
            #expect(throws: FlowSceneError.self) { try app.open(link) }
            decision = app.lastDecision!
            (expectedRule, expectedScene) = (.refused, nil)
            expectedTrace = [
                "route link settings-only: not scene w2: its kind does not take the link",
                "route link settings-only: not scene w1: its kind does not take the link",
                "route link settings-only: refused: scene w2: its kind does not take the link; "
                    + "scene w1: its kind does not take the link",
            ]
        case .opensScene:
            try app.report(.close, for: "w1")
            try app.report(.close, for: "w2")
            try app.connect("s", value: FlowRoute(TestWindow.settings), restoration: .none)
            app.trace.removeAll()
            decision = try app.open(bookLink(4))
            (expectedRule, expectedScene) = (.opensScene, nil)
            expectedTrace = [
                "route link detail(id: 4): not scene s: 'settings' has no factory for route list; "
                    + "register one with register(_:factory:)",
                "route link detail(id: 4): opensScene: no open scene takes it: opening a scene for book(id: 4)",
            ]
            expectedCalls = ["open book(id: 4)"]
        case .refused:
            try app.report(.close, for: "w1")
            try app.report(.close, for: "w2")
            app.trace.removeAll()
            #expect(throws: FlowSceneError.unroutable(link: "link detail(id: 4)", reasons: [])) {
                try app.open(bookLink(4).withoutSceneValue)
            }
            decision = app.lastDecision!
            (expectedRule, expectedScene) = (.refused, nil)
            expectedTrace = ["route link detail(id: 4): refused: no scene is open"]
        }
        #expect(decision.rule == expectedRule)
        #expect(decision.scene == expectedScene)
        #expect(app.trace.lines == expectedTrace)
        #expect(host.calls == expectedCalls)
    }
}

extension SceneRoutingTests {
    @Test("The rules apply in order: each one takes the link only when the ones before it did not")
    func rulesInOrder() throws {
        let (app, host) = try twoMainWindows()
        let w1 = app.scene("w1")!
        try w1.runtime!.navigate(to: bookLink(4).path)  // w1 shows book 4
        try app.connect("b4", value: FlowRoute(TestWindow.book(id: 4)), restoration: .none)
        try app.report(.disconnect, for: "b4")  // a unique book 4 window, reclaimed
        var rules: [FlowRoutingDecision.Rule] = []
        rules.append(try app.open(bookLink(4)).rule)  // showsTarget (w1), before uniqueValue
        try w1.runtime!.navigate(to: [.child(TestScreen.list)])
        rules.append(try app.open(bookLink(4)).rule)  // uniqueValue (b4), before resolvesRoute
        try app.report(.discard, for: "b4")
        rules.append(try app.open(bookLink(5)).rule)  // resolvesRoute (focused w2), before opening
        try app.report(.close, for: "w1")
        try app.report(.close, for: "w2")
        rules.append(try app.open(bookLink(5)).rule)  // opensScene
        rules.append(app.lastDecision!.rule)
        #expect(throws: FlowSceneError.self) { try app.open(bookLink(5).withoutSceneValue) }
        rules.append(app.lastDecision!.rule)  // refused
        #expect(
            rules == [
                .showsTarget, .uniqueValue, .resolvesRoute, .opensScene, .opensScene, .refused,
            ])
        #expect(host.calls == ["activate w1", "activate b4", "open book(id: 5)"])
    }

    @Test(
        "A link waiting for a restoring scene runs once the scene is restored, and can land there")
    func linkWaitsForRestoration() throws {
        let (app, _) = try makeSceneApp(placeholder: true)
        let scene = try app.connect("w1", value: FlowRoute(TestWindow.main))
        try scene.runtime!.navigate(to: bookLink(4).path)
        try app.report(.disconnect, for: "w1")
        let saved = try #require((app.store as! FlowInMemorySceneStore).scenes["w1"])
        try app.connect("w1", restoration: .later)
        app.trace.removeAll()
        let decision = try app.open(bookLink(4))
        #expect(decision.rule == .waitsForRestoration)
        #expect(scene.runtime?.treeDescription() == "* placeholder")  // nothing ran yet
        try app.restorationDidArrive(for: "w1", snapshot: saved)
        #expect(
            app.trace.lines == [
                "route link detail(id: 4): waitsForRestoration scene w1: scene w1 is restoring: "
                    + "routed once it is restored",
                "scene w1 connected (restored from late data)",
                "route link detail(id: 4): showsTarget scene w1: it shows detail(id: 4)",
            ])
    }

    @Test("Among scenes that show the target, the focused one wins over one activated later")
    func focusedSceneFirst() throws {
        let (app, _) = try twoMainWindows()  // both active (side by side), w2 activated last
        for id in ["w1", "w2"] {
            try app.scene(FlowSceneID(id))!.runtime!.navigate(to: bookLink(4).path)
        }
        #expect(try app.open(bookLink(4)).scene == "w2")
        try app.report(.deactivate, for: "w2")  // w1 is focused; w2 was activated after it
        #expect(app.focusedScene?.id == "w1")
        #expect(try app.open(bookLink(4)).scene == "w1")
        #expect(try app.open(bookLink(5).withoutSceneValue).scene == "w1")  // resolves there too
    }

    @Test("A scene opened for a link runs it once connected; a unique value is opened once")
    func openedSceneRunsTheLink() throws {
        let (app, host) = try makeSceneApp()
        try app.open(bookLink(5))
        try app.open(bookLink(5))
        #expect(host.calls == ["open book(id: 5)"])
        app.trace.removeAll()
        let scene = try app.connect(
            "b5", value: FlowRoute(TestWindow.book(id: 5)), restoration: .none)
        #expect(scene.runtime?.treeDescription() == "* book\n  * detail")
        #expect(
            app.trace.lines == [
                "scene b5 connected (book(id: 5), fresh)",
                "route link detail(id: 5): resolvesRoute scene b5: it was opened or reconnected for the link",
                "route link detail(id: 5): resolvesRoute scene b5: it was opened or reconnected for the link",
            ])
    }

    @Test(
        "The same delivery runs once in a launch; a refused one is not remembered; none means always"
    )
    func deliveryIdentity() throws {
        let (app, _) = try twoMainWindows()
        let delivery = FlowDeliveryID(source: "launch", token: "books://books/4")
        #expect(throws: FlowSceneError.self) {
            try app.open(FlowLink([.child("nowhere")]), delivery: delivery)
        }
        #expect(try app.open(bookLink(4), delivery: delivery).rule == .resolvesRoute)
        #expect(try app.open(bookLink(4), delivery: delivery).rule == .duplicate)
        #expect(try app.open(bookLink(4)).rule == .showsTarget)
        #expect(try app.open(bookLink(4)).rule == .showsTarget)
        // Two apps are two launches: the second one runs it.
        let (other, _) = try twoMainWindows()
        #expect(try other.open(bookLink(4), delivery: delivery).rule == .resolvesRoute)
    }

    @Test(
        "A redirecting guard signs in within the scene that took the link, and carries it on there")
    func redirectPerScene() throws {
        let (app, _) = try twoMainWindows()
        let decision = try app.open(bookLink(101).withoutSceneValue)
        #expect(decision.scene == "w2")
        #expect(
            decision.reason
                == "the focused scene resolves the route, after login (redirected by a guard)")
        let w2 = app.scene("w2")!.runtime!
        #expect(w2.treeDescription() == "* main\n    list\n  * login")
        #expect(app.scene("w1")!.runtime!.redirectedIntent == nil)
        app.dependencies[SceneAccountKey.self] = "ada"
        w2.node(at: "main/login")!.finish(with: "ada")
        #expect(w2.treeDescription() == "* main\n    list\n  * detail")
        #expect(app.scene("w1")!.runtime!.treeDescription() == "* main\n  * list")
    }

    @Test("A command goes to the focused scene; with no active scene it is refused")
    func commandsGoToTheFocusedScene() throws {
        let (app, _) = try twoMainWindows()
        let decision = try app.perform(SceneRefresh())
        #expect(
            decision == FlowRoutingDecision(.focusedScene, scene: "w2", reason: "the focused scene")
        )
        #expect(
            app.scene("w2")!.runtime!.trace.lines.suffix(2) == [
                "send SceneRefresh from main/list", "handled SceneRefresh at main",
            ])
        #expect(!app.scene("w1")!.runtime!.trace.lines.contains("send SceneRefresh from main/list"))
        try app.report(.deactivate, for: "w2")
        #expect(try app.perform(SceneRefresh()).scene == "w1")
        try app.report(.deactivate, for: "w1")
        #expect(throws: FlowSceneError.noFocusedScene) { try app.perform(SceneRefresh()) }
        #expect(app.trace.lines.last == "route command SceneRefresh: refused: no scene is active")
    }
}

extension FlowLink {
    var withoutSceneValue: FlowLink {
        var link = self
        link.sceneValue = nil
        return link
    }
}

extension FlowApp {
    /// The last routing decision in the trace.
    var lastDecision: FlowRoutingDecision? {
        for record in trace.records.reversed() {
            if case .app(.routed(_, let decision)) = record { return decision }
        }
        return nil
    }
}
