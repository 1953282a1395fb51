import FlowKit
import Testing

/// The snapshot value decoder builds coding paths only when they are read: these tests pin
/// the paths errors and decoders carry, at every kind of level, and the number conversions.
@Suite("Restoration: decoding snapshot values (coding paths, containers, numbers)")
struct SnapshotDecodingTests {
    struct Outer: Decodable {
        var inner: Inner
    }

    struct Inner: Decodable {
        var list: [Leaf]
    }

    struct Leaf: Decodable {
        var small: Int8
    }

    /// Records the coding path its decoder has (and, if it is keyed, its container's).
    struct PathProbe: Decodable {
        var path: [String]

        init(from decoder: any Decoder) throws {
            path = _describe(decoder.codingPath)
        }
    }

    struct Probes: Decodable {
        var top: PathProbe
        var list: [PathProbe]
        var nested: [[PathProbe]]
        var superPath: [String]
        var keyedSuperPath: [String]
        var containerPath: [String]
        var nestedContainerPath: [String]

        enum Keys: String, CodingKey { case top, list, nested, more }
        enum MoreKeys: String, CodingKey { case deeper }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            containerPath = _describe(container.codingPath)
            top = try container.decode(PathProbe.self, forKey: .top)
            list = try container.decode([PathProbe].self, forKey: .list)
            nested = try container.decode([[PathProbe]].self, forKey: .nested)
            superPath = _describe(try container.superDecoder().codingPath)
            keyedSuperPath = _describe(try container.superDecoder(forKey: .more).codingPath)
            let more = try container.nestedContainer(keyedBy: MoreKeys.self, forKey: .more)
            nestedContainerPath = _describe(
                try more.nestedContainer(keyedBy: MoreKeys.self, forKey: .deeper).codingPath)
        }
    }

    static let leaves: FlowSnapshotValue = .object([
        "inner": .object([
            "list": .array([.object(["small": .int(1)]), .object(["small": .int(300)])])
        ])
    ])

    @Test("A type that reads its coding path gets the exact path at every level")
    func pathsAsRead() throws {
        let value = FlowSnapshotValue.object([
            "top": .null,
            "list": .array([.null, .null]),
            "nested": .array([.array([.null]), .array([.null, .null])]),
            "more": .object(["deeper": .object([:])]),
        ])
        let probes = try value.decode(Probes.self)
        #expect(probes.containerPath == [])
        #expect(probes.top.path == ["top"])
        #expect(probes.list.map(\.path) == [["list", "[0]"], ["list", "[1]"]])
        #expect(
            probes.nested.map { $0.map(\.path) } == [
                [["nested", "[0]", "[0]"]], [["nested", "[1]", "[0]"], ["nested", "[1]", "[1]"]],
            ])
        #expect(probes.superPath == ["super"])
        #expect(probes.keyedSuperPath == ["more"])
        #expect(probes.nestedContainerPath == ["more", "deeper"])
    }

    @Test("An integer that does not fit names the whole path to it, through keys and indices")
    func overflowPath() throws {
        let error = try #require(throws: DecodingError.self) {
            try Self.leaves.decode(Outer.self)
        }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("expected dataCorrupted, got \(error)")
            return
        }
        #expect(_describe(context.codingPath) == ["inner", "list", "[1]", "small"])
        #expect(context.codingPath[2].intValue == 1)
        #expect(context.debugDescription == "int(300) does not fit in Int8")
    }

    @Test("A value of the wrong kind names its path and both kinds")
    func mismatchPaths() throws {
        let keyed = FlowSnapshotValue.object(["inner": .object(["list": .string("x")])])
        let error = try #require(throws: DecodingError.self) { try keyed.decode(Outer.self) }
        guard case .typeMismatch(_, let context) = error else {
            Issue.record("expected typeMismatch, got \(error)")
            return
        }
        #expect(_describe(context.codingPath) == ["inner", "list"])
        #expect(context.debugDescription == "expected Array<Any>, found a string")

        let element = FlowSnapshotValue.array([.int(1), .string("two")])
        let second = try #require(throws: DecodingError.self) { try element.decode([Int].self) }
        guard case .typeMismatch(_, let elementContext) = second else {
            Issue.record("expected typeMismatch, got \(second)")
            return
        }
        #expect(_describe(elementContext.codingPath) == ["[1]"])
        #expect(elementContext.debugDescription == "expected Int, found a string")

        let leaf = FlowSnapshotValue.object(["small": .bool(true)])
        let third = try #require(throws: DecodingError.self) { try leaf.decode(Leaf.self) }
        guard case .typeMismatch(_, let leafContext) = third else {
            Issue.record("expected typeMismatch, got \(third)")
            return
        }
        #expect(_describe(leafContext.codingPath) == ["small"])
        #expect(leafContext.debugDescription == "expected Int8, found a Boolean")
    }

    @Test("A missing key names its container's path; an ended array names the index past it")
    func missingValues() throws {
        let missing = FlowSnapshotValue.object([
            "inner": .object(["list": .array([.object(["big": .int(1)])])])
        ])
        let error = try #require(throws: DecodingError.self) { try missing.decode(Outer.self) }
        guard case .keyNotFound(let key, let context) = error else {
            Issue.record("expected keyNotFound, got \(error)")
            return
        }
        #expect(key.stringValue == "small")
        #expect(_describe(context.codingPath) == ["inner", "list", "[0]"])
        #expect(context.debugDescription == "no value for 'small'")

        struct Pair: Decodable {
            init(from decoder: any Decoder) throws {
                var list = try decoder.unkeyedContainer()
                _ = try list.decode(Int.self)
                _ = try list.decode(Int.self)
            }
        }
        let short = FlowSnapshotValue.object(["pair": .array([.int(1)])])
        let ended = try #require(throws: DecodingError.self) {
            try short.decode([String: Pair].self)
        }
        guard case .valueNotFound(_, let endedContext) = ended else {
            Issue.record("expected valueNotFound, got \(ended)")
            return
        }
        #expect(_describe(endedContext.codingPath) == ["pair", "[1]"])
        #expect(endedContext.debugDescription == "the array has ended")
    }

    @Test("Objects of one key and of several list and find their keys")
    func keys() throws {
        struct Keys: Decodable {
            var all: [String]
            var hasA: Bool
            var hasZ: Bool
            enum Key: String, CodingKey { case a, b, c, z }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: Key.self)
                all = container.allKeys.map(\.stringValue).sorted()
                hasA = container.contains(.a)
                hasZ = container.contains(.z)
            }
        }
        let one = try FlowSnapshotValue.object(["a": .int(1)]).decode(Keys.self)
        #expect(one.all == ["a"] && one.hasA && !one.hasZ)
        let unknown = try FlowSnapshotValue.object(["q": .int(1)]).decode(Keys.self)
        #expect(unknown.all == [] && !unknown.hasA)
        let several = try FlowSnapshotValue.object(["a": .int(1), "c": .null, "q": .int(2)])
            .decode(Keys.self)
        #expect(several.all == ["a", "c"] && several.hasA && !several.hasZ)
        #expect(try FlowSnapshotValue.object([:]).decode(Keys.self).all == [])
    }

    @Test("Numbers convert only without losing precision, in every container")
    func numbers() throws {
        #expect(try FlowSnapshotValue.double(3).decode(Int.self) == 3)
        #expect(try FlowSnapshotValue.int(3).decode(Double.self) == 3)
        #expect(try FlowSnapshotValue.int(255).decode(UInt8.self) == 255)
        #expect(throws: DecodingError.self) { try FlowSnapshotValue.double(3.5).decode(Int.self) }
        #expect(throws: DecodingError.self) { try FlowSnapshotValue.int(-1).decode(UInt.self) }
        #expect(throws: DecodingError.self) { try FlowSnapshotValue.string("1").decode(Int.self) }
        #expect(
            try FlowSnapshotValue.array([.double(2), .int(-4)]).decode([Int16].self) == [2, -4])
        #expect(try FlowSnapshotValue.array([.int(2)]).decode([Float].self) == [2])
        let keyed = try FlowSnapshotValue.object(["a": .double(7), "b": .int(8)])
            .decode([String: Int64].self)
        #expect(keyed == ["a": 7, "b": 8])
        let doubles = try FlowSnapshotValue.object(["a": .int(7), "b": .double(0.5)])
            .decode([String: Double].self)
        #expect(doubles == ["a": 7, "b": 0.5])
        #expect(throws: DecodingError.self) {
            try FlowSnapshotValue.object(["a": .double(0.5)]).decode([String: Int32].self)
        }
        #expect(throws: DecodingError.self) {
            try FlowSnapshotValue.object(["a": .int(1 << 40)]).decode([String: UInt32].self)
        }
    }
}

