/// A node's event handlers (see ``FlowController/_handlerBox``).
final class _HandlerBox {
    // Unchecked exclusivity (every event reads this table; the check cost about 60
    // instructions per event). Invariant: no access overlaps another; none calls app code
    // while open. Enforced by: a read probes and copies the handler; a write (`_register`,
    // `removeHandler`) keeps the handler it replaces alive until after the write, so the
    // `deinit` of its captures (app code) runs after the access; growing the table frees
    // nothing; dropping the box releases it after the store. Tested by:
    // ResponderChainTests.handlerReleaseReentersTheTable (debug and AddressSanitizer).
    @exclusivity(unchecked)
    var table = _IdentityTable<_EventHandler>()
}
