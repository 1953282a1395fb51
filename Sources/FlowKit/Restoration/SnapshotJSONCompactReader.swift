// The fast path of `FlowSnapshot(json:)` (SnapshotJSON.swift): a compact document (format 2)
// read straight from its bytes into the snapshot, without first building a
// `FlowSnapshotValue` object per node. Only route values and states are parsed as values.
//
// The top-level object is read in two passes: first its keys and where each value lies (a
// scan that matches brackets and skips strings, allocating nothing), then each value, parsed
// and checked in full, in the order the snapshot needs (the route type table `t` before the
// root `r` and the history `h`), whatever order the keys came in (JSONEncoder's is
// arbitrary). A document without `v` (format 1) gets `nil`, and the general path
// (`_JSONParser` then `_CompactReader`) reads it. Both paths apply the same limits and give
// the same snapshot; of duplicate keys the first counts, as in JSONDecoder.

extension _JSONParser {
    /// The snapshot of a compact document, or `nil` when the document is not one this path
    /// reads (see above).
    mutating func compactSnapshot() throws -> FlowSnapshot? {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
        try enter()
        index += 1
        skipSpace()
        guard index < bytes.count, bytes[index] != UInt8(ascii: "}") else { return nil }
        // Pass 1: the keys, and the byte range of each value.
        var known: [UInt8: Range<Int>] = [:]
        var others: [Range<Int>] = []
        while true {
            skipSpace()
            let name = try key()
            skipSpace()
            try expect(UInt8(ascii: ":"))
            skipSpace()
            let start = index
            try skipValue()
            if name != 0, known[name] == nil {
                known[name] = start..<index
            } else {
                others.append(start..<index)
            }
            skipSpace()
            if try endOrComma(UInt8(ascii: "}")) { break }
        }
        skipSpace()
        guard index == bytes.count else { throw corrupt("text after the value") }
        guard let versionRange = known[UInt8(ascii: "v")] else { return nil }
        // Pass 2: each value in full, one level inside the top-level object.
        for (name, range) in known
        where !"vstrhd".utf8.contains(name) {
            others.append(range)
        }
        for range in others { try read(range) { parser in _ = try parser.parseValue() } }
        var version = 0
        try read(versionRange) { parser in version = try parser.int("v") }
        var snapshot = FlowSnapshot(version: version, root: FlowSnapshot.Node(name: ""))
        if let range = known[UInt8(ascii: "s")] {
            try read(range) { parser in snapshot.schema = try parser.int("s") }
        }
        var types: [String] = []
        if let range = known[UInt8(ascii: "t")] {
            try read(range) { parser in
                types = try parser.list("t") { parser in try parser.string("a route type") }
            }
        }
        guard let rootRange = known[UInt8(ascii: "r")] else { throw corrupt("no root") }
        try read(rootRange) { parser in
            guard parser.bytes[parser.index] == UInt8(ascii: "{") else {
                throw parser.corrupt("no root")
            }
            var sibling = FlowSnapshot._Sibling()
            snapshot.root = try parser.node(types: types, after: &sibling, depth: 1)
        }
        if let range = known[UInt8(ascii: "h")] {
            try read(range) { parser in
                snapshot.history = try parser.list("h") { parser in
                    try parser.historyEntry(types: types)
                }
            }
        }
        if let range = known[UInt8(ascii: "d")] {
            try read(range) { parser in
                snapshot.dropped = try parser.list("d") { parser in try parser.droppedRecord() }
            }
        }
        return snapshot
    }

    /// Reads the top-level value in `range` with `value`, which must end where the first pass
    /// found its end.
    private mutating func read(
        _ range: Range<Int>, _ value: (inout _JSONParser) throws -> Void
    ) throws {
        index = range.lowerBound
        depth = 1
        try value(&self)
        guard index == range.upperBound else { throw corrupt("a value ends too early") }
    }

