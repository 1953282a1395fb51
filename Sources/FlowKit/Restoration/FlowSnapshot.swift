/// The whole navigation state of a running ``FlowRuntime``, as a `Codable` value: every
/// container's children (covered stack entries included), presented nodes, tab selections,
/// the recorded history, and the state nodes opt in to save (``FlowRestorable``).
///
///     let data = try JSONEncoder().encode(try runtime.snapshot())
///     // next launch:
///     let snapshot = try JSONDecoder().decode(FlowSnapshot.self, from: data)
///     let runtime = try FlowRuntime(root: AppRoot())
///     let report = try runtime.start(restoring: snapshot)
///
/// A snapshot names nodes by their names and routes; restoring rebuilds them through the
/// same route factories and entry guards as navigation (see <doc:Restoration>). It carries a
/// ``version`` (``formatVersion`` when made); restoring reads ``supportedVersions``.
///
/// It encodes in the compact form of format 2 (short keys, defaults left out, route type
/// names stored once); a document in format 1's long form (FlowKit before format 2) still
/// decodes, and restores the same.
public struct FlowSnapshot: Codable, Sendable, Equatable {
    /// The format version this FlowKit writes: 2, the compact form.
    public static let formatVersion = 2

    /// The format versions this FlowKit reads: 1 (the long form of earlier releases) and 2.
    public static let supportedVersions = 1...2

    /// The deepest coding path a snapshot document may have when it is decoded (nodes, route
    /// values and saved states together). Deeper documents are a `DecodingError`, whichever
    /// decoder reads them, so a hostile document cannot exhaust the stack.
    public static let maximumNesting = 512

    /// The deepest node tree a snapshot may describe (the root is at depth 1). A node level
    /// takes two coding levels (`children`, then the index), so a tree this deep leaves room
    /// below ``maximumNesting`` for route values and saved states.
    public static let maximumDepth = 128

    /// The most nodes (and, separately, the most recorded history routes) a snapshot may
    /// describe.
    public static let maximumNodeCount = 100_000

    /// The format version of this snapshot.
    public var version: Int
    /// The app's schema version when it was made (``FlowSnapshotSchema/version``, from
    /// ``FlowRuntime/snapshotSchema``), or `nil` if the app declared none (read as 0).
    public var schema: Int?
    /// The runtime's root node and, below it, the whole tree.
    public var root: Node
    /// The recorded history (``FlowRuntime/recordedHistory(at:)``), one entry per node path,
    /// sorted by path.
    public var history: [HistoryEntry]
    /// What ``FlowRuntime/snapshot(budget:)`` (``trimmed(toFit:)``) left out to fit its
    /// budget, farthest from the shown path first. Restoring reports each in
    /// ``FlowRestoreReport/skipped``.
    public var dropped: [Dropped] = []

    /// Creates a snapshot.
    public init(
        version: Int = FlowSnapshot.formatVersion, root: Node, history: [HistoryEntry] = [],
        schema: Int? = nil
    ) {
        self.version = version
        self.schema = schema
        self.root = root
        self.history = history
    }

    private enum CodingKeys: String, CodingKey {
        case version, schema, root, history
    }

    /// Decodes a snapshot in the compact form (format 2), or in format 1's long form (a
    /// document without the `v` key); a missing `history` is empty, a missing `schema` `nil`.
    ///
    /// - Throws: `DecodingError` for a document of another shape, or one nested deeper than
    ///   ``maximumNesting`` coding levels. The version is checked when it is restored.
    public init(from decoder: any Decoder) throws {
        if try decoder.container(keyedBy: _SnapshotKey.self).contains(.v) {
            try self.init(compact: decoder)
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            version: try container.decode(Int.self, forKey: .version),
            root: try container.decode(Node.self, forKey: .root),
            history: try _decodeList(HistoryEntry.self, in: container, forKey: .history) ?? [],
            schema: try container.decodeIfPresent(Int.self, forKey: .schema))
    }

