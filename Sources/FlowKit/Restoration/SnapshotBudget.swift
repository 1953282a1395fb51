// A size budget for snapshots: what the compact form takes, counted without encoding, and
// trimming a snapshot to a budget by leaving out whole branches, farthest from the shown path
// first (see Docs/Restoration.md, "Size").
//
// The shown path follows the snapshot: from the root, a node's presented node if it has one
// (what it embeds is behind it), else a stack's top entry, a tab container's selected tab,
// every region of a parallel container or split (all are on screen), a flow's or switch's
// child. A node off it is as far from it as the number of levels below the last node on it.
// A branch may be left out when restoring without it is what a refused guard gives: a
// presented node, an embedded child of a flow or switch (its parent gets its defaults), a stack
// entry above the bottom one of a stack that is off the path (the entries above it first).
// Never a tab or a region (fixed), never a covered entry of a stack on the path (the user's way
// back), never a node on the path.

extension FlowSnapshot {
    /// The size of this snapshot's compact JSON in bytes, as `JSONEncoder` writes it without
    /// formatting options (the budget of ``FlowRuntime/snapshot(budget:)`` counts this).
    ///
    /// Counted without encoding. Another encoder's output differs by the way it writes
    /// numbers, escapes and whitespace.
    public var encodedSize: Int {
        let table = _typeTable()
        func list(_ sizes: [Int]) -> Int { 2 + sizes.reduce(0, +) + max(sizes.count - 1, 0) }
        var size = 1 + _keySize + String(version).utf8.count  // {"v":2
        if let schema { size += 1 + _keySize + String(schema).utf8.count }  // ,"s":3
        size += 1 + _keySize + list(table.names.map(_stringSize))  // ,"t":[…]
        var sibling = _Sibling()
        size += 1 + _keySize + Self._size(of: root, after: &sibling, types: table.index)
        if !history.isEmpty {
            size += 1 + _keySize
            size += list(
                history.map { entry in
                    let routes = entry.routes.map { route in
                        1 + _keySize + String(table.index[route.type]!).utf8.count + 1
                            + _keySize + route.value._encodedSize + 1
                    }
                    return 1 + _keySize + _stringSize(entry.path) + 1 + _keySize + list(routes)
                        + 1
                })
        }
        if !dropped.isEmpty {
            size += 1 + _keySize
            size += list(
                dropped.map { run in
                    let count = run.count == 1 ? 0 : 1 + _keySize + String(run.count).utf8.count
                    return 1 + _keySize + _stringSize(run.path) + count + 1
                })
        }
        return size + 1
    }

    /// This snapshot with whole branches left out, farthest from the shown path first,
    /// until its ``encodedSize`` is at most `budget`; what was left out is added to
    /// ``dropped``.
    ///
    ///     var snapshot = try runtime.snapshot()
    ///     if snapshot.encodedSize > 50_000 { snapshot = snapshot.trimmed(toFit: 50_000) }
    ///
    /// What may be left out, and what restoring it then gives, is what a refused guard gives:
    /// a presented node (not presented), an embedded child of a flow or switch (its parent
    /// gets its defaults), a stack's entries from the top (never the bottom one) when the
    /// stack is off the shown path. Tabs, regions, the shown path and the entries a stack on
    /// it covers are kept, so the result may still be over `budget`: check ``encodedSize``.
    ///
    /// - Complexity: O(*n* log *n* + *n* · *d*) for *n* nodes *d* levels deep.
    public func trimmed(toFit budget: Int) -> FlowSnapshot {
        guard encodedSize > budget else { return self }
        var records: [_BudgetRecord] = []
        _collect(
            root, parent: -1, slot: -1, distance: 0, path: root.name,
            types: _typeTable().index, into: &records)
        let order = records.indices.filter { records[$0].droppable }.sorted {
            (records[$0].distance, $0) > (records[$1].distance, $1)
        }
        // The estimate can be a few bytes off (commas of runs that vanish inside a branch left
        // out later): aim lower by what the result still exceeds, and try again.
        var target = budget
        while true {
            let result = _trimmed(records: records, order: order, target: target)
            let size = result.encodedSize
            if size <= budget || result.dropped.count == dropped.count + order.count
                || target < budget - size
            {
                return result
            }
            target -= size - budget
        }
    }

