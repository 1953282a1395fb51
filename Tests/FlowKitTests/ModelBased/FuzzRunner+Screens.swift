import FlowKit

// Counting where the operations land on a runtime with a platform (`FLOWKIT_FUZZ_COVERAGE=1`
// prints them as `screen …`): sheets from stack entries inside tabs and columns, changes
// while something moves, nested layers dismissed, reorders with a sheet up; and binding
// writes after their container exited (`late binding write: …`). These are the places issue
// 29 found the random test blind; the counts show the generator reaches them.
extension FuzzRun {
    /// The runtime with a platform whose tree `id` is in, if it is running.
    private func screenRuntime(_ id: FuzzID) -> Int? {
        guard let r = model.nodes[id]?.runtime, model.nodes[id]!.state == .entered,
            model.runtimes[r]?.held == true, model.runtimes[r]!.running,
            model.runtimes[r]!.platform != nil
        else { return nil }
        return r
    }

    /// Whether the platform of runtime `r` runs a transition or a gesture now.
    private func isMoving(_ r: Int) -> Bool {
        world.runtimes[r]?.platform?.isAnimating == true || world.liveGesture(r) != nil
    }

    /// Where `id` is: in a tab (`in a tab`), in a split's column (`in a column`), or neither.
    private func place(_ id: FuzzID) -> String {
        var current = model.nodes[id]?.parent
        while let node = current.flatMap({ model.nodes[$0] }) {
            if node.kind == .tabs { return " in a tab" }
            if node.kind == .split { return " in a column" }
            current = node.parent
        }
        return ""
    }

    /// Whether `id` or a node of its subtree presents something.
    private func presentsWithin(_ id: FuzzID) -> Bool {
        guard let node = model.nodes[id] else { return false }
        return node.presented != nil || node.children.contains(where: presentsWithin)
    }

    /// Whether `id` is inside a presented layer (a presenter above it).
    private func isInLayer(_ id: FuzzID) -> Bool {
        var current = id
        while let parent = model.nodes[current]?.parent {
            if model.nodes[parent]!.presented == current { return true }
            current = parent
        }
        return false
    }

    private func rulesName(_ r: Int) -> String {
        guard let rules = model.runtimes[r]?.platform?.rules else { return "" }
        return rules == .uiKit ? " (.uiKit)" : rules == .oneAtATime ? " (.oneAtATime)" : " (mixed)"
    }

    /// The scenarios `op` is an instance of, read before it runs.
    func screenTags(_ op: FuzzOp) -> [String] {
        var tags: [String] = []
        func moving(_ r: Int) -> String { isMoving(r) ? " while something moves" : "" }
        switch op {
        case .present(let p, _):
            guard let r = screenRuntime(p), let parent = model.nodes[p]!.parent,
                model.nodes[parent]!.kind == .stack,
                model.nodes[parent]!.presented != p
            else { break }
            let top = model.nodes[parent]!.children.last == p
            tags.append(
                "screen present from a \(top ? "top" : "lower") entry\(place(p))\(moving(r))")
            if isInLayer(p) { tags.append("screen present from an entry of a presented layer") }
        case .dismiss(let p), .dragDown(_, let p):
            guard let r = screenRuntime(p), let layer = model.nodes[p]!.presented,
                presentsWithin(layer)
            else { break }
            tags.append("screen dismiss of layers that present\(rulesName(r))")
        case .setTabs(let t, let list, _):
            guard let r = screenRuntime(t) else { break }
            let current = model.nodes[t]!.children
            let kept = list.filter(current.contains)
            guard kept != current.filter(list.contains) else { break }
            let sheet = current.contains(where: presentsWithin) ? " with a sheet up" : ""
            tags.append("screen setTabs reorder\(sheet)\(moving(r))")
        case .setStack(let s, let list):
            guard let r = screenRuntime(s) else { break }
            let current = model.nodes[s]!.children
            guard current.contains(where: presentsWithin), list != current else { break }
            tags.append("screen setStack with an entry's sheet up\(rulesName(r))")
        case .pop(let s), .popTo(let s, _), .popToRoot(let s), .tapBack(_, let s):
            guard let r = screenRuntime(s), let top = model.nodes[s]!.children.last,
                presentsWithin(top)
            else { break }
            tags.append("screen pop of an entry that presents\(moving(r))")
        case .select(let t, _), .selectAt(let t, _):
            guard let r = screenRuntime(t), isMoving(r) else { break }
            tags.append("screen selection in code while something moves")
        case .tapTab(_, let t, let index):
            guard let r = screenRuntime(t) else { break }
            let tabs = model.nodes[t]!.children
            let x = tabs.indices.contains(index) ? tabs[index] : nil
            let same = x != nil && model.selectedTab(t) == x ? " of the selected tab" : ""
            tags.append("screen tap on a tab\(same)\(moving(r))")
        case .swipeBack(let r, _):
            guard model.hasPlatform(r), world.runtimes[r]?.platform?.isAnimating == true else {
                break
            }
            tags.append("screen swipe while something moves")
        case .releaseGesture(let r), .cancelGesture(let r):
            guard let gesture = model.runtimes[r]?.gesture, !gesture.isDismissal,
                let top = model.nodes[gesture.container]?.children.last, presentsWithin(top)
            else { break }
            tags.append("screen swipe ended while the entry presents")
        case .writePreferred(let x, _), .writeSelection(let x, _), .writePath(let x, _),
            .writePresented(let x, _):
            guard model.nodes[x]?.state == .exited else { break }
            tags.append("late binding write: \(op.name) after exit")
        default:
            break
        }
        return tags
    }

    /// Counts `tags` (and whether the operation threw).
    func countScreens(_ tags: [String], threw: Bool) {
        for tag in tags { coverage["\(tag)\(threw ? " threw" : "")", default: 0] += 1 }
    }
}
