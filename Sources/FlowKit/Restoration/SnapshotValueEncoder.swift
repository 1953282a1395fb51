// An `Encoder` that turns any `Encodable` value into a `FlowSnapshotValue` (the core has no
// Foundation, so no JSONEncoder).
//
// Each container writes into an `_EncodingNode`, a reference, so nested containers and
// super-encoders can be filled in any order, as the Encoder protocol allows. A node stores
// scalars straight into its dictionary or array; a nested container or super-encoder is a
// child node, turned into a value when its parent is finished (bottom-up, once). A node knows
// its parent and its key, so a coding path is built only when something reads it (an error).
// Built-in scalar types (`String`, `Int`, `Bool`, `Double`, a `FlowSnapshotValue`) passed to a
// generic `encode` are stored directly, without a node.

/// Converts `Encodable` values to ``FlowSnapshotValue``.
enum _SnapshotValueEncoder {
    /// Encodes `value`. A value that encodes nothing becomes an empty object (as JSON does
    /// for a nested value).
    static func encode<Value: Encodable>(_ value: Value) throws -> FlowSnapshotValue {
        var top: _EncodingNode?
        return try encode(value, reusing: &top)
    }

    /// Encodes `value` with `top` as the top node (made if `nil`), whose finished nodes the
    /// encoding reuses; `top` is left for the next value (or `nil` if something the value
    /// encoded still holds it).
    static func encode<Value: Encodable>(
        _ value: Value, reusing top: inout _EncodingNode?
    ) throws -> FlowSnapshotValue {
        if let direct = direct(value) { return direct }
        var node = top.take() ?? _EncodingNode(shape: .empty)
        node.reopen()
        do {
            try value.encode(to: _ValueEncoder(node: node))
        } catch {
            node.discard()
            throw error
        }
        let result = node.finish()
        if isKnownUniquelyReferenced(&node) { top = node }
        return result
    }

    /// `value` as a snapshot value without an encoder, if its type is one of the built-in
    /// scalars or a snapshot value (checked by identity of the type: no dynamic cast for the
    /// others).
    @inline(__always)
    static func direct<Value: Encodable>(_ value: Value) -> FlowSnapshotValue? {
        let type = ObjectIdentifier(Value.self)
        if type == ObjectIdentifier(String.self) {
            return (value as? String).map { .string($0) }
        } else if type == ObjectIdentifier(Int.self) {
            return (value as? Int).map { .int(Int64($0)) }
        } else if type == ObjectIdentifier(Bool.self) {
            return (value as? Bool).map { .bool($0) }
        } else if type == ObjectIdentifier(Double.self) {
            return (value as? Double).map { .double($0) }
        } else if type == ObjectIdentifier(FlowSnapshotValue.self) {
            return value as? FlowSnapshotValue
        }
        return nil
    }

    /// An integer as a snapshot value, or an error if it does not fit in 64 signed bits.
    /// `codingPath` is only called to throw.
    static func integer(
        _ value: some BinaryInteger, at codingPath: () -> [any CodingKey]
    ) throws -> FlowSnapshotValue {
        guard let exact = Int64(exactly: value) else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: codingPath(),
                    debugDescription: "\(value) does not fit in a 64-bit signed integer"))
        }
        return .int(exact)
    }
}

/// Where one encoded value goes: an object, an array or a single value, filled by containers
/// (or left empty), with the nodes of the nested containers and super-encoders opened in it.
///
/// A child holds its parent (for coding paths) and the parent its children until it is
/// finished, when the links are cut; an encoding that throws cuts them with ``discard()``.
/// A finished or discarded node is closed: what is nested in it later (through a container
/// the encoded value kept) is not linked to it, so no cycle of nodes outlives an encoding.
/// The top node keeps the finished nodes of its tree that nothing else holds, for the nested
/// values of the next value encoded with it (``_SnapshotValueEncoder/encode(_:reusing:)``).
final class _EncodingNode {
    enum Shape {
        case empty, value, object, array
    }

    /// Where a node is nested (one stored property: one access to set it).
    struct Link {
        /// The node this one is nested in, `nil` at the top.
        var parent: _EncodingNode?
        /// The key under which the parent holds this node (`nil` at the top and in an array).
        var key: (any CodingKey)?
        /// The position in the parent's array, or -1.
        var index = -1
    }

    private var link: Link
    var parent: _EncodingNode? { link.parent }
    var key: (any CodingKey)? { link.key }
    var index: Int { link.index }

    private(set) var shape: Shape
    private var value = FlowSnapshotValue.null
    private var object: [String: FlowSnapshotValue] = [:]
    private(set) var array: [FlowSnapshotValue] = []
    /// The first nested node, and the others (most values nest at most one container per
    /// level: an enum case's associated values), in the order they were opened.
    private var firstNested: _EncodingNode?
    private var moreNested: [_EncodingNode] = []
    /// At the top: finished nodes, empty and held by nothing else, to be reused.
    private var spare: [_EncodingNode] = []
    /// Whether the node was finished or discarded (see above).
    private var isClosed = false

    init(parent: _EncodingNode? = nil, key: (any CodingKey)? = nil, index: Int = -1, shape: Shape) {
        link = Link(parent: parent, key: key, index: index)
        self.shape = shape
    }

