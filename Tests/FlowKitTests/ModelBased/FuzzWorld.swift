import FlowKit
import FlowKitTesting
import Synchronization

/// The events the random tester sends; the trace shows them as `A#seq`.
struct FuzzEventA: FlowEvent {
    let seq: Int
    var traceName: String { "A#\(seq)" }
}

struct FuzzEventB: FlowEvent {
    let seq: Int
    var traceName: String { "B#\(seq)" }
}

struct FuzzEventC: FlowEvent {
    let seq: Int
    var traceName: String { "C#\(seq)" }
}

/// An event that holds a reference: the node it carries (made for it, `c<id>`). The trace
/// keeps only its traceName, so the node is freed once nothing else holds it.
struct FuzzEventD: FlowEvent {
    let seq: Int
    let node: FlowController
    var traceName: String { "D#\(seq)" }
}

/// A dependency value whose lifetime the census tracks.
final class FuzzToken: Sendable {
    let id: Int
    init(_ id: Int) { self.id = id }
}

enum FuzzKey1: DependencyKey {
    static let defaultValue: FuzzToken? = nil
}

enum FuzzKey2: DependencyKey {
    static let defaultValue: FuzzToken? = nil
}

/// What every node of the random tester carries: its id and its one-shot hook actions.
@MainActor
final class FuzzNodeInfo {
    let id: FuzzID
    weak var world: FuzzWorld?
    var hooks: [FuzzHook: FuzzAction] = [:]

    init(id: FuzzID, world: FuzzWorld) {
        self.id = id
        self.world = world
    }
}

@MainActor
protocol FuzzNode: FlowController {
    var info: FuzzNodeInfo { get }
}

@MainActor
final class FuzzPlainNode: FlowController, FuzzNode {
    let info: FuzzNodeInfo
    init(info: FuzzNodeInfo, name: String, route: FlowRoute?) {
        self.info = info
        super.init(name: name, route: route)
    }
    override func didEnter() { info.world?.hookFired(.didEnter, on: self) }
    override func willExit() { info.world?.hookFired(.willExit, on: self) }
    override func didBecomeActive() { info.world?.hookFired(.didBecomeActive, on: self) }
    override func didResignActive() { info.world?.hookFired(.didResignActive, on: self) }
}

@MainActor
final class FuzzStackNode: FlowStack, FuzzNode {
    let info: FuzzNodeInfo
    init(info: FuzzNodeInfo, name: String, route: FlowRoute?) {
        self.info = info
        super.init(name: name, route: route)
    }
    override func didEnter() { info.world?.hookFired(.didEnter, on: self) }
    override func willExit() { info.world?.hookFired(.willExit, on: self) }
    override func didBecomeActive() { info.world?.hookFired(.didBecomeActive, on: self) }
    override func didResignActive() { info.world?.hookFired(.didResignActive, on: self) }
}

@MainActor
final class FuzzSwitchNode: FlowSwitch, FuzzNode {
    let info: FuzzNodeInfo
    init(info: FuzzNodeInfo, name: String, route: FlowRoute?) {
        self.info = info
        super.init(name: name, route: route)
    }
    override func didEnter() { info.world?.hookFired(.didEnter, on: self) }
    override func willExit() { info.world?.hookFired(.willExit, on: self) }
    override func didBecomeActive() { info.world?.hookFired(.didBecomeActive, on: self) }
    override func didResignActive() { info.world?.hookFired(.didResignActive, on: self) }
}

@MainActor
final class FuzzTabsNode: FlowTabs, FuzzNode {
    let info: FuzzNodeInfo
    init(
        info: FuzzNodeInfo, name: String, route: FlowRoute?, tabs: [FlowController] = [],
        selected: Int = 0
    ) {
        self.info = info
        super.init(name: name, route: route, tabs: tabs, selected: selected)
    }
    override func didEnter() { info.world?.hookFired(.didEnter, on: self) }
    override func willExit() { info.world?.hookFired(.willExit, on: self) }
    override func didBecomeActive() { info.world?.hookFired(.didBecomeActive, on: self) }
    override func didResignActive() { info.world?.hookFired(.didResignActive, on: self) }
}

