/// Arrays a change reuses instead of allocating new ones each time.
struct _ScratchBuffers {
    var exitSet: [FlowController] = []
    var entrySet: [FlowController] = []
    var stack: [FlowController] = []
    var path: [FlowController] = []
    var tail: [FlowController] = []
    /// The new active configuration (``FlowRuntime/_updateActivation()``).
    var configuration: [FlowController] = []
    /// Which of its nodes were active before.
    var flags: [Bool] = []
}

/// Empties `array` (releasing its nodes) and stores its storage in `buffer` for next time.
/// Callers take a buffer with `swap(&local, &buffer)`, which moves it without a copy.
func _recycle(_ array: inout [FlowController], in buffer: inout [FlowController]) {
    _empty(&array)
    swap(&array, &buffer)
}

/// Empties `array`, keeping its storage. Element by element: for the few elements a change
/// usually holds this is several times cheaper than `removeAll(keepingCapacity:)`, which goes
/// through the generic `replaceSubrange`.
@inline(__always)
func _empty<Element>(_ array: inout [Element]) {
    while array.popLast() != nil {}
}

/// What waits in the run-to-completion queue: an event (`origin == nil` means "the focused
/// leaf at delivery"), or a change a lifecycle hook asked for.
enum _Pending {
    case event(any FlowEvent, origin: FlowController?)
    case change(operation: FlowFailure.Operation, path: String, run: @MainActor () throws -> Void)
}

/// Where a runtime's current change is. See ``FlowRuntime/_phase``.
enum _Phase {
    case idle, checking, applying
}
