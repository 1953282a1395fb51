// Identity searches written as plain loops outside the main actor. A closure such as
// `{ $0 === node }` written in main-actor code is itself main-actor isolated, and passing it
// to `firstIndex(where:)` makes Swift check the executor each time it runs: hundreds of
// instructions per change on the hot paths (pop, push, navigate).

/// The index of the first element of `nodes` that is `node` itself.
func _index(of node: FlowController, in nodes: [FlowController]) -> Int? {
    var index = 0
    while index < nodes.count {
        if nodes[index] === node { return index }
        index += 1
    }
    return nil
}

/// The index of the last element of `nodes` that is `node` itself, searching from the end
/// (stack operations look near the top: O(1) for a pop however deep the stack is).
func _lastIndex(of node: FlowController, in nodes: [FlowController]) -> Int? {
    var index = nodes.count
    while index > 0 {
        index -= 1
        if nodes[index] === node { return index }
    }
    return nil
}

/// Removes `node` (compared by identity) from `nodes`.
func _remove(_ node: FlowController, from nodes: inout [FlowController]) {
    if let index = _index(of: node, in: nodes) { nodes.remove(at: index) }
}

/// The index of the layout of `container` in `layouts`.
func _index(of container: FlowController, in layouts: [_Layout]) -> Int? {
    var index = 0
    while index < layouts.count {
        if layouts[index].container === container { return index }
        index += 1
    }
    return nil
}

/// `withUnsafePointer(to:)` called from a nonisolated function: a main-actor closure passed
/// to the standard library's version checks the executor each time it runs (about 170
/// instructions per event); passed to this one, it doesn't.
@inline(__always)
func _withPointer<T, Result>(
    to value: T, _ body: (UnsafeRawPointer) throws -> Result
) rethrows -> Result {
    try withUnsafePointer(to: value) { try body(UnsafeRawPointer($0)) }
}

/// Whether `node` is the last element of `nodes` (compared by identity, without retaining).
@inline(__always)
func _isLast(_ node: FlowController, of nodes: [FlowController]) -> Bool {
    let count = nodes.count
    return count > 0 && nodes[count - 1] === node
}
