import FlowKit

/// Chooses random operations, mostly valid ones, by looking at the model.
///
/// `exclude` turns off kinds of operations by name (`FLOWKIT_FUZZ_EXCLUDE`), so a long run can
/// look past a known failure: `hookChanges`, `observers`, `guardEffects`, `factoryEffects`,
/// `navigate`, `offMain`, `releaseRuntime`, `tasks`, `setStack`, `invalid`.
@MainActor
struct FuzzGenerator {
    var rng: FuzzRandom
    let exclude: Set<String>
    private var nextID = 1
    private var nextToken = 1
    private var nextRuntime = 1
    private var plan: [FuzzOp] = []

    init(seed: UInt64, exclude: Set<String> = []) {
        rng = FuzzRandom(seed: seed)
        self.exclude = exclude
    }

    private func allows(_ feature: String) -> Bool { !exclude.contains(feature) }

    private mutating func newID() -> FuzzID {
        defer { nextID += 1 }
        return nextID
    }

    private mutating func newToken() -> Int {
        defer { nextToken += 1 }
        return nextToken
    }

    private mutating func event() -> FuzzEventKind { rng.pick(FuzzEventKind.allCases)! }

    private mutating func route() -> Int { rng.below(4) }

    // MARK: Views of the model

    private func ids(
        _ model: FuzzModel, where test: (FuzzModel.Node) -> Bool = { _ in true }
    )
        -> [FuzzID]
    {
        model.nodes.values.filter(test).map(\.id).sorted()
    }

    private func entered(_ model: FuzzModel, _ kind: FuzzKind? = nil) -> [FuzzID] {
        ids(model) { $0.state == .entered && (kind == nil || $0.kind == kind) }
    }

    private func attachable(_ model: FuzzModel) -> [FuzzID] {
        ids(model) { $0.state == .created && $0.parent == nil && $0.rootOf == nil }
    }

    private func runningRuntimes(_ model: FuzzModel) -> [Int] {
        model.runtimes.filter { $0.value.held && $0.value.running }.map(\.key).sorted()
    }

    private func heldRuntimes(_ model: FuzzModel) -> [Int] {
        model.runtimes.filter { $0.value.held }.map(\.key).sorted()
    }

    /// A container of `kind`: usually entered, sometimes any (offline or exited).
    private mutating func container(_ model: FuzzModel, _ kind: FuzzKind?) -> FuzzID? {
        let live = entered(model, kind)
        if !live.isEmpty && (rng.chance(80) || exclude.contains("invalid")) {
            return rng.pick(live)
        }
        return rng.pick(ids(model) { kind == nil || $0.kind == kind })
    }

    /// A node to attach: usually a new one, sometimes any node (attached, exited, a root, an
    /// ancestor of the container or the container itself).
    private mutating func newcomer(_ model: FuzzModel, then attach: (FuzzID) -> FuzzOp) -> FuzzOp {
        if rng.chance(20) && !exclude.contains("invalid"), let any = rng.pick(ids(model)) {
            return attach(any)
        }
        if rng.chance(35), let ready = rng.pick(attachable(model)) { return attach(ready) }
        let (make, id) = makeOp()
        plan.append(attach(id))
        return make
    }

    private mutating func makeOp() -> (FuzzOp, FuzzID) {
        let id = newID()
        let roll = rng.below(100)
        let kind: FuzzKind = roll < 55 ? .plain : roll < 85 ? .stack : .switcher
        let route: Int? = rng.chance(40) ? self.route() : nil
        let initial: Int? = rng.chance(8) ? self.route() : nil
        return (.make(id, kind, route: route, initialRoute: initial), id)
    }

    // MARK: Closures' behaviour

    private mutating func actionOp(_ model: FuzzModel, checking: Bool) -> FuzzOp? {
        let stacks = entered(model, .stack)
        let switches = entered(model, .switcher)
        let live = entered(model)
        switch rng.below(checking ? 7 : 9) {
        case 0: return rng.pick(stacks).map { .push($0, newID()) }
        case 1: return rng.pick(stacks).map { .pop($0) }
        case 2: return rng.pick(live).map { .dismiss($0) }
        case 3: return rng.pick(live).map { .present($0, newID()) }
        case 4: return rng.pick(switches).map { .switchTo($0, newID()) }
        case 5: return rng.pick(stacks).map { .setStack($0, [newID()]) }
        case 6: return rng.pick(stacks).map { .popToRoot($0) }
        case 7: return rng.pick(live).map { .navigate($0, [route()], reentering: rng.chance(20)) }
        default: return rng.pick(heldRuntimes(model)).map { .stop($0) }
        }
    }

