import FlowKit
import Foundation

// Three releases of a small shop app, for the migration tests. Each release is its own
// namespace, so its route types have names of their own (`FlowKitTests.ShopV1.Screen`): a
// newer release reads an older one's snapshots by renaming those types, as an app that
// moved its types does. The tree of every release: a switch `app` showing `main` (a flow
// that saves its cart), whose `stack` holds screens built from the release's route family;
// a product screen can present `share`.
//
// - Release 1 (schema 1): `Screen.home`, `.product(Int)`, `.reviews(Int)`; the cart is a
//   list of product ids.
// - Release 2 (schema 2): `.product(id:)` (the associated value got a label); the cart is a
//   list of lines with quantities.
// - Release 3 (schema 3, `Shop`): `Screen` renamed `Page`; `.product(id:variant:)`; the
//   reviews screen is gone.
//
// The snapshots in Fixtures/ were written by releases 1 and 2 (`MigrationFixtureTests`
// checks that they still are what those releases write).

/// Builds one release's tree: `app` → `main` (a `FlowRestorable` flow) → `stack`.
@MainActor
func makeShopApp<Route: Codable & Hashable & Sendable, Main: FlowController>(
    home: Route, main: @escaping @MainActor () -> Main,
    screen: @escaping @MainActor (Route) -> String?
) -> FlowSwitch {
    let app = FlowSwitch(name: "app")
    app.register("main") {
        let flow = main()
        let stack = FlowStack(name: "stack", route: "stack")
        stack.register(Route.self) { route, _ in
            guard let name = screen(route) else { throw ShopError.noScreen }
            let node = FlowController(name: name, route: FlowRoute(route))
            node.register("share") { FlowController(name: "share", route: "share") }
            return node
        }
        stack.initialRoute = FlowRoute(home)
        try? flow.embed(stack)
        return flow
    }
    app.initialRoute = "main"
    return app
}

struct ShopError: Error {
    static let noScreen = ShopError()
}

enum ShopV1 {
    enum Screen: Codable, Hashable, Sendable {
        case home
        case product(Int)
        case reviews(Int)
    }

    struct Cart: Codable, Sendable, Equatable {
        var items: [Int]
    }

    final class MainFlow: FlowController, FlowRestorable {
        var cart: Cart?
        init() { super.init(name: "main", route: "main") }
        func saveState() -> Cart? { cart }
        func restoreState(_ state: Cart) throws { cart = state }
    }

    @MainActor
    static func makeApp() -> FlowSwitch {
        makeShopApp(home: Screen.home, main: { MainFlow() }) { screen in
            switch screen {
            case .home: return "home"
            case .product: return "product"
            case .reviews: return "reviews"
            }
        }
    }

    static var schema: FlowSnapshotSchema { FlowSnapshotSchema(version: 1) }
}

enum ShopV2 {
    enum Screen: Codable, Hashable, Sendable {
        case home
        case product(id: Int)
        case reviews(id: Int)
    }

    struct Line: Codable, Sendable, Equatable {
        var id: Int
        var quantity: Int
    }

    struct Basket: Codable, Sendable, Equatable {
        var lines: [Line]
    }

    final class MainFlow: FlowController, FlowRestorable {
        var basket: Basket?
        init() { super.init(name: "main", route: "main") }
        func saveState() -> Basket? { basket }
        func restoreState(_ state: Basket) throws { basket = state }
    }

    @MainActor
    static func makeApp() -> FlowSwitch {
        makeShopApp(home: Screen.home, main: { MainFlow() }) { screen in
            switch screen {
            case .home: return "home"
            case .product: return "product"
            case .reviews: return "reviews"
            }
        }
    }

    /// Release 2 reads release 1's snapshots: the types moved (a rename), the product's
    /// value got a label, the cart became lines.
    static var schema: FlowSnapshotSchema {
        var schema = FlowSnapshotSchema(version: 2)
        schema.renameRoute(String(reflecting: ShopV1.Screen.self), to: Screen.self)
        schema.migrateRoutes(of: Screen.self, to: 2, from: ShopV1.Screen.self) { old in
            switch old {
            case .home: return Screen.home
            case .product(let id): return Screen.product(id: id)
            case .reviews(let id): return Screen.reviews(id: id)
            }
        }
        schema.migrateStates(of: MainFlow.self, to: 2, from: ShopV1.Cart.self) { old in
            Basket(lines: old.items.map { Line(id: $0, quantity: 1) })
        }
        return schema
    }
}

