import FlowKit
import FlowKitLinks

/// The demo's screen routes: one family, built by the factory of the tabs' stacks
/// (``BookStack``). `Codable`, so snapshots of the tree can store them (`flowdemo --state`):
/// `{"detail": {"id": 12}}`; and `FlowSnapshotValueConvertible`, so snapshots store and read
/// them without `Codable`'s containers (the same values: debug builds check every
/// conversion against the `Codable` one).
public enum CatalogRoute: Hashable, Sendable, Codable, FlowSnapshotValueConvertible {
    /// The book list, at the bottom of the catalog tab's stack.
    case list
    /// The favourites list, at the bottom of the favourites tab's stack.
    case favourites
    /// The detail screen of the book with this identifier.
    case detail(id: Int)

    /// The route as a snapshot stores it: `{"list": {}}`, `{"favourites": {}}` or
    /// `{"detail": {"id": 12}}`, as its synthesized `Codable` conformance writes it.
    public var snapshotValue: FlowSnapshotValue {
        switch self {
        case .list: return .enumCase("list")
        case .favourites: return .enumCase("favourites")
        case .detail(let id): return .enumCase("detail", ["id": .int(Int64(id))])
        }
    }

    /// Reads a stored route back.
    ///
    /// - Throws: `DecodingError` for a value of another shape.
    public init(snapshotValue value: FlowSnapshotValue) throws {
        guard let (name, fields) = value.enumCase else {
            throw value.typeMismatch(CatalogRoute.self)
        }
        switch name {
        case "list": self = .list
        case "favourites": self = .favourites
        case "detail":
            guard case .int(let id)? = fields["id"], let id = Int(exactly: id) else {
                throw value.typeMismatch(CatalogRoute.self)
            }
            self = .detail(id: id)
        default: throw value.typeMismatch(CatalogRoute.self)
        }
    }
}

/// The demo's deep links: `flowdemo://books` (the list) and `flowdemo://books/<id>` (a book's
/// detail, for the identifiers the catalog has).
enum DemoLinks {
    /// The path to the list: through the main flow's tabs to the catalog tab, which the step
    /// `catalog` selects, whichever tab was selected before, and its list column, which the
    /// step `books` focuses (on a collapsed split: brings on top).
    static let list: [FlowStep] = [
        .child("main"), .child("tabs"), .child("catalog"), .child("books"),
        .child(CatalogRoute.list),
    ]

    /// The path to book `id`: the catalog tab, its book column (focused, or on a collapsed
    /// split brought on top), and the book as what the column shows (a `.root` step: kept if
    /// the column shows it, else it replaces the book shown before, as a selection does), in
    /// one transaction.
    static func detail(id: Int) -> [FlowStep] {
        [
            .child("main"), .child("tabs"), .child("catalog"), .child("book"),
            .root(CatalogRoute.detail(id: id)),
        ]
    }

    /// The router for `catalog`.
    static func router(for catalog: CatalogStore) -> FlowURLRouter {
        var router = FlowURLRouter(scheme: "flowdemo")
        let ids = catalog.books.map(\.id)
        let range = (ids.min() ?? 1)...(ids.max() ?? 1)
        do {
            try router.add("/books") { _ in list }
            try router.add("/books/:id") { match in
                detail(id: try match.int("id", in: range))
            }
        } catch {
            preconditionFailure("DemoLinks: \(error)")
        }
        return router
    }
}

/// The `about` screen: a global route of the app root, presented over whatever screen is
/// focused and dismissed with `close`.
final class AboutScreen: FlowController, DemoScreen {
    private let registration: LiveNodeCounter.Registration

    init(counter: LiveNodeCounter) {
        registration = counter.register()
        super.init(name: "about")
    }

    var title: String { "About this demo" }

    var commandNames: [String] { ["close"] }

    func content() -> [String] {
        [
            "A global route of the app root: 'about' presents it over any screen,",
            "'close' dismisses it, and nothing under it changed meanwhile.",
            "Deep links: open flowdemo://books or open flowdemo://books/<id>.",
        ]
    }

    func perform(_ command: String, arguments: [String]) {
        preconditionFailure("AboutScreen: '\(command)' is handled by the session")
    }

    func whyNot(_ command: String) -> String {
        "close the about screen first."
    }
}
