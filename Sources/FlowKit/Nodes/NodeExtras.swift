/// The rarely used parts of a node, allocated on first use.
final class _NodeExtras {
    var initialRoute: FlowRoute?
    var history: FlowHistoryPolicy = .none
    var exitGuard: (@MainActor () -> FlowGuardDecision)?
    var entryGuard: (@MainActor () -> FlowGuardDecision)?
    var ownValues: _IdentityTable<_AnyValueBox>?
    var factories: [FlowRoute: _Factory] = [:]
    var families: [ObjectIdentifier: _Factory] = [:]
    /// The value types of the route families and global route families registered here,
    /// by identity: what restoration may decode a stored route as.
    var familyTypes: [ObjectIdentifier: any (Hashable & Sendable).Type] = [:]
    var globals: [FlowRoute: _GlobalRoute] = [:]
    var globalFamilies: [ObjectIdentifier: _GlobalRoute] = [:]
    var tasks: [Int: Task<Void, Never>] = [:]
    var pendingTasks: [@MainActor () async throws -> Void] = []
    var nextTaskID = 0
    /// The `run` awaiting this flow's result, if any (see ``FlowController/run(_:_:)``).
    var resultWaiter: _AnyResultWaiter?
    /// The registrar of the node's observable properties (see
    /// ``FlowController/_observationRegistrar``); it outlives exit, unlike the rest.
    var observation: _Observation?
}
