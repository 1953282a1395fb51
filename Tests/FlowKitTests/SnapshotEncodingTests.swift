import Testing

@testable import FlowKit

/// The encoder behind `FlowSnapshotValue(encoding:)` and `snapshot()`: what the `Encoder`
/// protocol allows (containers filled in any order, super-encoders, keys written twice) and
/// the coding paths it reports.
@MainActor
@Suite("Snapshot encoding: the value encoder and the snapshot walk")
struct SnapshotEncodingTests {
    /// Opens two nested containers and a nested list, then fills them and the parent in
    /// reverse order.
    struct OutOfOrder: Encodable {
        enum Keys: String, CodingKey { case first, second, list, scalar, late }
        enum Inner: String, CodingKey { case value }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            var first = container.nestedContainer(keyedBy: Inner.self, forKey: .first)
            var second = container.nestedContainer(keyedBy: Inner.self, forKey: .second)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            var head = list.nestedContainer(keyedBy: Inner.self)
            try list.encode(2)
            var tail = list.nestedUnkeyedContainer()
            try container.encode("s", forKey: .scalar)
            try tail.encode(3)
            try second.encode(2, forKey: .value)
            try head.encode(1, forKey: .value)
            try first.encode(1, forKey: .value)
            // The same container asked for again is the same one.
            var again = encoder.container(keyedBy: Keys.self)
            try again.encode(true, forKey: .late)
            #expect(list.count == 3)
        }
    }

    @Test("Nested containers can be filled in any order, after their parent")
    func outOfOrder() throws {
        let expected = FlowSnapshotValue.object([
            "first": .object(["value": .int(1)]),
            "second": .object(["value": .int(2)]),
            "list": .array([.object(["value": .int(1)]), .int(2), .array([.int(3)])]),
            "scalar": .string("s"), "late": .bool(true),
        ])
        #expect(try FlowSnapshotValue(encoding: OutOfOrder()) == expected)
    }

    /// Writes each key twice in different ways: the last write wins.
    struct Rewrites: Encodable {
        enum Keys: String, CodingKey { case a, b, c, d }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            var nested = container.nestedContainer(keyedBy: Keys.self, forKey: .a)
            try container.encode(1, forKey: .a)  // replaces the nested container
            try nested.encode(9, forKey: .a)  // writes to a container no longer stored
            try container.encode(2, forKey: .b)
            var list = container.nestedUnkeyedContainer(forKey: .b)  // replaces the 2
            try list.encode("x")
            try container.encode([1], forKey: .c)
            try container.encode("c", forKey: .c)  // a scalar replaces an encoded list
            _ = container.superEncoder(forKey: .d)
            var other = container.nestedContainer(keyedBy: Keys.self, forKey: .d)
            try other.encodeNil(forKey: .a)
        }
    }

    @Test("A key written twice keeps the last value, whatever the kinds")
    func rewrites() throws {
        let expected = FlowSnapshotValue.object([
            "a": .int(1), "b": .array([.string("x")]), "c": .string("c"),
            "d": .object(["a": .null]),
        ])
        #expect(try FlowSnapshotValue(encoding: Rewrites()) == expected)
    }

    /// Uses every kind of super-encoder, filling one of them late and leaving one empty.
    struct Supers: Encodable {
        enum Keys: String, CodingKey { case own, named, empty }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            let parent = container.superEncoder()
            let named = container.superEncoder(forKey: .named)
            _ = container.superEncoder(forKey: .empty)
            var list = container.nestedUnkeyedContainer(forKey: .own)
            let element = list.superEncoder()
            try list.encode(5)
            var single = element.singleValueContainer()
            try single.encode("element")
            try "named".encode(to: named)
            var base = parent.container(keyedBy: Keys.self)
            try base.encode(1, forKey: .own)
            #expect(parent.codingPath.map(\.stringValue) == ["super"])
            #expect(element.codingPath.map(\.stringValue) == ["own", "0"])
            #expect(element.codingPath.last?.intValue == 0)
        }
    }

    @Test("Super-encoders write under super, their key or their index; empty ones are {}")
    func superEncoders() throws {
        let expected = FlowSnapshotValue.object([
            "super": .object(["own": .int(1)]), "named": .string("named"),
            "empty": .object([:]), "own": .array([.string("element"), .int(5)]),
        ])
        #expect(try FlowSnapshotValue(encoding: Supers()) == expected)
    }

    /// Records the coding path each encoder and container reports, and throws where asked.
    final class PathLog {
        var paths: [String] = []
    }

    struct Probe: Encodable {
        var levels: Int
        var failing = false
        var log: PathLog

        enum Keys: String, CodingKey { case next, list }

        func encode(to encoder: any Encoder) throws {
            log.paths.append(encoder.codingPath.map(\.stringValue).joined(separator: "."))
            guard levels > 0 else {
                if failing {
                    var single = encoder.singleValueContainer()
                    try single.encode(UInt64.max)
                }
                return
            }
            var container = encoder.container(keyedBy: Keys.self)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            try list.encode(0)
            log.paths.append(list.codingPath.map(\.stringValue).joined(separator: "."))
            try list.encode(Probe(levels: levels - 1, failing: failing, log: log))
        }
    }

    @Test("Coding paths are exact at every level, in containers and in errors")
    func codingPaths() throws {
        let log = PathLog()
        _ = try FlowSnapshotValue(encoding: Probe(levels: 2, log: log))
        #expect(log.paths == ["", "list", "list.1", "list.1.list", "list.1.list.1"])
        do {
            _ = try FlowSnapshotValue(encoding: Probe(levels: 2, failing: true, log: log))
            Issue.record("UInt64.max encoded")
        } catch let EncodingError.invalidValue(_, context) {
            #expect(context.codingPath.map(\.stringValue) == ["list", "1", "list", "1"])
            #expect(context.codingPath.map(\.intValue) == [nil, 1, nil, 1])
        }
        struct Keyed: Encodable {
            enum Keys: String, CodingKey { case outer, inner }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                var nested = container.nestedContainer(keyedBy: Keys.self, forKey: .outer)
                try nested.encode(UInt.max, forKey: .inner)
            }
        }
        do {
            _ = try FlowSnapshotValue(encoding: Keyed())
            Issue.record("UInt.max encoded")
        } catch let EncodingError.invalidValue(_, context) {
            #expect(context.codingPath.map(\.stringValue) == ["outer", "inner"])
        }
        struct Listed: Encodable {
            func encode(to encoder: any Encoder) throws {
                var list = encoder.unkeyedContainer()
                try list.encode(1)
                try list.encode(UInt32.max)
                try list.encode(UInt64.max)
            }
        }
        do {
            _ = try FlowSnapshotValue(encoding: Listed())
            Issue.record("UInt64.max encoded")
        } catch let EncodingError.invalidValue(_, context) {
            #expect(context.codingPath.map(\.intValue) == [2])
        }
    }

    @Test("Built-in scalars encode directly, wherever they are")
    func scalars() throws {
        #expect(try FlowSnapshotValue(encoding: "a") == .string("a"))
        #expect(try FlowSnapshotValue(encoding: 7) == .int(7))
        #expect(try FlowSnapshotValue(encoding: false) == .bool(false))
        #expect(try FlowSnapshotValue(encoding: 0.5) == .double(0.5))
        #expect(try FlowSnapshotValue(encoding: Int8(-2)) == .int(-2))
        #expect(try FlowSnapshotValue(encoding: [FlowSnapshotValue.null]) == .array([.null]))
        let optional: Int? = nil
        #expect(try FlowSnapshotValue(encoding: optional) == .null)
        #expect(
            try FlowSnapshotValue(encoding: ["k": [1.5]]) == .object(["k": .array([.double(1.5)])]))
    }

    /// What an encoded value kept of its encoder: encoders and containers, to use later.
    final class Kept {
        var encoders: [any Encoder] = []
        var keyed: [KeyedEncodingContainer<Switching.Keys>] = []
        var unkeyed: [any UnkeyedEncodingContainer] = []

        /// Weak references to the nodes behind the kept encoders.
        func nodes() -> [Weak] { encoders.map { Weak(($0 as? _ValueEncoder)?.node) } }
    }

    struct Weak {
        weak var node: _EncodingNode?
        init(_ node: _EncodingNode?) { self.node = node }
    }

    /// Asks its encoder for one kind of container, keeps it, then asks for another kind and
    /// writes through both; throws at the end if asked.
    struct Switching: Encodable {
        enum Keys: String, CodingKey { case a, b }
        var kept: Kept
        var toList = true
        var failing = false

        struct Failure: Error {}

        func encode(to encoder: any Encoder) throws {
            kept.encoders.append(encoder)
            if toList {
                var keyed = encoder.container(keyedBy: Keys.self)
                var list = encoder.unkeyedContainer()
                try list.encode(1)
                var nested = keyed.nestedContainer(keyedBy: Keys.self, forKey: .a)
                try nested.encode(2, forKey: .b)
                try keyed.encode(3, forKey: .b)
                kept.encoders.append(keyed.superEncoder())
                kept.keyed.append(keyed)
            } else {
                var list = encoder.unkeyedContainer()
                var keyed = encoder.container(keyedBy: Keys.self)
                try keyed.encode(1, forKey: .a)
                var nested = list.nestedUnkeyedContainer()
                try nested.encode(2)
                try list.encode(3)
                kept.encoders.append(list.superEncoder())
                kept.unkeyed.append(list)
            }
            if failing { throw Failure() }
        }
    }

    @Test("A container kept after its encoder switched kinds is ignored, never a crash")
    func switchingKinds() throws {
        let kept = Kept()
        #expect(try FlowSnapshotValue(encoding: Switching(kept: kept)) == .array([.int(1)]))
        #expect(
            try FlowSnapshotValue(encoding: Switching(kept: kept, toList: false))
                == .object(["a": .int(1)]))
        // Writing through what was kept after the encoding changes nothing and is safe.
        var keyed = try #require(kept.keyed.first)
        try keyed.encode(4, forKey: .a)
        var late = keyed.nestedContainer(keyedBy: Switching.Keys.self, forKey: .b)
        try late.encode(5, forKey: .a)
        var list = try #require(kept.unkeyed.first)
        var nested = list.nestedContainer(keyedBy: Switching.Keys.self)
        try nested.encode(6, forKey: .a)
        for encoder in kept.encoders {
            var single = encoder.singleValueContainer()
            try single.encode(7)
            _ = encoder.codingPath
        }
    }

    @Test("The encoder's nodes are released after an encoding, a failed one, and a late write")
    func nodesReleased() throws {
        for (toList, failing) in [(true, false), (false, false), (true, true), (false, true)] {
            var kept: Kept? = Kept()
            _ = try? FlowSnapshotValue(
                encoding: Switching(kept: kept!, toList: toList, failing: failing))
            if var keyed = kept!.keyed.first {
                var late = keyed.nestedContainer(keyedBy: Switching.Keys.self, forKey: .a)
                try late.encode(1, forKey: .b)
            }
            let nodes = kept!.nodes()
            #expect(nodes.allSatisfy { $0.node != nil })
            kept = nil
            #expect(nodes.allSatisfy { $0.node == nil }, "toList: \(toList), failing: \(failing)")
        }
        // Nested values of a value that throws deep down.
        let log = PathLog()
        #expect(throws: EncodingError.self) {
            try FlowSnapshotValue(encoding: Probe(levels: 3, failing: true, log: log))
        }
    }

    enum Screen: Codable, Hashable, Sendable {
        case list
        case item(id: Int)
    }

    final class Saving: FlowController, FlowRestorable {
        var saved: Int?
        func saveState() -> Int? { saved }
        func restoreState(_ state: Int) throws { saved = state }
    }

    @Test("Routes of several types and nodes of several classes, mixed, are stored as they are")
    func mixedTypes() throws {
        let stack = FlowStack(name: "stack", route: "stack", root: FlowController(name: "root"))
        let runtime = try FlowRuntime(root: stack)
        try runtime.start()
        let routes: [FlowRoute?] = [
            FlowRoute(Screen.item(id: 1)), FlowRoute(2), FlowRoute(Screen.list), "text", nil,
            FlowRoute(Screen.item(id: 3)), FlowRoute(4.5), FlowRoute(true),
        ]
        for (index, route) in routes.enumerated() {
            let node =
                index.isMultiple(of: 3)
                ? Saving(name: "n\(index)", route: route)
                : FlowController(name: "n\(index)", route: route)
            (node as? Saving)?.saved = index
            try stack.push(node)
        }
        let snapshot = try runtime.snapshot()
        let entries = snapshot.root.children.dropFirst()
        let screen = String(reflecting: Screen.self)
        #expect(
            entries.map { $0.route?.type } == [
                screen, "Swift.Int", screen, "Swift.String", nil, screen, "Swift.Double",
                "Swift.Bool",
            ])
        #expect(
            entries.map { $0.route?.value } == [
                .object(["item": .object(["id": .int(1)])]), .int(2),
                .object(["list": .object([:])]),
                .string("text"), nil, .object(["item": .object(["id": .int(3)])]), .double(4.5),
                .bool(true),
            ])
        #expect(
            entries.map(\.state) == [.int(0), nil, nil, .int(3), nil, nil, .int(6), nil])
        #expect(entries.map(\.kind) == Array(repeating: .node, count: 8))
        #expect(snapshot.root.kind == .stack && snapshot.root.route?.type == "Swift.String")
        // The same routes stored one by one.
        for (entry, route) in zip(entries, routes) {
            #expect(try entry.route == route.map { try FlowSnapshot.Route($0) })
        }
    }
}
