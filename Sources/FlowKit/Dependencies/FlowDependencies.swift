/// The dependency scope of one node: read values visible from the node, or set values that
/// the node and its subtree see.
///
///     app.dependencies[CatalogKey.self] = Catalog.shipped          // whole app
///     main.dependencies.set(session, for: SessionKey.self)        // main subtree only
///     let session = try detail.dependencies.require(SessionKey.self)
///
/// A lookup resolves from the node, then its ancestors, then (in a scene's tree) the app's
/// scope (``FlowApp/dependencies``), then the key's default, in constant time (scopes are
/// flattened when values are set or nodes attach). Values set on a node are released when
/// the node exits.
@MainActor
public struct FlowDependencies {
    @usableFromInline let node: FlowController

    @inlinable init(node: FlowController) { self.node = node }

    /// The value for `key` visible at this node, or the key's default.
    ///
    /// Setting it overrides the value for this node and its subtree (like `set(_:for:)`).
    public subscript<Key: DependencyKey>(key: Key.Type) -> Key.Value {
        @inlinable get { _value(ObjectIdentifier(key), as: Key.Value.self) ?? Key.defaultValue }
        nonmutating set { _set(newValue, ObjectIdentifier(key)) }
    }

    /// The value for `key` visible at this node.
    ///
    /// - Throws: ``FlowError/missingDependency(key:node:)`` if neither the node nor an
    ///   ancestor provides one.
    public func require<Key: RequiredDependencyKey>(_ key: Key.Type) throws -> Key.Value {
        guard let value = _value(ObjectIdentifier(key), as: Key.Value.self) else {
            throw FlowError.missingDependency(key: String(describing: Key.self), node: node.path)
        }
        return value
    }

    /// The value for `key` set on this node or an ancestor, or `nil`.
    public func value<Key: RequiredDependencyKey>(for key: Key.Type) -> Key.Value? {
        _value(ObjectIdentifier(key), as: Key.Value.self)
    }

    /// The value for `key` set on this node or an ancestor, ignoring the default.
    public func value<Key: DependencyKey>(for key: Key.Type) -> Key.Value? {
        _value(ObjectIdentifier(key), as: Key.Value.self)
    }

    /// Sets `value` for `key` on this node; the node and its subtree see it.
    ///
    /// Setting a value on an exited node does nothing.
    ///
    /// - Complexity: O(*n*·*k*) where *n* is the size of the subtree and *k* the number of
    ///   values visible, because the subtree's flattened scopes are rebuilt. Lookups stay
    ///   O(1).
    public func set<Key: RequiredDependencyKey>(_ value: Key.Value, for key: Key.Type) {
        _set(value, ObjectIdentifier(key))
    }

    /// Sets `value` for `key` on this node; the node and its subtree see it.
    public func set<Key: DependencyKey>(_ value: Key.Value, for key: Key.Type) {
        _set(value, ObjectIdentifier(key))
    }

    /// Removes the value this node sets for `key`; ancestors' values show through again.
    public func removeValue<Key: RequiredDependencyKey>(for key: Key.Type) {
        _remove(ObjectIdentifier(key))
    }

    /// Removes the value this node sets for `key`; ancestors' values (or the default) show
    /// through again.
    public func removeValue<Key: DependencyKey>(for key: Key.Type) {
        _remove(ObjectIdentifier(key))
    }

    /// Whether this node itself sets a value for `key` (any key type).
    public func setsValue<Key>(for key: Key.Type) -> Bool {
        node._ownValues?[ObjectIdentifier(key)] != nil
    }

    @inlinable
    func _value<Value>(_ key: ObjectIdentifier, as type: Value.Type) -> Value? {
        guard let box = node._dependencyBox(key) else {
            return node._isScoped ? nil : _unscopedValue(key, as: type)
        }
        // The key's type fixes the value's type, so this downcast cannot fail. Unretained box.
        // Invariant: read from an entered node's flattened scope, which holds it. Enforced
        // by: only entered nodes have one; `self.node` holds the node; no app code runs
        // between the probe and the read. Tested by: DependencyTests, ConcurrencyTests.
        assert(node.state == .entered, "an unretained dependency box read from a node not entered")
        return unsafeDowncast(box.takeUnretainedValue(), to: _ValueBox<Value>.self).value
    }

