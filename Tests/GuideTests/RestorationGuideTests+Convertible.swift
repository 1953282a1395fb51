import FlowKit
import Testing

// Docs/Restoration.md, "Routes that convert themselves".

enum Shelf: Codable, Hashable, Sendable, FlowSnapshotValueConvertible {
    case all
    case book(id: Int)

    var snapshotValue: FlowSnapshotValue {
        switch self {
        case .all: return .enumCase("all")
        case .book(let id): return .enumCase("book", ["id": .int(Int64(id))])
        }
    }

    init(snapshotValue value: FlowSnapshotValue) throws {
        guard let (name, fields) = value.enumCase else { throw value.typeMismatch(Shelf.self) }
        switch name {
        case "all": self = .all
        case "book":
            guard case .int(let id)? = fields["id"], let id = Int(exactly: id) else {
                throw value.typeMismatch(Shelf.self)
            }
            self = .book(id: id)
        default: throw value.typeMismatch(Shelf.self)
        }
    }
}

/// `Shelf` without its conversion: what its synthesized `Codable` conformance makes.
enum CodableShelf: Codable, Hashable, Sendable {
    case all
    case book(id: Int)
}

@MainActor
@Suite("Restoration guide: routes that convert themselves")
struct RestorationConvertibleGuideTests {
    @Test(
        "Shelf's conversion makes and reads what its Codable conformance does, and refuses the rest"
    )
    func shelfAgreesWithCodable() throws {
        for (shelf, codable) in [(Shelf.all, CodableShelf.all), (.book(id: 7), .book(id: 7))] {
            let value = try FlowSnapshotValue(encoding: codable)
            #expect(shelf.snapshotValue == value)
            #expect(try Shelf(snapshotValue: value) == shelf)
        }
        #expect(
            Shelf.book(id: 7).snapshotValue == .object(["book": .object(["id": .int(7)])]))
        for refused: FlowSnapshotValue in [
            .string("all"), .object(["shelf": .object([:])]),
            .object(["book": .object(["id": .string("7")])]), .object([:]),
        ] {
            #expect(throws: DecodingError.self) { try Shelf(snapshotValue: refused) }
            #expect(throws: DecodingError.self) { try refused.decode(CodableShelf.self) }
        }
        #expect(
            "\(FlowSnapshotValue.string("all").typeMismatch(Shelf.self))".contains(
                "expected Shelf, found a string"))
    }

    @Test("A stack of Shelf routes is saved and restored through the conversion")
    func shelfRoundTrip() throws {
        func makeApp(books: [Int]) throws -> (FlowSwitch, FlowStack) {
            let stack = FlowStack(
                name: "shelf", root: FlowController(name: "all", route: FlowRoute(Shelf.all)))
            stack.register(Shelf.self) { shelf, _ in
                FlowController(name: shelf == .all ? "all" : "book")
            }
            for id in books {
                try stack.push(FlowController(name: "book", route: FlowRoute(Shelf.book(id: id))))
            }
            return (FlowSwitch(name: "app", initial: stack), stack)
        }
        let (app, _) = try makeApp(books: [3, 7])
        let runtime = try FlowRuntime(root: app)
        try runtime.start()
        let snapshot = try FlowSnapshot(json: try runtime.snapshot().json())
        let (fresh, stack) = try makeApp(books: [])
        let restored = try FlowRuntime(root: fresh)
        let report = try restored.start(restoring: snapshot)
        #expect(report.skipped.isEmpty)
        #expect(
            stack.entries.map(\.route)
                == [Shelf.all, .book(id: 3), .book(id: 7)].map { FlowRoute($0) })
    }
}
