/// An identifier for a node that FlowKit can rebuild: the unit of navigation paths,
/// history and deep links.
///
/// Any `Hashable & Sendable` value can be a route; string literals work directly:
///
///     enum Screen: Hashable, Sendable { case list, detail(id: Int) }
///     stack.register(FlowRoute(Screen.list)) { ListScreen() }
///     try runtime.navigate(to: ["main", "stack", FlowRoute(Screen.list)])
///
/// Two routes are equal when their wrapped values have the same type and are equal.
public struct FlowRoute: Hashable, Sendable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The value, boxed in a class so that a route (and a node's optional route) is one word.
    private let box: _AnyRoute

    /// Wraps `value` as a route.
    public init(_ value: some Hashable & Sendable) {
        if let route = value as? FlowRoute {
            self = route
        } else {
            box = _TypedRoute(value: value)
        }
    }

    public init(stringLiteral value: String) {
        box = _TypedRoute(value: value)
    }

    /// The wrapped value.
    public var base: any Hashable & Sendable { box.base }

    /// The wrapped value as `Value`, or `nil` if it is of another type.
    ///
    ///     if let screen = route.value(as: Screen.self) { … }
    public func value<Value: Hashable & Sendable>(as type: Value.Type) -> Value? {
        box.base as? Value
    }

    /// The identity of the wrapped value's type: the key of route families.
    var valueType: ObjectIdentifier { box.valueType }

    public static func == (lhs: FlowRoute, rhs: FlowRoute) -> Bool {
        lhs.box.isEqual(to: rhs.box)
    }

    public func hash(into hasher: inout Hasher) {
        box.hash(into: &hasher)
    }

    public var description: String { box.text }
}

/// A route's value, type-erased. Immutable (every stored property is a `let` of a
/// `Sendable` type), which is what makes the unchecked `Sendable` conformance hold.
private class _AnyRoute: @unchecked Sendable {
    var base: any Hashable & Sendable { fatalError("abstract") }
    var valueType: ObjectIdentifier { fatalError("abstract") }
    var text: String { fatalError("abstract") }
    func isEqual(to other: _AnyRoute) -> Bool { fatalError("abstract") }
    func hash(into hasher: inout Hasher) { fatalError("abstract") }
}

private final class _TypedRoute<Value: Hashable & Sendable>: _AnyRoute, @unchecked Sendable {
    let value: Value
    init(value: Value) { self.value = value }
    override var base: any Hashable & Sendable { value }
    override var valueType: ObjectIdentifier { ObjectIdentifier(Value.self) }
    override var text: String { String(describing: value) }
    override func isEqual(to other: _AnyRoute) -> Bool {
        if other === self { return true }
        guard let other = other as? _TypedRoute<Value> else { return false }
        return other.value == value
    }
    override func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(Value.self))
        hasher.combine(value)
    }
}

/// One step of a navigation path: a route, and how the node built for it is shown.
///
///     // The list, book 7 pushed over it, and the share sheet presented over the book:
///     try runtime.navigate(to: [
///         .child("main"), .child("stack"), .child(Screen.list),
///         .push(Screen.detail(id: 7)), .present("share"),
///     ])
///
/// A whole path is one transaction: it is checked (factories build the new nodes, guards
/// decide) before anything exits or enters.
public struct FlowStep: Hashable, Sendable, CustomStringConvertible {
    /// How a step's node is shown relative to the node before it.
    public enum Placement: String, Hashable, Sendable {
        /// A child of the previous node: embedded (a switch's or flow's child), or for a
        /// ``FlowStack`` one of its entries (it pops to the top-most entry with the route, or
        /// pushes a new one). A node the previous node presents is kept if it has the route.
        case child
        /// The entry directly above the previous node, which must be a stack entry: kept if it
        /// has the route (entries above it are popped), else everything above the previous
        /// node is popped and a new entry is pushed. Built by the stack's factories.
        case push
        /// Presented by the previous node: kept if it has the route, else what it presents is
        /// dismissed and a new node is presented. Built by the previous node's factories or
        /// by a global route of one of its ancestors.
        case present
    }

    /// The route of the node this step reaches.
    public var route: FlowRoute
    /// How the node is shown.
    public var placement: Placement

    /// Creates a step.
    public init(_ route: FlowRoute, placement: Placement = .child) {
        self.route = route
        self.placement = placement
    }

    /// A child step (see ``Placement/child``).
    public static func child(_ route: some Hashable & Sendable) -> FlowStep {
        FlowStep(FlowRoute(route), placement: .child)
    }

    /// A push step (see ``Placement/push``).
    public static func push(_ route: some Hashable & Sendable) -> FlowStep {
        FlowStep(FlowRoute(route), placement: .push)
    }

    /// A present step (see ``Placement/present``).
    public static func present(_ route: some Hashable & Sendable) -> FlowStep {
        FlowStep(FlowRoute(route), placement: .present)
    }

    /// `list`, `push detail(id: 7)`, `present share`.
    public var description: String {
        switch placement {
        case .child: return route.description
        case .push: return "push \(route)"
        case .present: return "present \(route)"
        }
    }
}

extension Array where Element == FlowStep {
    /// The path in one line: `main / stack / list / push detail(id: 7) / present share`.
    var pathDescription: String { map(\.description).joined(separator: " / ") }
}