    /// A lookup at a node that is not entered (kept out of the inlined fast path): along its
    /// links, with the box returned retained, so an ancestor freed on another thread
    /// meanwhile cannot free it under the read.
    @usableFromInline
    func _unscopedValue<Value>(_ key: ObjectIdentifier, as type: Value.Type) -> Value? {
        guard let box = node._unscopedDependency(key) else { return nil }
        return unsafeDowncast(box, to: _ValueBox<Value>.self).value
    }

    func _set<Value>(_ value: Value, _ key: ObjectIdentifier) {
        guard node.state != .exited else { return }
        var own = node._ownValues ?? _IdentityTable()
        own[key] = _ValueBox(value)
        node._ownValues = own
        node._refreshScopes()
    }

    func _remove(_ key: ObjectIdentifier) {
        guard var own = node._ownValues, own[key] != nil else { return }
        own[key] = nil
        node._ownValues = own.isEmpty ? nil : own
        node._refreshScopes()
    }
}

extension FlowController {
    /// The box visible at this entered node for `key`, from its flattened scope (which holds
    /// it): the non-generic half of a lookup, so that callers specialise only the cast.
    /// `nil` at a node that is not entered (it has no flattened scope).
    @usableFromInline
    final func _dependencyBox(_ key: ObjectIdentifier) -> Unmanaged<_AnyValueBox>? {
        guard let scope = _scope else { return nil }
        return scope.box(for: key)
    }

    /// The box visible at a node that is not entered: a created node walks its own values
    /// and its real or prospective ancestors' (so a subtree being built sees the scope it is
    /// about to join, and a node whose parent was freed sees nothing of it); an exited node
    /// sees nothing (only keys' defaults).
    final func _unscopedDependency(_ key: ObjectIdentifier) -> _AnyValueBox? {
        guard state == .created else { return nil }
        var current = self
        while true {
            if current._isScoped {
                return current._scope?.table[key]
            }
            if let box = current._ownValues?[key] { return box }
            guard let parent = current._effectiveParent else { break }
            current = parent
        }
        // The root of a scene's tree, not yet entered: the app's scope is above it.
        return current._runtime?._scene?.app?._scope?.table[key]
    }

    /// This node's dependency scope.
    @inlinable public var dependencies: FlowDependencies { FlowDependencies(node: self) }

    /// Recomputes the flattened scopes of this node's entered subtree after a value changed.
    /// Only entered nodes keep a flattened scope: nodes not yet entered look values up along
    /// their links (and get a scope as they enter), and exited nodes, which may still be
    /// linked while the rest of their change exits, are skipped, so they never see or keep a
    /// value set later.
    func _refreshScopes() {
        guard _isScoped else { return }
        var stack: [FlowController] = [self]
        while let node = stack.popLast() {
            guard node._isScoped else { continue }
            node._recomputeScope()
            stack.append(contentsOf: node._children)
            if let presented = node._presented { stack.append(presented) }
        }
    }

    /// Called only on a node that is entered (or entering, its parent entered before it):
    /// it reads the parent's scope along the unretained link ``_next``, which is safe from an
    /// entered node (see there), where a `weak` load would take the slow side-table path.
    func _recomputeScope() {
        assert(_nextIsSound(), "_next followed from a node that is not entered, or stale")
        let inherited: _DependencyScope?
        if let next = _next {
            inherited = next.takeUnretainedValue()._scope
        } else {
            // A root: the scope of the app above its scene, if any (once per start).
            inherited = _runtime?._scene?.app?._scope
        }
        guard let own = _ownValues else {
            _scope = inherited
            return
        }
        var table = inherited?.table ?? _IdentityTable()
        for (raw, box) in own.rawEntries { table[raw: raw] = box }
        _scope = _DependencyScope(table: table)
    }
}
