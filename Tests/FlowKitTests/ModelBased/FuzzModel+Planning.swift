import FlowKit

// Planning a change: layouts, steps, paths, unwind targets.
extension FuzzModel {
    func layoutIndex(_ container: FuzzID, _ change: inout Change) -> Int {
        if let index = change.layouts.firstIndex(where: { $0.container == container }) {
            return index
        }
        let node = nodes[container]!
        change.layouts.append(
            Layout(container: container, children: node.children, presented: node.presented))
        return change.layouts.count - 1
    }

    func plannedChildren(_ container: FuzzID, _ change: Change) -> [FuzzID] {
        change.layouts.first { $0.container == container }?.children ?? nodes[container]!.children
    }

    func plannedPresented(_ container: FuzzID, _ change: Change) -> FuzzID? {
        if let layout = change.layouts.first(where: { $0.container == container }) {
            return layout.presented
        }
        return nodes[container]!.presented
    }

    func remove(_ node: FuzzID, from container: FuzzID, _ change: inout Change) {
        let index = layoutIndex(container, &change)
        if change.layouts[index].presented == node {
            change.layouts[index].presented = nil
        } else {
            change.layouts[index].children.removeAll { $0 == node }
        }
        // A node the change inserts (an earlier path built it) leaves the plan: it never
        // entered, so it does not exit.
        if let inserted = change.insertions.firstIndex(where: { $0.node == node }) {
            change.insertions.remove(at: inserted)
            return
        }
        change.removals.append(node)
    }

    func removeContent(of container: FuzzID, _ change: inout Change) {
        if let presented = plannedPresented(container, change) {
            remove(presented, from: container, &change)
        }
        for child in plannedChildren(container, change).reversed() {
            remove(child, from: container, &change)
        }
    }

    func append(_ node: FuzzID, to container: FuzzID, _ change: inout Change) {
        let index = layoutIndex(container, &change)
        change.layouts[index].children.append(node)
        change.insertions.append((node, container))
    }

    /// Runs `plan` as a structural change (offline) or a transaction.
    func change(
        _ container: FuzzID, _ kind: FlowChange.Kind, platform: Bool = false, context: Context,
        _ plan: (inout Change) throws -> Void
    ) throws {
        switch nodes[container]!.state {
        case .exited:
            throw refusal(container) { .containerExited(container: $0) }
        case .created:
            var change = Change(kind: kind, domain: container)
            try plan(&change)
            applyOffline(change)
        case .entered:
            guard let r = runtimeOf(container), runtimes[r]!.running else {
                throw refusal(container) { .notInTree(node: $0) }
            }
            var change = Change(kind: kind, domain: container)
            change.platform = platform
            try plan(&change)
            if isEmpty(change) { return }
            try outermost(r) { try commit(change, in: r) }
        }
    }

    func applyOffline(_ change: Change) {
        for layout in change.layouts {
            nodes[layout.container]!.children = layout.children
            nodes[layout.container]!.presented = layout.presented
        }
        applySelections(change)
        for removal in change.removals { nodes[removal]!.parent = nil }
        for insertion in change.insertions { nodes[insertion.node]!.parent = insertion.container }
    }

    func makeChild(of owner: FuzzID, route: Int) throws -> FuzzID {
        guard let spec = nodes[owner]!.factories[route] else {
            throw refusal(owner) { .unknownRoute(route: "r\(route)", node: $0) }
        }
        let id = freshID()
        journal.append(FuzzExpect("factory r\(route) -> f\(id)"))
        factoryError = nil
        if case .mismatch(let offset) = spec {
            // Refused: the node (whose handler captures it) is released with the change.
            let carried = (route + offset) % 4
            create(id, .plain, route: carried, name: "f\(id)")
            let make: (String) -> FlowError = {
                .factoryRouteMismatch(
                    route: "r\(route)", node: $0, built: "f\(id)", builtRoute: "r\(carried)")
            }
            factoryError = make
            throw FuzzRefusal(candidates: paths(owner).map(make))
        }
        create(id, .plain, route: route, name: "f\(id)")
        switch spec {
        case .mismatch:
            break
        case .inUse:
            // Refused: the node and the wrapper the factory made around it are released.
            let wrapperID = freshID()
            let wrapper = create(wrapperID, .plain, route: nil, name: "f\(wrapperID)")
            nodes[id]!.parent = wrapper
            nodes[wrapper]!.children = [id]
            let make: (String) -> FlowError = {
                .factoryNodeInUse(route: "r\(route)", node: $0, built: "f\(wrapper)/f\(id)")
            }
            factoryError = make
            throw FuzzRefusal(candidates: paths(owner).map(make))
        case .plain:
            break
        case .withStack:
            let stack = create(freshID(), .stack, route: nil)
            let entry = create(freshID(), .plain, route: nil)
            nodes[entry]!.parent = stack
            nodes[stack]!.children = [entry]
            nodes[stack]!.parent = id
            nodes[id]!.children = [stack]
        case .effect(let action):
            perform(action, actor: owner, context: .checking("factory"))
        }
        return id
    }

