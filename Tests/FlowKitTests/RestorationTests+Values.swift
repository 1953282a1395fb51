import FlowKit
import Foundation
import Testing

@MainActor
@Suite("Restoration: Codable routes and snapshot values")
struct SnapshotValueTests {
    struct Everything: Codable, Equatable {
        var flag = true
        var small: Int8 = -3
        var big: UInt64 = 1 << 40
        var ratio: Float = 0.5
        var name = "x"
        var optional: Int? = nil
        var present: String? = "here"
        var list = [1, 2, 3]
        var nested = [[1], [2, 3]]
        var map = ["a": 1]
        var intKeys = [1: "one", 2: "two"]
        var set: Set<Int> = [4]
        var shelf = Shelf.review(id: 2, stars: 5)
    }

    class Base: Codable {
        var a = 1
    }

    final class Derived: Base {
        var b = 2
        override init() { super.init() }
        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            b = try container.decode(Int.self, forKey: .b)
            try super.init(from: try container.superDecoder())
        }
        enum Keys: CodingKey { case b }
        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(b, forKey: .b)
            try super.encode(to: container.superEncoder())
        }
    }

    @Test("Any Codable value converts to a snapshot value and back")
    func roundTrip() throws {
        let value = Everything()
        let stored = try FlowSnapshotValue(encoding: value)
        #expect(try stored.decode(Everything.self) == value)
        // And through JSON, as part of a document.
        let json = try JSONDecoder().decode(
            FlowSnapshotValue.self, from: try JSONEncoder().encode(stored))
        #expect(try json.decode(Everything.self) == value)
        let derived = Derived()
        derived.a = 7
        let back = try FlowSnapshotValue(encoding: derived).decode(Derived.self)
        #expect(back.a == 7 && back.b == 2)
        #expect(try FlowSnapshotValue(encoding: [1.5, 2]) == .array([.double(1.5), .double(2)]))
    }

    @Test("Snapshot values survive JSON as the JSON values they are")
    func jsonShapes() throws {
        let value = FlowSnapshotValue.object([
            "null": .null, "true": .bool(true), "int": .int(-3), "big": .int(.max),
            "fraction": .double(1.5), "string": .string(""), "empty": .object([:]),
            "list": .array([.int(1), .string("a"), .array([]), .bool(false)]),
        ])
        let data = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(FlowSnapshotValue.self, from: data) == value)
        // An integral double is a JSON number like any other: it may come back as an
        // integer, and still decodes as a Double.
        let two = try JSONDecoder().decode(
            FlowSnapshotValue.self, from: try JSONEncoder().encode(FlowSnapshotValue.double(2)))
        #expect(try two.decode(Double.self) == 2)
    }

    @Test("Values that cannot be stored or read back are errors, not crashes")
    func errors() throws {
        #expect(throws: EncodingError.self) { try FlowSnapshotValue(encoding: UInt64.max) }
        #expect(throws: DecodingError.self) { try FlowSnapshotValue.int(300).decode(UInt8.self) }
        #expect(throws: DecodingError.self) { try FlowSnapshotValue.string("x").decode(Int.self) }
        #expect(throws: DecodingError.self) { try FlowSnapshotValue.array([]).decode(Shelf.self) }
        #expect(throws: DecodingError.self) {
            try FlowSnapshotValue.object(["detail": .object([:])]).decode(Shelf.self)
        }
        #expect(try FlowSnapshotValue.double(3).decode(Int.self) == 3)
        #expect(throws: DecodingError.self) { try FlowSnapshotValue.double(3.5).decode(Int.self) }
    }

    @Test("FlowRoute is Codable when its value is; decoding needs the types in userInfo")
    func codableRoute() throws {
        let route = FlowRoute(Shelf.detail(id: 7))
        let data = try JSONEncoder().encode(route)
        let decoder = JSONDecoder()
        #expect(throws: DecodingError.self) { try decoder.decode(FlowRoute.self, from: data) }
        decoder.userInfo[FlowRoute.codableTypesKey] = [Shelf.self]
        #expect(try decoder.decode(FlowRoute.self, from: data) == route)
        let text = try JSONEncoder().encode(FlowRoute("settings"))
        #expect(try JSONDecoder().decode(FlowRoute.self, from: text) == "settings")
        #expect(throws: EncodingError.self) {
            try JSONEncoder().encode(FlowRoute(OpaqueRoute(id: 1)))
        }
    }
}
