import FlowKit

// Committing a change: guards, exits, entries, reports, focus, intents.
extension FuzzModel {
    func outermost(_ r: Int, _ body: () throws -> Void) throws {
        if runtimes[r]!.depth > 0 {
            try body()
            return
        }
        runtimes[r]!.depth = 1
        var failure: Error?
        do { try body() } catch { failure = error }
        drain(r)
        runtimes[r]!.depth = 0
        if let failure { throw failure }
    }

    func drain(_ r: Int) {
        while runtimes[r]!.held, !runtimes[r]!.queue.isEmpty {
            let item = runtimes[r]!.queue.removeFirst()
            switch item {
            case .event(let kind, let seq, let origin):
                deliver(kind, seq: seq, origin: origin, in: r)
            case .change(let op, _):
                do {
                    try perform(op, context: .queued)
                } catch {
                    trace.append(FuzzExpect(prefix: "rt\(r): failed"))
                    journal.append(FuzzExpect(prefix: "onError "))
                }
            case .redirect(let id, let routes):
                performRedirect(id, routes, in: r)
            }
        }
    }

    func exitOrder(_ root: FuzzID) -> [FuzzID] { entryOrder(root).reversed() }

    /// `removals` (roots of disjoint subtrees of runtime `r`'s tree) sorted by the reverse of
    /// the tree's entry order: what is top-most on screen first.
    func inTreeExitOrder(_ removals: [FuzzID], in r: Int) -> [FuzzID] {
        guard removals.count > 1, let root = runtimes[r]!.root else { return removals }
        var position: [FuzzID: Int] = [:]
        for (index, node) in entryOrder(root).enumerated() { position[node] = index }
        return removals.sorted { (position[$0] ?? -1) > (position[$1] ?? -1) }
    }

    /// `insertions` sorted by where their nodes are in runtime `r`'s tree as `change` leaves
    /// it, in entry order (a node's children in order, then what it presents).
    func inPlannedEntryOrder(
        _ insertions: [(node: FuzzID, container: FuzzID?)], _ change: Change, in r: Int
    ) -> [(node: FuzzID, container: FuzzID?)] {
        guard insertions.count > 1, let root = runtimes[r]!.root else { return insertions }
        var position: [FuzzID: Int] = [:]
        var pending = [root]
        while let node = pending.popLast() {
            position[node] = position.count
            if let presented = plannedPresented(node, change) { pending.append(presented) }
            pending.append(contentsOf: plannedChildren(node, change).reversed())
        }
        return insertions.enumerated().sorted {
            let (left, right) = (position[$0.element.node], position[$1.element.node])
            if left != right { return (left ?? .max) < (right ?? .max) }
            return $0.offset < $1.offset
        }.map(\.element)
    }

    func entryOrder(_ root: FuzzID) -> [FuzzID] {
        var result: [FuzzID] = []
        var stack = [root]
        while let node = stack.popLast() {
            result.append(node)
            if let presented = nodes[node]!.presented { stack.append(presented) }
            stack.append(contentsOf: nodes[node]!.children.reversed())
        }
        return result
    }