    /// Leaves out branches in `order` until the estimated size is at most `target`.
    private func _trimmed(records: [_BudgetRecord], order: [Int], target: Int) -> FlowSnapshot {
        var size = encodedSize
        // Bytes freed inside each node's subtree, and the cost of the runs listed inside it.
        var removed = [Int](repeating: 0, count: records.count)
        var inner = [Int](repeating: 0, count: records.count)
        var isDropped = [Bool](repeating: false, count: records.count)
        // Runs of left-out nodes: the lowest node (record), how many; a stack's run by stack.
        var runs: [(record: Int, count: Int)] = []
        var runOfStack: [Int: Int] = [:]
        func cost(_ run: (record: Int, count: Int)) -> Int {
            let count = run.count > 1 ? 1 + _keySize + String(run.count).utf8.count : 0
            return 1 + _keySize + _stringSize(records[run.record].path) + count + 1 + 1
        }
        func addUp(_ delta: Int, from record: Int, into sums: inout [Int]) {
            var up = records[record].parent
            while up >= 0 {
                sums[up] += delta
                up = records[up].parent
            }
        }
        if dropped.isEmpty { size += 1 + _keySize + 2 - 1 }  // ,"d":[] less a comma
        for index in order where size > target {
            let freed = records[index].size - removed[index] + 1
            size -= freed + inner[index]
            addUp(freed, from: index, into: &removed)
            addUp(-inner[index], from: index, into: &inner)
            isDropped[index] = true
            let parent = records[index].parent
            var delta: Int
            if records[parent].kind == .stack && records[index].slot >= 0,
                let run = runOfStack[parent]
            {
                delta = -cost(runs[run])
                runs[run] = (index, runs[run].count + 1)
                delta += cost(runs[run])
            } else {
                if records[parent].kind == .stack { runOfStack[parent] = runs.count }
                runs.append((index, 1))
                delta = cost(runs[runs.count - 1])
            }
            size += delta
            addUp(delta, from: index, into: &inner)
        }
        var next = 0
        var result = self
        result.root = _rebuild(root, records: records, isDropped: isDropped, next: &next)
        // A run inside a branch left out later is not listed on its own.
        result.dropped += runs.filter { run in
            var up = records[run.record].parent
            while up >= 0 {
                if isDropped[up] { return false }
                up = records[up].parent
            }
            return true
        }.map { Dropped(path: records[$0.record].path, count: $0.count) }
        return result
    }

    /// Lists `node` and its subtree in pre-order (a node, its children, its presented node).
    private func _collect(
        _ node: Node, parent: Int, slot: Int, distance: Int, path: String,
        types: [String: Int], into records: inout [_BudgetRecord]
    ) {
        let index = records.count
        let parentRecord = parent >= 0 ? records[parent] : nil
        var droppable = false
        if let parentRecord, distance > 0 {
            switch parentRecord.kind {
            case _ where slot < 0: droppable = true  // presented
            case .tabs, .parallel, .split: droppable = false
            case .stack: droppable = slot > 0 && parentRecord.distance > 0
            case .node, .switch: droppable = true
            }
        }
        records.append(
            _BudgetRecord(
                parent: parent, slot: slot, kind: node.kind, distance: distance, size: 0,
                path: path, droppable: droppable))
        let onPath = distance == 0
        var previous = _Sibling()
        for (position, child) in node.children.enumerated() {
            var childDistance = distance + 1
            if onPath && node.presented == nil {
                switch node.kind {
                case .stack: childDistance = position == node.children.count - 1 ? 0 : 1
                case .tabs: childDistance = position == (node.selectedTab ?? 0) ? 0 : 1
                default: childDistance = 0
                }
            }
            let childIndex = records.count
            _collect(
                child, parent: index, slot: position, distance: childDistance,
                path: "\(path)/\(child.name)", types: types, into: &records)
            records[childIndex].size = Self._size(of: child, after: &previous, types: types)
        }
        if let presented = node.presented {
            let childIndex = records.count
            _collect(
                presented, parent: index, slot: -1, distance: onPath ? 0 : distance + 1,
                path: "\(path)/\(presented.name)", types: types, into: &records)
            var first = _Sibling()
            records[childIndex].size = Self._size(of: presented, after: &first, types: types)
        }
    }

    /// `node` without the branches left out (in the pre-order `_collect` listed).
    private func _rebuild(
        _ node: Node, records: [_BudgetRecord], isDropped: [Bool], next: inout Int
    ) -> Node {
        next += 1
        var copy = node
        var children: [Node] = []
        for child in node.children {
            let index = next
            let rebuilt = _rebuild(child, records: records, isDropped: isDropped, next: &next)
            if !isDropped[index] { children.append(rebuilt) }
        }
        copy.children = children
        if let presented = node.presented {
            let index = next
            let rebuilt = _rebuild(presented, records: records, isDropped: isDropped, next: &next)
            copy.presented = isDropped[index] ? nil : rebuilt
        }
        return copy
    }

    /// The compact size of `node` and its subtree (see SnapshotCompactCoding.swift).
    static func _size(of node: Node, after sibling: inout _Sibling, types: [String: Int]) -> Int {
        var size = 1  // {
        var fields = 0
        func field(_ valueSize: Int) {
            size += _keySize + valueSize
            fields += 1
        }
        if node.name != sibling.name { field(_stringSize(node.name)) }
        sibling.name = node.name
        if node.kind != .node { field(_stringSize(node.kind.rawValue)) }
        if let route = node.route {
            let type = types[route.type]!
            if type != sibling.type { field(String(type).utf8.count) }
            sibling.type = type
            field(route.value._encodedSize)
        }
        if !node.children.isEmpty {
            var previous = _Sibling()
            field(1 + node.children.count)  // [ , , ]
            for child in node.children {
                size += _size(of: child, after: &previous, types: types)
            }
        }
        if let presented = node.presented {
            var previous = _Sibling()
            field(_size(of: presented, after: &previous, types: types))
        }
        if let state = node.state { field(state._encodedSize) }
        func index(_ value: Int?, needed: Bool) {
            if needed {
                if value != 0 { field(value.map { String($0).utf8.count } ?? 4) }
            } else if let value {
                field(String(value).utf8.count)
            }
        }
        index(node.selectedTab, needed: node.kind == .tabs)
        index(node.focusedRegion, needed: node.kind == .parallel || node.kind == .split)
        if let collapsed = node.collapsed { field(collapsed ? 4 : 5) }
        if let column = node.preferredColumn { field(_stringSize(column.rawValue)) }
        return size + max(fields - 1, 0) + 1  // commas and }
    }

}

