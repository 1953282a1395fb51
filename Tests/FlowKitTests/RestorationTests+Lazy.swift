import FlowKit
import FlowKitTesting
import Foundation
import Testing

/// Everything a restored runtime shows: the tree (names, kinds, routes, focus, tab
/// selections, saved states), its snapshot, and its report (what was left out, as a set).
@MainActor
private func outcome(_ runtime: FlowRuntime) throws -> (String, FlowSnapshot, Set<String>, Int) {
    let report = try #require(runtime.restoreReport)
    #expect(report.pending.isEmpty)
    return (
        describeTree(runtime), try runtime.snapshot(), Set(report.skipped.map(\.description)),
        report.restoredCount
    )
}

@MainActor
@Suite("Restoration: tabs built on their first visit")
struct RestorationLazyTests {
    @Test("Lazily, only the shown tab's content is built; a tab's is built when it is selected")
    func builtOnFirstVisit() throws {
        let snapshot = try makeSavedApp(world: RestoreWorld()).snapshot()
        let world = RestoreWorld()
        let host = RecordingFlowHost()
        let runtime = try FlowRuntime(root: world.makeApp(), host: host)
        let report = try runtime.start(
            restoring: snapshot, routeTypes: [LoginStep.self], lazily: true)

        // The search tab is shown: the catalog tab entered (its guard asked), not its stack.
        #expect(report.pending == ["app/main/tabs/catalog"])
        #expect(!report.isComplete && report.skipped.isEmpty)
        #expect(report.restoredCount == 6)
        #expect(
            world.guardCalls.keys.sorted() == [
                "app", "catalog", "main", "profile", "search", "tabs",
            ])
        let tabs = try #require(runtime.node(at: "app/main/tabs") as? FlowTabs)
        #expect(tabs.tabs[0].children.isEmpty && tabs.tabs[0].state == .entered)
        #expect(
            runtime.treeDescription() == """
                * app
                  * main
                    * tabs
                        catalog (not restored yet)
                      * search
                        profile
                """)
        #expect(runtime.focusedNode?.path == "app/main/tabs/search")
        // Its snapshot is the one it was restored from: the catalog's content is kept.
        #expect(try runtime.snapshot() == snapshot)

        world.journal.removeAll()
        try tabs.select(at: 0)
        #expect(
            world.journal == [
                "guard list", "restore detail(id: 1)", "guard detail(id: 1)",
                "restore detail(id: 2)", "guard detail(id: 2)", "guard review(id: 2, stars: 5)",
                "guard share(id: 2)",
            ])
        #expect(host.changes.map(\.kind) == [.start, .restoreBranch, .select])
        #expect(
            host.changes[1].entered == [
                "app/main/tabs/catalog/list", "app/main/tabs/catalog/detail",
                "app/main/tabs/catalog/detail", "app/main/tabs/catalog/review",
            ])
        #expect(runtime.restoreReport == FlowRestoreReport(skipped: [], restoredCount: 11))
        #expect(runtime.focusedNode?.path == "app/main/tabs/catalog/review/share")
        #expect(world.guardCalls.values.allSatisfy { $0 == 1 })
    }

    @Test("Restored eagerly and lazily, once every tab was visited, nothing tells them apart")
    func eagerAndLazyAgree() throws {
        let saved = try makeSavedApp(world: RestoreWorld()).snapshot()
        // Variants: as saved; catalog shown; a guard in the catalog refusing; a budget.
        var catalogShown = saved
        catalogShown.root.children[0].children[0].selectedTab = 0
        let refusing: Set<String> = ["detail(id: 2)"]
        let trimmed = saved.trimmed(toFit: saved.encodedSize - 10)
        #expect(!trimmed.dropped.isEmpty)
        let variants: [(FlowSnapshot, Set<String>)] = [
            (saved, []), (catalogShown, []), (saved, refusing), (trimmed, []),
        ]
        for (snapshot, refused) in variants {
            for visit in ["restorePendingBranches", "select", "navigate"] {
                func restore(lazily: Bool) throws -> FlowRuntime {
                    let world = RestoreWorld()
                    world.refused = refused
                    let runtime = try FlowRuntime(root: world.makeApp())
                    try runtime.start(
                        restoring: snapshot, routeTypes: [LoginStep.self], lazily: lazily)
                    let tabs = try #require(runtime.node(at: "app/main/tabs") as? FlowTabs)
                    switch visit {
                    case "restorePendingBranches": try runtime.restorePendingBranches()
                    case "select":
                        for index in [2, 0, 1] { try tabs.select(at: index) }
                    default:
                        try runtime.navigate(to: [
                            .child("main"), .child("tabs"), .child("profile"),
                        ])
                    }
                    return runtime
                }
                let eager = try outcome(try restore(lazily: false))
                let lazy = try outcome(try restore(lazily: true))
                #expect(eager.0 == lazy.0, "\(visit)")
                #expect(eager.1 == lazy.1, "\(visit)")
                #expect(eager.2 == lazy.2, "\(visit)")
                #expect(eager.3 == lazy.3, "\(visit)")
            }
        }
    }

    @Test("A change above a pending tab builds it first: leaving exits it as an eager tree does")
    func leavingExitsTheSame() throws {
        let snapshot = try makeSavedApp(world: RestoreWorld()).snapshot()
        var exits: [[String]] = []
        for lazily in [false, true] {
            let world = RestoreWorld()
            let runtime = try FlowRuntime(root: world.makeApp())
            try runtime.start(restoring: snapshot, routeTypes: [LoginStep.self], lazily: lazily)
            let app = try #require(runtime.root as? FlowSwitch)
            runtime.trace.removeAll()
            try app.switch(to: "login")
            exits.append(
                runtime.trace.records.compactMap {
                    if case .exit(let path) = $0 { return path }
                    return nil
                })
            #expect(runtime.restoreReport?.pending == [])
        }
        #expect(exits[0] == exits[1])
        #expect(exits[0].contains("app/main/tabs/catalog/review/share"))
    }

    @Test(
        "A stored route that cannot be read costs its entry alike, eager or lazy (when the tab is built)"
    )
    func unreadableRouteBothWays() throws {
        var snapshot = try makeSavedApp(world: RestoreWorld()).snapshot()
        snapshot.root.children[0].children[0].children[0].children[1].route?.type = "Nope.Gone"
        let eager = try FlowRuntime(root: RestoreWorld().makeApp())
        let eagerReport = try eager.start(restoring: snapshot, routeTypes: [LoginStep.self])

        let runtime = try FlowRuntime(root: RestoreWorld().makeApp())
        let report = try runtime.start(
            restoring: snapshot, routeTypes: [LoginStep.self], lazily: true)
        #expect(report.pending == ["app/main/tabs/catalog"])
        let tabs = try #require(runtime.node(at: "app/main/tabs") as? FlowTabs)
        try tabs.select(at: 0)
        #expect(
            runtime.restoreReport?.skipped.map(\.description)
                == eagerReport.skipped.map(\.description))
        #expect(
            eagerReport.skipped.first?.description
                == "app/main/tabs/catalog/detail: its route type Nope.Gone is unknown")
        #expect(tabs.tabs[0].children.map(\.name) == ["list"])
    }

    @Test(
        "A pending tab that cannot be restored gets the app's own content, and the report says why")
    func failingBranch() throws {
        var snapshot = try makeSavedApp(world: RestoreWorld()).snapshot()
        // An entry of the tab's stack with a route its stack has no factory for: a route that
        // reads but builds nothing fails the restoration (eagerly, the whole start).
        snapshot.root.children[0].children[0].children[0].children[1].route =
            try FlowSnapshot.Route(FlowRoute(LoginStep.password))
        let eager = try FlowRuntime(root: RestoreWorld().makeApp())
        #expect(throws: FlowSnapshotError.self) {
            try eager.start(restoring: snapshot, routeTypes: [LoginStep.self])
        }

        let runtime = try FlowRuntime(root: RestoreWorld().makeApp())
        let report = try runtime.start(
            restoring: snapshot, routeTypes: [LoginStep.self], lazily: true)
        #expect(report.pending == ["app/main/tabs/catalog"])
        let tabs = try #require(runtime.node(at: "app/main/tabs") as? FlowTabs)
        try tabs.select(at: 0)
        let skipped = runtime.restoreReport?.skipped.map(\.description) ?? []
        #expect(skipped.count == 1)
        #expect(
            skipped.first?.hasPrefix("app/main/tabs/catalog: its content could not be restored: ")
                == true, "\(skipped)")
        #expect(tabs.tabs[0].children.map(\.name) == ["list"])
        #expect(runtime.focusedNode?.path == "app/main/tabs/catalog/list")
    }

    @Test("Stopped with tabs pending, every node is released")
    func pendingReleased() throws {
        let snapshot = try makeSavedApp(world: RestoreWorld()).snapshot()
        let world = RestoreWorld()
        var runtime: FlowRuntime? = try FlowRuntime(root: world.makeApp())
        try runtime?.start(restoring: snapshot, routeTypes: [LoginStep.self], lazily: true)
        #expect(world.bag.alive.contains("list list"))  // the app's composition, set aside
        try runtime?.stop()
        runtime = nil
        #expect(world.bag.alive.isEmpty)
    }

    /// A seeded random app state: tab selections, catalog pushes and pops, sheets presented
    /// and dismissed, search queries; then guards that refuse and a size budget, at random.
    static func randomCase(seed: UInt64) throws -> (FlowSnapshot, Set<String>, [Int]) {
        var random = SeededRandom(seed: seed)
        let world = RestoreWorld()
        world.signedIn = SavedSession(user: "ada")
        let app = world.makeApp()
        let runtime = try FlowRuntime(root: app)
        try runtime.start()
        try app.switch(to: "main")
        let tabs = try #require(runtime.node(at: "app/main/tabs") as? FlowTabs)
        let catalog = try #require(tabs.tabs[0] as? FlowStack)
        let search = try #require(tabs.tabs[1] as? SearchScreen)
        for _ in 0..<random.next(below: 30) {
            let top = catalog.children.last!
            switch random.next(below: 6) {
            case 0: try tabs.select(at: random.next(below: 3))
            case 1:
                try catalog.push(
                    FlowController(
                        name: "detail", route: FlowRoute(Shelf.detail(id: random.next(below: 9)))))
            case 2: if catalog.children.count > 1 { try catalog.pop() }
            case 3:
                if top.presentedChild == nil {
                    try top.present(
                        FlowController(
                            name: "share", route: FlowRoute(Sheet.share(id: random.next(below: 9))))
                    )
                }
            case 4: if top.presentedChild != nil { try top.dismiss() }
            default: search.query = "q\(random.next(below: 100))"
            }
        }
        var snapshot = try runtime.snapshot()
        var refused: Set<String> = []
        for _ in 0..<random.next(below: 3) {
            refused.insert("detail(id: \(random.next(below: 9)))")
        }
        if random.next(below: 3) == 0 {
            snapshot = snapshot.trimmed(toFit: snapshot.encodedSize - random.next(below: 200))
        }
        let visits = (0..<random.next(below: 6)).map { _ in random.next(below: 7) }
        return (snapshot, refused, visits)
    }

    @Test("Random apps restored eagerly and lazily end the same once every tab was visited")
    func randomEagerAndLazyAgree() throws {
        for seed in UInt64(1)...80 {
            let (snapshot, refused, visits) = try Self.randomCase(seed: seed)
            func restore(lazily: Bool) throws -> FlowRuntime {
                let world = RestoreWorld()
                world.refused = refused
                let runtime = try FlowRuntime(root: world.makeApp())
                try runtime.start(
                    restoring: snapshot, routeTypes: [LoginStep.self], lazily: lazily)
                // Visits: tab selections (0-2), navigations, a pop in the shown stack, leaving
                // the tabs; then whatever is still pending.
                let tabs = runtime.node(at: "app/main/tabs") as? FlowTabs
                for visit in visits {
                    switch visit {
                    // A visit may fail (after leaving the tabs, say): the same way both ways.
                    case 0, 1, 2: try? tabs?.select(at: visit)
                    case 3:
                        try? runtime.navigate(to: [
                            .child("main"), .child("tabs"), .child("search"),
                        ])
                    case 4:
                        try? runtime.navigate(to: [
                            .child("main"), .child("tabs"), .child("catalog"),
                            .child(Shelf.list), .push(Shelf.detail(id: 5)),
                        ])
                    case 5:
                        try? (runtime.root as? FlowSwitch)?.switch(to: "login")
                    default:
                        let stack = tabs?.selectedTab as? FlowStack
                        if let stack, stack.children.count > 1 { _ = try? stack.pop() }
                    }
                }
                try runtime.restorePendingBranches()
                return runtime
            }
            let eager = try outcome(try restore(lazily: false))
            let lazy = try outcome(try restore(lazily: true))
            #expect(eager.0 == lazy.0, "seed \(seed)")
            #expect(eager.1 == lazy.1, "seed \(seed)")
            #expect(eager.2 == lazy.2, "seed \(seed)")
            #expect(eager.3 == lazy.3, "seed \(seed)")
        }
    }
}

/// SplitMix64: the same numbers for the same seed, on every platform.
struct SeededRandom {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next(below bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Int(z % UInt64(bound))
    }
}
