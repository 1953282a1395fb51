/// The app-wide dependency scope: values every scene's tree sees, below its own root's.
///
///     app.dependencies[AccountKey.self] = account     // every window sees it
///     root.dependencies[AccountKey.self] = guest      // this window's tree overrides it
///
/// A node's lookup finds its own and its ancestors' values first, then the app's, then the
/// key's default. Setting or removing an app value refreshes every connected scene's
/// flattened scopes (lookups stay one probe); a tree without an app pays nothing.
@MainActor
public struct FlowAppDependencies {
    let app: FlowApp

    /// The app's value for `key`, or the key's default.
    ///
    /// Setting it makes every scene's tree see the value (unless a node overrides it).
    public subscript<Key: DependencyKey>(key: Key.Type) -> Key.Value {
        get { value(for: key) ?? Key.defaultValue }
        nonmutating set { app._setValue(newValue, for: ObjectIdentifier(key)) }
    }

    /// The app's value for `key`, or `nil`.
    public func value<Key: DependencyKey>(for key: Key.Type) -> Key.Value? {
        app._values[ObjectIdentifier(key)].map { ($0 as! _ValueBox<Key.Value>).value }
    }

    /// The app's value for a required key, or `nil`.
    public func value<Key: RequiredDependencyKey>(for key: Key.Type) -> Key.Value? {
        app._values[ObjectIdentifier(key)].map { ($0 as! _ValueBox<Key.Value>).value }
    }

    /// Sets the app's value for a required key: every scene's tree sees it.
    public func set<Key: RequiredDependencyKey>(_ value: Key.Value, for key: Key.Type) {
        app._setValue(value, for: ObjectIdentifier(key))
    }

    /// Sets the app's value for `key`: every scene's tree sees it.
    public func set<Key: DependencyKey>(_ value: Key.Value, for key: Key.Type) {
        app._setValue(value, for: ObjectIdentifier(key))
    }

    /// Removes the app's value for `key`: the key's default shows through again.
    public func removeValue<Key: DependencyKey>(for key: Key.Type) {
        app._removeValue(for: ObjectIdentifier(key))
    }

    /// Removes the app's value for a required key.
    public func removeValue<Key: RequiredDependencyKey>(for key: Key.Type) {
        app._removeValue(for: ObjectIdentifier(key))
    }
}