/// A coding path as text: keys by name, indices as `[n]`.
private func _describe(_ path: [any CodingKey]) -> [String] {
    path.map { key in key.intValue.map { "[\($0)]" } ?? key.stringValue }
}

/// Validation makes a node's path only for the node it refuses: these tests pin that path and
/// which of several wrong nodes is named.
@MainActor
@Suite("Restoration: checking a snapshot's shape (paths of refused nodes)")
struct SnapshotShapeTests {
    func refusal(_ root: FlowSnapshot.Node) throws -> FlowSnapshotError? {
        let runtime = try FlowRuntime(root: FlowController(name: "app"))
        do {
            try runtime.start(restoring: FlowSnapshot(root: root))
        } catch let error as FlowSnapshotError {
            #expect(!runtime.isRunning)
            return error
        }
        return nil
    }

    @Test("A wrong node deep below, and inside a presented node, is named by its whole path")
    func deepPaths() throws {
        let empty = FlowSnapshot.Node(name: "c", kind: .stack)
        let embedded = FlowSnapshot.Node(
            name: "app",
            children: [
                FlowSnapshot.Node(
                    name: "a", children: [FlowSnapshot.Node(name: "b", children: [empty])])
            ])
        #expect(
            try refusal(embedded)
                == .impossibleShape(path: "app/a/b/c", reason: "an empty stack"))
        let presented = FlowSnapshot.Node(
            name: "app",
            children: [
                FlowSnapshot.Node(
                    name: "a", presented: FlowSnapshot.Node(name: "sheet", children: [empty]))
            ])
        #expect(
            try refusal(presented)
                == .impossibleShape(path: "app/a/sheet/c", reason: "an empty stack"))
    }

    @Test("Of several wrong nodes, the presented one is named first, then the last child")
    func order() throws {
        let first = FlowSnapshot.Node(name: "first", kind: .stack)
        let second = FlowSnapshot.Node(name: "second", kind: .stack)
        let sheet = FlowSnapshot.Node(name: "sheet", kind: .stack)
        let stack = FlowSnapshot.Node(name: "stack", kind: .stack, children: [first, second])
        #expect(
            try refusal(FlowSnapshot.Node(name: "app", children: [stack]))
                == .impossibleShape(path: "app/stack/second", reason: "an empty stack"))
        #expect(
            try refusal(FlowSnapshot.Node(name: "app", children: [stack], presented: sheet))
                == .impossibleShape(path: "app/sheet", reason: "an empty stack"))
    }

    @Test("A snapshot made in code 1,000 levels deep is tooDeep, its leaves never reached")
    func deepInCode() throws {
        var node = FlowSnapshot.Node(name: "bad/name")
        for _ in 0..<1_000 { node = FlowSnapshot.Node(name: "n", children: [node]) }
        #expect(
            try refusal(FlowSnapshot.Node(name: "app", children: [node]))
                == .tooDeep(limit: FlowSnapshot.maximumDepth))
    }
}