    private mutating func action(_ model: FuzzModel, checking: Bool, changes: Bool) -> FuzzAction {
        let roll = rng.below(100)
        if roll < 25 { return .send(event()) }
        if roll < 40 { return .runtimeSend(event()) }
        if roll < 50, let target = rng.pick(ids(model)) {
            return .setValue(target, rng.pick(FuzzKey.allCases)!, token: newToken())
        }
        if roll < 60 { return .composeFresh }
        if changes, let op = actionOp(model, checking: checking) { return .op(op) }
        return .send(event())
    }

    private mutating func handler(_ model: FuzzModel) -> FuzzHandler {
        var spec = FuzzHandler(handles: rng.chance(50), captures: rng.chance(30))
        for _ in 0..<rng.below(3) {
            spec.actions.append(action(model, checking: false, changes: true))
        }
        return spec
    }

    private mutating func guardSpec(_ model: FuzzModel) -> FuzzGuard {
        var spec = FuzzGuard(refuses: rng.chance(20), captures: rng.chance(30))
        if rng.chance(30) && allows("guardEffects") {
            spec.effect = action(model, checking: true, changes: true)
        }
        return spec
    }

    private mutating func factory(_ model: FuzzModel) -> FuzzFactory {
        let roll = rng.below(100)
        if roll < 55 { return .plain }
        if roll < 75 { return .withStack }
        guard allows("factoryEffects") else { return .plain }
        return .effect(action(model, checking: true, changes: true))
    }

    /// Decorations for a new or live node: handlers, guards, hooks, tasks, values, factories.
    private mutating func decoration(_ model: FuzzModel, _ id: FuzzID) -> FuzzOp {
        switch rng.below(9) {
        case 0, 1: return .on(id, event(), handler(model))
        case 2: return .exitGuard(id, rng.chance(85) ? guardSpec(model) : nil)
        case 3: return .entryGuard(id, rng.chance(85) ? guardSpec(model) : nil)
        case 4:
            let hook = rng.pick(FuzzHook.allCases)!
            return .hook(id, hook, action(model, checking: false, changes: allows("hookChanges")))
        case 5: return allows("tasks") ? .task(id) : .on(id, event(), handler(model))
        case 6: return .setValue(id, rng.pick(FuzzKey.allCases)!, token: newToken())
        case 7:
            return rng.chance(50)
                ? .removeValue(id, rng.pick(FuzzKey.allCases)!) : .removeHandler(id, event())
        default: return .register(id, route: route(), factory(model))
        }
    }

    // MARK: The next operation

