/// A small open-addressing hash table keyed by `ObjectIdentifier` (event and dependency-key
/// types). It exists because `Dictionary` hashes through SipHash, which costs more than the
/// whole rest of a dispatch hop; here a key is one multiply and a shift.
///
/// Capacity is a power of two, the load factor stays at or below one half, and removal uses
/// backward-shift deletion, so lookups never scan more than a short probe run.
@usableFromInline struct _IdentityTable<Value> {
    @usableFromInline var keys: ContiguousArray<UInt>
    @usableFromInline var values: ContiguousArray<Value?>
    @usableFromInline var shift: UInt
    @usableFromInline var count: Int

    init() {
        keys = []
        values = []
        shift = 64
        count = 0
    }

    var isEmpty: Bool { count == 0 }

    @inlinable
    static func hash(_ key: UInt) -> UInt {
        key &* 0x9E37_79B9_7F4A_7C15
    }

    @usableFromInline
    subscript(key: ObjectIdentifier) -> Value? {
        @inlinable get {
            if count == 0 { return nil }
            let raw = UInt(bitPattern: key)
            let mask = UInt(keys.count - 1)
            var index = Self.hash(raw) >> shift
            while true {
                let stored = keys[Int(index)]
                if stored == raw { return values[Int(index)] }
                if stored == 0 { return nil }
                index = (index &+ 1) & mask
            }
        }
        set {
            if let newValue {
                insert(newValue, for: UInt(bitPattern: key))
            } else {
                remove(UInt(bitPattern: key))
            }
        }
    }

    /// All stored values, in table order.
    var allValues: [Value] { values.compactMap { $0 } }

    /// The stored keys' raw bit patterns with their values.
    var rawEntries: [(UInt, Value)] {
        keys.indices.compactMap { index in
            keys[index] == 0 ? nil : (keys[index], values[index]!)
        }
    }

    /// Reads or writes a value by a key's raw bit pattern.
    subscript(raw raw: UInt) -> Value? {
        get { self[ObjectIdentifier(_rawKey: raw)] }
        set {
            if let newValue { insert(newValue, for: raw) } else { remove(raw) }
        }
    }

    /// The raw bit patterns of all stored keys.
    var rawKeys: [UInt] { keys.filter { $0 != 0 } }

    mutating func removeAll() {
        keys = []
        values = []
        shift = 64
        count = 0
    }

    private mutating func insert(_ value: Value, for raw: UInt) {
        if (count + 1) * 2 > keys.count { grow() }
        let mask = UInt(keys.count - 1)
        var index = Self.hash(raw) >> shift
        while true {
            let stored = keys[Int(index)]
            if stored == raw {
                values[Int(index)] = value
                return
            }
            if stored == 0 {
                keys[Int(index)] = raw
                values[Int(index)] = value
                count += 1
                return
            }
            index = (index &+ 1) & mask
        }
    }

    private mutating func remove(_ raw: UInt) {
        guard count > 0 else { return }
        let mask = UInt(keys.count - 1)
        var index = Self.hash(raw) >> shift
        while keys[Int(index)] != raw {
            if keys[Int(index)] == 0 { return }
            index = (index &+ 1) & mask
        }
        // Backward-shift deletion keeps every probe run contiguous.
        var hole = index
        var next = (hole &+ 1) & mask
        while keys[Int(next)] != 0 {
            let home = Self.hash(keys[Int(next)]) >> shift
            // Move `next` into the hole when its home is not in (hole, next].
            let distanceToNext = (next &- home) & mask
            let distanceToHole = (next &- hole) & mask
            if distanceToNext >= distanceToHole {
                keys[Int(hole)] = keys[Int(next)]
                values[Int(hole)] = values[Int(next)]
                hole = next
            }
            next = (next &+ 1) & mask
        }
        keys[Int(hole)] = 0
        values[Int(hole)] = nil
        count -= 1
    }

    private mutating func grow() {
        let newCapacity = Swift.max(4, keys.count * 2)
        let oldKeys = keys
        let oldValues = values
        keys = ContiguousArray(repeating: 0, count: newCapacity)
        values = ContiguousArray(repeating: nil, count: newCapacity)
        shift = UInt(64 - newCapacity.trailingZeroBitCount)
        count = 0
        for index in oldKeys.indices where oldKeys[index] != 0 {
            insert(oldValues[index]!, for: oldKeys[index])
        }
    }
}

extension ObjectIdentifier {
    /// Rebuilds an identifier from its bit pattern (only for patterns taken from one).
    init(_rawKey raw: UInt) {
        self = unsafeBitCast(raw, to: ObjectIdentifier.self)
    }
}

/// The bit a type sets in a node's handler filter (one of 32, from the same hash).
@inline(__always)
func _filterBit(_ key: ObjectIdentifier) -> UInt32 {
    _filterBit(raw: UInt(bitPattern: key))
}

@inline(__always)
func _filterBit(raw: UInt) -> UInt32 {
    1 &<< UInt32(truncatingIfNeeded: _IdentityTable<Void>.hash(raw) >> 59)
}
