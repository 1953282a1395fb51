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
    private let box: any _RouteValue

    /// Wraps `value` as a route.
    public init(_ value: some Hashable & Sendable) {
        if let route = value as? FlowRoute {
            self = route
        } else {
            box = _Route(value: value)
        }
    }

    public init(stringLiteral value: String) {
        box = _Route(value: value)
    }

    /// The wrapped value.
    public var base: any Hashable & Sendable { box.base }

    public static func == (lhs: FlowRoute, rhs: FlowRoute) -> Bool {
        lhs.box.isEqual(to: rhs.box)
    }

    public func hash(into hasher: inout Hasher) {
        box.hash(into: &hasher)
    }

    public var description: String { box.text }
}

private protocol _RouteValue: Sendable {
    var base: any Hashable & Sendable { get }
    var text: String { get }
    func isEqual(to other: any _RouteValue) -> Bool
    func hash(into hasher: inout Hasher)
}

private struct _Route<Value: Hashable & Sendable>: _RouteValue {
    let value: Value
    var base: any Hashable & Sendable { value }
    var text: String { String(describing: value) }
    func isEqual(to other: any _RouteValue) -> Bool {
        guard let other = other as? _Route<Value> else { return false }
        return other.value == value
    }
    func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(Value.self))
        hasher.combine(value)
    }
}