    /// The coding path of this node's value, built from the chain of parents.
    var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var node = self
        while let parent = node.parent {
            path.append(node.key ?? _SnapshotCodingKey(intValue: node.index))
            node = parent
        }
        return path.reversed()
    }

    /// The coding path of the value under `key` in this node.
    func codingPath(appending key: any CodingKey) -> [any CodingKey] {
        codingPath + [key]
    }

    /// The finished value of this top node; the tree below it is cut (its nodes kept for
    /// reuse) and the node is left empty.
    func finish() -> FlowSnapshotValue {
        let result = finish(top: self)
        value = .null
        shape = .empty
        return result
    }

    private func finish(top: _EncodingNode) -> FlowSnapshotValue {
        isClosed = true
        // A container the value kept after asking this node for a container of another kind
        // may have written beside the current shape: that is dropped (it never crashes).
        switch shape {
        case .empty, .value:
            let result = shape == .value ? value : .object([:])
            if !object.isEmpty || !array.isEmpty || firstNested != nil { discard() }
            return result
        case .object:
            var items = object
            object = [:]
            if !array.isEmpty { array = [] }
            if var node = firstNested.take() {
                place(&node, in: &items, top: top)
                var more = moreNested
                moreNested = []
                while var node = more.popLast() { place(&node, in: &items, top: top) }
            }
            return .object(items)
        case .array:
            var items = array
            array = []
            if !object.isEmpty { object = [:] }
            if var node = firstNested.take() {
                place(&node, in: &items, top: top)
                var more = moreNested
                moreNested = []
                while var node = more.popLast() { place(&node, in: &items, top: top) }
            }
            return .array(items)
        }
    }

    /// Finishes the nested `node` into `items`, under its key.
    private func place(
        _ node: inout _EncodingNode, in items: inout [String: FlowSnapshotValue],
        top: _EncodingNode
    ) {
        guard let key = node.key else { return node.discard() }
        items[key.stringValue] = node.finish(top: top)
        top.recycle(&node)
    }

    /// Finishes the nested `node` into `items`, at its index.
    private func place(
        _ node: inout _EncodingNode, in items: inout [FlowSnapshotValue], top: _EncodingNode
    ) {
        guard node.key == nil, items.indices.contains(node.index) else { return node.discard() }
        items[node.index] = node.finish(top: top)
        top.recycle(&node)
    }

    /// Keeps `node`, finished, for reuse if nothing else holds it (an encoder or container
    /// kept by the value encoded keeps its node).
    private func recycle(_ node: inout _EncodingNode) {
        guard isKnownUniquelyReferenced(&node) else { return }
        node.link = Link()
        node.value = .null
        spare.append(node)
    }

    /// Opens this finished top node for the next value (nothing else holds it).
    func reopen() {
        isClosed = false
    }

    /// Cuts the links from this node to the nodes nested in it, all the way down (after an
    /// encoding threw: the values are dropped).
    func discard() {
        isClosed = true
        value = .null
        object = [:]
        array = []
        var nested = moreNested
        moreNested = []
        if let first = firstNested.take() { nested.append(first) }
        for node in nested { node.discard() }
    }

    /// Makes this node hold `shape`, dropping what it held if it held another (an empty node
    /// holds nothing).
    func become(_ shape: Shape) {
        let current = self.shape
        guard current != shape else { return }
        self.shape = shape
        guard current != .empty else { return }
        value = .null
        object = [:]
        array = []
        firstNested = nil
        moreNested = []
    }

    func setValue(_ value: FlowSnapshotValue) {
        become(.value)
        self.value = value
    }

    /// Stores `value` under `name` in this node's object (the last write to a key wins).
    func set(_ value: FlowSnapshotValue, for name: String) {
        if firstNested != nil { removeNested(named: name) }
        object[name] = value
    }

    func append(_ value: FlowSnapshotValue) {
        array.append(value)
    }

    /// A new node of `shape` nested under `key` in this node's object (replacing what it
    /// held there).
    func nested(for key: any CodingKey, shape: Shape) -> _EncodingNode {
        let name = key.stringValue
        if firstNested != nil { removeNested(named: name) }
        if !object.isEmpty { object[name] = nil }
        let node = child(key: key, index: -1, shape: shape)
        addNested(node)
        return node
    }

    /// A new node of `shape` appended to this node's array.
    func appendedNested(shape: Shape) -> _EncodingNode {
        let node = child(key: nil, index: array.count, shape: shape)
        array.append(.null)
        addNested(node)
        return node
    }

    /// A child node: a spare one of the top node if it has one, else a new one.
    private func child(key: (any CodingKey)?, index: Int, shape: Shape) -> _EncodingNode {
        var top = self
        while let parent = top.parent { top = parent }
        guard let node = top.spare.popLast() else {
            return _EncodingNode(parent: self, key: key, index: index, shape: shape)
        }
        node.link = Link(parent: self, key: key, index: index)
        node.shape = shape
        node.isClosed = isClosed
        return node
    }

    private func addNested(_ node: _EncodingNode) {
        if isClosed {
            node.isClosed = true
        } else if firstNested == nil {
            firstNested = node
        } else {
            moreNested.append(node)
        }
    }

    /// Forgets the nested node under `name`, if any (a later write to its key replaced it).
    private func removeNested(named name: String) {
        var removed = moreNested.filter { $0.key?.stringValue == name }
        moreNested.removeAll { $0.key?.stringValue == name }
        if let first = firstNested, first.key?.stringValue == name {
            removed.append(first)
            firstNested = moreNested.isEmpty ? nil : moreNested.removeFirst()
        }
        for node in removed { node.discard() }
    }
}

/// A coding key made from a string or an index (array positions, `super`).
struct _SnapshotCodingKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }

    static let `super` = _SnapshotCodingKey(stringValue: "super")
}