@MainActor
final class FuzzSplitNode: FlowSplit, FuzzNode {
    let info: FuzzNodeInfo
    init(
        info: FuzzNodeInfo, name: String, route: FlowRoute?, columns: [FlowController],
        focus: FlowSplit.Column, preferred: FlowSplit.Column, collapsed: Bool
    ) {
        self.info = info
        super.init(
            name: name, route: route, sidebar: columns[0],
            content: columns.count > 2 ? columns[1] : nil, detail: columns[columns.count - 1],
            focus: focus, preferredCompactColumn: preferred, collapsed: collapsed)
    }
    override func didEnter() { info.world?.hookFired(.didEnter, on: self) }
    override func willExit() { info.world?.hookFired(.willExit, on: self) }
    override func didBecomeActive() { info.world?.hookFired(.didBecomeActive, on: self) }
    override func didResignActive() { info.world?.hookFired(.didResignActive, on: self) }
}

/// The `FlowSplit.Column` of a ``FuzzColumn``.
func fuzzColumn(_ column: FuzzColumn) -> FlowSplit.Column {
    [.sidebar, .content, .detail][column]
}

/// A host that keeps FlowKit's record (`RecordingFlowHost`) and can run an action once, from
/// inside its next `apply`. With a platform it hands every change on to the runtime's
/// `FlowTransitions`, so that its record is what the platform was told: each committed
/// change exactly once, the platform's own changes not at all.
@MainActor
final class FuzzHost: FlowHost {
    let recording = RecordingFlowHost()
    let runtimeID: Int
    weak var world: FuzzWorld?
    var armed: FuzzAction?
    var transitions: FlowTransitions?

    init(runtimeID: Int, world: FuzzWorld) {
        self.runtimeID = runtimeID
        self.world = world
    }

    func apply(_ change: FlowChange, in runtime: FlowRuntime) {
        recording.apply(change, in: runtime)
        if let world { world.hostLog.append("rt\(runtimeID): \(world.describe(change))") }
        transitions?.apply(change, in: runtime)
        if let action = armed, world?.quiet == false {
            armed = nil
            world?.perform(action, actor: runtime.root, context: "host")
        }
    }

    func platformDidChange(_ change: FlowChange, in runtime: FlowRuntime) {
        transitions?.platformDidChange(change, in: runtime)
    }

    func platformDidShowSelection(of tabs: FlowTabs, in runtime: FlowRuntime) {
        transitions?.platformDidShowSelection(of: tabs, in: runtime)
    }

    func platformShowsSelection(of tabs: FlowTabs, in runtime: FlowRuntime) -> Bool {
        transitions?.platformShowsSelection(of: tabs, in: runtime) ?? true
    }
}

/// Moves the last reference to a node to another thread.
final class FuzzCell: Sendable {
    private let node: Mutex<FlowController?>
    init(_ node: FlowController) { self.node = Mutex(node) }
    func clear() { node.withLock { $0 = nil } }
}

/// A weak reference.
final class FuzzWeak {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
}

/// The real side of the random tester: FlowKit nodes and runtimes, and logs of what they did.
@MainActor
final class FuzzWorld {
    struct RuntimeSlot {
        var runtime: FlowRuntime?
        weak var weakRuntime: FlowRuntime?
        var host: FuzzHost
        var trace: FlowTrace
        var armedTrace: FuzzAction?
        /// The platform behind the host, with its pipeline and the gesture in progress.
        var platform: SimulatedPlatform?
        var transitions: FlowTransitions?
        var gesture: FlowInteractiveTransition?
        /// The gesture's container, held while the gesture runs (as a gesture recognizer holds
        /// its view controller), so that its release changes what the platform shows even if
        /// the tree dropped the container meanwhile; the runner lets go of it when the model's
        /// gesture ends (the model counts it as reachable until then).
        var gestureContainer: FlowController?
        /// How many of the platform's performed steps the coverage has counted.
        var stepsCounted = 0
    }