    /// Encodes the snapshot in the compact form (see <doc:Restoration>), whatever its
    /// ``version`` says (it is written as it is).
    public func encode(to encoder: any Encoder) throws {
        try _encodeCompact(to: encoder)
    }
}

extension FlowSnapshot {
    /// One node of a snapshot: what it is, where it came from, and what it holds.
    ///
    /// In JSON (empty and absent parts are left out):
    ///
    ///     {"name": "stack", "kind": "stack",
    ///      "route": {"type": "Swift.String", "value": "stack"},
    ///      "children": [{"name": "list", "kind": "node"}, …]}
    public struct Node: Codable, Sendable, Equatable {
        /// The kind of container a node is, from its class.
        public enum Kind: String, Codable, Sendable, Hashable {
            /// A plain ``FlowController`` (a flow or a screen): at most one embedded child.
            case node
            /// A ``FlowStack``: its entries, bottom first; never empty.
            case stack
            /// A ``FlowSwitch``: at most one child.
            case `switch`
            /// A ``FlowTabs``: its tabs in order, and the selected one.
            case tabs
            /// A ``FlowParallel``: its regions in order, and the focused one.
            case parallel
            /// A ``FlowSplit``: its columns in order (a column stack may be empty), the
            /// focused one, whether it is collapsed, and its preferred compact column.
            case split
        }

        /// The node's ``FlowController/name``.
        public var name: String
        /// The kind of container it is.
        public var kind: Kind
        /// The node's ``FlowController/route``, with which a factory rebuilds it; `nil` for a
        /// node only the app composes (it restores only onto a node at its place).
        public var route: Route?
        /// The embedded children: a stack's entries bottom first (covered ones included),
        /// a tab container's tabs in order, a flow's or switch's one child.
        public var children: [Node]
        /// The index of the selected tab (``FlowTabs`` only).
        public var selectedTab: Int?
        /// The index of the focused region (``FlowParallel`` and ``FlowSplit`` only; for a
        /// split, the column focused when it is expanded).
        public var focusedRegion: Int?
        /// Whether the split is shown collapsed into one stack (``FlowSplit`` only; absent
        /// means expanded).
        public var collapsed: Bool?
        /// The split's ``FlowSplit/preferredCompactColumn`` (``FlowSplit`` only).
        public var preferredColumn: FlowSplit.Column?
        /// The state the node saved (``FlowRestorable/saveState()``), if any.
        public var state: FlowSnapshotValue?
        /// The presented node, boxed (a struct cannot contain itself directly).
        private var _presented: [Node]

        /// Whether the node presents none (read without copying the presented node).
        var _isUnpresenting: Bool { _presented.isEmpty }

        /// The node this one presents, if any.
        public var presented: Node? {
            get { _presented.first }
            set { _presented = newValue.map { [$0] } ?? [] }
        }

        /// Creates a snapshot node.
        public init(
            name: String, kind: Kind = .node, route: Route? = nil, children: [Node] = [],
            presented: Node? = nil, selectedTab: Int? = nil, state: FlowSnapshotValue? = nil,
            focusedRegion: Int? = nil, collapsed: Bool? = nil,
            preferredColumn: FlowSplit.Column? = nil
        ) {
            self.name = name
            self.kind = kind
            self.route = route
            self.children = children
            self.selectedTab = selectedTab
            self.focusedRegion = focusedRegion
            self.collapsed = collapsed
            self.preferredColumn = preferredColumn
            self.state = state
            _presented = presented.map { [$0] } ?? []
        }

        private enum CodingKeys: String, CodingKey {
            case name, kind, route, children, presented, selectedTab, focusedRegion, collapsed
            case preferredColumn, state
        }

