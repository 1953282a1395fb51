import FlowKit

// Paths, errors and node creation.
extension FuzzModel {
    func livePath(_ id: FuzzID) -> String {
        if let cached = snapshot?.paths[id] { return cached }
        var names: [String] = []
        var current: FuzzID? = id
        while let node = current.flatMap({ nodes[$0] }) {
            names.append(node.name)
            current = node.parent ?? prospective[node.id]
        }
        let path = names.reversed().joined(separator: "/")
        snapshot?.paths[id] = path
        return path
    }

    /// Runs `body` with paths and lookups remembered; `body` must not change the model.
    func frozen<T>(_ body: () throws -> T) rethrows -> T {
        snapshot = ([:], [:])
        defer { snapshot = nil }
        return try body()
    }

    /// The values a node sees for every key, from itself up (memoized while frozen).
    func inherited(_ id: FuzzID) -> [Int?] {
        if let cached = snapshot?.values[id] { return cached }
        guard let parent = nodes[id]?.parent, let own = nodes[id]?.values else {
            var values: [Int?] = [nil, nil]
            for (key, token) in nodes[id]?.values ?? [:] { values[key.rawValue] = token }
            snapshot?.values[id] = values
            return values
        }
        var values = inherited(parent)
        for (key, token) in own { values[key.rawValue] = token }
        snapshot?.values[id] = values
        return values
    }

    /// The accepted values of `path`: an exited node may report its last path or its name.
    func paths(_ id: FuzzID) -> [String] {
        guard let node = nodes[id] else { return ["?"] }
        guard node.state == .exited else { return [livePath(id)] }
        let last = node.lastPath ?? node.name
        return last == node.name ? [last] : [last, node.name]
    }

    func refusal(_ id: FuzzID, _ make: (String) -> FlowError) -> FuzzRefusal {
        FuzzRefusal(candidates: paths(id).map(make))
    }

    func refusal(
        _ a: FuzzID, _ b: FuzzID, _ make: (String, String) -> FlowError
    ) -> FuzzRefusal {
        FuzzRefusal(candidates: paths(a).flatMap { pa in paths(b).map { make(pa, $0) } })
    }

    func isAncestorOrSelf(_ candidate: FuzzID, of id: FuzzID) -> Bool {
        var current: FuzzID? = id
        while let node = current {
            if node == candidate { return true }
            current = nodes[node]?.parent
        }
        return false
    }

    func runtimeOf(_ id: FuzzID) -> Int? {
        guard let r = nodes[id]?.runtime, runtimes[r]?.held == true else { return nil }
        return r
    }

    /// The runtime of the tree `id` is in: its own, else its nearest ancestor's (an offline
    /// descendant of a runtime's root that has not started has none of its own).
    func treeRuntimeOf(_ id: FuzzID) -> Int? {
        var current: FuzzID? = id
        while let node = current {
            if let r = runtimeOf(node) { return r }
            current = nodes[node]?.parent
        }
        return nil
    }

    func lookup(_ id: FuzzID, _ key: FuzzKey) -> Int? {
        guard nodes[id]?.state != .exited else { return nil }
        return inherited(id)[key.rawValue]
    }

    /// ``lookup(_:_:)`` for every key (by raw value) of a node in `state`.
    func lookupAll(_ id: FuzzID, state: FlowLifecycleState) -> [Int?] {
        state == .exited ? [nil, nil] : inherited(id)
    }

    // MARK: Node creation

    @discardableResult
    func create(_ id: FuzzID, _ kind: FuzzKind, route: Int?, name: String? = nil) -> FuzzID {
        nodes[id] = Node(id: id, kind: kind, name: name ?? "n\(id)", route: route)
        return id
    }

    func freshID() -> FuzzID {
        nextFresh += 1
        return nextFresh
    }

    /// A new event's sequence number; a `D` event carries a fresh node made for it.
    func newEvent(_ kind: FuzzEventKind) -> Int {
        eventSeq += 1
        if kind == .d {
            let id = freshID()
            create(id, .plain, route: nil, name: "c\(id)")
            carriedBySeq[eventSeq] = id
        }
        return eventSeq
    }

}

extension FuzzModel {
    /// Whether node `id` is already freed on the real side: kept by no tree (exited, or a fresh
    /// node a failed change did not keep) and held by nothing (not the test, not a pending
    /// intent, not a task that has yet to return, not the closure's own call, not the
    /// delivery of an event it sent, not a call in progress on it or naming it, not the
    /// transaction removing it).
    func isGone(_ id: FuzzID, actor: FuzzID?, _ live: Set<FuzzID>) -> Bool {
        guard let node = nodes[id] else { return false }
        return !live.contains(id) && node.tasksAtExit == 0 && id != actor
            && !delivering.contains(id) && !carrying.contains(id) && !operating.contains(id)
            && !removing.contains(id)
    }

