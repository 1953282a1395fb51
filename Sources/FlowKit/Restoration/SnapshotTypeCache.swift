// What one `snapshot()` call learns per type, so that a tree of many nodes of few types pays
// for each type once: the name a stored route gives its value's type (`String(reflecting:)`,
// costly) and whether it is `Encodable` or `FlowSnapshotValueConvertible` (conformance
// lookups), and a node class's snapshot kind and whether it is `FlowRestorable` (class checks
// and a conformance lookup). The cache lives in one call (no global state); the last type
// asked is kept apart, since siblings (a stack's entries) are usually of one type.

/// Per-type facts gathered while one snapshot is taken.
struct _SnapshotTypeCache {
    /// A node class's facts.
    struct NodeClass {
        var kind: FlowSnapshot.Node.Kind
        var isRestorable: Bool
    }

    /// A route value type's facts: its name, the type as `Encodable` (`nil` if not), and as
    /// ``FlowSnapshotValueConvertible`` (`nil` if not).
    struct RouteType {
        var name: String
        var encodable: (any Encodable.Type)?
        var convertible: (any FlowSnapshotValueConvertible.Type)?
    }

    private var lastRouteType: ObjectIdentifier?
    private var lastRouteFacts = RouteType(name: "", encodable: nil, convertible: nil)
    private var routeTypes: [ObjectIdentifier: RouteType] = [:]

    /// The top node the snapshot's route values are encoded with (see _EncodingNode).
    var encodingTop: _EncodingNode?

    private var lastNodeClass: ObjectIdentifier?
    private var lastNodeFacts = NodeClass(kind: .node, isRestorable: false)
    private var nodeClasses: [ObjectIdentifier: NodeClass] = [:]

    /// The name a stored route gives the type of a route's value `base`
    /// (``FlowRoute/typeName``), and that type as `Encodable`. (Keyed by the value's dynamic
    /// type: a class route's value may be of a subclass of the route's type.)
    mutating func facts(of base: any Hashable & Sendable) -> RouteType {
        let dynamicType = Swift.type(of: base)
        let type = ObjectIdentifier(dynamicType)
        if type == lastRouteType { return lastRouteFacts }
        let facts: RouteType
        if let known = routeTypes[type] {
            facts = known
        } else {
            facts = RouteType(
                name: String(reflecting: dynamicType),
                encodable: dynamicType as? any Encodable.Type,
                convertible: dynamicType as? any FlowSnapshotValueConvertible.Type)
            routeTypes[type] = facts
        }
        lastRouteType = type
        lastRouteFacts = facts
        return facts
    }

    /// The snapshot kind of `node`'s class, and whether the class is ``FlowRestorable``.
    mutating func facts(of node: FlowController) -> NodeClass {
        let type = ObjectIdentifier(Swift.type(of: node))
        if type == lastNodeClass { return lastNodeFacts }
        let facts: NodeClass
        if let known = nodeClasses[type] {
            facts = known
        } else {
            facts = NodeClass(
                kind: FlowSnapshot.Node.Kind(of: node), isRestorable: node is any FlowRestorable)
            nodeClasses[type] = facts
        }
        lastNodeClass = type
        lastNodeFacts = facts
        return facts
    }
}