        /// Decodes a node and, recursively, its subtree.
        ///
        /// - Throws: `DecodingError` for a node of another shape (two presented nodes, an
        ///   unknown kind …), when the coding path is ``FlowSnapshot/maximumNesting`` levels
        ///   deep, or with more than ``FlowSnapshot/maximumNodeCount`` children: the subtree
        ///   or the list is refused before it is read.
        public init(from decoder: any Decoder) throws {
            if decoder.codingPath.count >= FlowSnapshot.maximumNesting {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: decoder.codingPath,
                        debugDescription:
                            "nodes nested deeper than \(FlowSnapshot.maximumNesting) coding levels"
                    ))
            }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            kind = try container.decode(Kind.self, forKey: .kind)
            route = try container.decodeIfPresent(Route.self, forKey: .route)
            children = try _decodeList(Node.self, in: container, forKey: .children) ?? []
            selectedTab = try container.decodeIfPresent(Int.self, forKey: .selectedTab)
            focusedRegion = try container.decodeIfPresent(Int.self, forKey: .focusedRegion)
            collapsed = try container.decodeIfPresent(Bool.self, forKey: .collapsed)
            preferredColumn = try container.decodeIfPresent(
                FlowSplit.Column.self, forKey: .preferredColumn)
            state = try container.decodeIfPresent(FlowSnapshotValue.self, forKey: .state)
            _presented =
                try container.decodeIfPresent(Node.self, forKey: .presented).map { [$0] } ?? []
        }

        /// Encodes the node and its subtree, leaving out what is empty or absent.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(kind, forKey: .kind)
            try container.encodeIfPresent(route, forKey: .route)
            if !children.isEmpty { try container.encode(children, forKey: .children) }
            try container.encodeIfPresent(presented, forKey: .presented)
            try container.encodeIfPresent(selectedTab, forKey: .selectedTab)
            try container.encodeIfPresent(focusedRegion, forKey: .focusedRegion)
            try container.encodeIfPresent(collapsed, forKey: .collapsed)
            try container.encodeIfPresent(preferredColumn, forKey: .preferredColumn)
            try container.encodeIfPresent(state, forKey: .state)
        }
    }

    /// A route as a snapshot stores it: the name of its value's type and the encoded value.
    ///
    ///     {"type": "Bookshelf.Screen", "value": {"detail": {"id": 7}}}
    ///
    /// Restoring needs the type back: it must be one FlowKit can find (see
    /// ``FlowRuntime/start(restoring:routeTypes:)``).
    public struct Route: Codable, Sendable, Hashable {
        /// The value's type, as `String(reflecting:)` names it (`Swift.String`,
        /// `Bookshelf.Screen`).
        public var type: String
        /// The encoded value.
        public var value: FlowSnapshotValue

        /// Creates a stored route from its parts.
        public init(type: String, value: FlowSnapshotValue) {
            self.type = type
            self.value = value
        }

        /// Stores `route`: through its value's ``FlowSnapshotValueConvertible/snapshotValue``
        /// if it has one, else its `Encodable` conformance.
        ///
        /// - Throws: `EncodingError` if the route's value is not `Encodable` or cannot be
        ///   encoded.
        public init(_ route: FlowRoute) throws {
            var top: _EncodingNode?
            let base = route.base
            if let convertible = Swift.type(of: base) as? any FlowSnapshotValueConvertible.Type {
                self.init(
                    type: route.typeName, value: _convertedSnapshotValue(of: base, as: convertible))
                return
            }
            try self.init(
                route, base: base, typeName: route.typeName,
                encodable: Swift.type(of: base) as? any Encodable.Type, reusing: &top)
        }

        /// Stores `route`, whose value `base` is of the type named `typeName`
        /// (``FlowRoute/typeName``), `encodable` (`nil` if it is not `Encodable`): a caller
        /// storing many routes looks both up once per type, and encodes them all with one
        /// `top` node.
        init(
            _ route: FlowRoute, base: any Hashable & Sendable, typeName: String,
            encodable: (any Encodable.Type)?, reusing top: inout _EncodingNode?
        ) throws {
            guard let encodable else {
                throw EncodingError.invalidValue(
                    route.base,
                    EncodingError.Context(
                        codingPath: [],
                        debugDescription:
                            "the route \(route) has a value of type \(typeName), "
                            + "which is not Encodable"))
            }
            type = typeName
            value = try Self.encode(base, as: encodable, reusing: &top)
        }

        /// `base`, whose dynamic type is `Value`, encoded. (The forced cast cannot fail: the
        /// caller found `type` as the type of `base`.)
        private static func encode<Value: Encodable>(
            _ base: any Hashable & Sendable, as type: Value.Type,
            reusing top: inout _EncodingNode?
        ) throws -> FlowSnapshotValue {
            try _SnapshotValueEncoder.encode(base as! Value, reusing: &top)
        }

        private enum CodingKeys: String, CodingKey {
            case type, value
        }

        /// Decodes a stored route. The value of a `String`, `Int`, `Bool` or `Double` route is
        /// read as that type directly (no probing for its shape).
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            type = try container.decode(String.self, forKey: .type)
            switch type {
            case "Swift.String":
                value = .string(try container.decode(String.self, forKey: .value))
            case "Swift.Int":
                value = .int(try container.decode(Int64.self, forKey: .value))
            case "Swift.Bool":
                value = .bool(try container.decode(Bool.self, forKey: .value))
            case "Swift.Double":
                value = .double(try container.decode(Double.self, forKey: .value))
            default:
                value = try container.decode(FlowSnapshotValue.self, forKey: .value)
            }
        }
    }

    /// The route path recorded for one node (see ``FlowHistoryPolicy``).
    public struct HistoryEntry: Codable, Sendable, Equatable {
        /// The path of the node the history was recorded for.
        public var path: String
        /// The recorded routes, from the node's child down.
        public var routes: [Route]

        /// Creates a history entry.
        public init(path: String, routes: [Route]) {
            self.path = path
            self.routes = routes
        }

        private enum CodingKeys: String, CodingKey {
            case path, routes
        }

        /// Decodes a history entry.
        ///
        /// - Throws: `DecodingError` for an entry of another shape, or one with more than
        ///   ``FlowSnapshot/maximumNodeCount`` routes (refused before they are read).
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            path = try container.decode(String.self, forKey: .path)
            routes = try _decodeList(Route.self, in: container, forKey: .routes) ?? []
        }
    }
}

