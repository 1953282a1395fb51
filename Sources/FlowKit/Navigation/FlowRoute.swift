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
