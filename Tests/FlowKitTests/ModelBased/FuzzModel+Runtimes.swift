import FlowKit

// Runtimes, release and the memory census.
extension FuzzModel {
    func releaseRuntime(_ r: Int) {
        runtimes[r]!.held = false
        lenient = true
        if runtimes[r]!.running, let root = runtimes[r]!.root {
            for node in exitOrder(root) {
                journal.append(FuzzExpect("willExit \(livePath(node))"))
                nodes[node]!.lastPath = livePath(node)
                nodes[node]!.state = .exited
                nodes[node]!.isActive = false
                nodes[node]!.runningTasks = 0
                nodes[node]!.pendingTasks = 0
                nodes[node]!.handlers = [:]
                nodes[node]!.values = [:]
                nodes[node]!.factories = [:]
                nodes[node]!.exitGuard = nil
                nodes[node]!.entryGuard = nil
            }
            for node in exitOrder(root) {
                nodes[node]!.parent = nil
                nodes[node]!.children = []
                nodes[node]!.presented = nil
            }
        }
        if let root = runtimes[r]!.root { nodes[root]?.rootOf = nil }
        for (id, node) in nodes where node.runtime == r && node.state == .created {
            nodes[id]!.runtime = nil
        }
        runtimes[r]!.running = false
        runtimes[r]!.root = nil
        runtimes[r]!.queue = []
        runtimes[r]!.focused = []
        runtimes[r]!.active = []
        runtimes[r]!.intent = nil
        runtimes[r]!.gesture = nil
    }

    /// The nodes that must still be allocated: held by the test, owned by a held runtime,
    /// kept by their own closures (not yet in a tree), or owned by such a node.
    func reachable() -> Set<FuzzID> {
        var marked = Set<FuzzID>()
        var pending: [FuzzID] = []
        for (id, node) in nodes where node.held || (node.state == .created && node.capturesItself) {
            pending.append(id)
        }
        for runtime in runtimes.values where runtime.held {
            if let root = runtime.root { pending.append(root) }
            // A pending intent keeps what asking for its change again needs.
            if let intent = runtime.intent { pending.append(contentsOf: intent.holds) }
            // A gesture in progress holds its container (the tester's platform user does).
            if let gesture = runtime.gesture { pending.append(gesture.container) }
        }
        while let id = pending.popLast() {
            guard marked.insert(id).inserted, let node = nodes[id] else { continue }
            pending.append(contentsOf: node.children)
            if let presented = node.presented { pending.append(presented) }
        }
        return marked
    }

    /// Forgets the nodes that must have been freed, unlinking the children they held; returns
    /// their ids.
    func collect() -> [FuzzID] {
        let alive = reachable()
        let freed = nodes.keys.filter { !alive.contains($0) }
        for id in freed {
            for child in nodes[id]!.children where alive.contains(child) {
                nodes[child]!.parent = nil
            }
            if let presented = nodes[id]!.presented, alive.contains(presented) {
                nodes[presented]!.parent = nil
            }
        }
        for id in freed { nodes[id] = nil }
        return freed
    }

    /// The tokens some live node can see: every other token must have been freed.
    func visibleTokens() -> Set<Int> {
        frozen { visibleTokensNow() }
    }

    func visibleTokensNow() -> Set<Int> {
        var result = Set<Int>()
        for (id, node) in nodes {
            for token in lookupAll(id, state: node.state) {
                if let token { result.insert(token) }
            }
        }
        return result
    }
}
