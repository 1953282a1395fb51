// The JSON writer behind `FlowSnapshot.json()` (SnapshotJSON.swift): a snapshot's compact
// form as UTF-8, with the standard library only.

/// Writes snapshots in the compact form (see SnapshotCompactCoding.swift), as `JSONEncoder`
/// writes them (slashes escaped), with the keys of route values and states sorted.
struct _JSONWriter {
    var bytes: [UInt8] = []

    mutating func write(_ snapshot: FlowSnapshot) {
        let table = snapshot._typeTable()
        bytes.reserveCapacity(64 + 32 * table.names.count)
        raw("{\"v\":")
        number(Int64(snapshot.version))
        if let schema = snapshot.schema {
            raw(",\"s\":")
            number(Int64(schema))
        }
        raw(",\"t\":[")
        for (position, name) in table.names.enumerated() {
            if position > 0 { raw(",") }
            string(name)
        }
        raw("],\"r\":")
        var sibling = FlowSnapshot._Sibling()
        node(snapshot.root, after: &sibling, types: table.index)
        if !snapshot.history.isEmpty {
            raw(",\"h\":[")
            for (position, entry) in snapshot.history.enumerated() {
                if position > 0 { raw(",") }
                raw("{\"p\":")
                string(entry.path)
                raw(",\"r\":[")
                for (routePosition, route) in entry.routes.enumerated() {
                    if routePosition > 0 { raw(",") }
                    raw("{\"y\":")
                    number(Int64(table.index[route.type]!))
                    raw(",\"r\":")
                    value(route.value)
                    raw("}")
                }
                raw("]}")
            }
            raw("]")
        }
        if !snapshot.dropped.isEmpty {
            raw(",\"d\":[")
            for (position, record) in snapshot.dropped.enumerated() {
                if position > 0 { raw(",") }
                raw("{\"p\":")
                string(record.path)
                if record.count != 1 {
                    raw(",\"c\":")
                    number(Int64(record.count))
                }
                raw("}")
            }
            raw("]")
        }
        raw("}")
    }

    mutating func node(
        _ node: FlowSnapshot.Node, after sibling: inout FlowSnapshot._Sibling,
        types: [String: Int]
    ) {
        var first = true
        func key(_ name: StaticString) {
            raw(first ? "{\"" : ",\"")
            first = false
            name.withUTF8Buffer { bytes.append(contentsOf: $0) }
            raw("\":")
        }
        if node.name != sibling.name {
            key("n")
            string(node.name)
        }
        sibling.name = node.name
        if node.kind != .node {
            key("k")
            string(node.kind.rawValue)
        }
        if let route = node.route {
            let type = types[route.type]!
            if type != sibling.type {
                key("y")
                number(Int64(type))
            }
            sibling.type = type
            key("r")
            value(route.value)
        }
        if !node.children.isEmpty {
            key("c")
            raw("[")
            var previous = FlowSnapshot._Sibling()
            for (position, child) in node.children.enumerated() {
                if position > 0 { raw(",") }
                self.node(child, after: &previous, types: types)
            }
            raw("]")
        }
        if let presented = node.presented {
            key("p")
            var previous = FlowSnapshot._Sibling()
            self.node(presented, after: &previous, types: types)
        }
        if let state = node.state {
            key("s")
            value(state)
        }
        func index(_ name: StaticString, _ stored: Int?, needed: Bool) {
            if needed && stored == 0 || !needed && stored == nil { return }
            key(name)
            if let stored { number(Int64(stored)) } else { raw("null") }
        }
        index("i", node.selectedTab, needed: node.kind == .tabs)
        index("f", node.focusedRegion, needed: node.kind == .parallel || node.kind == .split)
        if let collapsed = node.collapsed {
            key("x")
            raw(collapsed ? "true" : "false")
        }
        if let column = node.preferredColumn {
            key("m")
            string(column.rawValue)
        }
        raw(first ? "{}" : "}")
    }

    mutating func value(_ value: FlowSnapshotValue) {
        switch value {
        case .null: raw("null")
        case .bool(let flag): raw(flag ? "true" : "false")
        case .int(let number): self.number(number)
        case .double(let number): bytes.append(contentsOf: Array(number.description.utf8))
        case .string(let text): string(text)
        case .array(let items):
            raw("[")
            for (position, item) in items.enumerated() {
                if position > 0 { raw(",") }
                self.value(item)
            }
            raw("]")
        case .object(let items):
            raw("{")
            for (position, key) in items.keys.sorted().enumerated() {
                if position > 0 { raw(",") }
                string(key)
                raw(":")
                self.value(items[key]!)
            }
            raw("}")
        }
    }

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func number(_ number: Int64) {
        bytes.append(contentsOf: number.description.utf8)
    }

    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case UInt8(ascii: "/"): raw("\\/")
            case 0x08: raw("\\b")
            case 0x09: raw("\\t")
            case 0x0A: raw("\\n")
            case 0x0C: raw("\\f")
            case 0x0D: raw("\\r")
            case 0..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                raw("\\u00")
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