    var nodes: [FuzzID: FuzzWeak] = [:]
    var held: [FuzzID: FlowController] = [:]
    var runtimes: [Int: RuntimeSlot] = [:]
    var tokens: [Int: FuzzWeak] = [:]
    /// Hooks, guards, handlers, factories and action failures, in order.
    var journal: [String] = []
    /// Every runtime's trace records as they are made, `rt<n>: <record>`.
    var traceLog: [String] = []
    /// Every change a host was told, `rt<n>: <change>`.
    var hostLog: [String] = []
    var nextFresh = 1_000_000
    var eventSeq = 0
    /// The tester's id of every node it made, by FlowKit identity (see ``describe(_:)``).
    var fuzzIDs: [UInt64: FuzzID] = [:]
    /// FlowKit's identity of every node the tester made, by the tester's id (also once freed).
    var flowIDs: [FuzzID: FlowNodeID] = [:]
    /// How often closures ran each kind of operation, by context (see `FuzzRun.coverage`).
    var coverage: [String: Int] = [:]
    /// While set, hooks log but run no actions (a released runtime tears its tree down).
    var quiet = false
    /// How many closure actions the current step may still run.
    var actionBudget = 64
    /// The node carried by each event whose handler is running, innermost last (`nil` for
    /// events that carry none).
    var carried: [FlowController?] = []
    /// The steps the platforms were handed during the current operation, and the runtime
    /// whose platform got more than ``stepBudget`` of them (a pipeline that never settles:
    /// its steps are refused from then on, so the operation returns and the runner reports
    /// it instead of hanging).
    var stepsInOperation = 0
    var runaway: Int?
    static let stepBudget = 500

    /// Counts a step handed to runtime `r`'s platform; past the budget, refuses it.
    func countStep(_ r: Int) -> (any Error)? {
        stepsInOperation += 1
        guard stepsInOperation > Self.stepBudget else { return nil }
        runaway = runaway ?? r
        return FlowError.gestureNotPossible(container: "rt\(r)", reason: "runaway pipeline")
    }

    func node(_ id: FuzzID) -> FlowController? { nodes[id]?.object as? FlowController }

    static func id(of node: FlowController?) -> FuzzID? { (node as? any FuzzNode)?.info.id }

    func runtime(_ id: Int) -> FlowRuntime? { runtimes[id]?.weakRuntime }

    @discardableResult
    func create(_ id: FuzzID, _ kind: FuzzKind, route: Int?, name: String? = nil) -> FlowController
    {
        let info = FuzzNodeInfo(id: id, world: self)
        let name = name ?? "n\(id)"
        let route = route.map { FlowRoute("r\($0)") }
        let node: FlowController
        switch kind {
        case .plain: node = FuzzPlainNode(info: info, name: name, route: route)
        case .stack: node = FuzzStackNode(info: info, name: name, route: route)
        case .switcher: node = FuzzSwitchNode(info: info, name: name, route: route)
        case .tabs: node = FuzzTabsNode(info: info, name: name, route: route)
        case .split: preconditionFailure("a split is made with its columns (makeSplit)")
        }
        register(node, as: id)
        return node
    }

    func register(_ node: FlowController, as id: FuzzID) {
        nodes[id] = FuzzWeak(node)
        fuzzIDs[node.id.rawValue] = id
        flowIDs[id] = node.id
    }

    /// A change record with each path followed by the tester's id of the node FlowKit
    /// identifies there (`select n1/n3#3 -n1/n3/n5#5`), so that the model, which knows its
    /// nodes by the tester's ids, can check the identities too. An identity the tester never
    /// made shows as `#?<raw>`, a missing one as nothing, a count that differs from the paths'
    /// as `(n ids)`.
    func describe(_ change: FlowChange) -> String {
        func tag(_ path: String, _ id: FlowNodeID?) -> String {
            guard let id else { return path }
            return path + "#" + (fuzzIDs[id.rawValue].map(String.init) ?? "?\(id.rawValue)")
        }
        var line = change.kind.rawValue
        if !change.container.isEmpty || change.containerID != nil {
            line += " " + tag(change.container, change.containerID)
        }
        for (index, path) in change.exited.enumerated() {
            let id = index < change.exitedIDs.count ? change.exitedIDs[index] : nil
            line += " -" + tag(path, id)
        }
        for (index, path) in change.entered.enumerated() {
            let id = index < change.enteredIDs.count ? change.enteredIDs[index] : nil
            line += " +" + tag(path, id)
        }
        if change.exitedIDs.count != change.exited.count {
            line += " (\(change.exitedIDs.count) exited ids)"
        }
        if change.enteredIDs.count != change.entered.count {
            line += " (\(change.enteredIDs.count) entered ids)"
        }
        return line
    }