    /// The nodes a call of `op` holds while it runs: its receiver and the nodes it names
    /// (the real side keeps them in locals, FlowKit in its parameters).
    /// A binding write names its nodes by identity only: it holds none of them.
    func heldByCall(_ op: FuzzOp) -> [FuzzID] {
        var held: [FuzzID]
        switch op {
        case .writePath, .writeSelection:
            held = []
        case .popTo(_, let x), .platformPopTo(_, let x), .send(let x, _):
            held = [x]
        default:
            held = namedNodes(op)
        }
        if let domain = changeDomain(op) { held.append(domain) }
        return held.filter { nodes[$0] != nil }
    }

    /// The nodes an operation names besides its container (attached, selected, written to
    /// a binding), which the real side must still find.
    func namedNodes(_ op: FuzzOp) -> [FuzzID] {
        switch op {
        case .push(_, let x), .embed(_, let x), .switchTo(_, let x), .present(_, let x),
            .select(_, let x), .platformSelect(_, let x):
            return [x]
        case .setStack(_, let list), .setTabs(_, let list, _), .writePath(_, let list):
            return list.filter { $0 != fuzzBogusID }
        case .writeSelection(_, let x), .writePresented(_, let x):
            return x.map { $0 == fuzzBogusID ? [] : [$0] } ?? []
        case .unwind(_, let t), .runtimeUnwind(_, let t), .focusRegion(_, let t, _),
            .popCompact(_, let t):
            return [t]
        case .show(_, let shown, _, _):
            return shown.map(\.node)
        default:
            return []
        }
    }
}

extension FuzzModel {
    /// After a navigation is planned, each entered stack on the way pops what lies above the
    /// entry the path goes through, deepest stack first.
    func popAbove(_ visited: [FuzzID], _ change: inout Change) {
        var handled: Set<FuzzID> = []
        for node in visited.reversed() {
            let parent =
                nodes[node]!.parent ?? change.insertions.first { $0.node == node }?.container
            guard let stack = parent, nodes[stack]!.kind == .stack,
                nodes[stack]!.state == .entered, handled.insert(stack).inserted
            else { continue }
            let entries = plannedChildren(stack, change)
            guard let index = entries.firstIndex(of: node) else { continue }
            for entry in entries[(index + 1)...].reversed() { remove(entry, from: stack, &change) }
        }
    }
}

extension FuzzModel {
    /// The nodes the closure asking for a container's operation again captures.
    func intentHolds(_ op: FuzzOp) -> [FuzzID] {
        var holds = namedNodes(op)
        if let domain = changeDomain(op) { holds.append(domain) }
        switch op {
        case .popTo(_, let x), .platformPopTo(_, let x): holds.append(x)
        default: break
        }
        return holds
    }

    /// A guard redirected `change`: the intent is kept (replacing an older one) and the
    /// redirect queued, or, with nothing to keep (start, a redirect's own change), a plain
    /// refusal.
    func redirected(_ redirect: Redirect, change: Change, in r: Int) -> FuzzRefusal {
        let target = redirect.routes.map { "r\($0)" }.joined(separator: " / ")
        guard let spec = currentIntent, !redirecting.contains(r), runtimes[r]!.root != nil else {
            return FuzzRefusal(candidates: [
                .entryRefused(node: redirect.node, reason: "redirected to \(target)")
            ])
        }
        let description: String
        let holds: [FuzzID]
        switch spec {
        case .composition(let kept):
            description = "\(change.kind.rawValue) \(change.domain.map(livePath) ?? "")"
            holds = kept
        case .navigate(let node, let paths):
            // `navigate(toEach:)`: `navigate a to p1 and a to p2`.
            description =
                "navigate " + paths.map { "\(livePath(node)) to \($0)" }.joined(separator: " and ")
            holds = [node]
        case .unwind(let node, let target):
            description = "unwind from \(livePath(node)) to '\(livePath(target))'"
            holds = [node, target]
        }
        if let old = runtimes[r]!.intent {
            trace.append(
                FuzzExpect(
                    "rt\(r): intent replaced \(old.description) (a newer change was redirected)"))
        }
        intentCount += 1
        runtimes[r]!.intent = PendingIntent(
            id: intentCount, description: description, holds: holds, flow: nil)
        trace.append(
            FuzzExpect(
                "rt\(r): intent kept \(description) (\(redirect.node) redirected to \(target))"))
        runtimes[r]!.queue.append(.redirect(id: intentCount, routes: redirect.routes))
        return FuzzRefusal(candidates: [.redirected(node: redirect.node, to: target)])
    }