    /// Runs `body` with `r` marked as applying (factories run in the check phase).
    func whileChecking<T>(_ r: Int, _ body: () throws -> T) throws -> T {
        let wasApplying = runtimes[r]!.applying
        runtimes[r]!.applying = true
        applyingRuntimes.append(r)
        defer {
            runtimes[r]!.applying = wasApplying
            applyingRuntimes.removeLast()
        }
        return try body()
    }

    func planStep(
        _ node: FuzzID, toward route: Int, _ change: inout Change
    ) throws -> (FuzzID, Bool) {
        if let presented = plannedPresented(node, change) {
            if nodes[presented]!.route == route { return (presented, false) }
            remove(presented, from: node, &change)
        }
        let children = plannedChildren(node, change)
        if nodes[node]!.kind == .split {
            // A step names a column by its route: it focuses it (collapsed: brings it on
            // top, whether or not it shows something yet); columns are never built.
            guard let index = children.firstIndex(where: { nodes[$0]!.route == route }) else {
                throw refusal(node) { .unknownRoute(route: "r\(route)", node: $0) }
            }
            try planFocus(node, index, requiringContent: false, &change)
            return (children[index], false)
        }
        if nodes[node]!.kind == .tabs {
            // A step selects the first tab with the route; tabs are never built.
            guard let index = children.firstIndex(where: { nodes[$0]!.route == route }) else {
                throw refusal(node) { .unknownRoute(route: "r\(route)", node: $0) }
            }
            change.selections[node] = index
            return (children[index], false)
        }
        if nodes[node]!.kind == .stack {
            // What lies above the entry is popped once the whole path is planned (`popAbove`).
            if let index = children.lastIndex(where: { nodes[$0]!.route == route }) {
                return (children[index], false)
            }
            let entry = try makeChild(of: node, route: route)
            append(entry, to: node, &change)
            return (entry, true)
        }
        if let last = children.last, nodes[last]!.route == route { return (last, false) }
        let child = try makeChild(of: node, route: route)
        for old in children.reversed() { remove(old, from: node, &change) }
        append(child, to: node, &change)
        return (child, true)
    }

    func buildOffline(_ node: FuzzID, along routes: [Int]) throws {
        var current = node
        for route in routes {
            var scratch = Change(kind: .navigate, domain: current)
            let (next, _) = try planStep(current, toward: route, &scratch)
            applyOffline(scratch)
            current = next
        }
    }

    func prospectivePath(_ node: FuzzID, root: FuzzID, container: FuzzID?) -> String {
        var names: [String] = []
        var current: FuzzID? = node
        while let candidate = current {
            names.append(nodes[candidate]!.name)
            if candidate == root { break }
            current = nodes[candidate]!.parent
        }
        let relative = names.reversed().joined(separator: "/")
        guard let container else { return relative }
        return livePath(container) + "/" + relative
    }

    func prospectivePath(_ node: FuzzID, in change: Change) -> String {
        for insertion in change.insertions where isAncestorOrSelf(insertion.node, of: node) {
            return prospectivePath(node, root: insertion.node, container: insertion.container)
        }
        return livePath(node)
    }

    /// Plans one step of a path: a child step (``planStep(_:toward:_:)``), or a root step:
    /// the node's only embedded child (its bottom one kept if it has the route, else every
    /// child exits and a new one is built); what it presents is dismissed.
    func planStep(_ node: FuzzID, _ step: FuzzStep, _ change: inout Change) throws -> (FuzzID, Bool)
    {
        guard step.isRoot else { return try planStep(node, toward: step.route, &change) }
        // A split's columns and a tab container's tabs are fixed: a root step would replace
        // them.
        try requireReplaceableChildren(node)
        if let presented = plannedPresented(node, change) {
            remove(presented, from: node, &change)
        }
        let children = plannedChildren(node, change)
        if let bottom = children.first, nodes[bottom]!.route == step.route {
            for entry in children.dropFirst().reversed() { remove(entry, from: node, &change) }
            return (bottom, false)
        }
        let child = try makeChild(of: node, route: step.route)
        for old in children.reversed() { remove(old, from: node, &change) }
        append(child, to: node, &change)
        return (child, true)
    }