    /// The identity written to a binding for the tester's `id` (``fuzzBogusID``: none made).
    func identity(_ id: FuzzID) -> FlowNodeID? {
        id == fuzzBogusID ? FlowNodeID(rawValue: .max) : node(id)?.id
    }

    func freshID() -> FuzzID {
        nextFresh += 1
        return nextFresh
    }

    func event(_ kind: FuzzEventKind) -> any FlowEvent {
        eventSeq += 1
        switch kind {
        case .a: return FuzzEventA(seq: eventSeq)
        case .b: return FuzzEventB(seq: eventSeq)
        case .c: return FuzzEventC(seq: eventSeq)
        case .d:
            let id = freshID()
            return FuzzEventD(seq: eventSeq, node: create(id, .plain, route: nil, name: "c\(id)"))
        }
    }

    func token(_ id: Int) -> FuzzToken {
        let token = FuzzToken(id)
        tokens[id] = FuzzWeak(token)
        return token
    }

    // MARK: Closures installed on nodes

    func hookFired(_ hook: FuzzHook, on node: FlowController & FuzzNode) {
        journal.append("\(hook.label) \(node.path)")
        guard !quiet, let action = node.info.hooks.removeValue(forKey: hook) else { return }
        perform(action, actor: node, context: "hook")
    }

    func guardFired(_ spec: FuzzGuard, exit: Bool, node: FlowController) -> FlowGuardDecision {
        journal.append("\(exit ? "exitGuard" : "entryGuard") \(node.path)")
        if let effect = spec.effect, !quiet { perform(effect, actor: node, context: "guard") }
        if let routes = spec.redirect {
            return .redirect(to: routes.map { FlowStep(FlowRoute("r\($0)")) })
        }
        return spec.refuses ? .refuse("no") : .allow
    }

    func handlerFired(
        _ spec: FuzzHandler, event: any FlowEvent, node: FlowController
    ) -> EventDisposition {
        journal.append("handle \(event.traceName) at \(node.path)")
        carried.append((event as? FuzzEventD)?.node)
        defer { carried.removeLast() }
        for action in spec.actions { perform(action, actor: node, context: "handler") }
        return spec.handles ? .handled : .forward
    }

    func factoryFired(_ spec: FuzzFactory, route: Int, owner: FlowController?) -> FlowController {
        let id = freshID()
        journal.append("factory r\(route) -> f\(id)")
        if case .mismatch(let offset) = spec {
            let built = create(id, .plain, route: (route + offset) % 4, name: "f\(id)")
            built.on(FuzzEventA.self) { _, _ in
                _ = built
                return .forward
            }
            return built
        }
        let built = create(id, .plain, route: route, name: "f\(id)")
        switch spec {
        case .mismatch:
            break
        case .inUse:
            let wrapperID = freshID()
            let wrapper = create(wrapperID, .plain, route: nil, name: "f\(wrapperID)")
            do {
                try wrapper.embed(built)
            } catch {
                journal.append("factory composition threw \(error)")
            }
            // The node's handler keeps the wrapper (which keeps the node): a cycle only the
            // refusal's release breaks.
            built.on(FuzzEventA.self) { _, _ in
                _ = wrapper
                return .forward
            }
        case .plain:
            break
        case .withStack:
            let stack = create(freshID(), .stack, route: nil)
            let entry = create(freshID(), .plain, route: nil)
            do {
                try (stack as! FlowStack).push(entry)
                try built.embed(stack)
            } catch {
                journal.append("factory composition threw \(error)")
            }
        case .effect(let action):
            perform(action, actor: owner, context: "factory")
        }
        return built
    }

    func install(_ spec: FuzzGuard?, exit: Bool, on node: FlowController) {
        guard let spec else {
            if exit { node.exitGuard = nil } else { node.entryGuard = nil }
            return
        }
        let closure: @MainActor () -> FlowGuardDecision
        if spec.captures {
            closure = { [weak self] in
                self?.guardFired(spec, exit: exit, node: node) ?? .allow
            }
        } else {
            closure = { [weak self, weak node] in
                guard let node else { return .allow }
                return self?.guardFired(spec, exit: exit, node: node) ?? .allow
            }
        }
        if exit { node.exitGuard = closure } else { node.entryGuard = closure }
    }