    func commit(_ planned: Change, in r: Int) throws {
        commits += 1
        var change = planned
        if runtimes[r]!.applying {
            let domain = change.domain.map(livePath) ?? runtimes[r]!.root.map(livePath) ?? ""
            throw FuzzRefusal(candidates: [.changeInProgress(node: domain)])
        }
        runtimes[r]!.applying = true
        applyingRuntimes.append(r)
        // Each new subtree root is linked to its container prospectively until it is linked
        // for real (Architecture.md): its path is the one it will have, and a change asked
        // for meanwhile finds it attached.
        for insertion in change.insertions {
            if let container = insertion.container { prospective[insertion.node] = container }
        }
        defer {
            runtimes[r]!.applying = false
            applyingRuntimes.removeLast()
            for insertion in change.insertions { prospective[insertion.node] = nil }
        }
        // One exit order for every change (Architecture.md, Lifecycle): the removed subtrees
        // in the reverse of the whole tree's entry order, each innermost first, whatever
        // order the operation planned them in.
        change.removals = inTreeExitOrder(change.removals, in: r)
        let exitSet = change.removals.flatMap(exitOrder)
        // The transaction holds every node it removes until it ends (see ``isGone``).
        removing.append(contentsOf: exitSet)
        defer { removing.removeLast(exitSet.count) }
        var expanded: [FuzzID] = []
        var entrySet: [FuzzID] = []
        do {
            for fill in change.fills {
                if let route = nodes[fill]!.initialRoute {
                    _ = try planStep(fill, toward: route, &change)
                }
            }
            for insertion in change.insertions {
                try expandDefaults(insertion.node, container: insertion.container, &expanded)
            }
            // Entries run in the tree's entry order, whatever the order of the targets that
            // built them (navigate(toEach:), issue 29 bug 10): entry guards, hooks and the
            // change's entered list follow it.
            change.insertions = inPlannedEntryOrder(change.insertions, change, in: r)
            entrySet = change.insertions.flatMap { entryOrder($0.node) }
            if !change.platform && change.kind != .stop {
                for node in exitSet {
                    if let spec = nodes[node]!.exitGuard,
                        !consult(spec, node, exit: true, paths: [livePath(node)])
                    {
                        if let routes = spec.redirect {
                            throw Redirect(node: livePath(node), routes: routes)
                        }
                        throw refusal(node) { .exitRefused(node: $0, reason: "no") }
                    }
                }
            }
            for node in entrySet {
                if let spec = nodes[node]!.entryGuard,
                    !consult(
                        spec, node, exit: false,
                        paths: [livePath(node), prospectivePath(node, in: change)])
                {
                    if let routes = spec.redirect {
                        throw Redirect(node: prospectivePath(node, in: change), routes: routes)
                    }
                    throw FuzzRefusal(candidates: [
                        .entryRefused(node: prospectivePath(node, in: change), reason: "no")
                    ])
                }
            }
        } catch {
            for node in expanded {
                for child in nodes[node]!.children { nodes[child]!.parent = nil }
                nodes[node]!.children = []
            }
            if let redirect = error as? Redirect {
                throw redirected(redirect, change: change, in: r)
            }
            throw error
        }

        if let from = change.replacesIntentFrom { replaceIntent(in: r, by: from) }
        if change.kind == .start { runtimes[r]!.running = true }
        let exitedPaths = change.removals.map(livePath)
        let moved = movedSelections(change)
        if change.kind == .stop, runtimes[r]!.intent != nil {
            dropIntent(in: r, "the runtime stopped")
        }
        for node in exitSet {
            if let intent = runtimes[r]!.intent, intent.flow == node {
                dropIntent(in: r, "\(livePath(node)) left without finishing")
            }
            hook(.willExit, node)
            trace.append(FuzzExpect("rt\(r): exit \(livePath(node))"))
            nodes[node]!.lastPath = livePath(node)
            nodes[node]!.state = .exited
            nodes[node]!.isActive = false
            nodes[node]!.tasksAtExit = nodes[node]!.runningTasks
            nodes[node]!.runningTasks = 0
            nodes[node]!.pendingTasks = 0
            nodes[node]!.handlers = [:]
            nodes[node]!.values = [:]
            nodes[node]!.factories = [:]
            nodes[node]!.exitGuard = nil
            nodes[node]!.entryGuard = nil
        }
        for layout in change.layouts {
            nodes[layout.container]!.children = layout.children
            nodes[layout.container]!.presented = layout.presented
        }
        applySelections(change)
        for node in exitSet {
            nodes[node]!.parent = nil
            nodes[node]!.children = []
            nodes[node]!.presented = nil
        }
        for insertion in change.insertions {
            nodes[insertion.node]!.parent = insertion.container
            for node in entryOrder(insertion.node) { nodes[node]!.runtime = r }
        }
        for node in entrySet {
            nodes[node]!.state = .entered
            hook(.didEnter, node)
            trace.append(FuzzExpect("rt\(r): enter \(livePath(node))"))
            nodes[node]!.runningTasks += nodes[node]!.pendingTasks
            nodes[node]!.pendingTasks = 0
        }
        if change.kind == .stop {
            // FlowTransitions forgets a gesture in progress when the runtime stops.
            runtimes[r]!.gesture = nil
            runtimes[r]!.running = false
            if let root = runtimes[r]!.root { nodes[root]?.rootOf = nil }
            runtimes[r]!.root = nil
        }
        // A navigation is reported in the deepest node containing every container it touched
        // (reshaped, or a tab container whose selection moved).
        var reported = change.domain
        var touched = change.layouts.map(\.container)
        touched += moved.filter { !touched.contains($0) }
        if change.kind == .navigate || change.kind == .unwind, let first = touched.first {
            var domain = first
            for container in touched.dropFirst() where !isAncestorOrSelf(domain, of: container) {
                var candidate = nodes[domain]!.parent
                while let current = candidate, !isAncestorOrSelf(current, of: container) {
                    candidate = nodes[current]!.parent
                }
                domain = candidate ?? change.domain!
            }
            reported = domain
        }
        // Paths and identities (the tester's ids; see FuzzWorld.describe).
        var record = change.kind.rawValue
        if let reported { record += " \(livePath(reported))#\(reported)" }
        for (removal, path) in zip(change.removals, exitedPaths) {
            record += " -\(path)#\(removal)"
        }
        for insertion in change.insertions {
            record += " +\(livePath(insertion.node))#\(insertion.node)"
        }
        let actor = runtimes[r]!.root
        if !change.platform {
            host.append(FuzzExpect("rt\(r): \(record)"))
            if let action = runtimes[r]!.armedHost {
                runtimes[r]!.armedHost = nil
                perform(action, actor: actor, context: .deferred("host"))
            }
        }
        trace.append(FuzzExpect("rt\(r): change \(record)"))
        if let action = runtimes[r]!.armedTrace {
            runtimes[r]!.armedTrace = nil
            perform(action, actor: actor, context: .deferred("trace"))
        }
        updateFocus(r)
    }

