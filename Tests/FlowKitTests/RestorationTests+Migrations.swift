import FlowKit
import Foundation
import Testing

/// Snapshots written by older releases of an app (Support/MigrationFixtures.swift), restored
/// by newer ones through their ``FlowSnapshotSchema``: renamed types, removed screens,
/// changed values and states, chains of versions, and what a route that cannot be read costs.
@MainActor
@Suite("Restoration: snapshots from older releases (schema migrations)")
struct RestorationMigrationTests {
    typealias Skipped = FlowRestoreReport.Skipped

    /// Restores `snapshot` into `app` with `schema`.
    func restore(
        _ snapshot: FlowSnapshot, into app: FlowSwitch, schema: FlowSnapshotSchema?
    ) throws -> (FlowRuntime, FlowRestoreReport) {
        let runtime = try FlowRuntime(root: app)
        runtime.snapshotSchema = schema
        let report = try runtime.start(restoring: snapshot)
        return (runtime, report)
    }

    // MARK: Fixtures

    @Test("The fixtures are what releases 1 and 2 write (FLOWKIT_WRITE_FIXTURES=1 rewrites them)")
    func fixturesAreWhatOldReleasesWrite() throws {
        let rewrite = ProcessInfo.processInfo.environment["FLOWKIT_WRITE_FIXTURES"] == "1"
        for fixture in ShopFixture.allCases {
            let written = try fixture.written()
            if rewrite { try written.write(to: fixture.url) }
            let kept = try Data(contentsOf: fixture.url)
            #expect(
                String(decoding: kept, as: UTF8.self) == String(decoding: written, as: UTF8.self),
                "\(fixture.rawValue)")
        }
        #expect(try ShopFixture.v1.snapshot().schema == 1)
        #expect(try ShopFixture.v2.snapshot().schema == 2)
    }

    // MARK: Releases

    @Test("A changed associated value: release 2 reads release 1's product and cart")
    func changedAssociatedValue() throws {
        let (runtime, report) = try restore(
            try ShopFixture.v1.snapshot(), into: ShopV2.makeApp(), schema: ShopV2.schema)
        #expect(report == FlowRestoreReport(skipped: [], restoredCount: 6))
        let stack = runtime.node(at: "app/main/stack") as! FlowStack
        #expect(
            stack.entries.map(\.route) == [ShopV2.Screen.home, .product(id: 7)].map(FlowRoute.init))
        #expect(runtime.focusedNode?.path == "app/main/stack/product/share")
        let main = runtime.node(at: "app/main") as! ShopV2.MainFlow
        #expect(
            main.basket
                == ShopV2.Basket(lines: [.init(id: 7, quantity: 1), .init(id: 9, quantity: 1)]))
    }

    @Test("A chain of two schema versions: release 3 reads release 1 through both migrations")
    func chainOfTwoVersions() throws {
        let (runtime, report) = try restore(
            try ShopFixture.v1.snapshot(), into: Shop.makeApp(), schema: Shop.schema())
        #expect(report == FlowRestoreReport(skipped: [], restoredCount: 6))
        let stack = runtime.node(at: "app/main/stack") as! FlowStack
        #expect(
            stack.entries.map(\.route)
                == [Shop.Page.home, .product(id: 7, variant: "standard")].map(FlowRoute.init))
        #expect(runtime.focusedNode?.path == "app/main/stack/product/share")
        let main = runtime.node(at: "app/main") as! Shop.MainFlow
        #expect(main.basket?.lines.map(\.id) == [7, 9])
        // A snapshot of release 3 itself is read as it is, and says so.
        let again = try runtime.snapshot()
        #expect(again.schema == 3)
        let (restored, secondReport) = try restore(
            try jsonRoundTrip(again), into: Shop.makeApp(), schema: Shop.schema())
        #expect(secondReport.isComplete)
        #expect(restored.treeDescription() == runtime.treeDescription())
    }

    @Test("A renamed route type restores through its rename; without it, it costs its entries")
    func renamedType() throws {
        let snapshot = try ShopFixture.v2.snapshot()
        let (renamed, report) = try restore(snapshot, into: Shop.makeApp(), schema: Shop.schema())
        #expect(report.isComplete)
        #expect(
            (renamed.node(at: "app/main/stack") as! FlowStack).entries.map(\.route)
                == [Shop.Page.home, .product(id: 3, variant: "standard")].map(FlowRoute.init))
        #expect((renamed.node(at: "app/main") as! Shop.MainFlow).basket?.lines.first?.quantity == 2)

        let type = String(reflecting: ShopV2.Screen.self)
        let (runtime, withoutRename) = try restore(
            snapshot, into: Shop.makeApp(), schema: Shop.schema(renaming: false))
        #expect(
            withoutRename.skipped == [
                Skipped(path: "app/main/stack/home", reason: "its route type \(type) is unknown"),
                Skipped(
                    path: "app/main/stack/product", reason: "an entry below it was not restored"),
            ])
        // The stack got its default (its initial route); the main flow kept its basket.
        #expect(
            (runtime.node(at: "app/main/stack") as! FlowStack).entries.map(\.route)
                == [FlowRoute(Shop.Page.home)])
        #expect(runtime.focusedNode?.path == "app/main/stack/home")
        #expect((runtime.node(at: "app/main") as! Shop.MainFlow).basket != nil)
        #expect(
            runtime.trace.lines.contains(
                "not restored app/main/stack/home: its route type \(type) is unknown"))
    }

    @Test("A removed screen costs that screen and the entries above it; the rest survives")
    func removedScreen() throws {
        let (runtime, report) = try restore(
            try ShopFixture.v2Reviews.snapshot(), into: Shop.makeApp(), schema: Shop.schema())
        let type = String(reflecting: ShopV2.Screen.self)
        #expect(
            report.skipped == [
                Skipped(
                    path: "app/main/stack/reviews",
                    reason: "its route (\(type)) was dropped by its migration to schema 3"),
                Skipped(
                    path: "app/main/stack/product", reason: "an entry below it was not restored"),
            ])
        #expect(report.restoredCount == 4)
        #expect(
            (runtime.node(at: "app/main/stack") as! FlowStack).entries.map(\.route)
                == [FlowRoute(Shop.Page.home)])
        #expect(runtime.focusedNode?.path == "app/main/stack/home")
        #expect((runtime.node(at: "app/main") as! Shop.MainFlow).basket?.lines.count == 1)
    }

    @Test("Without a schema, a route whose value no longer decodes costs its node, with the reason")
    func changedValueWithoutMigration() throws {
        var snapshot = try ShopFixture.v1.snapshot()
        // Release 2 without its migrations, its types as release 1 named them.
        let from = String(reflecting: ShopV1.Screen.self)
        var schema = FlowSnapshotSchema(version: 2)
        schema.renameRoute(from, to: ShopV2.Screen.self)
        snapshot.root.children[0].state = nil
        let (runtime, report) = try restore(snapshot, into: ShopV2.makeApp(), schema: schema)
        #expect(report.skipped.map(\.path) == ["app/main/stack/product"])
        #expect(
            report.skipped[0].reason.hasPrefix(
                "its route does not decode as \(String(reflecting: ShopV2.Screen.self)): "))
        #expect(runtime.focusedNode?.path == "app/main/stack/home")
    }

    // MARK: What a route that cannot be read costs

    /// The saved bookshelf app's document with the value at `path` changed by `body`,
    /// restored into a fresh app (its login flow composed).
    func restoreEdited(
        _ path: [ValueStep],
        routeTypes: [any (Codable & Hashable & Sendable).Type] = [
            LoginStep.self
        ], _ body: (inout FlowSnapshotValue) -> Void
    ) throws -> (FlowRuntime, FlowRestoreReport) {
        var (_, value) = try RestorationCorpusTests.validDocument()
        value.edit(path[...], body)
        let snapshot = try JSONDecoder().decode(
            FlowSnapshot.self, from: try JSONEncoder().encode(value))
        let world = RestoreWorld()
        let runtime = try FlowRuntime(root: world.makeApp())
        let report = try runtime.start(restoring: snapshot, routeTypes: routeTypes)
        return (runtime, report)
    }

    static func setting(
        _ key: String, _ newValue: FlowSnapshotValue
    ) -> (inout FlowSnapshotValue)
        -> Void
    {
        { node in
            guard case .object(var items) = node else { return }
            items[key] = newValue
            node = .object(items)
        }
    }

    @Test(
        "A stack entry whose route cannot be read is left out with the entries above it",
        arguments: [
            (
                "type", FlowSnapshotValue.string("Nope.Missing"),
                "its route type Nope.Missing is unknown"
            ),
            (
                "value", .object(["bogus": .object([:])]),
                "its route does not decode as FlowKitTests.Shelf: "
            ),
            ("value", .string("detail"), "its route does not decode as FlowKitTests.Shelf: "),
        ])
    func unreadableStackEntry(key: String, value: FlowSnapshotValue, reason: String) throws {
        let (runtime, report) = try restoreEdited(
            NodePath.detail + [.key("route")], Self.setting(key, value))
        #expect(
            report.skipped.map(\.path) == [
                "app/main/tabs/catalog/detail", "app/main/tabs/catalog/detail",
                "app/main/tabs/catalog/review",
            ])
        #expect(report.skipped[0].reason.hasPrefix(reason))
        #expect(
            report.skipped[1...].allSatisfy { $0.reason == "an entry below it was not restored" })
        #expect(
            (runtime.node(at: "app/main/tabs/catalog") as! FlowStack).entries.map(\.name)
                == ["list"])
        #expect(runtime.node(at: "app/main/tabs/search") != nil)
        #expect(
            runtime.trace.lines.suffix(3) == report.skipped.map { "not restored \($0)" })
    }

    @Test("A presented node whose route type is unknown is not presented; the rest is restored")
    func unreadablePresentedNode() throws {
        let (runtime, report) = try restoreEdited(
            NodePath.share + [.key("route")], Self.setting("type", .string("Nope.Sheet")))
        #expect(
            report.skipped == [
                Skipped(
                    path: "app/main/tabs/catalog/review/share",
                    reason: "its route type Nope.Sheet is unknown")
            ])
        #expect(runtime.node(at: "app/main/tabs/catalog/review")?.presentedChild == nil)
        #expect(
            (runtime.node(at: "app/main/tabs/catalog") as! FlowStack).entries.map(\.name)
                == ["list", "detail", "detail", "review"])
    }

    @Test("A recorded history is cut before a route that cannot be read, and reported")
    func unreadableHistory() throws {
        let (runtime, report) = try restoreEdited(
            [.key("history"), .index(0), .key("routes"), .index(1), .key("value")]
        ) { $0 = .int(7) }
        #expect(report.skipped.map(\.path) == ["app/login"])
        #expect(
            report.skipped[0].reason.hasPrefix(
                "its recorded history was cut before route 2 of 2: its route does not decode as "
                    + "FlowKitTests.LoginStep: "))
        #expect(runtime.recordedHistory(at: "app/login") == ["steps"])

        let (unlisted, unlistedReport) = try restoreEdited([], routeTypes: []) { _ in }
        #expect(
            unlistedReport.skipped == [
                Skipped(
                    path: "app/login",
                    reason:
                        "its recorded history was cut before route 2 of 2: its route type "
                        + "FlowKitTests.LoginStep is unknown")
            ])
        #expect(unlisted.recordedHistory(at: "app/login") == ["steps"])
    }

    @Test("An embedded child whose route type is unknown is left out; its parent gets its defaults")
    func unreadableEmbeddedChild() throws {
        let app = FlowSwitch(name: "app")
        app.register("welcome") { FlowController(name: "welcome", route: "welcome") }
        app.initialRoute = "welcome"
        let gone = FlowSnapshot.Node(
            name: "gone", route: FlowSnapshot.Route(type: "Old.Gone", value: .object([:])))
        let (runtime, report) = try restore(
            FlowSnapshot(root: FlowSnapshot.Node(name: "app", kind: .switch, children: [gone])),
            into: app, schema: nil)
        #expect(
            report.skipped == [
                Skipped(path: "app/gone", reason: "its route type Old.Gone is unknown")
            ])
        #expect(runtime.focusedNode?.path == "app/welcome")
    }

    enum Tab: String, Codable, Hashable, Sendable {
        case home, search
    }

    @Test(
        "A tab whose route type is unknown fails the restoration and changes nothing; renamed, it restores"
    )
    func unreadableTab() throws {
        func makeTabs() -> FlowTabs {
            FlowTabs(
                name: "tabs",
                tabs: [
                    FlowController(name: "home", route: FlowRoute(Tab.home)),
                    FlowController(name: "search", route: FlowRoute(Tab.search)),
                ])
        }
        func tab(_ name: String) -> FlowSnapshot.Node {
            FlowSnapshot.Node(
                name: name, route: FlowSnapshot.Route(type: "Old.Tab", value: .string(name)))
        }
        let snapshot = FlowSnapshot(
            root: FlowSnapshot.Node(
                name: "tabs", kind: .tabs, children: [tab("home"), tab("search")], selectedTab: 1))
        let tabs = makeTabs()
        let runtime = try FlowRuntime(root: tabs)
        #expect(throws: FlowSnapshotError.self) { try runtime.start(restoring: snapshot) }
        #expect(!runtime.isRunning && tabs.selectedIndex == 0)
        try runtime.start()
        #expect(runtime.focusedNode?.path == "tabs/home")

        var schema = FlowSnapshotSchema(version: 1)
        schema.renameRoute("Old.Tab", to: Tab.self)
        let renamed = try FlowRuntime(root: makeTabs())
        renamed.snapshotSchema = schema
        let report = try renamed.start(restoring: snapshot)
        #expect(report.isComplete && renamed.focusedNode?.path == "tabs/search")
    }

    struct MigrationFailed: Error, CustomStringConvertible {
        var description: String { "no such product" }
    }

    @Test("A route migration that throws leaves its node out with the error as the reason")
    func throwingRouteMigration() throws {
        var schema = FlowSnapshotSchema(version: 3)
        schema.renameRoute(String(reflecting: ShopV2.Screen.self), to: Shop.Page.self)
        schema.migrateRoutes(of: Shop.Page.self, to: 3, from: ShopV2.Screen.self) { old in
            guard case .home = old else { throw MigrationFailed() }
            return Shop.Page.home
        }
        let (runtime, report) = try restore(
            try ShopFixture.v2.snapshot(), into: Shop.makeApp(), schema: schema)
        let type = String(reflecting: ShopV2.Screen.self)
        #expect(
            report.skipped == [
                Skipped(
                    path: "app/main/stack/product",
                    reason: "its route (\(type)): its migration to schema 3 failed: no such product"
                )
            ])
        #expect(runtime.focusedNode?.path == "app/main/stack/home")
    }

    @Test("A state migration that returns nil restores the node without a state")
    func droppedState() throws {
        var schema = FlowSnapshotSchema(version: 2)
        schema.renameRoute(String(reflecting: ShopV1.Screen.self), to: ShopV2.Screen.self)
        schema.migrateRoutes(of: ShopV2.Screen.self, to: 2, from: ShopV1.Screen.self) { _ in
            ShopV2.Screen.home
        }
        schema.migrateStates(of: ShopV2.MainFlow.self, to: 2, from: ShopV1.Cart.self) { _ in
            ShopV2.Basket?.none
        }
        let (runtime, report) = try restore(
            try ShopFixture.v1.snapshot(), into: ShopV2.makeApp(), schema: schema)
        #expect(report.isComplete)
        #expect((runtime.node(at: "app/main") as! ShopV2.MainFlow).basket == nil)
        #expect(
            (runtime.node(at: "app/main/stack") as! FlowStack).entries.map(\.route)
                == [FlowRoute(ShopV2.Screen.home), FlowRoute(ShopV2.Screen.home)])
    }

    @Test("A state migration that throws leaves its node out; its parent gets its defaults")
    func throwingStateMigration() throws {
        var schema = FlowSnapshotSchema(version: 2)
        schema.renameRoute(String(reflecting: ShopV1.Screen.self), to: ShopV2.Screen.self)
        schema.migrateStates(of: ShopV2.MainFlow.self, to: 2, from: ShopV1.Cart.self) { _ in
            if true { throw MigrationFailed() }
            return ShopV2.Basket(lines: [])
        }
        let (runtime, report) = try restore(
            try ShopFixture.v1.snapshot(), into: ShopV2.makeApp(), schema: schema)
        #expect(
            report.skipped == [
                Skipped(
                    path: "app/main",
                    reason: "its saved state: its migration to schema 2 failed: no such product")
            ])
        // The app switch built its initial route again: a fresh main flow, without a basket.
        #expect(runtime.focusedNode?.path == "app/main/stack/home")
        #expect((runtime.node(at: "app/main") as! ShopV2.MainFlow).basket == nil)
    }

    @Test(
        "A snapshot of a newer schema (the app was downgraded) is read as it is: no migration runs")
    func newerSchemaIsReadAsItIs() throws {
        var snapshot = try ShopFixture.v2.snapshot()
        snapshot.schema = 9
        let (runtime, report) = try restore(snapshot, into: Shop.makeApp(), schema: Shop.schema())
        // The migration to 3 would have added the variant; without it, the product's value
        // does not decode as the current type, and costs the product.
        #expect(
            report.skipped == [
                Skipped(
                    path: "app/main/stack/product",
                    reason:
                        "its route does not decode as \(String(reflecting: Shop.Page.self)): "
                        + "no value for 'variant' (at product)")
            ])
        #expect(runtime.focusedNode?.path == "app/main/stack/home")
    }
}