    func install(_ spec: FuzzHandler, for kind: FuzzEventKind, on node: FlowController) {
        func register<E: FlowEvent>(_ type: E.Type) {
            if spec.captures {
                node.on(type) { [weak self] event, _ in
                    self?.handlerFired(spec, event: event, node: node) ?? .forward
                }
            } else {
                node.on(type) { [weak self, weak node] event, _ in
                    guard let node else { return .forward }
                    return self?.handlerFired(spec, event: event, node: node) ?? .forward
                }
            }
        }
        switch kind {
        case .a: register(FuzzEventA.self)
        case .b: register(FuzzEventB.self)
        case .c: register(FuzzEventC.self)
        case .d: register(FuzzEventD.self)
        }
    }

    func removeHandler(for kind: FuzzEventKind, on node: FlowController) {
        switch kind {
        case .a: node.removeHandler(for: FuzzEventA.self)
        case .b: node.removeHandler(for: FuzzEventB.self)
        case .c: node.removeHandler(for: FuzzEventC.self)
        case .d: node.removeHandler(for: FuzzEventD.self)
        }
    }

    func handles(_ kind: FuzzEventKind, _ node: FlowController) -> Bool {
        switch kind {
        case .a: return node.handles(FuzzEventA.self)
        case .b: return node.handles(FuzzEventB.self)
        case .c: return node.handles(FuzzEventC.self)
        case .d: return node.handles(FuzzEventD.self)
        }
    }

    func value(_ key: FuzzKey, at node: FlowController) -> Int? {
        switch key {
        case .first: return node.dependencies[FuzzKey1.self]?.id
        case .second: return node.dependencies[FuzzKey2.self]?.id
        }
    }

    func setValue(_ key: FuzzKey, token: Int, on node: FlowController) {
        switch key {
        case .first: node.dependencies[FuzzKey1.self] = self.token(token)
        case .second: node.dependencies[FuzzKey2.self] = self.token(token)
        }
    }

    // MARK: Actions

    /// Runs an action for a closure; a thrown error is logged with the context.
    func perform(_ action: FuzzAction, actor: FlowController?, context: String) {
        // Closures that send the events they handle would run forever: each step allows a
        // fixed number of actions (the model counts the same way).
        guard actionBudget > 0 else { return }
        actionBudget -= 1
        switch action {
        case .send(let kind):
            let event = event(kind)
            actor?.send(event)
        case .runtimeSend(let kind):
            let event = event(kind)
            actor?.runtime?.send(event)
        case .setValue(let id, let key, let token):
            guard let node = node(id) else { return }
            setValue(key, token: token, on: node)
        case .composeFresh:
            let stack = create(freshID(), .stack, route: nil)
            let entry = create(freshID(), .plain, route: nil)
            let root = create(freshID(), .plain, route: nil)
            do {
                try (stack as! FlowStack).push(entry)
                try root.embed(stack)
            } catch {
                journal.append("\(context) composeFresh threw \(error)")
            }
        case .adoptCarried:
            guard let node = carried.last ?? nil, let id = FuzzWorld.id(of: node),
                let actorID = FuzzWorld.id(of: actor)
            else { return }
            let op = FuzzOp.present(actorID, id)
            coverage["action \(context) adoptCarried", default: 0] += 1
            do {
                try run(op)
            } catch {
                journal.append("\(context) \(op) threw \(error)")
            }
        case .op(let op):
            coverage["action \(context) \(op.name)", default: 0] += 1
            do {
                try run(op, fresh: true)
            } catch {
                journal.append("\(context) \(op) threw \(error)")
            }
        }
    }

