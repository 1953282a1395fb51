import FlowKit

/// Chooses random operations, mostly valid ones, by looking at the model.
///
/// `exclude` turns off kinds of operations by name (`FLOWKIT_FUZZ_EXCLUDE`), so a long run can
/// look past a known failure: `hookChanges`, `observers`, `guardEffects`, `factoryEffects`,
/// `navigate`, `offMain`, `releaseRuntime`, `tasks`, `setStack`, `invalid`, `tabs` (no tab
/// containers), `bindings` (no binding writes), `redirects` (no redirecting guards),
/// `badFactories` (no factories returning a node with another route or in use), `unwind`,
/// `platform` (no runtime on a simulated platform, so no gestures, taps or clock), `splits`
/// (no split views), `screens` (no scenarios of sheets over stacks and tabs while something
/// moves: see FuzzGenerator+Screens.swift), `scenes` (no operations on the app above the
/// scenes: see FuzzGenerator+Scenes.swift).
///
/// A runtime on a platform gets no platform-initiated change from the tester directly
/// (`platformDidPop`, `platformDidDismiss`, path and sheet binding writes): the platform
/// makes them (a tap on back, a released gesture), or the platform's record and FlowKit's
/// would part (a tester's lie, not a FlowKit bug). Selections stay: the platform does not
/// record them.
@MainActor
struct FuzzGenerator {
    var rng: FuzzRandom
    let exclude: Set<String>
    var nextID = 1
    private var nextToken = 1
    var nextRuntime = 1
    var plan: [FuzzOp] = []
    /// How many scene operations follow in a row (FuzzGenerator+Scenes.swift).
    var sceneBurst = 0

    init(seed: UInt64, exclude: Set<String> = []) {
        rng = FuzzRandom(seed: seed)
        self.exclude = exclude
    }

    /// A generator whose every choice is read from `bytes` (see ``FuzzRandom``): the
    /// `operations` fuzz target's, where libFuzzer's mutations of the bytes are mutations of
    /// the sequence of operations.
    init(bytes: [UInt8], exclude: Set<String> = []) {
        rng = FuzzRandom(bytes: bytes)
        self.exclude = exclude
    }

    /// Whether a byte-driven generator has used up its bytes (then every choice is 0).
    var exhausted: Bool { rng.exhausted }

    func allows(_ feature: String) -> Bool { !exclude.contains(feature) }

    mutating func newID() -> FuzzID {
        defer { nextID += 1 }
        return nextID
    }

    mutating func newToken() -> Int {
        defer { nextToken += 1 }
        return nextToken
    }

    mutating func event() -> FuzzEventKind { rng.pick(FuzzEventKind.allCases)! }

    mutating func route() -> Int { rng.below(4) }

    // MARK: Views of the model

    func ids(
        _ model: FuzzModel, where test: (FuzzModel.Node) -> Bool = { _ in true }
    )
        -> [FuzzID]
    {
        model.nodes.values.filter(test).map(\.id).sorted()
    }

    func entered(_ model: FuzzModel, _ kind: FuzzKind? = nil) -> [FuzzID] {
        ids(model) { $0.state == .entered && (kind == nil || $0.kind == kind) }
    }

    private func attachable(_ model: FuzzModel) -> [FuzzID] {
        ids(model) { $0.state == .created && $0.parent == nil && $0.rootOf == nil }
    }

    func runningRuntimes(_ model: FuzzModel) -> [Int] {
        model.runtimes.filter { $0.value.held && $0.value.running }.map(\.key).sorted()
    }

    private func heldRuntimes(_ model: FuzzModel) -> [Int] {
        model.runtimes.filter { $0.value.held }.map(\.key).sorted()
    }

