// FlowKit's own JSON for snapshots: `FlowSnapshot(json:)` and `json()`, without Foundation and
// without the `Codable` machinery, for launches where decoding is the cost (JSONDecoder takes
// tens of microseconds per node, most of it probing route values for their shape with thrown
// errors). A compact document as FlowKit and JSONEncoder write it is read straight from its
// bytes into the snapshot (SnapshotJSONCompactReader.swift), parsing only route values and
// states as `FlowSnapshotValue`s (a value's JSON type says which case, no probing). Any other
// document is parsed into `FlowSnapshotValue`s first: the compact form is then read from them,
// and a format 1 document goes through FlowKit's own decoder (`FlowSnapshotValue.decode`).
// Same limits as decoding: nesting deeper than `maximumNesting` levels and lists longer than
// `maximumNodeCount` are refused.

extension FlowSnapshot {
    /// Decodes a snapshot from its JSON (UTF-8), compact (format 2) or long (format 1), with
    /// FlowKit's own parser: the same snapshot `JSONDecoder` gives, several times faster, but
    /// for the form of numbers in route values and states: a number written with a fraction
    /// or an exponent is a ``FlowSnapshotValue/double(_:)`` (`1.0`), where `JSONDecoder` finds
    /// the integer it is (`.int(1)`). Restoring reads both as the same value (numbers convert
    /// where no precision is lost).
    ///
    ///     let snapshot = try FlowSnapshot(json: Array(data))
    ///
    /// - Throws: `DecodingError` for text that is not JSON, a document of another shape, or
    ///   one nested deeper than ``maximumNesting`` levels.
    public init(json: [UInt8]) throws {
        var fast = _JSONParser(bytes: json)
        if let snapshot = try fast.compactSnapshot() {
            self = snapshot
            return
        }
        var parser = _JSONParser(bytes: json)
        let value = try parser.parseDocument()
        guard case .object(let items) = value, items["v"] != nil else {
            self = try value.decode(FlowSnapshot.self)
            return
        }
        self = try FlowSnapshot(compactValue: items)
    }

    /// Reads a compact document from its parsed top-level object (the general path).
    init(compactValue items: [String: FlowSnapshotValue]) throws {
        var reader = _CompactReader(items: items)
        self = try reader.snapshot()
    }

    /// The snapshot's compact JSON (format 2) as UTF-8, written by FlowKit itself: what
    /// `JSONEncoder` writes, with object keys of route values and states sorted.
    public func json() -> [UInt8] {
        var writer = _JSONWriter()
        writer.write(self)
        return writer.bytes
    }
}

/// Reads a compact document from parsed values.
private struct _CompactReader {
    let items: [String: FlowSnapshotValue]
    var types: [String] = []

    init(items: [String: FlowSnapshotValue]) {
        self.items = items
    }

    func corrupt(_ reason: String) -> DecodingError {
        DecodingError.dataCorrupted(DecodingError.Context(codingPath: [], debugDescription: reason))
    }

    func int(_ value: FlowSnapshotValue?, _ what: String) throws -> Int {
        guard case .int(let number) = value, let int = Int(exactly: number) else {
            throw corrupt("\(what) is not an integer")
        }
        return int
    }

    func string(_ value: FlowSnapshotValue?, _ what: String) throws -> String {
        guard case .string(let text) = value else { throw corrupt("\(what) is not a string") }
        return text
    }

    func list(_ value: FlowSnapshotValue?, _ what: String) throws -> [FlowSnapshotValue] {
        guard let value else { return [] }
        guard case .array(let list) = value else { throw corrupt("\(what) is not a list") }
        guard list.count <= FlowSnapshot.maximumNodeCount else {
            throw corrupt(
                "\(list.count) elements: more than \(FlowSnapshot.maximumNodeCount) are refused")
        }
        return list
    }

    mutating func snapshot() throws -> FlowSnapshot {
        let version = try int(items["v"], "v")
        types = try list(items["t"], "t").map { try string($0, "a route type") }
        guard case .object(let root)? = items["r"] else { throw corrupt("no root") }
        var sibling = FlowSnapshot._Sibling()
        var snapshot = FlowSnapshot(
            version: version, root: try node(root, after: &sibling, depth: 1))
        if let schema = items["s"] { snapshot.schema = try int(schema, "s") }
        for entry in try list(items["h"], "h") {
            guard case .object(let fields) = entry else { throw corrupt("a history entry") }
            guard fields["r"] != nil else { throw corrupt("a history entry without routes") }
            let routes = try list(fields["r"], "history routes").map { stored in
                guard case .object(let route) = stored else { throw corrupt("a history route") }
                return try self.route(route["r"], type: try int(route["y"], "y"))
            }
            snapshot.history.append(
                FlowSnapshot.HistoryEntry(path: try string(fields["p"], "p"), routes: routes))
        }
        for record in try list(items["d"], "d") {
            guard case .object(let fields) = record else { throw corrupt("a dropped record") }
            snapshot.dropped.append(
                FlowSnapshot.Dropped(
                    path: try string(fields["p"], "p"),
                    count: fields["c"] == nil ? 1 : try int(fields["c"], "c")))
        }
        return snapshot
    }