    mutating func next(_ model: FuzzModel) -> FuzzOp {
        if !plan.isEmpty { return plan.removeFirst() }
        let all = ids(model)
        let running = runningRuntimes(model)
        if running.isEmpty && (all.isEmpty || rng.chance(30)) { return bootstrap() }
        let crowded = all.count > 40
        let roll = rng.below(crowded ? 60 : 100) + (crowded ? 40 : 0)
        switch roll {
        case 0..<8:
            let (make, id) = makeOp()
            for _ in 0..<rng.below(3) { plan.append(decoration(model, id)) }
            return make
        case 8..<16:
            guard let s = container(model, .stack) else { break }
            return newcomer(model) { .push(s, $0) }
        case 16..<20:
            guard let p = container(model, nil) else { break }
            return newcomer(model) { .embed(p, $0) }
        case 20..<24:
            guard let p = container(model, .switcher) else { break }
            return newcomer(model) { .switchTo(p, $0) }
        case 24..<29:
            guard let p = container(model, nil) else { break }
            return newcomer(model) { .present(p, $0) }
        case 29..<40:
            guard let target = rng.pick(all) else { break }
            return decoration(model, target)
        case 40..<50:
            if rng.chance(70), let leaf = rng.pick(entered(model)) { return .send(leaf, event()) }
            if let r = rng.pick(heldRuntimes(model)) { return .runtimeSend(r, event()) }
        case 50..<54:
            guard allows("navigate") else { break }
            let routes = (0...rng.below(3)).map { _ in route() }
            if rng.chance(25), let r = rng.pick(heldRuntimes(model)) {
                return .runtimeNavigate(r, routes)
            }
            guard let target = container(model, nil) else { break }
            return .navigate(target, routes, reentering: rng.chance(15))
        case 54..<57:
            guard let p = container(model, .switcher) else { break }
            return allows("navigate") ? .switchRoute(p, route()) : .dismiss(p)
        case 57..<60:
            guard let r = rng.pick(heldRuntimes(model)) else { break }
            if rng.chance(50) && allows("observers") {
                let action = action(model, checking: false, changes: allows("hookChanges"))
                return rng.chance(50) ? .armHost(r, action) : .armTrace(r, action)
            }
            if let root = model.runtimes[r]!.root, rng.chance(50) {
                // An event queued before stop(): a handler sends from the runtime, then stops.
                plan.append(.send(model.runtimes[r]!.focused.last ?? root, .b))
                return .on(
                    root, .b,
                    FuzzHandler(handles: true, actions: [.runtimeSend(.c), .op(.stop(r))]))
            }
            return rng.chance(70) || !allows("releaseRuntime") ? .stop(r) : .releaseRuntime(r)
        case 60..<63:
            return offMainRelease(model)
        case 63..<68:
            if let held = rng.pick(ids(model) { $0.held }) { return .drop(held) }
        case 68..<78:
            guard let s = container(model, .stack) else { break }
            let entries = model.nodes[s]!.children
            switch rng.below(6) {
            case 0: return .pop(s)
            case 1: return .platformPop(s)
            case 2: return .popToRoot(s)
            case 3: return .popTo(s, rng.pick(entries) ?? rng.pick(all)!)
            case 4: return .platformPopTo(s, rng.pick(entries) ?? rng.pick(all)!)
            default:
                guard allows("setStack") else { return .pop(s) }
                var list = entries.filter { _ in rng.chance(60) }
                if rng.chance(50) { list.reverse() }
                if rng.chance(40) {
                    let (make, id) = makeOp()
                    plan.append(.setStack(s, list + [id]))
                    return make
                }
                if rng.chance(10), let any = rng.pick(all) { list.append(any) }
                return .setStack(s, list)
            }
        case 78..<90:
            guard let p = container(model, nil) else { break }
            return rng.chance(70) ? .dismiss(p) : .platformDismiss(p)
        default:
            if let held = rng.pick(ids(model) { $0.held && $0.state != .created }) {
                return .drop(held)
            }
            if let s = rng.pick(entered(model, .stack)) { return .pop(s) }
        }
        return .send(rng.pick(all) ?? 0, event())
    }

    /// A root, perhaps with content, a runtime for it, and a start.
    private mutating func bootstrap() -> FuzzOp {
        let root = newID()
        let r = nextRuntime
        nextRuntime += 1
        let kind: FuzzKind = rng.chance(50) ? .switcher : rng.chance(60) ? .stack : .plain
        var ops: [FuzzOp] = [.make(root, kind, route: nil, initialRoute: nil)]
        if rng.chance(70) {
            let stack = newID()
            let first = newID()
            ops += [
                .make(stack, .stack, route: 0, initialRoute: nil),
                .make(first, .plain, route: 1, initialRoute: nil),
                .push(stack, first),
                kind == .stack ? .push(root, stack) : .embed(root, stack),
                .drop(stack), .drop(first),
            ]
        }
        ops += [.newRuntime(r, root: root), .drop(root), .start(r)]
        plan = Array(ops.dropFirst())
        return ops[0]
    }

    /// An offline subtree whose last reference is dropped on another thread while the test
    /// keeps a child, which it then uses.
    private mutating func offMainRelease(_ model: FuzzModel) -> FuzzOp {
        guard allows("offMain") else { return .send(0, .a) }
        let parent = newID()
        let child = newID()
        let grandchild = newID()
        plan = [
            .make(child, .stack, route: nil, initialRoute: nil),
            .make(grandchild, .plain, route: nil, initialRoute: nil),
            .push(child, grandchild),
            .setValue(parent, .first, token: newToken()),
            .embed(parent, child),
            .drop(grandchild),
            .releaseOffMain(parent),
        ]
        if let s = rng.pick(entered(model, .stack)) { plan.append(.push(s, child)) }
        plan.append(.drop(child))
        return .make(parent, .plain, route: nil, initialRoute: nil)
    }
}