    /// Consults a guard. An entering node may report its path offline or where it will be.
    func consult(_ spec: FuzzGuard, _ node: FuzzID, exit: Bool, paths: [String]) -> Bool {
        let label = exit ? "exitGuard" : "entryGuard"
        journal.append(FuzzExpect(options: paths.map { "\(label) \($0)" }))
        if let effect = spec.effect, !quiet {
            perform(effect, actor: node, context: .checking("guard"))
        }
        return !spec.refuses && spec.redirect == nil
    }

    func expandDefaults(_ root: FuzzID, container: FuzzID?, _ expanded: inout [FuzzID]) throws {
        var pending = [root]
        while let node = pending.popLast() {
            if nodes[node]!.children.isEmpty && nodes[node]!.presented == nil,
                let route = nodes[node]!.initialRoute
            {
                expanded.append(node)
                do {
                    try buildOffline(node, along: [route])
                } catch let refusal as FuzzRefusal {
                    let path = prospectivePath(node, root: root, container: container)
                    throw FuzzRefusal(
                        candidates: refusal.candidates + [
                            .unknownRoute(route: "r\(route)", node: path)
                        ] + (factoryError.map { [$0(path)] } ?? []))
                }
            }
            pending.append(contentsOf: nodes[node]!.children)
            if let presented = nodes[node]!.presented { pending.append(presented) }
        }
    }

    /// Activation after a change: the focused path (root down along each focused child) and
    /// the active nodes (the focused path, and every shown column of a split on it with its
    /// own focused path), in entry order. Nodes that stay but are no longer active resign,
    /// in the reverse of the old order (innermost first); nodes that became active are told,
    /// in the new order (outermost first). A focus move between a split's columns changes
    /// only the focused path: no hook runs.
    func updateFocus(_ r: Int) {
        var path: [FuzzID] = []
        var current = runtimes[r]!.running ? runtimes[r]!.root : nil
        while let node = current {
            path.append(node)
            current = focusedChild(node)
        }
        var active: [FuzzID] = []
        if runtimes[r]!.running, let root = runtimes[r]!.root {
            appendActive(root, to: &active)
        }
        let old = runtimes[r]!.active
        runtimes[r]!.focused = path
        runtimes[r]!.active = active
        let staying = Set(active)
        for node in old.reversed()
        where !staying.contains(node) && nodes[node]?.state == .entered && nodes[node]!.isActive {
            nodes[node]!.isActive = false
            trace.append(FuzzExpect("rt\(r): deactivate \(livePath(node))"))
            hook(.didResignActive, node)
        }
        for node in active where !nodes[node]!.isActive {
            nodes[node]!.isActive = true
            trace.append(FuzzExpect("rt\(r): activate \(livePath(node))"))
            hook(.didBecomeActive, node)
        }
    }

    func hook(_ hook: FuzzHook, _ node: FuzzID) {
        journal.append(FuzzExpect("\(hook.label) \(livePath(node))"))
        guard !quiet, let action = nodes[node]!.hooks.removeValue(forKey: hook) else { return }
        perform(action, actor: node, context: .deferred("hook"))
    }
}