    /// Moves past the value at `index` without reading it: brackets are matched by count and
    /// strings skipped (escapes included); what it passes over is checked when it is read.
    /// Throws only if the text ends inside a string or a container.
    private mutating func skipValue() throws {
        var open = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                guard index < bytes.count else { throw corrupt("a string does not end") }
                index += 1
                if open == 0 { return }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                open += 1
                index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard open > 0 else { return }
                open -= 1
                index += 1
                if open == 0 { return }
            case UInt8(ascii: ","), 0x20, 0x09, 0x0A, 0x0D:
                guard open > 0 else { return }
                index += 1
            default:
                index += 1
            }
        }
        guard open == 0 else { throw corrupt("the text ends") }
    }

    /// Whether the key `name` was met before in this object (`seen` has a bit per letter):
    /// the first of duplicate keys counts, as in JSONDecoder. Other keys (0) are never
    /// repeated: they are read and ignored each time.
    private static func isRepeated(_ name: UInt8, in seen: inout UInt64) -> Bool {
        guard name >= UInt8(ascii: "a"), name <= UInt8(ascii: "z") else { return false }
        let bit: UInt64 = 1 << (name - UInt8(ascii: "a"))
        defer { seen |= bit }
        return seen & bit != 0
    }

    /// One level deeper, refused past ``FlowSnapshot/maximumNesting`` as `parseValue` does.
    private mutating func enter() throws {
        depth += 1
        guard depth < FlowSnapshot.maximumNesting else { throw corrupt("nested too deep") }
    }

    /// An object key, as its one ASCII byte; 0 for any other key (it is read and ignored).
    private mutating func key() throws -> UInt8 {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
            throw corrupt("a key is not a string")
        }
        if index + 2 < bytes.count, bytes[index + 2] == UInt8(ascii: "\""),
            bytes[index + 1] != UInt8(ascii: "\\"), bytes[index + 1] != UInt8(ascii: "\""),
            bytes[index + 1] >= 0x20
        {
            defer { index += 3 }
            return bytes[index + 1] < 0x80 ? bytes[index + 1] : 0
        }
        let text = try parseString()
        let utf8 = text.utf8
        return utf8.count == 1 && utf8.first! < 0x80 ? utf8.first! : 0
    }

    private mutating func int(_ what: String) throws -> Int {
        skipSpace()
        guard case .int(let number) = try parseValue(), let int = Int(exactly: number) else {
            throw corrupt("\(what) is not an integer")
        }
        return int
    }

    private mutating func string(_ what: String) throws -> String {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
            throw corrupt("\(what) is not a string")
        }
        return try parseString()
    }

    /// A list, refused past ``FlowSnapshot/maximumNodeCount`` elements.
    private mutating func list<Element>(
        _ what: String, _ element: (inout _JSONParser) throws -> Element
    ) throws -> [Element] {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else {
            throw corrupt("\(what) is not a list")
        }
        try enter()
        index += 1
        var elements: [Element] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return elements
        }
        while true {
            skipSpace()
            elements.append(try element(&self))
            guard elements.count <= FlowSnapshot.maximumNodeCount else {
                throw corrupt("more than \(FlowSnapshot.maximumNodeCount) elements are refused")
            }
            skipSpace()
            if try endOrComma(UInt8(ascii: "]")) { break }
        }
        depth -= 1
        return elements
    }

    /// Calls `field` with each key of the object at `index`, positioned at its value.
    private mutating func object(
        _ what: String, _ field: (inout _JSONParser, UInt8) throws -> Void
    ) throws {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else {
            throw corrupt(what)
        }
        try enter()
        index += 1
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return
        }
        var seen: UInt64 = 0
        while true {
            skipSpace()
            let name = try key()
            skipSpace()
            try expect(UInt8(ascii: ":"))
            skipSpace()
            if Self.isRepeated(name, in: &seen) {
                _ = try parseValue()
            } else {
                try field(&self, name)
            }
            skipSpace()
            if try endOrComma(UInt8(ascii: "}")) { break }
        }
        depth -= 1
    }

    private mutating func historyEntry(types: [String]) throws -> FlowSnapshot.HistoryEntry {
        var path: String?
        var routes: [FlowSnapshot.Route]?
        try object("a history entry") { parser, name in
            switch name {
            case UInt8(ascii: "p"): path = try parser.string("p")
            case UInt8(ascii: "r"):
                routes = try parser.list("history routes") { parser in
                    var type: Int?
                    var value: FlowSnapshotValue?
                    try parser.object("a history route") { parser, name in
                        switch name {
                        case UInt8(ascii: "y"): type = try parser.int("y")
                        case UInt8(ascii: "r"): value = try parser.parseValue()
                        default: _ = try parser.parseValue()
                        }
                    }
                    guard let type else { throw parser.corrupt("y is not an integer") }
                    guard types.indices.contains(type) else {
                        throw parser.corrupt(
                            "route type \(type) is not in the table of \(types.count)")
                    }
                    guard let value else { throw parser.corrupt("a route without a value") }
                    return try _compactRoute(
                        value, type: type, types: types, corrupt: parser.corrupt)
                }
            default: _ = try parser.parseValue()
            }
        }
        guard let path else { throw corrupt("p is not a string") }
        guard let routes else { throw corrupt("a history entry without routes") }
        return FlowSnapshot.HistoryEntry(path: path, routes: routes)
    }

    private mutating func droppedRecord() throws -> FlowSnapshot.Dropped {
        var path: String?
        var count = 1
        try object("a dropped record") { parser, name in
            switch name {
            case UInt8(ascii: "p"): path = try parser.string("p")
            case UInt8(ascii: "c"): count = try parser.int("c")
            default: _ = try parser.parseValue()
            }
        }
        guard let path else { throw corrupt("p is not a string") }
        return FlowSnapshot.Dropped(path: path, count: count)
    }

    /// A node and its subtree, from the object at `index`.
    private mutating func node(
        types: [String], after sibling: inout FlowSnapshot._Sibling, depth nodeDepth: Int
    ) throws -> FlowSnapshot.Node {
        // Two coding levels a node, as decoding counts them.
        guard nodeDepth * 2 < FlowSnapshot.maximumNesting else {
            throw corrupt("nodes nested deeper than \(FlowSnapshot.maximumNesting) coding levels")
        }
        var name: String?
        var kind = FlowSnapshot.Node.Kind.node
        var type: Int?
        var value: FlowSnapshotValue?
        var children: [FlowSnapshot.Node] = []
        var presented: FlowSnapshot.Node?
        var state: FlowSnapshotValue?
        var selected: Int??
        var focused: Int??
        var collapsed: Bool?
        var column: FlowSplit.Column?
        try object("a child") { parser, key in
            switch key {
            case UInt8(ascii: "n"): name = try parser.string("n")
            case UInt8(ascii: "k"):
                guard let known = FlowSnapshot.Node.Kind(rawValue: try parser.string("k")) else {
                    throw parser.corrupt("an unknown kind")
                }
                kind = known
            case UInt8(ascii: "y"): type = try parser.int("y")
            case UInt8(ascii: "r"): value = try parser.parseValue()
            case UInt8(ascii: "c"):
                var previous = FlowSnapshot._Sibling()
                children = try parser.list("c") { parser in
                    try parser.node(types: types, after: &previous, depth: nodeDepth + 1)
                }
            case UInt8(ascii: "p"):
                var first = FlowSnapshot._Sibling()
                presented = try parser.node(types: types, after: &first, depth: nodeDepth + 1)
            case UInt8(ascii: "s"): state = try parser.parseValue()
            case UInt8(ascii: "i"): selected = try parser.index("i")
            case UInt8(ascii: "f"): focused = try parser.index("f")
            case UInt8(ascii: "x"):
                guard case .bool(let flag) = try parser.parseValue() else {
                    throw parser.corrupt("x is not a Boolean")
                }
                collapsed = flag
            case UInt8(ascii: "m"):
                guard let known = FlowSplit.Column(rawValue: try parser.string("m")) else {
                    throw parser.corrupt("an unknown column")
                }
                column = known
            default: _ = try parser.parseValue()
            }
        }
        guard let name = name ?? sibling.name else {
            throw corrupt("a first child (or a root) needs a name")
        }
        sibling.name = name
        var route: FlowSnapshot.Route?
        if let value {
            let index = type ?? sibling.type
            sibling.type = index
            route = try _compactRoute(value, type: index, types: types, corrupt: corrupt)
        }
        return FlowSnapshot.Node(
            name: name, kind: kind, route: route, children: children, presented: presented,
            selectedTab: selected ?? (kind == .tabs ? 0 : nil), state: state,
            focusedRegion: focused ?? (kind == .parallel || kind == .split ? 0 : nil),
            collapsed: collapsed, preferredColumn: column)
    }

    /// An index that may be `null` (a missing selection kept missing).
    private mutating func index(_ what: String) throws -> Int? {
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "n") {
            try literal("null")
            return nil
        }
        return try int(what)
    }
}
