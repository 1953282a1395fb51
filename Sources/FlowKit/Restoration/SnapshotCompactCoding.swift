// The compact encoding of a whole snapshot (format 2): short keys, defaults left out, and
// route type names stored once per snapshot in a table that routes refer to by index.
//
//     {"v":2,"t":["Swift.String","Shop.Screen"],
//      "r":{"n":"app","k":"tabs","i":1,"c":[
//        {"n":"catalog","k":"stack","r":"catalog","c":[
//          {"n":"list","y":1,"r":{"list":{}}},
//          {"n":"detail","r":{"detail":{"id":7}}},
//          {"r":{"detail":{"id":9}}}]}, …]},
//      "h":[{"p":"app/login","r":[{"y":0,"r":"steps"}]}]}
//
// Snapshot keys: `v` version, `s` the app's schema version (if it declared one), `t` route
// types, `r` root, `h` history, `d` dropped branches (a budget's, see SnapshotBudget.swift).
// Node keys: `n` name (left out when it equals the
// previous sibling's), `k` kind (left out for `node`), `y` the route's type index (left out
// when it equals the previous sibling's route type, or 0 for a first child), `r` the route's
// value, `c` children, `p` the presented node, `s` state, `i` selected tab (a tab container's
// 0 is left out), `f` focused region (a parallel container's or a split's 0 is left out), `x`
// collapsed, `m` preferred column. A `null` `i` or `f` on a container that needs one keeps a
// missing selection missing, so every snapshot value survives the round trip.
//
// Documents without `v` are format 1 (FlowSnapshot's long keyed form), still decoded.

extension FlowSnapshot {
    enum _SnapshotKey: String, CodingKey {
        case v, s, t, r, h, d
    }

    enum _NodeKey: String, CodingKey {
        case n, k, y, r, c, p, s, i, f, x, m
    }

    enum _HistoryKey: String, CodingKey {
        case p, r
    }

    /// What a sibling passes to the next one: its name and its route's type index.
    struct _Sibling {
        var name: String?
        var type = 0
    }

    /// The route type names of the snapshot, in the order of first use (pre-order, then the
    /// history), and their indexes.
    func _typeTable() -> (names: [String], index: [String: Int]) {
        var names: [String] = []
        var index: [String: Int] = [:]
        func add(_ name: String) {
            if index[name] == nil {
                index[name] = names.count
                names.append(name)
            }
        }
        var pending = [root]
        while let node = pending.popLast() {
            if let route = node.route { add(route.type) }
            if let presented = node.presented { pending.append(presented) }
            pending.append(contentsOf: node.children.reversed())
        }
        for entry in history { for route in entry.routes { add(route.type) } }
        return (names, index)
    }

    /// Encodes the snapshot in the compact form.
    func _encodeCompact(to encoder: any Encoder) throws {
        let table = _typeTable()
        var container = encoder.container(keyedBy: _SnapshotKey.self)
        try container.encode(version, forKey: .v)
        try container.encodeIfPresent(schema, forKey: .s)
        try container.encode(table.names, forKey: .t)
        var rootContainer = container.nestedContainer(keyedBy: _NodeKey.self, forKey: .r)
        var sibling = _Sibling()
        try Self._encode(root, into: &rootContainer, after: &sibling, types: table.index)
        if !history.isEmpty {
            var list = container.nestedUnkeyedContainer(forKey: .h)
            for entry in history {
                var item = list.nestedContainer(keyedBy: _HistoryKey.self)
                try item.encode(entry.path, forKey: .p)
                var routes = item.nestedUnkeyedContainer(forKey: .r)
                for route in entry.routes {
                    var stored = routes.nestedContainer(keyedBy: _NodeKey.self)
                    try stored.encode(table.index[route.type]!, forKey: .y)
                    try stored.encode(route.value, forKey: .r)
                }
            }
        }
        if !dropped.isEmpty { try container.encode(dropped, forKey: .d) }
    }

    private static func _encode(
        _ node: Node, into container: inout KeyedEncodingContainer<_NodeKey>,
        after sibling: inout _Sibling, types: [String: Int]
    ) throws {
        if node.name != sibling.name { try container.encode(node.name, forKey: .n) }
        sibling.name = node.name
        if node.kind != .node { try container.encode(node.kind, forKey: .k) }
        if let route = node.route {
            let type = types[route.type]!
            if type != sibling.type { try container.encode(type, forKey: .y) }
            sibling.type = type
            try container.encode(route.value, forKey: .r)
        }
        if !node.children.isEmpty {
            var list = container.nestedUnkeyedContainer(forKey: .c)
            var previous = _Sibling()
            for child in node.children {
                var item = list.nestedContainer(keyedBy: _NodeKey.self)
                try _encode(child, into: &item, after: &previous, types: types)
            }
        }
        if let presented = node.presented {
            var item = container.nestedContainer(keyedBy: _NodeKey.self, forKey: .p)
            var previous = _Sibling()
            try _encode(presented, into: &item, after: &previous, types: types)
        }
        try container.encodeIfPresent(node.state, forKey: .s)
        if node.kind == .tabs {
            if node.selectedTab != 0 { try container.encode(node.selectedTab, forKey: .i) }
        } else {
            try container.encodeIfPresent(node.selectedTab, forKey: .i)
        }
        if node.kind == .parallel || node.kind == .split {
            if node.focusedRegion != 0 { try container.encode(node.focusedRegion, forKey: .f) }
        } else {
            try container.encodeIfPresent(node.focusedRegion, forKey: .f)
        }
        try container.encodeIfPresent(node.collapsed, forKey: .x)
        try container.encodeIfPresent(node.preferredColumn, forKey: .m)
    }