/// One node of a snapshot being trimmed.
private struct _BudgetRecord {
    var parent: Int
    /// The index among its parent's children; -1 for a presented node.
    var slot: Int
    var kind: FlowSnapshot.Node.Kind
    var distance: Int
    var size: Int
    var path: String
    var droppable: Bool
}

/// `"k":`
private let _keySize = 4

/// A JSON string's size as `JSONEncoder` writes it (`/` escaped, control characters too).
func _stringSize(_ string: String) -> Int {
    var size = 2
    for byte in string.utf8 {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), 0x08, 0x09, 0x0A, 0x0C,
            0x0D:
            size += 2
        case 0..<0x20: size += 6
        default: size += 1
        }
    }
    return size
}

extension FlowSnapshotValue {
    /// The size of this value as `JSONEncoder` writes it without formatting options.
    var _encodedSize: Int {
        switch self {
        case .null: return 4
        case .bool(let value): return value ? 4 : 5
        case .int(let value): return String(value).utf8.count
        case .double(let value): return String(value).utf8.count
        case .string(let value): return _stringSize(value)
        case .array(let items):
            return 2 + max(items.count - 1, 0) + items.reduce(0) { $0 + $1._encodedSize }
        case .object(let items):
            return 2 + max(items.count - 1, 0)
                + items.reduce(0) { $0 + _stringSize($1.key) + 1 + $1.value._encodedSize }
        }
    }
}

extension FlowSnapshot {
    /// What ``trimmed(toFit:)`` left out at one place: a presented node, an embedded child,
    /// or stack entries from the top (`path` names the lowest, `count` how many).
    public struct Dropped: Codable, Sendable, Hashable, CustomStringConvertible {
        /// The path of the node left out (the lowest of a stack's entries left out).
        public var path: String
        /// How many nodes, from it up: 1, or a stack's entries from it to the top.
        public var count: Int

        /// Creates a record.
        public init(path: String, count: Int = 1) {
            self.path = path
            self.count = count
        }

        /// `shop/tab3/item`, or `shop/tab3/item and the 2 entries above it`.
        public var description: String {
            count == 1 ? path : "\(path) and \(_entriesAbove(count))"
        }

        private enum CodingKeys: String, CodingKey {
            case p, c
        }

        /// Decodes a record (`{"p": path, "c": count}`, `c` left out for 1).
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            path = try container.decode(String.self, forKey: .p)
            count = try container.decodeIfPresent(Int.self, forKey: .c) ?? 1
        }

        /// Encodes the record.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(path, forKey: .p)
            if count != 1 { try container.encode(count, forKey: .c) }
        }
    }
}

/// The reason a restore report gives for what ``FlowSnapshot/trimmed(toFit:)`` left out.
func _droppedReason(_ run: FlowSnapshot.Dropped) -> String {
    let reason = "left out of the snapshot to fit its size budget"
    return run.count == 1 ? reason : "\(reason), with \(_entriesAbove(run.count))"
}

/// `the entry above it`, `the 2 entries above it`.
private func _entriesAbove(_ count: Int) -> String {
    count == 2 ? "the entry above it" : "the \(count - 1) entries above it"
}

extension FlowRuntime {
    /// The navigation state, like ``snapshot()``, with whole branches left out until its
    /// compact JSON takes at most `budget` bytes (``FlowSnapshot/trimmed(toFit:)``: farthest
    /// from the shown path first; never a tab, a region, the shown path or the entries a
    /// stack on it covers, so check ``FlowSnapshot/encodedSize``).
    ///
    ///     let snapshot = try runtime.snapshot(budget: 50_000)
    ///     for path in snapshot.dropped { log("not saved: \(path)") }
    ///
    /// Restoring it reports each branch left out in ``FlowRestoreReport/skipped`` (reason:
    /// "left out of the snapshot to fit its size budget"), and restores the rest as if their
    /// guards had refused: a stack keeps the entries below, a flow or switch gets its
    /// defaults, nothing is presented there.
    ///
    /// - Parameter budget: The most bytes the snapshot's compact JSON may take.
    /// - Throws: The errors of ``snapshot()``.
    public func snapshot(budget: Int) throws -> FlowSnapshot {
        try snapshot().trimmed(toFit: budget)
    }
}
