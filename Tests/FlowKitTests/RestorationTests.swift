import FlowKit
import Foundation
import Testing

@MainActor
@Suite("Restoration: snapshot() and start(restoring:)")
struct RestorationTests {
    @Test("A snapshot survives JSON and restores the same tree into a new runtime")
    func roundTrip() throws {
        let world = RestoreWorld()
        let runtime = try makeSavedApp(world: world)
        let before = describeTree(runtime)
        #expect(
            before == """
                * app [switch] entered
                  * main [node] route=main entered state=SavedSession(user: "alice")
                    * tabs [tabs] route=tabs selected=1 entered
                        catalog [stack] route=catalog entered
                          list [node] route=list entered
                          detail [node] route=detail(id: 1) entered state=120
                          detail [node] route=detail(id: 2) entered state=40
                          review [node] route=review(id: 2, stars: 5) entered
                            ^share [node] route=share(id: 2) entered
                      * search [node] route=search entered state=dune
                        profile [node] route=profile entered
                """)
        let history = runtime.recordedHistory(at: "app/login")
        #expect(history == ["steps", FlowRoute(LoginStep.password)])
        let snapshot = try runtime.snapshot()
        let data = try JSONEncoder().encode(snapshot)
        let decoded = try JSONDecoder().decode(FlowSnapshot.self, from: data)
        #expect(decoded == snapshot)