    /// Runs a synchronous operation. With `fresh`, node ids it names that were never created
    /// are created as plain nodes first.
    func run(_ op: FuzzOp, fresh: Bool = false) throws {
        // Containers must exist; the node attached may be created fresh (as the model does).
        func get(_ id: FuzzID) -> FlowController? { node(id) }
        func new(_ id: FuzzID) -> FlowController? {
            if nodes[id] == nil && fresh { return create(id, .plain, route: nil) }
            return node(id)
        }
        func stack(_ id: FuzzID) -> FlowStack? { get(id) as? FlowStack }
        switch op {
        case .scene:
            break  // run by FuzzRun.sceneStep
        case .push(let s, let x):
            guard let s = stack(s), let x = new(x) else { return }
            try s.push(x)
        case .pop(let s):
            guard let s = stack(s) else { return }
            try s.pop()
        case .popTo(let s, let x):
            guard let s = stack(s), let x = new(x) else { return }
            try s.pop(to: x)
        case .popToRoot(let s):
            guard let s = stack(s) else { return }
            try s.popToRoot()
        case .setStack(let s, let list):
            guard let s = stack(s) else { return }
            let nodes = list.compactMap(new)
            guard nodes.count == list.count else { return }
            try s.setStack(nodes)
        case .platformPop(let s):
            guard let s = stack(s) else { return }
            try s.platformDidPop()
        case .platformPopTo(let s, let x):
            guard let s = stack(s), let x = new(x) else { return }
            try s.platformDidPop(to: x)
        case .embed(let p, let x):
            guard let p = get(p), let x = new(x) else { return }
            try p.embed(x)
        case .switchTo(let p, let x):
            guard let p = get(p) as? FlowSwitch, let x = new(x) else { return }
            try p.switch(to: x)
        case .switchRoute(let p, let route):
            guard let p = get(p) as? FlowSwitch else { return }
            try p.switch(to: FlowRoute("r\(route)"))
        case .present(let p, let x):
            guard let p = get(p), let x = new(x) else { return }
            try p.present(x)
        case .dismiss(let p):
            guard let p = get(p) else { return }
            try p.dismiss()
        case .platformDismiss(let p):
            guard let p = get(p) else { return }
            try p.platformDidDismiss()
        case .navigate(let x, let list, let reentering):
            guard let x = get(x) else { return }
            try x.navigate(to: list.map { FlowRoute("r\($0)") }, reentering: reentering)
        case .runtimeNavigate(let r, let list):
            guard let runtime = runtime(r) else { return }
            try runtime.navigate(to: list.map { FlowRoute("r\($0)") })
        case .start(let r):
            guard let runtime = runtime(r) else { return }
            try runtime.start()
        case .stop(let r):
            guard let runtime = runtime(r) else { return }
            try runtime.stop()
        case .runtimeSend(let r, let kind):
            let event = event(kind)
            runtime(r)?.send(event)
        case .send(let x, let kind):
            let event = event(kind)
            get(x)?.send(event)
        case .make(let id, let kind, let route, let initial):
            let node = create(id, kind, route: route)
            node.initialRoute = initial.map { FlowRoute("r\($0)") }
            held[id] = node
        case .drop(let id):
            held[id] = nil
        case .hold(let id):
            held[id] = node(id)
        case .newRuntime(let r, let rootID, let spec):
            guard let root = node(rootID), root.parent == nil, root.runtime == nil,
                root.state == .created, runtimes[r] == nil
            else {
                journal.append("skip \(op)")
                return
            }
            let host = FuzzHost(runtimeID: r, world: self)
            var platform: SimulatedPlatform?
            if let spec {
                platform = SimulatedPlatform(
                    rules: spec.rules, duration: spec.duration)
                platform!.refuses = { [weak self] _ in self?.countStep(r) }
                host.transitions = FlowTransitions(host: platform!)
            }
            let trace = FlowTrace()
            guard let runtime = try? FlowRuntime(root: root, host: host, trace: trace) else {
                journal.append("skip \(op)")
                return
            }
            runtime.onError = { [weak self] failure in
                self?.journal.append("onError \(failure)")
            }
            trace.addObserver { [weak self] record in self?.traced(record, runtime: r) }
            runtime.onUnhandledEvent = { [weak self] event, origin in
                self?.journal.append("unhandled \(event.traceName) from \(origin.path)")
            }
            var slot = RuntimeSlot(
                host: host, trace: trace, platform: platform, transitions: host.transitions)
            slot.runtime = runtime
            slot.weakRuntime = runtime
            runtimes[r] = slot
        case .exitGuard(let x, let spec):
            guard let x = get(x) else { return }
            install(spec, exit: true, on: x)
        case .entryGuard(let x, let spec):
            guard let x = get(x) else { return }
            install(spec, exit: false, on: x)
        case .on(let x, let kind, let spec):
            guard let x = get(x) else { return }
            install(spec, for: kind, on: x)
        case .removeHandler(let x, let kind):
            guard let x = get(x) else { return }
            removeHandler(for: kind, on: x)
        case .register(let x, let route, let spec):
            guard let x = get(x) else { return }
            x.register(FlowRoute("r\(route)")) { [weak self, weak x] in
                guard let self else {
                    return FlowController(name: "orphan", route: FlowRoute("r\(route)"))
                }
                return self.factoryFired(spec, route: route, owner: x)
            }
        case .setValue(let x, let key, let token):
            guard let x = get(x) else { return }
            setValue(key, token: token, on: x)
        case .removeValue(let x, let key):
            guard let x = get(x) else { return }
            switch key {
            case .first: x.dependencies.removeValue(for: FuzzKey1.self)
            case .second: x.dependencies.removeValue(for: FuzzKey2.self)
            }
        case .task(let x):
            guard let x = get(x) else { return }
            x.task {
                while !Task.isCancelled { await Task.yield() }
                _ = x
            }
        case .hook(let x, let hook, let action):
            guard let x = get(x) as? any FuzzNode else { return }
            x.info.hooks[hook] = action
        case .armHost(let r, let action):
            runtimes[r]?.host.armed = action
        case .armTrace(let r, let action):
            runtimes[r]?.armedTrace = action
        case .makeTabs(let id, let route, let list, let selected):
            // The initializer traps on bad input: only fresh, distinct tabs and a valid index.
            let tabs = list.compactMap(get)
            guard tabs.count == list.count, Set(list).count == list.count,
                tabs.allSatisfy({ $0.state == .created && $0.parent == nil && $0.runtime == nil }),
                tabs.indices.contains(selected) || (tabs.isEmpty && selected == 0)
            else {
                journal.append("skip \(op)")
                return
            }
            let info = FuzzNodeInfo(id: id, world: self)
            let node = FuzzTabsNode(
                info: info, name: "n\(id)", route: route.map { FlowRoute("r\($0)") }, tabs: tabs,
                selected: selected)
            register(node, as: id)
            held[id] = node
        case .select(let t, let x):
            guard let t = get(t) as? FlowTabs, let x = get(x) else { return }
            try t.select(x)
        case .selectAt(let t, let index):
            guard let t = get(t) as? FlowTabs else { return }
            try t.select(at: index)
        case .platformSelect(let t, let x):
            guard let t = get(t) as? FlowTabs, let x = get(x) else { return }
            try t.platformDidSelect(x)
        case .setTabs(let t, let list, let index):
            guard let t = get(t) as? FlowTabs else { return }
            let nodes = list.compactMap(new)
            guard nodes.count == list.count else { return }
            try t.setTabs(nodes, selecting: index)
        case .reselectionPops(let t, let on):
            guard let t = get(t) as? FlowTabs else { return }
            t.reselectionPopsToRoot = on
        case .writeSelection(let t, let x):
            guard let t = get(t) as? FlowTabs else { return }
            if let x {
                guard let id = identity(x) else { return }
                t.selectionBinding = id
            } else {
                t.selectionBinding = nil
            }
        case .writePath(let s, let list):
            guard let s = stack(s) else { return }
            let ids = list.compactMap(identity)
            guard ids.count == list.count else { return }
            s.pathBinding = ids
        case .writePresented(let p, let x):
            guard let p = get(p) else { return }
            if let x {
                guard let x = get(x) else { return }
                p.presentedBinding = x
            } else {
                p.presentedBinding = nil
            }
        case .unwind(let x, let t):
            guard let x = get(x), let t = get(t) else { return }
            try x.unwind(to: t)
        case .runtimeUnwind(let r, let t):
            guard let runtime = runtime(r), let t = get(t) else { return }
            try runtime.unwind(to: t)
        case .advance, .runUntilIdle, .swipeBack, .dragDown, .updateGesture, .releaseGesture,
            .cancelGesture, .tapBack, .tapTab:
            try runOnPlatform(op)
        case .makeSplit(let id, let route, let list, let focus, let preferred, let collapsed):
            // The initializer traps on bad input: only fresh, distinct columns and columns the
            // split has.
            let columns = list.compactMap(get)
            guard columns.count == list.count, Set(list).count == list.count,
                columns.count == 2 || columns.count == 3,
                columns.count == 3 || (focus != 1 && preferred != 1),
                columns.allSatisfy({ $0.state == .created && $0.parent == nil && $0.runtime == nil }
                )
            else {
                journal.append("skip \(op)")
                return
            }
            let node = FuzzSplitNode(
                info: FuzzNodeInfo(id: id, world: self), name: "n\(id)",
                route: route.map { FlowRoute("r\($0)") }, columns: columns,
                focus: fuzzColumn(focus), preferred: fuzzColumn(preferred), collapsed: collapsed)
            register(node, as: id)
            held[id] = node
        case .focusColumn(let s, let column):
            guard let s = get(s) as? FlowSplit else { return }
            try s.focus(fuzzColumn(column))
        case .focusRegion(let s, let x, let platform):
            guard let s = get(s) as? FlowSplit, let x = get(x) else { return }
            if platform { try s.platformDidFocus(x) } else { try s.focus(x) }
        case .show(let s, let shown, let clearing, let single):
            guard let s = get(s) as? FlowSplit else { return }
            let nodes = shown.compactMap { new($0.node) }
            guard nodes.count == shown.count else { return }
            if single, let only = nodes.first {
                try s.show(only, in: fuzzColumn(shown[0].column))
            } else {
                var map: [FlowSplit.Column: FlowController] = [:]
                for (item, node) in zip(shown, nodes) { map[fuzzColumn(item.column)] = node }
                try s.show(map, clearing: Set(clearing.map(fuzzColumn)))
            }
        case .collapse(let s):
            guard let s = get(s) as? FlowSplit else { return }
            try s.platformDidCollapse()
        case .expand(let s):
            guard let s = get(s) as? FlowSplit else { return }
            try s.platformDidExpand()
        case .writePreferred(let s, let column):
            guard let s = get(s) as? FlowSplit else { return }
            s.preferredCompactColumn = fuzzColumn(column)
        case .popCompact(let s, let x):
            guard let s = get(s) as? FlowSplit, let x = get(x) else { return }
            try s.platformDidPopCompact(to: x)
        case .navigateSteps(let x, let paths, let reentering):
            guard let x = get(x), !paths.isEmpty else { return }
            let steps = paths.map { path in
                path.map {
                    FlowStep(FlowRoute("r\($0.route)"), placement: $0.isRoot ? .root : .child)
                }
            }
            if steps.count == 1 {
                try x.navigate(to: steps[0], reentering: reentering)
            } else {
                try x.navigate(toEach: steps)
            }
        case .releaseOffMain, .releaseRuntime:
            preconditionFailure("asynchronous operation \(op) run synchronously")
        }
    }

