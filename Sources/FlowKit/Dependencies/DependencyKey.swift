/// A typed key with a default for a value in a node's dependency scope; the default is
/// used when neither the node nor any ancestor provides a value.
///
///     enum ClockKey: DependencyKey {
///         static let defaultValue: any Clock<Duration> = ContinuousClock()
///     }
///     let clock = node.dependencies[ClockKey.self]
///
/// The default is read on every lookup that finds no value: make it a `static let` if it
/// is costly to build. For keys that must be provided, use ``RequiredDependencyKey``.
public protocol DependencyKey {
    /// The type of the value stored under this key.
    associatedtype Value: Sendable
    /// The value used when neither the node nor any ancestor provides one.
    static var defaultValue: Value { get }
}

/// A dependency key without a default: looking it up where nothing provides it throws
/// ``FlowError/missingDependency(key:node:)`` naming the key and the node.
///
///     enum SessionKey: RequiredDependencyKey { typealias Value = Session }
///     main.dependencies.set(session, for: SessionKey.self)
///     let session = try detail.dependencies.require(SessionKey.self)
public protocol RequiredDependencyKey {
    /// The type of the value stored under this key.
    associatedtype Value: Sendable
}

/// A class box so that values of any type share one storage and are read back without a
/// dynamic cast (the key's type fixes the value's type).
@usableFromInline class _AnyValueBox {
    @usableFromInline init() {}
}

@usableFromInline final class _ValueBox<Value>: _AnyValueBox {
    @usableFromInline let value: Value
    @usableFromInline init(_ value: Value) { self.value = value }
}

/// The values visible at a node: its ancestors' values overlaid with its own, flattened so a
/// lookup is one table probe whatever the depth. Nodes without values of their own share
/// their parent's scope object.
@usableFromInline final class _DependencyScope {
    @usableFromInline let table: _IdentityTable<_AnyValueBox>

    init(table: _IdentityTable<_AnyValueBox>) {
        self.table = table
    }

    /// The box for `key`, unretained: probes the table in place (no copy of the table, no
    /// retain of its storage or of the box). The caller must keep this scope alive while it
    /// uses the box: the scope holds the box strongly and never changes (`let` storage).
    /// Always inlined: when the caller sees the whole probe (which releases nothing), the
    /// optimiser drops the retain and release of the scope around it, one atomic pair per
    /// lookup (measured: a lookup of a class value 39 → 23 ns, of an `Int` 26 → 2.3 ns).
    @usableFromInline @inline(__always)
    func box(for key: ObjectIdentifier) -> Unmanaged<_AnyValueBox>? {
        if table.count == 0 { return nil }
        let raw = UInt(bitPattern: key)
        return table.keys.withUnsafeBufferPointer { keys in
            let mask = UInt(keys.count - 1)
            var index = _IdentityTable<_AnyValueBox>.hash(raw) >> table.shift
            while true {
                let stored = keys[Int(index)]
                if stored == raw {
                    return table.values.withUnsafeBufferPointer { values in
                        values[Int(index)].map { Unmanaged.passUnretained($0) }
                    }
                }
                if stored == 0 { return nil }
                index = (index &+ 1) & mask
            }
        }
    }
}