        let newWorld = RestoreWorld()  // nobody is signed in: only the saved state signs in
        let restored = try FlowRuntime(root: newWorld.makeApp())
        let report = try restored.start(restoring: decoded, routeTypes: [LoginStep.self])
        #expect(report.isComplete)
        #expect(report.restoredCount == 11)
        #expect(describeTree(restored) == before)
        #expect(restored.recordedHistory(at: "app/login") == history)
        #expect(try restored.snapshot() == snapshot)
        #expect(restored.focusedNode?.path == "app/main/tabs/search")
        // Each restored node's guard decided exactly once.
        #expect(newWorld.guardCalls.values.allSatisfy { $0 == 1 }, "\(newWorld.guardCalls)")
        #expect(newWorld.guardCalls.count == 11)
    }

    @Test("Restoring is one start change: the host and the trace see what start() shows")
    func oneStartChange() throws {
        let world = RestoreWorld()
        let snapshot = try makeSavedApp(world: world).snapshot()
        let host = RecordingFlowHost()
        let newWorld = RestoreWorld()
        let runtime = try FlowRuntime(root: newWorld.makeApp(), host: host)
        try runtime.start(restoring: snapshot, routeTypes: [LoginStep.self])
        #expect(host.changes.count == 1)
        #expect(host.changes.first?.kind == .start)
        #expect(host.changes.first?.entered == ["app"])
        let enters = runtime.trace.records.compactMap { record -> String? in
            if case .enter(let path) = record { return path }
            return nil
        }
        #expect(enters.first == "app")
        #expect(enters.count == 11)
        #expect(runtime.isRunning)
        #expect(throws: FlowError.runtimeAlreadyStarted) { try runtime.start() }
        #expect(throws: FlowError.runtimeAlreadyStarted) {
            try runtime.start(restoring: snapshot)
        }
    }

    @Test("restoreState runs right after a node is built and before its guard")
    func stateBeforeGuard() throws {
        let snapshot = try makeSavedApp(world: RestoreWorld()).snapshot()
        let world = RestoreWorld()
        let runtime = try FlowRuntime(root: world.makeApp())
        try runtime.start(restoring: snapshot, routeTypes: [LoginStep.self])
        let main = try #require(runtime.node(at: "app/main") as? MainFlow)
        #expect(main.session == SavedSession(user: "alice"))
        let restore = try #require(world.journal.firstIndex(of: "restore main"))
        let decide = try #require(world.journal.firstIndex(of: "guard main"))
        #expect(restore + 1 == decide)
        #expect(world.journal.firstIndex(of: "guard app")! < restore)
        let detail = try #require(world.journal.firstIndex(of: "restore detail(id: 1)"))
        #expect(world.journal[detail + 1] == "guard detail(id: 1)")
    }

    @Test("Covered stack entries, the presented node and the tab selection come back")
    func coveredPresentedAndSelection() throws {
        let snapshot = try makeSavedApp(world: RestoreWorld()).snapshot()
        let runtime = try FlowRuntime(root: RestoreWorld().makeApp())
        try runtime.start(restoring: snapshot, routeTypes: [LoginStep.self])
        let catalog = try #require(runtime.node(at: "app/main/tabs/catalog") as? FlowStack)
        #expect(
            catalog.entries.map(\.route) == [
                FlowRoute(Shelf.list), FlowRoute(Shelf.detail(id: 1)),
                FlowRoute(Shelf.detail(id: 2)),
                FlowRoute(Shelf.review(id: 2, stars: 5)),
            ])
        #expect(catalog.entries.allSatisfy { $0.state == .entered && !$0.isActive })
        #expect(catalog.top?.presentedChild?.route == FlowRoute(Sheet.share(id: 2)))
        let tabs = try #require(runtime.node(at: "app/main/tabs") as? FlowTabs)
        #expect(tabs.selectedIndex == 1)
        #expect(tabs.selectedTab?.isActive == true)
        // Selecting the catalog tab focuses the restored sheet.
        try tabs.select(at: 0)
        #expect(runtime.focusedNode?.path == "app/main/tabs/catalog/review/share")
    }

    @Test("The app's composition the snapshot does not have is dropped and released")
    func dropped() throws {
        let snapshot = try makeSavedApp(world: RestoreWorld()).snapshot()
        let world = RestoreWorld()
        var login: FlowController? = world.makeLogin()
        let runtime = try FlowRuntime(root: world.makeApp(initial: login!))
        // `login` is at main's place: main is built, login never enters.
        try runtime.start(restoring: snapshot, routeTypes: [LoginStep.self])
        #expect(runtime.node(at: "app/main") is MainFlow)
        #expect(login?.state == .exited)
        #expect(login?.parent == nil && login?.children.isEmpty == true)
        #expect(!world.bag.alive.contains("steps steps"))
        #expect(!runtime.trace.records.contains(.enter("app/login")))
        login = nil
        #expect(!world.bag.alive.contains { $0.hasPrefix("login") })
    }

    @Test("Reused nodes keep their identity: a root composed like the snapshot is reused whole")
    func reuseWholeComposition() throws {
        let snapshot = try makeSavedApp(world: RestoreWorld()).snapshot()
        let world = RestoreWorld()
        let main = world.makeMain(session: nil)
        let tabs = main.children[0] as! FlowTabs
        let search = tabs.tabs[1] as! SearchScreen
        let runtime = try FlowRuntime(root: world.makeApp(initial: main))
        let report = try runtime.start(restoring: snapshot, routeTypes: [LoginStep.self])
        #expect(report.isComplete)
        #expect(runtime.node(at: "app/main") === main)
        #expect(runtime.node(at: "app/main/tabs") === tabs)
        #expect(runtime.node(at: "app/main/tabs/search") === search)
        #expect(main.session == SavedSession(user: "alice"))
        #expect(search.query == "dune")
        #expect(tabs.selectedIndex == 1)
    }

    @Test(
        "Route types only history uses must be given, else it is cut and reported; others are found"
    )
    func routeTypes() throws {
        let snapshot = try makeSavedApp(world: RestoreWorld()).snapshot()
        let type = String(reflecting: LoginStep.self)
        let cut = try FlowRuntime(root: RestoreWorld().makeApp())
        let report = try cut.start(restoring: snapshot)
        #expect(
            report.skipped == [
                FlowRestoreReport.Skipped(
                    path: "app/login",
                    reason:
                        "its recorded history was cut before route 2 of 2: its route type \(type) "
                        + "is unknown")
            ])
        #expect(cut.recordedHistory(at: "app/login") == ["steps"])
        let runtime = try FlowRuntime(root: RestoreWorld().makeApp())
        #expect(try runtime.start(restoring: snapshot, routeTypes: [LoginStep.self]).isComplete)
        #expect(runtime.recordedHistory(at: "app/login")?.count == 2)
    }

    @Test("snapshot() needs a running runtime, storable routes and no empty stack")
    func snapshotErrors() throws {
        let stack = FlowStack(name: "stack", root: FlowController(name: "a", route: "a"))
        let runtime = try FlowRuntime(root: stack)
        #expect(throws: FlowError.runtimeNotStarted) { try runtime.snapshot() }
        try runtime.start()
        try stack.push(FlowController(name: "opaque", route: FlowRoute(OpaqueRoute(id: 1))))
        let reason =
            "its route OpaqueRoute(id: 1) has a value of type "
            + "\(String(reflecting: OpaqueRoute.self)), which is not Encodable"
        #expect(throws: FlowSnapshotError.notEncodable(path: "stack/opaque", reason: reason)) {
            try runtime.snapshot()
        }
        try stack.setStack([])
        #expect(
            throws: FlowSnapshotError.notEncodable(
                path: "stack", reason: "an empty stack cannot be restored")
        ) { try runtime.snapshot() }
        try runtime.stop()
        #expect(throws: FlowError.runtimeNotStarted) { try runtime.snapshot() }
    }

    @Test("saveState cannot change the tree while the snapshot is taken")
    func saveStateCannotNavigate() throws {
        final class Pushy: FlowController, FlowRestorable {
            var error: (any Error)?
            func saveState() -> Int? {
                do { try (parent as? FlowStack)?.push(FlowController(name: "x")) } catch {
                    self.error = error
                }
                return 1
            }
            func restoreState(_ state: Int) throws {}
        }
        let pushy = Pushy(name: "pushy")
        let stack = FlowStack(name: "stack", root: pushy)
        let runtime = try FlowRuntime(root: stack)
        try runtime.start()
        let snapshot = try runtime.snapshot()
        #expect(snapshot.root.children.count == 1)
        #expect(pushy.error as? FlowError == .changeInProgress(node: "stack"))
        #expect(stack.entries.count == 1)
    }

    @Test("A deep live tree is refused with tooDeep, without deep recursion")
    func deepLiveTree() throws {
        let root = FlowController(name: "n0")
        var node = root
        for index in 1..<1_000 {
            let next = FlowController(name: "n\(index)")
            try node.embed(next)
            node = next
        }
        let runtime = try FlowRuntime(root: root)
        try runtime.start()
        #expect(throws: FlowSnapshotError.tooDeep(limit: FlowSnapshot.maximumDepth)) {
            try runtime.snapshot()
        }
    }

    @Test("A large stack round-trips (restoration is linear in the node count)")
    func largeStack() throws {
        let count = 3_000
        func makeRoot() -> FlowStack {
            let stack = FlowStack(name: "stack")
            stack.register(Int.self) { id, _ in FlowController(name: "entry") }
            stack.initialRoute = FlowRoute(0)
            return stack
        }
        let stack = makeRoot()
        let runtime = try FlowRuntime(root: stack)
        try runtime.start()
        var entries = stack.entries
        for id in 1..<count {
            let entry = FlowController(name: "entry", route: FlowRoute(id))
            entries.append(entry)
        }
        try stack.setStack(entries)
        let snapshot = try jsonRoundTrip(try runtime.snapshot())
        let restoredRoot = makeRoot()
        let restored = try FlowRuntime(root: restoredRoot)
        let report = try restored.start(restoring: snapshot)
        #expect(report.restoredCount == count + 1)
        #expect(restoredRoot.entries.map(\.route) == stack.entries.map(\.route))
    }

    @Test("Unrecognised state is ignored on nodes that save none; a rejected one fails")
    func savedStateRules() throws {
        var snapshot = try makeSavedApp(world: RestoreWorld()).snapshot()
        // profile is not FlowRestorable: a state there is ignored.
        snapshot.root.children[0].children[0].children[2].state = .string("ignored")
        let runtime = try FlowRuntime(root: RestoreWorld().makeApp())
        try runtime.start(restoring: snapshot, routeTypes: [LoginStep.self])
        #expect(runtime.isRunning)

        snapshot.root.children[0].children[0].children[1].state = .string("reject")
        let world = RestoreWorld()
        let app = world.makeApp()
        let failing = try FlowRuntime(root: app)
        #expect(
            throws: FlowSnapshotError.stateRejected(
                path: "app/main/tabs/search", reason: "StateRefused()")
        ) { try failing.start(restoring: snapshot, routeTypes: [LoginStep.self]) }
        #expect(world.bag.alive == ["app app"])
    }

    @Test("A node the factory builds as another kind than the snapshot's is an impossible shape")
    func kindDisagrees() throws {
        var snapshot = try makeSavedApp(world: RestoreWorld()).snapshot()
        snapshot.root.children[0].children[0].children[0].children[1].kind = .switch
        let world = RestoreWorld()
        let runtime = try FlowRuntime(root: world.makeApp())
        #expect(
            throws: FlowSnapshotError.impossibleShape(
                path: "app/main/tabs/catalog/detail",
                reason:
                    "the snapshot has a switch here, but the factory for detail(id: 1) builds a node"
            )
        ) { try runtime.start(restoring: snapshot, routeTypes: [LoginStep.self]) }
        #expect(world.bag.alive == ["app app"])
    }
}