    private func takeForRelease(_ id: FuzzID) -> FuzzCell? {
        guard let node = held[id], node.parent == nil, node.runtime == nil,
            node.state == .created
        else { return nil }
        held[id] = nil
        return FuzzCell(node)
    }

    func traced(_ record: FlowTraceRecord, runtime r: Int) {
        if case .change(let change) = record {
            traceLog.append("rt\(r): change \(describe(change))")
        } else {
            traceLog.append("rt\(r): \(record)")
        }
        if case .change = record, !quiet, let action = runtimes[r]?.armedTrace {
            runtimes[r]?.armedTrace = nil
            perform(action, actor: runtimes[r]?.weakRuntime?.root, context: "trace")
        }
    }

    /// Runs a top-level operation: the asynchronous ones here, the rest through `run`.
    func runTopLevel(_ op: FuzzOp) async throws {
        switch op {
        case .releaseOffMain(let id):
            guard let cell = takeForRelease(id) else {
                journal.append("skip \(op)")
                return
            }
            // The cell holds the only reference: the node (and what only it owns) is freed
            // on the detached task's thread.
            await Task.detached { cell.clear() }.value
        case .releaseRuntime(let r):
            guard runtimes[r]?.runtime != nil else {
                journal.append("skip \(op)")
                return
            }
            quiet = true
            // Released outside the dictionary access: the runtime's `deinit` runs hooks and
            // observers that read `runtimes`.
            var released = runtimes[r]?.runtime
            runtimes[r]?.runtime = nil
            released = nil
            _ = released
            // A runtime released on the main actor may tear its tree down at once or in a
            // main-actor job; give such a job its turn.
            for _ in 0..<3 { await Task.yield() }
            quiet = false
        default:
            try run(op)
        }
    }
}
