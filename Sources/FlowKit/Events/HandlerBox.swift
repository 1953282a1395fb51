/// A node's event handlers (see ``FlowController/_handlerBox``).
final class _HandlerBox {
    // Unchecked exclusivity: every event reads this table (a checked read cost about 60
    // instructions per event, a tenth of a dispatch at depth 1). No access can overlap: all
    // are on the main actor, and none calls app code while it is open. A read is a table
    // probe plus a copy of the handler; a write (`_register`, `removeHandler`) keeps the
    // handler it replaces alive until after the write, so the `deinit` of that handler's
    // captures (app code, which may register or remove handlers here) runs after the access
    // ended; growing the table moves handlers to new storage and frees none. Dropping the
    // whole box (a node's exit) goes through `_handlerBox`, whose assignment releases the old
    // box after storing the new value, and a deinit that registers then finds an exited node.
    // ReliabilityTests.handlerReleaseReentersTheTable runs these deinits (CI runs it under
    // AddressSanitizer; with checked exclusivity it trapped before the writes kept the old
    // handler alive).
    @exclusivity(unchecked)
    var table = _IdentityTable<_EventHandler>()
}