    /// The runtime with a platform whose tree `id` joined, if any.
    private func platformRuntime(_ model: FuzzModel, _ id: FuzzID) -> Int? {
        guard let r = model.nodes[id]?.runtime, model.runtimes[r]?.held == true,
            model.runtimes[r]!.platform != nil
        else { return nil }
        return r
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

    /// A new node: its first operation (the rest, for a tab container with its tabs, is
    /// planned) and its id.
    private mutating func makeOp() -> (FuzzOp, FuzzID) {
        let roll = rng.below(100)
        if roll >= 90 && allows("tabs") {
            let (ops, id) = tabsBundle()
            plan.append(contentsOf: ops.dropFirst())
            return (ops[0], id)
        }
        let id = newID()
        let kind: FuzzKind = roll < 50 ? .plain : roll < 77 ? .stack : .switcher
        let route: Int? = rng.chance(40) ? self.route() : nil
        let initial: Int? = rng.chance(8) ? self.route() : nil
        return (.make(id, kind, route: route, initialRoute: initial), id)
    }

    /// A node to be a tab: a stack (usually with entries), a switch (perhaps with a child) or
    /// a plain node, usually with a route (navigation selects tabs by route).
    mutating func tabContent() -> ([FuzzOp], FuzzID) {
        let id = newID()
        let roll = rng.below(100)
        let kind: FuzzKind = roll < 45 ? .stack : roll < 65 ? .switcher : .plain
        var ops: [FuzzOp] = [
            .make(id, kind, route: rng.chance(70) ? route() : nil, initialRoute: nil)
        ]
        switch kind {
        case .stack:
            for _ in 0..<(rng.chance(80) ? 1 + rng.below(3) : 0) {
                let entry = newID()
                ops += [
                    .make(entry, .plain, route: rng.chance(30) ? route() : nil, initialRoute: nil),
                    .push(id, entry), .drop(entry),
                ]
            }
        case .switcher where rng.chance(50):
            let child = newID()
            ops += [
                .make(child, rng.chance(30) ? .stack : .plain, route: nil, initialRoute: nil),
                .embed(id, child), .drop(child),
            ]
        default:
            break
        }
        return (ops, id)
    }

    /// A tab container with 1–4 tabs, made by the initializer or by `setTabs`, sometimes with
    /// reselection popping to the root. Returns its operations and its id (still held).
    private mutating func tabsBundle() -> ([FuzzOp], FuzzID) {
        var ops: [FuzzOp] = []
        var tabs: [FuzzID] = []
        for _ in 0..<(1 + rng.below(4)) {
            let (content, tab) = tabContent()
            ops += content
            tabs.append(tab)
        }
        let id = newID()
        let route: Int? = rng.chance(30) ? self.route() : nil
        let selected = rng.below(tabs.count)
        if rng.chance(50) {
            ops.append(.makeTabs(id, route: route, tabs: tabs, selected: selected))
        } else {
            ops.append(.make(id, .tabs, route: route, initialRoute: nil))
            ops.append(.setTabs(id, tabs, selecting: rng.chance(60) ? selected : nil))
        }
        ops += tabs.map { .drop($0) }
        if rng.chance(35) { ops.append(.reselectionPops(id, true)) }
        return (ops, id)
    }

    // MARK: Closures' behaviour

    private mutating func actionOp(_ model: FuzzModel, checking: Bool) -> FuzzOp? {
        let stacks = entered(model, .stack)
        let switches = entered(model, .switcher)
        let tabs = allows("tabs") ? entered(model, .tabs) : []
        let live = entered(model)
        // Cases 0–12 for every closure; navigation, unwind and stop not from guards and
        // factories.
        switch rng.below(checking ? 14 : 17) {
        case 0: return rng.pick(stacks).map { .push($0, newID()) }
        case 1: return rng.pick(stacks).map { .pop($0) }
        case 2: return rng.pick(live).map { .dismiss($0) }
        case 3: return rng.pick(live).map { .present($0, newID()) }
        case 4: return rng.pick(switches).map { .switchTo($0, newID()) }
        case 5: return rng.pick(stacks).map { .setStack($0, [newID()]) }
        case 6: return rng.pick(stacks).map { .popToRoot($0) }
        case 7, 8:
            guard let t = rng.pick(tabs) else { return rng.pick(stacks).map { .pop($0) } }
            let children = model.nodes[t]!.children
            if rng.chance(30) { return .selectAt(t, rng.below(children.count + 1)) }
            let x = rng.pick(children) ?? t
            // App code on a runtime with a platform selects in code: a platform selection
            // would tell FlowKit of a tap the platform did not see.
            if platformRuntime(model, t) != nil { return .select(t, x) }
            return rng.chance(50) ? .select(t, x) : .platformSelect(t, x)
        case 9:
            guard let t = rng.pick(tabs) else { return rng.pick(stacks).map { .popToRoot($0) } }
            var list = model.nodes[t]!.children.filter { _ in rng.chance(70) }
            if rng.chance(50) { list.insert(newID(), at: rng.below(list.count + 1)) }
            if rng.chance(30) { list.reverse() }
            return .setTabs(t, list, selecting: rng.chance(50) ? nil : rng.below(list.count + 1))
        case 10:
            guard allows("bindings"), let t = rng.pick(tabs) else {
                return rng.pick(live).map { .dismiss($0) }
            }
            let x = rng.pick(model.nodes[t]!.children)
            if platformRuntime(model, t) != nil { return x.map { .select(t, $0) } }
            return .writeSelection(t, rng.chance(80) ? x : fuzzBogusID)
        case 11:
            guard allows("bindings"), let s = rng.pick(stacks) else {
                return rng.pick(live).map { .dismiss($0) }
            }
            if platformRuntime(model, s) != nil { return .pop(s) }
            let above = Array(model.nodes[s]!.children.dropFirst())
            let keep = rng.below(above.count + 1)
            return .writePath(s, rng.chance(80) ? Array(above.prefix(keep)) : above + [s])
        case 12:
            guard allows("bindings") else { return rng.pick(live).map { .dismiss($0) } }
            let presenting = live.filter { model.nodes[$0]!.presented != nil }
            guard let p = rng.pick(presenting) ?? rng.pick(live) else { return nil }
            if platformRuntime(model, p) != nil { return .dismiss(p) }
            return .writePresented(p, rng.chance(80) ? nil : p)
        case 13:
            // A split's operations: the focus, collapse and expand, a selection.
            guard allows("splits"), let s = rng.pick(entered(model, .split)) else {
                return rng.pick(stacks).map { .pop($0) }
            }
            switch rng.below(6) {
            case 5: return .writePreferred(s, rng.below(3))
            case 0: return .focusColumn(s, rng.below(3))
            case 1: return .collapse(s)
            case 2: return .expand(s)
            case 3 where platformRuntime(model, s) == nil:
                return rng.pick(model.compactStack(s)).map { .popCompact(s, $0) }
            default:
                return .show(
                    s, [FuzzShown(column: rng.below(3), node: newID())], clearing: [], single: true)
            }
        case 14: return rng.pick(live).map { .navigate($0, [route()], reentering: rng.chance(20)) }
        case 15: return unwindOp(model)
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

    private mutating func handler(_ model: FuzzModel, _ kind: FuzzEventKind) -> FuzzHandler {
        var spec = FuzzHandler(handles: rng.chance(50), captures: rng.chance(30))
        for _ in 0..<rng.below(3) {
            spec.actions.append(action(model, checking: false, changes: true))
        }
        // A handler of an event carrying a node may attach it (presented on its node).
        if kind == .d && rng.chance(70) {
            spec.actions.insert(.adoptCarried, at: rng.below(spec.actions.count + 1))
        }
        return spec
    }

    /// Routes a redirect goes to: usually a route the root of a runtime keeps (a child's) or
    /// builds (a factory's), sometimes one level further, sometimes any route.
    private mutating func redirectRoutes(_ model: FuzzModel) -> [Int] {
        guard rng.chance(85), let r = rng.pick(heldRuntimes(model)),
            let root = model.runtimes[r]!.root, let node = model.nodes[root]
        else { return [route()] }
        func options(_ node: FuzzModel.Node) -> [Int] {
            node.children.compactMap { model.nodes[$0]?.route } + node.factories.keys.sorted()
        }
        guard let first = rng.pick(options(node)) else { return [route()] }
        var routes = [first]
        if rng.chance(30),
            let child = node.children.first(where: { model.nodes[$0]?.route == first }),
            let second = rng.pick(options(model.nodes[child]!))
        {
            routes.append(second)
        }
        return routes
    }

    /// A route `node` can keep or build (a child's or a factory's), usually; else any route.
    private mutating func knownRoute(_ model: FuzzModel, _ node: FuzzID) -> Int {
        guard rng.chance(75), let node = model.nodes[node] else { return route() }
        let known =
            node.children.compactMap { model.nodes[$0]?.route } + node.factories.keys.sorted()
        return rng.pick(known) ?? route()
    }

    /// A change a guard redirects: a new entry whose entry guard redirects, pushed onto a live
    /// stack; or the top entry of a live stack given an exit guard that redirects, then popped.
    private mutating func redirectScenario(_ model: FuzzModel) -> FuzzOp? {
        guard let s = rng.pick(entered(model, .stack)) else { return nil }
        let spec = FuzzGuard(captures: rng.chance(30), redirect: redirectRoutes(model))
        if rng.chance(40), model.nodes[s]!.children.count > 1,
            let top = model.nodes[s]!.children.last
        {
            plan = [rng.chance(70) ? .pop(s) : .popToRoot(s)]
            return .exitGuard(top, spec)
        }
        let id = newID()
        plan = [.entryGuard(id, spec), .push(s, id), .drop(id)]
        return .make(id, .plain, route: rng.chance(40) ? route() : nil, initialRoute: nil)
    }

    /// Two changes redirected in one turn: a handler pushes two new nodes onto a live stack,
    /// each refused by an entry guard that redirects (the first usually to a route nothing
    /// builds, so its redirect fails), then an event runs it. Each redirect runs after both
    /// are refused; a failing one drops only its own intent.
    private mutating func redirectsInOneTurn(_ model: FuzzModel) -> FuzzOp? {
        guard let s = rng.pick(entered(model, .stack)) else { return nil }
        let first = newID()
        let second = newID()
        let failing = FuzzGuard(redirect: rng.chance(70) ? [route()] : redirectRoutes(model))
        let kept = FuzzGuard(captures: rng.chance(30), redirect: redirectRoutes(model))
        var leaf = s
        while let next = model.focusedChild(leaf) { leaf = next }
        plan = [
            .entryGuard(first, failing), .make(second, .plain, route: nil, initialRoute: nil),
            .entryGuard(second, kept),
            .on(
                s, .c,
                FuzzHandler(
                    handles: true, actions: [.op(.push(s, first)), .op(.push(s, second))])),
            .send(leaf, .c), .drop(first), .drop(second),
        ]
        return .make(first, .plain, route: nil, initialRoute: nil)
    }

    /// `navigate(toEach:)` from `x` with two paths where one removes the other's container:
    /// one goes down the routes of `x`'s subtree and ends with a root step (building into
    /// the node it reached), the other ends with a root step higher on the same way (removing
    /// that node's content), in either order. Both nodes get a factory for their root step's
    /// route first.
    private mutating func pathsRemovingEachOther(_ model: FuzzModel, from x: FuzzID) -> FuzzOp? {
        // Ways down by child routes, at most three levels.
        var ways: [[FuzzID]] = []
        var pending: [[FuzzID]] = [[]]
        while let way = pending.popLast(), ways.count < 32 {
            for child in model.nodes[way.last ?? x]!.children
            where model.nodes[child]!.route != nil {
                ways.append(way + [child])
                if way.count < 2 { pending.append(way + [child]) }
            }
        }
        guard let way = rng.pick(ways), let target = way.last else { return nil }
        let steps = way.map { FuzzStep(route: model.nodes[$0]!.route!) }
        let deep = steps + [FuzzStep(route: route(), isRoot: true)]
        let level = rng.below(way.count)  // the other root step's node: x or a node on the way
        let above = level == 0 ? x : way[level - 1]
        let shallow = Array(steps.prefix(level)) + [FuzzStep(route: route(), isRoot: true)]
        let paths = rng.chance(50) ? [deep, shallow] : [shallow, deep]
        plan = [
            .register(above, route: shallow.last!.route, rng.chance(80) ? .plain : factory(model)),
            .navigateSteps(x, paths, reentering: false),
        ]
        return .register(target, route: deep.last!.route, rng.chance(80) ? .plain : factory(model))
    }

    /// `unwind(to:)` from a node (usually a runtime's focused one) to a node on its way up or
    /// a stack entry covered on the way (sometimes any node), perhaps asked of the runtime.
    private mutating func unwindOp(_ model: FuzzModel) -> FuzzOp? {
        var from: FuzzID?
        if rng.chance(60), let r = rng.pick(runningRuntimes(model)) {
            from = model.runtimes[r]!.focused.last
        }
        guard let x = from ?? rng.pick(entered(model)) ?? rng.pick(ids(model)) else { return nil }
        var candidates: [FuzzID] = []
        var covered: [FuzzID] = []
        var current: FuzzID? = x
        var passed: FuzzID?
        while let id = current, let node = model.nodes[id] {
            candidates.append(id)
            if node.kind == .stack, let passed, let index = node.children.firstIndex(of: passed) {
                candidates += node.children[..<index]
                covered += node.children[..<index]
            }
            passed = id
            current = node.parent
        }
        let target: FuzzID
        if rng.chance(50), let entry = rng.pick(covered) {
            target = entry
        } else if rng.chance(12) || candidates.isEmpty {
            guard let any = rng.pick(ids(model)) else { return nil }
            target = any
        } else if candidates.count > 1 && rng.chance(85) {
            target = rng.pick(Array(candidates.dropFirst()))!
        } else {
            target = candidates[0]
        }
        if rng.chance(30), let r = model.nodes[x]?.runtime, model.runtimes[r]?.held == true,
            model.runtimes[r]!.focused.last == x
        {
            return .runtimeUnwind(r, target)
        }
        return .unwind(x, target)
    }

    private mutating func guardSpec(_ model: FuzzModel) -> FuzzGuard {
        var spec = FuzzGuard(refuses: rng.chance(20), captures: rng.chance(30))
        if rng.chance(30) && allows("guardEffects") {
            spec.effect = action(model, checking: true, changes: true)
        }
        if rng.chance(20) && allows("redirects") { spec.redirect = redirectRoutes(model) }
        return spec
    }

    private mutating func factory(_ model: FuzzModel) -> FuzzFactory {
        let roll = rng.below(100)
        if roll < 45 { return .plain }
        if roll < 63 { return .withStack }
        if roll < 79 && allows("badFactories") {
            return roll < 71 ? .mismatch(offset: 1 + rng.below(3)) : .inUse
        }
        guard allows("factoryEffects") else { return .plain }
        return .effect(action(model, checking: true, changes: true))
    }

    /// Decorations for a new or live node: handlers, guards, hooks, tasks, values, factories.
    private mutating func decoration(_ model: FuzzModel, _ id: FuzzID) -> FuzzOp {
        switch rng.below(9) {
        case 0, 1:
            let kind = event()
            return .on(id, kind, handler(model, kind))
        case 2: return .exitGuard(id, rng.chance(85) ? guardSpec(model) : nil)
        case 3: return .entryGuard(id, rng.chance(85) ? guardSpec(model) : nil)
        case 4:
            let hook = rng.pick(FuzzHook.allCases)!
            return .hook(id, hook, action(model, checking: false, changes: allows("hookChanges")))
        case 5:
            if allows("tasks") { return .task(id) }
            let kind = event()
            return .on(id, kind, handler(model, kind))
        case 6: return .setValue(id, rng.pick(FuzzKey.allCases)!, token: newToken())
        case 7:
            return rng.chance(50)
                ? .removeValue(id, rng.pick(FuzzKey.allCases)!) : .removeHandler(id, event())
        default: return .register(id, route: route(), factory(model))
        }
    }

    // MARK: The next operation

    mutating func next(_ model: FuzzModel) -> FuzzOp {
        asTheUser(nextOp(model), model)
    }

    /// A platform selection (or a selection binding write) on a runtime with a platform is
    /// the user's tap on the tab bar: it goes through the platform (`tapTab(at:of:in:)`, at
    /// the tab's index in the tree), which keeps its record of the selection, as a real tab
    /// bar does. (Called by the tester directly, it would tell FlowKit of a selection the
    /// platform did not make.) A path or sheet binding write there becomes the app's pop or
    /// dismissal, for the same reason.
    private func asTheUser(_ op: FuzzOp, _ model: FuzzModel) -> FuzzOp {
        // A path or sheet binding written on a live node of a runtime with a platform (a late
        // write whose container did not leave after all): the app's own pop or dismissal.
        switch op {
        case .writePath(let s, _) where model.nodes[s]?.state == .entered:
            if platformRuntime(model, s) != nil { return .pop(s) }
        case .writePresented(let p, _) where model.nodes[p]?.state == .entered:
            if platformRuntime(model, p) != nil { return .dismiss(p) }
        default:
            break
        }
        let t: FuzzID
        let x: FuzzID?
        switch op {
        case .platformSelect(let tabs, let tab): (t, x) = (tabs, tab)
        case .writeSelection(let tabs, let tab): (t, x) = (tabs, tab)
        default: return op
        }
        guard let r = platformRuntime(model, t), model.nodes[t]!.state == .entered else {
            return op
        }
        let index = x.flatMap { model.nodes[t]!.children.firstIndex(of: $0) }
        return .tapTab(r, t, index: index ?? model.nodes[t]!.children.count)
    }

    private mutating func nextOp(_ model: FuzzModel) -> FuzzOp {
        if !plan.isEmpty { return plan.removeFirst() }
        if sceneBurst > 0 {
            sceneBurst -= 1
            return .scene(sceneOp(model.sceneView))
        }
        if allows("scenes") && rng.chance(6) {
            sceneBurst = rng.below(10)
            return .scene(sceneOp(model.sceneView))
        }
        let all = ids(model)
        let running = runningRuntimes(model)
        if running.isEmpty && (all.isEmpty || rng.chance(30)) { return bootstrap(model) }
        let crowded = all.count > 40
        let roll = rng.below(crowded ? 185 : 225) + (crowded ? 40 : 0)
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
            if rng.chance(15), let x = rng.pick(entered(model)) {
                // A handler that presents the node a D event carries, and a D sent below it.
                var leaf = x
                while let next = model.focusedChild(leaf) { leaf = next }
                plan = [.send(leaf, .d)]
                return .on(x, .d, FuzzHandler(handles: rng.chance(70), actions: [.adoptCarried]))
            }
            if rng.chance(70), let leaf = rng.pick(entered(model)) { return .send(leaf, event()) }
            if let r = rng.pick(heldRuntimes(model)) { return .runtimeSend(r, event()) }
        case 50..<54:
            guard allows("navigate") else { break }
            var routes = (0...rng.below(3)).map { _ in route() }
            if rng.chance(25), let r = rng.pick(heldRuntimes(model)) {
                if let root = model.runtimes[r]!.root, rng.chance(50) {
                    routes[0] = knownRoute(model, root)
                }
                return .runtimeNavigate(r, routes)
            }
            guard let target = container(model, nil) else { break }
            if rng.chance(20), let op = pathsRemovingEachOther(model, from: target) { return op }
            if rng.chance(50) { routes[0] = knownRoute(model, target) }
            return .navigate(target, routes, reentering: rng.chance(15))
        case 54..<57:
            guard let p = container(model, .switcher) else { break }
            return allows("navigate") ? .switchRoute(p, knownRoute(model, p)) : .dismiss(p)
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
            let onPlatform = platformRuntime(model, s)
            switch rng.below(6) {
            case 0: return .pop(s)
            case 1: return onPlatform.map { .tapBack($0, s) } ?? .platformPop(s)
            case 2: return .popToRoot(s)
            case 3: return .popTo(s, rng.pick(entries) ?? rng.pick(all)!)
            case 4:
                if let r = onPlatform { return .tapBack(r, s) }
                return .platformPopTo(s, rng.pick(entries) ?? rng.pick(all)!)
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
            if rng.chance(70) { return .dismiss(p) }
            if let r = platformRuntime(model, p) {
                plan = [.releaseGesture(r)]
                return .dragDown(r, p)
            }
            return .platformDismiss(p)
        case 90..<96:
            guard allows("unwind") else { break }
            if let op = unwindOp(model) { return op }
        case 96..<100:
            guard allows("redirects") else { break }
            if rng.chance(25), let op = redirectsInOneTurn(model) { return op }
            guard let op = redirectScenario(model) else { break }
            return op
        case 100..<114:
            guard allows("tabs") else { break }
            return tabsOp(model)
        case 114..<122:
            guard allows("bindings") else { break }
            if let op = bindingWrite(model) { return op }
        case 122..<150:
            guard allows("platform"), let op = platformOp(model) else { break }
            return op
        case 150..<185:
            guard allows("splits") else { break }
            return splitOp(model)
        case 185..<225:
            if let op = screenOp(model) { return op }
        default:
            if let held = rng.pick(ids(model) { $0.held && $0.state != .created }) {
                return .drop(held)
            }
            if let s = rng.pick(entered(model, .stack)) { return .pop(s) }
        }
        return .send(rng.pick(all) ?? 0, event())
    }

    /// A root, perhaps with content, a runtime for it, and a start.
    private mutating func bootstrap(_ model: FuzzModel) -> FuzzOp {
        let root = newID()
        let r = nextRuntime
        nextRuntime += 1
        if rng.chance(20) && allows("tabs") {
            let (bundle, tabs) = tabsBundle()
            let platform = platformSpec()
            let ops =
                bundle + [.newRuntime(r, root: tabs, platform: platform), .drop(tabs), .start(r)]
            plan = Array(ops.dropFirst())
            return ops[0]
        }
        if rng.chance(30) && allows("splits") {
            // A split as the root, or embedded in a switch (navigation reaches it by route).
            let (bundle, split) = splitBundle(model)
            var ops = bundle
            var top = split
            if rng.chance(50) {
                ops += [.make(root, .switcher, route: nil, initialRoute: nil), .embed(root, split)]
                ops.append(.drop(split))
                top = root
            }
            ops += [.newRuntime(r, root: top, platform: platformSpec()), .drop(top), .start(r)]
            plan = Array(ops.dropFirst())
            return ops[0]
        }
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
        if rng.chance(50) { ops.append(.register(root, route: route(), factory(model))) }
        ops += [.newRuntime(r, root: root, platform: platformSpec()), .drop(root), .start(r)]
        plan = Array(ops.dropFirst())
        return ops[0]
    }

    /// A platform for a new runtime, two times in five (`always`: every time, and less often
    /// one whose transitions take no time): UIKit's rules, one step at a time, or a mix of
    /// the two (each rule on its own, so that a rule is also checked without the others);
    /// transitions that take no time or 100 to 400 ms.
    mutating func platformSpec(always: Bool = false) -> FuzzPlatformSpec? {
        guard allows("platform"), always || rng.chance(40) else { return nil }
        let roll = rng.below(100)
        var rules: FlowTransitionRules = roll < 40 ? .uiKit : .oneAtATime
        if roll >= 80 {
            rules = FlowTransitionRules(
                stackSteps: rng.chance(50) ? .wholeStack : .oneEntry,
                oneModalTransitionAtATime: rng.chance(50), dismissesLayersAbove: rng.chance(50),
                changesUnderPresentation: rng.chance(50), containersAnimateTogether: rng.chance(50))
        }
        let instant = rng.chance(always ? 10 : 30)
        return FuzzPlatformSpec(rules: rules, duration: instant ? 0 : 100 + rng.below(301))
    }

    /// An operation on a runtime's platform: the clock; a swipe back on one of its stacks or
    /// a drag of one of its sheets (sometimes once the platform is idle, sometimes with an
    /// exit guard on what it would remove), then progress, release or cancel, with other
    /// operations in between; a tap on back.
    private mutating func platformOp(_ model: FuzzModel) -> FuzzOp? {
        let candidates = model.runtimes.filter { $0.value.held && $0.value.platform != nil }
        guard let r = rng.pick(candidates.map(\.key).sorted()) else { return nil }
        if model.runtimes[r]!.gesture != nil && rng.chance(60) {
            switch rng.below(10) {
            case 0..<3: return .updateGesture(r, percent: rng.below(140) - 20)
            case 3..<7: return .releaseGesture(r)
            default: return .cancelGesture(r)
            }
        }
        let mine = ids(model) { $0.state == .entered && $0.runtime == r }
        let stacks = mine.filter { model.nodes[$0]!.kind == .stack }
        let deep = stacks.filter { model.nodes[$0]!.children.count > 1 }
        let presenters = mine.filter { model.nodes[$0]!.presented != nil }
        let roll = rng.below(100)
        var gesture: FuzzOp?
        var guarded: FuzzID?
        if roll < 25 { return .advance(r, ms: rng.chance(15) ? 0 : rng.below(500)) }
        if roll < 35 { return .runUntilIdle(r) }
        if roll < 62, let s = rng.pick(deep) ?? rng.pick(stacks) {
            gesture = .swipeBack(r, s)
            guarded = model.nodes[s]!.children.last
        } else if roll < 82, let p = rng.pick(presenters) ?? (rng.chance(20) ? rng.pick(mine) : nil)
        {
            gesture = .dragDown(r, p)
            guarded = model.nodes[p]!.presented
        } else if let s = rng.pick(deep) ?? rng.pick(stacks) {
            return .tapBack(r, s)
        }
        guard let gesture else { return .runUntilIdle(r) }
        var ops: [FuzzOp] = []
        if rng.chance(60) { ops.append(.runUntilIdle(r)) }
        if let guarded, rng.chance(15) {
            ops.append(.exitGuard(guarded, FuzzGuard(refuses: rng.chance(50))))
        }
        ops.append(gesture)
        if rng.chance(50) { ops.append(.updateGesture(r, percent: rng.below(100))) }
        plan = Array(ops.dropFirst())
        return ops[0]
    }

    /// An operation on a tab container (making one first if none is entered): selections by
    /// node and index, valid and not, the platform's, `setTabs` keeping, adding, removing,
    /// reordering and with bad input, reselection with a refusing guard, navigation by route.
    private mutating func tabsOp(_ model: FuzzModel) -> FuzzOp {
        let all = ids(model)
        guard let t = container(model, .tabs), rng.chance(85) else {
            // A new tab container joins a live node (or, failing that, stays offline).
            let (ops, id) = tabsBundle()
            plan = Array(ops.dropFirst())
            if let p = container(model, nil) {
                switch rng.below(4) {
                case 0 where model.nodes[p]!.kind == .stack: plan.append(.push(p, id))
                case 1 where model.nodes[p]!.kind == .switcher: plan.append(.switchTo(p, id))
                case 2: plan.append(.present(p, id))
                default: plan.append(.embed(p, id))
                }
            }
            plan.append(.drop(id))
            return ops[0]
        }
        let tabs = model.nodes[t]!.children
        let any = rng.pick(all) ?? t
        switch rng.below(12) {
        case 0, 1: return .select(t, rng.pick(tabs) ?? any)
        case 2: return .select(t, any)
        case 3: return .selectAt(t, rng.below(tabs.count + 3) - 1)
        case 4: return .platformSelect(t, rng.chance(85) ? rng.pick(tabs) ?? any : any)
        case 5, 6:
            var list = tabs.filter { _ in rng.chance(75) }
            if rng.chance(40) { list.reverse() }
            let index: Int? =
                rng.chance(50)
                ? nil
                : rng.chance(85) ? rng.below(list.count + 1) : rng.chance(50) ? -1 : list.count + 1
            let roll = rng.below(100)
            if roll < 35 {
                let (content, tab) = tabContent()
                list.insert(tab, at: rng.below(list.count + 1))
                plan =
                    Array(content.dropFirst()) + [.setTabs(t, list, selecting: index), .drop(tab)]
                return content[0]
            }
            if roll < 45, let first = list.first, !exclude.contains("invalid") {
                list.append(first)
            } else if roll < 55, !exclude.contains("invalid") {
                list.insert(any, at: rng.below(list.count + 1))
            }
            return .setTabs(t, list, selecting: index)
        case 7: return .reselectionPops(t, rng.chance(60))
        case 8, 9:
            // Reselecting the selected tab: its stack pops to the bottom, unless a guard of an
            // entry refuses (FlowKit's select asks it, the platform's does not).
            guard let selected = model.selectedTab(t) else { return .selectAt(t, 0) }
            var ops: [FuzzOp] = [.reselectionPops(t, true)]
            if let stack = model.reselectionStack(selected),
                let top = model.nodes[stack]!.children.last, rng.chance(60)
            {
                ops.append(.exitGuard(top, FuzzGuard(refuses: rng.chance(70))))
            }
            ops.append(rng.chance(65) ? .select(t, selected) : .platformSelect(t, selected))
            plan = Array(ops.dropFirst())
            return ops[0]
        case 10:
            guard allows("navigate") else { return .select(t, rng.pick(tabs) ?? any) }
            let tabRoutes = tabs.compactMap { model.nodes[$0]!.route }
            var routes = [rng.pick(tabRoutes) ?? route()]
            if rng.chance(30) { routes.append(route()) }
            return .navigate(t, routes, reentering: rng.chance(5))
        default:
            // `embed`, which a tab container inherits, replaces every tab with one node.
            if rng.chance(15) { return .embed(t, any) }
            let id = newID()
            plan = [.embed(t, id), .drop(id)]
            return .make(id, rng.chance(50) ? .stack : .plain, route: nil, initialRoute: nil)
        }
    }

    /// A write to a binding: a tab bar's selection, a navigation stack's path (shorter, the
    /// same, longer, foreign, unknown), a sheet's presented node (`nil` or not).
    private mutating func bindingWrite(_ model: FuzzModel) -> FuzzOp? {
        let all = ids(model)
        if rng.chance(25), let op = lateBindingWrite(model) { return op }
        switch rng.below(3) {
        case 0:
            guard allows("tabs"), let t = container(model, .tabs) else { break }
            let tabs = model.nodes[t]!.children
            let roll = rng.below(100)
            if roll < 50, let tab = rng.pick(tabs) { return .writeSelection(t, tab) }
            if roll < 65 { return .writeSelection(t, model.selectedTab(t)) }
            if roll < 75 { return .writeSelection(t, nil) }
            if roll < 85 { return .writeSelection(t, fuzzBogusID) }
            return .writeSelection(t, rng.pick(all))
        case 1:
            guard let s = container(model, .stack), platformRuntime(model, s) == nil else { break }
            let above = Array(model.nodes[s]!.children.dropFirst())
            let roll = rng.below(100)
            if roll < 40, !above.isEmpty {
                return .writePath(s, Array(above.prefix(rng.below(above.count))))
            }
            if roll < 55 { return .writePath(s, above) }
            if roll < 70 { return .writePath(s, above + [rng.pick(all) ?? s]) }
            if roll < 85 {
                return .writePath(s, (0..<(1 + rng.below(2))).compactMap { _ in rng.pick(all) })
            }
            if roll < 92 { return .writePath(s, []) }
            return .writePath(s, Array(above.prefix(1)) + [fuzzBogusID])
        default:
            let presenting = ids(model) { $0.state == .entered && $0.presented != nil }
            guard let p = rng.pick(presenting) ?? container(model, nil),
                platformRuntime(model, p) == nil
            else { break }
            let roll = rng.below(100)
            if roll < 60 { return .writePresented(p, nil) }
            if roll < 75 { return .writePresented(p, model.nodes[p]!.presented) }
            return .writePresented(p, rng.pick(all))
        }
        return nil
    }

    /// A binding write on a container that has exited (SwiftUI may write a binding late,
    /// issue 29 bug 11): a live container is held (as a binding holds its object), taken out
    /// of the tree (popped, switched away, dismissed, replaced, its tab removed, its runtime
    /// stopped), then its binding is written once or twice (a split's preferred compact
    /// column, a tab bar's selection, a stack's path, a sheet), then let go. Never a crash;
    /// the model expects what the docs say (refused and reported, or nothing).
    private mutating func lateBindingWrite(_ model: FuzzModel) -> FuzzOp? {
        let candidates = ids(model) {
            $0.state == .entered && $0.parent != nil || ($0.rootOf != nil && $0.state == .entered)
        }
        let splits = candidates.filter { model.nodes[$0]!.kind == .split }
        guard
            let c = allows("splits") && rng.chance(40)
                ? rng.pick(splits) ?? rng.pick(candidates)
                : rng.pick(candidates)
        else { return nil }
        let node = model.nodes[c]!
        var ops: [FuzzOp] = [.hold(c)]
        let fresh = newID()
        var made = false
        func replacement() -> FuzzID {
            made = true
            return fresh
        }
        if let parent = node.parent, let container = model.nodes[parent] {
            if container.presented == c {
                ops.append(.dismiss(parent))
            } else {
                switch container.kind {
                case .stack:
                    let index = container.children.firstIndex(of: c) ?? 0
                    ops.append(
                        index > 0
                            ? .popTo(parent, container.children[index - 1])
                            : .setStack(parent, [replacement()]))
                case .switcher: ops.append(.switchTo(parent, replacement()))
                case .tabs:
                    let others = container.children.filter { $0 != c }
                    ops.append(
                        .setTabs(parent, others.isEmpty ? [replacement()] : others, selecting: nil))
                case .plain: ops.append(.embed(parent, replacement()))
                case .split:
                    guard let r = node.runtime, model.runtimes[r]?.held == true else { return nil }
                    ops.append(.stop(r))
                }
            }
        } else if let r = node.rootOf {
            ops.append(.stop(r))
        }
        if made { ops.insert(.make(fresh, .plain, route: nil, initialRoute: nil), at: 1) }
        for _ in 0..<(1 + rng.below(2)) {
            switch node.kind {
            case .split: ops.append(.writePreferred(c, rng.below(3)))
            case .tabs:
                ops.append(.writeSelection(c, rng.chance(80) ? rng.pick(node.children) : nil))
            case .stack:
                let above = Array(node.children.dropFirst())
                ops.append(.writePath(c, Array(above.prefix(rng.below(above.count + 1)))))
            default:
                ops.append(.writePresented(c, rng.chance(80) ? nil : node.presented ?? c))
            }
        }
        if made { ops.append(.drop(fresh)) }
        ops.append(.drop(c))
        plan = Array(ops.dropFirst()) + plan
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

// MARK: Splits

extension FuzzGenerator {
    /// A column: usually a stack with 0–2 entries (and a factory, so that navigation can
    /// push or replace its entries), sometimes a plain node; usually with a route
    /// (navigation focuses a column by its route).
    private mutating func splitColumn(_ model: FuzzModel, plainChance: Int) -> ([FuzzOp], FuzzID) {
        let id = newID()
        let isPlain = rng.chance(plainChance)
        var ops: [FuzzOp] = [
            .make(
                id, isPlain ? .plain : .stack, route: rng.chance(85) ? route() : nil,
                initialRoute: nil)
        ]
        if !isPlain {
            for _ in 0..<rng.below(3) {
                let entry = newID()
                ops += [
                    .make(entry, .plain, route: rng.chance(40) ? route() : nil, initialRoute: nil),
                    .push(id, entry), .drop(entry),
                ]
            }
        }
        if rng.chance(60) { ops.append(.register(id, route: route(), factory(model))) }
        return (ops, id)
    }

    /// A split with two or three columns (one perhaps a plain node), made with a focus, a
    /// preferred compact column, sometimes collapsed. Returns its operations and its id
    /// (still held).
    mutating func splitBundle(_ model: FuzzModel) -> ([FuzzOp], FuzzID) {
        let three = rng.chance(60)
        var ops: [FuzzOp] = []
        var columns: [FuzzID] = []
        for index in 0..<(three ? 3 : 2) {
            let (content, column) = splitColumn(model, plainChance: index == 1 ? 25 : 8)
            ops += content
            columns.append(column)
        }
        let id = newID()
        let choices: [FuzzColumn] = three ? [0, 1, 2] : [0, 2]
        ops.append(
            .makeSplit(
                id, route: rng.chance(60) ? route() : nil, columns: columns,
                focus: rng.pick(choices)!, preferred: rng.chance(60) ? 2 : rng.pick(choices)!,
                collapsed: rng.chance(20)))
        ops += columns.map { .drop($0) }
        return (ops, id)
    }

    /// A node to show in a column: usually a new plain node or stack, sometimes any node.
    private mutating func showable(_ model: FuzzModel, _ ops: inout [FuzzOp]) -> FuzzID {
        // (Appends a `make` to `ops` for a new node.)
        if rng.chance(10) && allows("invalid"), let any = rng.pick(ids(model)) { return any }
        let id = newID()
        ops.append(
            .make(
                id, rng.chance(75) ? .plain : .stack, route: rng.chance(40) ? route() : nil,
                initialRoute: nil))
        return id
    }

    /// An operation on a split (making one first if none is entered): focus moves (the
    /// app's and the platform's), selections in one or several columns (clearing some),
    /// collapse and expand, compact pops while collapsed, pushes and pops in a column beside
    /// the focus, navigation through the columns (child and root steps, several paths in one
    /// transaction), an `embed` it refuses.
    mutating func splitOp(_ model: FuzzModel) -> FuzzOp {
        let all = ids(model)
        guard let s = container(model, .split), rng.chance(88) else {
            // A new split joins a live node (or, failing that, stays offline).
            let (ops, id) = splitBundle(model)
            plan = Array(ops.dropFirst())
            if let p = container(model, nil) {
                switch rng.below(4) {
                case 0 where model.nodes[p]!.kind == .stack: plan.append(.push(p, id))
                case 1 where model.nodes[p]!.kind == .switcher: plan.append(.switchTo(p, id))
                case 2: plan.append(.present(p, id))
                default: plan.append(.embed(p, id))
                }
            }
            plan.append(.drop(id))
            return ops[0]
        }
        let split = model.nodes[s]!
        let columns = split.children
        guard !columns.isEmpty else {
            // An exited split (its columns left with it): a late binding write or a focus.
            return rng.chance(60) ? .writePreferred(s, rng.below(3)) : .focusColumn(s, rng.below(3))
        }
        let choices: [FuzzColumn] = columns.count == 3 ? [0, 1, 2] : [0, 2]
        let any = rng.pick(all) ?? s
        let onPlatform = platformRuntime(model, s) != nil
        switch rng.below(24) {
        case 22, 23:
            // The platform's binding write (NavigationSplitView's preferredCompactColumn).
            return .writePreferred(s, rng.chance(90) ? rng.pick(choices)! : rng.below(3))
        case 0, 1:
            return .focusColumn(s, rng.chance(90) ? rng.pick(choices)! : rng.below(3))
        case 2, 21:
            let region = rng.chance(85) ? rng.pick(columns) ?? any : any
            return .focusRegion(s, region, platform: rng.chance(60))
        case 3, 4:
            // A selection: one column shows a new node.
            var ops: [FuzzOp] = []
            let node = showable(model, &ops)
            let column = rng.chance(90) ? rng.pick(choices)! : rng.below(3)
            let show = FuzzOp.show(
                s, [FuzzShown(column: column, node: node)], clearing: [], single: rng.chance(70))
            let made = !ops.isEmpty
            ops.append(show)
            if made { ops.append(.drop(node)) }
            plan = Array(ops.dropFirst())
            return ops[0]
        case 5:
            // Several columns at once, some cleared (a deep link's selection).
            var ops: [FuzzOp] = []
            var shown: [FuzzShown] = []
            var clearing: [FuzzColumn] = []
            for column in choices {
                let roll = rng.below(100)
                if roll < 45 {
                    shown.append(FuzzShown(column: column, node: showable(model, &ops)))
                } else if roll < 65 {
                    clearing.append(column)
                }
            }
            if rng.chance(8), let first = shown.first, allows("invalid") {
                clearing.append(first.column)
            }
            let made = Set(
                ops.compactMap { op -> FuzzID? in
                    if case .make(let id, _, _, _) = op { return id }
                    return nil
                })
            ops.append(.show(s, shown, clearing: clearing, single: false))
            ops += shown.filter { made.contains($0.node) }.map { .drop($0.node) }
            plan = Array(ops.dropFirst())
            return ops[0]
        case 6, 7:
            return split.collapsed ? .expand(s) : .collapse(s)
        case 8, 9, 19, 20:
            guard !onPlatform else { return split.collapsed ? .expand(s) : .collapse(s) }
            // While collapsed: the platform pops the compact stack (usually to an entry it
            // shows; sometimes anywhere, or while expanded).
            if !split.collapsed && rng.chance(70) { return .collapse(s) }
            let entries = model.compactStack(s)
            let entry = rng.chance(90) ? rng.pick(entries) ?? any : any
            return .popCompact(s, entry)
        case 10, 11:
            // A push or a pop in a column (often beside the focus).
            guard let column = rng.pick(columns.filter { model.nodes[$0]!.kind == .stack })
            else { return .focusColumn(s, 0) }
            switch rng.below(5) {
            case 0, 1:
                let id = newID()
                plan = [.push(column, id), .drop(id)]
                return .make(id, .plain, route: rng.chance(40) ? route() : nil, initialRoute: nil)
            case 2: return .pop(column)
            case 3: return .popToRoot(column)
            default:
                if onPlatform { return .pop(column) }
                return .platformPop(column)
            }
        case 12, 13, 14:
            // Navigation through the split: a column's route, then child or root steps.
            var from = s
            var prefix: [FuzzStep] = []
            if let route = split.route, let parent = split.parent, rng.chance(40) {
                from = parent
                prefix = [FuzzStep(route: route)]
            }
            var paths: [[FuzzStep]] = []
            for _ in 0..<(rng.chance(30) ? 2 : 1) {
                var path = prefix
                let column = rng.pick(columns)!
                path.append(FuzzStep(route: model.nodes[column]!.route ?? route()))
                if rng.chance(75) {
                    path.append(FuzzStep(route: knownRoute(model, column), isRoot: rng.chance(50)))
                }
                if rng.chance(15) { path.append(FuzzStep(route: route(), isRoot: rng.chance(30))) }
                paths.append(path)
            }
            return .navigateSteps(from, paths, reentering: paths.count == 1 && rng.chance(8))
        case 15:
            // A root step at the split itself, or a column step from elsewhere.
            let steps = [
                FuzzStep(
                    route: rng.pick(columns).flatMap { model.nodes[$0]!.route } ?? route(),
                    isRoot: rng.chance(50))
            ]
            return .navigateSteps(s, [steps], reentering: rng.chance(10))
        case 16:
            // An event from a column's leaf (bubbling up through the split).
            guard var leaf = rng.pick(columns) else { return .send(s, event()) }
            while let next = model.focusedChild(leaf) { leaf = next }
            return .send(leaf, event())
        case 17:
            // `embed` is refused (the columns are fixed); a node presented over the split
            // covers every column.
            if rng.chance(50) { return .embed(s, any) }
            let id = newID()
            plan = [.present(s, id), .drop(id)]
            return .make(id, .plain, route: nil, initialRoute: nil)
        default:
            guard let r = model.nodes[s]!.runtime, model.runtimes[r]?.held == true else {
                return .focusColumn(s, rng.pick(choices)!)
            }
            return .runtimeSend(r, event())
        }
    }
}