    /// The queued redirect: a navigation from the root; the node it reaches is the flow
    /// whose leaving decides the intent.
    func performRedirect(_ id: Int, _ routes: [Int], in r: Int) {
        guard runtimes[r]!.running, let root = runtimes[r]!.root else {
            if runtimes[r]!.intent?.id == id {
                dropIntent(in: r, "the redirect was skipped: the runtime stopped")
            }
            return
        }
        let saved = currentIntent
        currentIntent = nil
        redirecting.insert(r)
        defer {
            redirecting.remove(r)
            currentIntent = saved
        }
        do {
            let reached = try navigate(
                root, routes, reentering: false, context: .queued, redirect: true)
            if runtimes[r]!.intent?.id == id { runtimes[r]!.intent!.flow = reached }
        } catch {
            // Only its own intent: a newer one, redirected before this redirect ran, waits
            // for its own redirect.
            if let intent = runtimes[r]!.intent, intent.id == id {
                runtimes[r]!.intent = nil
                trace.append(
                    FuzzExpect(
                        prefix:
                            "rt\(r): intent dropped \(intent.description) (the redirect failed: "
                    ))
            }
            trace.append(FuzzExpect(prefix: "rt\(r): failed"))
            journal.append(FuzzExpect(prefix: "onError "))
        }
    }

    /// A navigation from `node` that passed every check replaces the pending intent, unless
    /// it is asked within the redirect's flow (or the redirect has not run yet).
    func replaceIntent(in r: Int, by node: FuzzID) {
        guard let intent = runtimes[r]!.intent, !redirecting.contains(r),
            let flow = intent.flow, !isAncestorOrSelf(flow, of: node)
        else { return }
        runtimes[r]!.intent = nil
        trace.append(
            FuzzExpect(
                "rt\(r): intent replaced \(intent.description) "
                    + "(a newer navigation from \(livePath(node)))"))
    }

    func dropIntent(in r: Int, _ reason: String) {
        guard let intent = runtimes[r]!.intent else { return }
        runtimes[r]!.intent = nil
        trace.append(FuzzExpect("rt\(r): intent dropped \(intent.description) (\(reason))"))
    }

    /// `x.unwind(to: t)`: dismisses and pops what covers `t` on the way up, in one
    /// transaction reported in the deepest node containing what it touched.
    func unwind(from x: FuzzID, to t: FuzzID) throws {
        let node = nodes[x]!
        if node.state == .exited { throw refusal(x) { .containerExited(container: $0) } }
        guard node.state == .entered, let r = runtimeOf(x), runtimes[r]!.running else {
            throw refusal(x) { .notInTree(node: $0) }
        }
        if runtimes[r]!.applying {
            throw FuzzRefusal(candidates: [.changeInProgress(node: livePath(x))])
        }
        // The target: a node from `x` up, or a stack entry below the one the way passes.
        var found = false
        var current: FuzzID? = x
        var passed: FuzzID?
        while let id = current, !found {
            if id == t {
                found = true
            } else if nodes[id]!.kind == .stack, let passed,
                let index = nodes[id]!.children.firstIndex(of: passed),
                nodes[id]!.children[..<index].contains(t)
            {
                found = true
            }
            passed = id
            current = nodes[id]!.parent
        }
        guard found else {
            throw FuzzRefusal(
                candidates: paths(t).map {
                    .unwindTargetNotFound(target: "'\($0)'", node: livePath(x))
                })
        }
        var change = Change(kind: .unwind, domain: t)
        change.replacesIntentFrom = x
        var covering: [(node: FuzzID, container: FuzzID)] = []
        if let presented = nodes[t]!.presented { covering.append((presented, t)) }
        var child = t
        while let parent = nodes[child]!.parent {
            if nodes[parent]!.kind == .stack,
                let index = nodes[parent]!.children.firstIndex(of: child)
            {
                for entry in nodes[parent]!.children[(index + 1)...].reversed() {
                    covering.append((entry, parent))
                }
            }
            if let presented = nodes[parent]!.presented, presented != child {
                covering.append((presented, parent))
            }
            child = parent
        }
        for (node, container) in covering.reversed() { remove(node, from: container, &change) }
        if isEmpty(change) { return }
        try outermost(r) { try commit(change, in: r) }
    }
}
