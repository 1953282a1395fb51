/// Whether `name` can name a node: not empty, and without the byte of `/` (the path
/// separator). Checked on the UTF-8 bytes: a tenth of the cost of comparing characters (every
/// node checks its name), and it also refuses a `/` followed by a combining mark. Snapshot
/// validation uses the same test, so a document a node's `init` would refuse is an error, not
/// a trap.
func _isValidNodeName(_ name: String) -> Bool {
    if name.isEmpty { return false }
    // Over the contiguous bytes where the string has them (every native string; a short
    // one is copied to the stack): the generic iterator of `name.utf8` cost several times
    // as much for a short name.
    let slash = UInt8(ascii: "/")
    if let found = name.utf8.withContiguousStorageIfAvailable({ $0.contains(slash) }) {
        return !found
    }
    return !name.utf8.contains(slash)
}