enum Shop {
    enum Page: Codable, Hashable, Sendable {
        case home
        case product(id: Int, variant: String)
    }

    final class MainFlow: FlowController, FlowRestorable {
        var basket: ShopV2.Basket?
        init() { super.init(name: "main", route: "main") }
        func saveState() -> ShopV2.Basket? { basket }
        func restoreState(_ state: ShopV2.Basket) throws { basket = state }
    }

    @MainActor
    static func makeApp() -> FlowSwitch {
        makeShopApp(home: Page.home, main: { MainFlow() }) { page in
            switch page {
            case .home: return "home"
            case .product: return "product"
            }
        }
    }

    /// Release 3 reads releases 1 and 2: both `Screen` types are now `Page`; the migration
    /// to 2 is release 2's (returning release 2's shape), the one to 3 adds the variant and
    /// drops the reviews screen; the cart's migration to 2 is release 2's.
    static func schema(renaming: Bool = true) -> FlowSnapshotSchema {
        var schema = FlowSnapshotSchema(version: 3)
        if renaming {
            schema.renameRoute(String(reflecting: ShopV1.Screen.self), to: Page.self)
            schema.renameRoute(String(reflecting: ShopV2.Screen.self), to: Page.self)
        }
        schema.migrateRoutes(of: Page.self, to: 2, from: ShopV1.Screen.self) { old in
            switch old {
            case .home: return ShopV2.Screen.home
            case .product(let id): return ShopV2.Screen.product(id: id)
            case .reviews(let id): return ShopV2.Screen.reviews(id: id)
            }
        }
        schema.migrateRoutes(of: Page.self, to: 3, from: ShopV2.Screen.self) { old in
            switch old {
            case .home: return Page.home
            case .product(let id): return Page.product(id: id, variant: "standard")
            case .reviews: return nil
            }
        }
        schema.migrateStates(of: MainFlow.self, to: 2, from: ShopV1.Cart.self) { old in
            ShopV2.Basket(lines: old.items.map { ShopV2.Line(id: $0, quantity: 1) })
        }
        return schema
    }
}

/// The snapshot fixtures: what releases 1 and 2 wrote, kept in Fixtures/.
@MainActor
enum ShopFixture: String, CaseIterable {
    /// Release 1: home, product 7 with `share` presented over it; a cart of 7 and 9.
    case v1 = "shop-v1"
    /// Release 2: home, product 3 with `share`; a basket of one line.
    case v2 = "shop-v2"
    /// Release 2: home, reviews of 5, product 3 with `share`.
    case v2Reviews = "shop-v2-reviews"

    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")

    var url: URL { Self.directory.appendingPathComponent(rawValue + ".json") }

    /// The document as the release writes it now (pretty-printed, sorted keys).
    func written() throws -> Data {
        let runtime: FlowRuntime
        switch self {
        case .v1:
            runtime = try FlowRuntime(root: ShopV1.makeApp())
            runtime.snapshotSchema = ShopV1.schema
            try runtime.start()
            (runtime.node(at: "app/main") as! ShopV1.MainFlow).cart = ShopV1.Cart(items: [7, 9])
            try runtime.navigate(to: [
                .child("main"), .child("stack"), .child(ShopV1.Screen.home),
                .push(ShopV1.Screen.product(7)), .present("share"),
            ])
        case .v2, .v2Reviews:
            runtime = try FlowRuntime(root: ShopV2.makeApp())
            runtime.snapshotSchema = ShopV2.schema
            try runtime.start()
            (runtime.node(at: "app/main") as! ShopV2.MainFlow).basket = ShopV2.Basket(
                lines: [ShopV2.Line(id: 3, quantity: 2)])
            var path: [FlowStep] = [.child("main"), .child("stack"), .child(ShopV2.Screen.home)]
            if self == .v2Reviews { path.append(.push(ShopV2.Screen.reviews(id: 5))) }
            path += [.push(ShopV2.Screen.product(id: 3)), .present("share")]
            try runtime.navigate(to: path)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(try runtime.snapshot()) + Data("\n".utf8)
    }

    /// The document kept in Fixtures/, decoded.
    func snapshot() throws -> FlowSnapshot {
        try JSONDecoder().decode(FlowSnapshot.self, from: try Data(contentsOf: url))
    }
}