extension FlowSnapshot.Node.Kind {
    /// The kind of `node`, from its class.
    init(of node: FlowController) {
        if node is FlowTabs {
            self = .tabs
        } else if node is FlowSplit {
            self = .split
        } else if node is FlowParallel {
            self = .parallel
        } else if node is FlowStack {
            self = .stack
        } else if node is FlowSwitch {
            self = .switch
        } else {
            self = .node
        }
    }
}

extension FlowRoute {
    /// The name of the route value's type, as a snapshot stores it.
    var typeName: String { String(reflecting: type(of: base)) }
}

/// Decodes the list under `key`, if there is one, refusing (before reading its elements) a
/// list longer than ``FlowSnapshot/maximumNodeCount``, so a huge array costs nothing to refuse.
func _decodeList<Element: Decodable, Key: CodingKey>(
    _ type: Element.Type, in container: KeyedDecodingContainer<Key>, forKey key: Key
) throws -> [Element]? {
    guard container.contains(key), try !container.decodeNil(forKey: key) else { return nil }
    var list = try container.nestedUnkeyedContainer(forKey: key)
    if let count = list.count, count > FlowSnapshot.maximumNodeCount {
        throw DecodingError.dataCorruptedError(
            in: list,
            debugDescription:
                "\(count) elements: more than \(FlowSnapshot.maximumNodeCount) are refused")
    }
    var elements: [Element] = []
    if let count = list.count { elements.reserveCapacity(count) }
    while !list.isAtEnd { elements.append(try list.decode(type)) }
    return elements
}