    func route(_ value: FlowSnapshotValue?, type: Int) throws -> FlowSnapshot.Route {
        guard let value else {
            guard types.indices.contains(type) else {
                throw corrupt("route type \(type) is not in the table of \(types.count)")
            }
            throw corrupt("a route without a value")
        }
        return try _compactRoute(value, type: type, types: types, corrupt: corrupt)
    }

    func node(
        _ fields: [String: FlowSnapshotValue], after sibling: inout FlowSnapshot._Sibling,
        depth: Int
    ) throws -> FlowSnapshot.Node {
        // Two coding levels a node, as decoding counts them.
        guard depth * 2 < FlowSnapshot.maximumNesting else {
            throw corrupt("nodes nested deeper than \(FlowSnapshot.maximumNesting) coding levels")
        }
        guard let name = try fields["n"].map({ try string($0, "n") }) ?? sibling.name else {
            throw corrupt("a first child (or a root) needs a name")
        }
        sibling.name = name
        var kind = FlowSnapshot.Node.Kind.node
        if let stored = fields["k"] {
            guard let known = FlowSnapshot.Node.Kind(rawValue: try string(stored, "k")) else {
                throw corrupt("an unknown kind")
            }
            kind = known
        }
        var route: FlowSnapshot.Route?
        if let value = fields["r"] {
            let type = try fields["y"].map { try int($0, "y") } ?? sibling.type
            sibling.type = type
            route = try self.route(value, type: type)
        }
        var children: [FlowSnapshot.Node] = []
        let stored = try list(fields["c"], "c")
        children.reserveCapacity(stored.count)
        var previous = FlowSnapshot._Sibling()
        for child in stored {
            guard case .object(let childFields) = child else { throw corrupt("a child") }
            children.append(try node(childFields, after: &previous, depth: depth + 1))
        }
        var presented: FlowSnapshot.Node?
        if let value = fields["p"] {
            guard case .object(let presentedFields) = value else { throw corrupt("p") }
            var first = FlowSnapshot._Sibling()
            presented = try node(presentedFields, after: &first, depth: depth + 1)
        }
        func index(_ key: String, default defaultValue: Int?) throws -> Int? {
            guard let value = fields[key] else { return defaultValue }
            return value == .null ? nil : try int(value, key)
        }
        var collapsed: Bool?
        if let value = fields["x"] {
            guard case .bool(let flag) = value else { throw corrupt("x is not a Boolean") }
            collapsed = flag
        }
        var column: FlowSplit.Column?
        if let value = fields["m"] {
            guard let known = FlowSplit.Column(rawValue: try string(value, "m")) else {
                throw corrupt("an unknown column")
            }
            column = known
        }
        return FlowSnapshot.Node(
            name: name, kind: kind, route: route, children: children, presented: presented,
            selectedTab: try index("i", default: kind == .tabs ? 0 : nil), state: fields["s"],
            focusedRegion: try index("f", default: kind == .parallel || kind == .split ? 0 : nil),
            collapsed: collapsed, preferredColumn: column)
    }
}

/// A stored route of a compact document: its type's name from the snapshot's table (`type` is
/// its index) and its value. A `String`, `Int`, `Bool` or `Double` route's value must be of
/// that type (an integer stands for a `Double`, as JSON writes an integral one). `corrupt`
/// makes the error (each reader says where it was).
func _compactRoute(
    _ value: FlowSnapshotValue, type: Int, types: [String],
    corrupt: (String) -> DecodingError
) throws -> FlowSnapshot.Route {
    guard types.indices.contains(type) else {
        throw corrupt("route type \(type) is not in the table of \(types.count)")
    }
    let name = types[type]
    switch (name, value) {
    case ("Swift.String", .string), ("Swift.Int", .int), ("Swift.Bool", .bool): break
    case ("Swift.Double", .double): break
    case ("Swift.Double", .int(let number)):
        return FlowSnapshot.Route(type: name, value: .double(Double(number)))
    case ("Swift.String", _), ("Swift.Int", _), ("Swift.Bool", _), ("Swift.Double", _):
        throw corrupt("a \(name) route of another type")
    default: break
    }
    return FlowSnapshot.Route(type: name, value: value)
}
