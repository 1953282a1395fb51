// The coding path of the snapshot value decoder (SnapshotValueDecoder.swift), kept as the
// path above and the key or index below it, and made into `[any CodingKey]` only when a type
// or an error reads it: every route of a restored tree is decoded, and most never read theirs.

/// A coding path made into `[any CodingKey]` only when it is read: the path above, and the
/// key or array index the value sits at below it, if any. Going one level deeper makes the
/// path above into an array (once per nested container, not per value read).
struct _CodingPath {
    enum Last {
        case none
        case key(any CodingKey)
        case index(Int)
    }

    let above: [any CodingKey]
    let last: Last

    init(_ path: [any CodingKey]) {
        above = path
        last = .none
    }

    private init(above: [any CodingKey], last: Last) {
        self.above = above
        self.last = last
    }

    /// The path as the `Decoder` protocols give it.
    var keys: [any CodingKey] {
        switch last {
        case .none: return above
        case .key(let key): return above + [key]
        case .index(let index): return above + [_SnapshotCodingKey(intValue: index)]
        }
    }

    func appending(_ key: some CodingKey) -> _CodingPath {
        _CodingPath(above: keys, last: .key(key))
    }

    func appending(index: Int) -> _CodingPath {
        _CodingPath(above: keys, last: .index(index))
    }
}