    /// Decodes a compact document (one with a `v` key).
    init(compact decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: _SnapshotKey.self)
        let version = try container.decode(Int.self, forKey: .v)
        let types = try _decodeList(String.self, in: container, forKey: .t) ?? []
        let rootContainer = try container.nestedContainer(keyedBy: _NodeKey.self, forKey: .r)
        var sibling = _Sibling()
        let root = try Self._decodeNode(rootContainer, after: &sibling, types: types)
        var history: [HistoryEntry] = []
        if container.contains(.h) {
            var list = try container.nestedUnkeyedContainer(forKey: .h)
            try _checkCount(of: list)
            while !list.isAtEnd {
                let item = try list.nestedContainer(keyedBy: _HistoryKey.self)
                var routes: [Route] = []
                var stored = try item.nestedUnkeyedContainer(forKey: .r)
                try _checkCount(of: stored)
                while !stored.isAtEnd {
                    let route = try stored.nestedContainer(keyedBy: _NodeKey.self)
                    routes.append(
                        try Self._decodeRoute(
                            in: route, type: try route.decode(Int.self, forKey: .y), types: types))
                }
                history.append(
                    HistoryEntry(path: try item.decode(String.self, forKey: .p), routes: routes))
            }
        }
        self.init(
            version: version, root: root, history: history,
            schema: try container.decodeIfPresent(Int.self, forKey: .s))
        dropped = try _decodeList(Dropped.self, in: container, forKey: .d) ?? []
    }

    private static func _decodeNode(
        _ container: KeyedDecodingContainer<_NodeKey>, after sibling: inout _Sibling,
        types: [String]
    ) throws -> Node {
        // Each node level takes two coding levels (`c`, then the index).
        if container.codingPath.count >= FlowSnapshot.maximumNesting {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: container.codingPath,
                    debugDescription:
                        "nodes nested deeper than \(FlowSnapshot.maximumNesting) coding levels"))
        }
        guard let name = try container.decodeIfPresent(String.self, forKey: .n) ?? sibling.name
        else {
            throw DecodingError.keyNotFound(
                _NodeKey.n,
                DecodingError.Context(
                    codingPath: container.codingPath,
                    debugDescription: "a first child (or a root) needs a name"))
        }
        sibling.name = name
        let kind = try container.decodeIfPresent(Node.Kind.self, forKey: .k) ?? .node
        var route: Route?
        if container.contains(.r) {
            let type = try container.decodeIfPresent(Int.self, forKey: .y) ?? sibling.type
            sibling.type = type
            route = try _decodeRoute(in: container, type: type, types: types)
        }
        var children: [Node] = []
        if container.contains(.c) {
            var list = try container.nestedUnkeyedContainer(forKey: .c)
            try _checkCount(of: list)
            if let count = list.count { children.reserveCapacity(count) }
            var previous = _Sibling()
            while !list.isAtEnd {
                let item = try list.nestedContainer(keyedBy: _NodeKey.self)
                children.append(try _decodeNode(item, after: &previous, types: types))
            }
        }
        var presented: Node?
        if container.contains(.p) {
            let item = try container.nestedContainer(keyedBy: _NodeKey.self, forKey: .p)
            var previous = _Sibling()
            presented = try _decodeNode(item, after: &previous, types: types)
        }
        func index(_ key: _NodeKey, default defaultValue: Int?) throws -> Int? {
            guard container.contains(key) else { return defaultValue }
            return try container.decodeIfPresent(Int.self, forKey: key)
        }
        return Node(
            name: name, kind: kind, route: route, children: children, presented: presented,
            selectedTab: try index(.i, default: kind == .tabs ? 0 : nil),
            state: try container.decodeIfPresent(FlowSnapshotValue.self, forKey: .s),
            focusedRegion: try index(
                .f, default: kind == .parallel || kind == .split ? 0 : nil),
            collapsed: try container.decodeIfPresent(Bool.self, forKey: .x),
            preferredColumn: try container.decodeIfPresent(FlowSplit.Column.self, forKey: .m))
    }

    /// The route under `r`, whose type is `types[type]`. A `String`, `Int`, `Bool` or
    /// `Double` value is read as that type directly (no probing for its shape).
    private static func _decodeRoute(
        in container: KeyedDecodingContainer<_NodeKey>, type: Int, types: [String]
    ) throws -> Route {
        guard types.indices.contains(type) else {
            throw DecodingError.dataCorruptedError(
                forKey: .y, in: container,
                debugDescription: "route type \(type) is not in the table of \(types.count)")
        }
        let name = types[type]
        let value: FlowSnapshotValue
        switch name {
        case "Swift.String": value = .string(try container.decode(String.self, forKey: .r))
        case "Swift.Int": value = .int(try container.decode(Int64.self, forKey: .r))
        case "Swift.Bool": value = .bool(try container.decode(Bool.self, forKey: .r))
        case "Swift.Double": value = .double(try container.decode(Double.self, forKey: .r))
        default: value = try container.decode(FlowSnapshotValue.self, forKey: .r)
        }
        return Route(type: name, value: value)
    }
}

/// Refuses (before its elements are read) a list longer than
/// ``FlowSnapshot/maximumNodeCount``.
private func _checkCount(of list: any UnkeyedDecodingContainer) throws {
    if let count = list.count, count > FlowSnapshot.maximumNodeCount {
        throw DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: list.codingPath,
                debugDescription:
                    "\(count) elements: more than \(FlowSnapshot.maximumNodeCount) are refused"))
    }
}