    /// Throws if navigation must not replace `node`'s children: a split's columns
    /// (`regionsAreFixed`), a tab container's tabs (`tabsAreFixed`).
    func requireReplaceableChildren(_ node: FuzzID) throws {
        switch nodes[node]!.kind {
        case .split: throw refusal(node) { .regionsAreFixed(container: $0) }
        case .tabs: throw refusal(node) { .tabsAreFixed(container: $0) }
        default: break
        }
    }

    /// Drops what the paths of one navigation planned inside a subtree another of its paths
    /// removes: the subtree exits as a whole, once (a removal inside it is dropped), nothing
    /// planned into it enters, and none of its containers is re-shaped or selected.
    func dropPlansInsideRemovals(_ change: inout Change) {
        let removed = Set(change.removals)
        var dropped = Set<FuzzID>()
        func isRemoved(_ node: FuzzID?) -> Bool {
            var current = node
            while let candidate = current {
                if removed.contains(candidate) || dropped.contains(candidate) { return true }
                current =
                    nodes[candidate]!.parent ?? prospective[candidate]
                    ?? change.insertions.first { $0.node == candidate }?.container
            }
            return false
        }
        for index in change.insertions.indices.reversed()
        where isRemoved(change.insertions[index].container) {
            dropped.insert(change.insertions[index].node)
            change.insertions.remove(at: index)
        }
        change.removals.removeAll { isRemoved(nodes[$0]!.parent) }
        change.layouts.removeAll { isRemoved($0.container) }
        change.selections = change.selections.filter { !isRemoved($0.key) }
        change.splitArrangements = change.splitArrangements.filter { !isRemoved($0.key) }
        change.fills.removeAll { isRemoved($0) }
    }

    /// Navigates from `id` (asked by the app unless `redirect`) and returns the node reached.
    @discardableResult
    func navigate(
        _ id: FuzzID, _ routes: [Int], reentering: Bool, context: Context, redirect: Bool = false
    ) throws -> FuzzID {
        try navigate(
            id, paths: [routes.map { FuzzStep(route: $0) }], reentering: reentering,
            context: context, redirect: redirect)
    }

    /// Navigates from `id` along each path in turn, in one change (`navigate(toEach:)`; one
    /// path: `navigate(to:reentering:)`), and returns the node the last path reached.
    @discardableResult
    func navigate(
        _ id: FuzzID, paths: [[FuzzStep]], reentering: Bool, context: Context,
        redirect: Bool = false
    ) throws -> FuzzID {
        let node = nodes[id]!
        if node.state == .exited { throw refusal(id) { .containerExited(container: $0) } }
        guard node.state == .entered, let r = runtimeOf(id), runtimes[r]!.running else {
            throw refusal(id) { .notInTree(node: $0) }
        }
        var reached = id
        try outermost(r) {
            var change = Change(kind: .navigate, domain: id)
            if !redirect { change.replacesIntentFrom = id }
            try whileChecking(r) {
                for path in paths {
                    if reentering {
                        // Columns and tabs are fixed: they cannot exit and enter anew.
                        try requireReplaceableChildren(id)
                        removeContent(of: id, &change)
                    }
                    var current = id
                    var isNew = false
                    var visited: [FuzzID] = []
                    for step in path {
                        if nodes[current]!.state != .entered {
                            // A part of the tree this change adds is built offline.
                            var scratch = Change(kind: .navigate, domain: current)
                            do {
                                let (next, _) = try planStep(current, step, &scratch)
                                applyOffline(scratch)
                                current = next
                                isNew = true
                            } catch let refusal as FuzzRefusal {
                                let path = prospectivePath(current, in: change)
                                throw FuzzRefusal(
                                    candidates: refusal.candidates + [
                                        .unknownRoute(route: "r\(step.route)", node: path)
                                    ] + (factoryError.map { [$0(path)] } ?? []))
                            }
                        } else {
                            (current, isNew) = try planStep(current, step, &change)
                        }
                        visited.append(current)
                    }
                    popAbove(visited, &change)
                    if !isNew && reentering && current == id { change.fills.append(id) }
                    reached = current
                }
                if paths.count > 1 { dropPlansInsideRemovals(&change) }
            }
            if isEmpty(change) { return }
            try commit(change, in: r)
        }
        return reached
    }
}
