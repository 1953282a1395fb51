import FlowKit

// Where real apps live (issue 29): sheets presented from stack entries (the top one and lower
// ones) inside tabs and split columns, on a runtime with a platform, while something else
// moves (a push in another tab, a selection in code or a tap on the tab bar, a swipe back, a
// transition still running); layers presented by entries of presented stacks, then the outer
// layer dismissed; tabs and stacks reordered with a sheet up. Before issue 29 the generator
// reached these only by chance (a few times in 20,000 operations), so the platform checks
// never saw them.
extension FuzzGenerator {
    /// The running runtimes with a platform.
    func screenRuntimes(_ model: FuzzModel) -> [Int] {
        runningRuntimes(model).filter { model.runtimes[$0]!.platform != nil }
    }

    /// The entered nodes of runtime `r`'s tree.
    func nodes(of r: Int, _ model: FuzzModel) -> [FuzzID] {
        ids(model) { $0.state == .entered && $0.runtime == r }
    }

    /// The nearest tab container or split above `id` (through presenters too), if any.
    func screenContainer(_ id: FuzzID, _ model: FuzzModel) -> FuzzID? {
        var current = model.nodes[id]?.parent
        while let node = current.flatMap({ model.nodes[$0] }) {
            if node.kind == .tabs || node.kind == .split { return node.id }
            current = node.parent
        }
        return nil
    }

    /// Starts a planned sequence: returns its first operation, the rest is the plan.
    mutating func begin(_ ops: [FuzzOp]) -> FuzzOp {
        guard let first = ops.first else { return .send(0, .a) }
        plan = Array(ops.dropFirst()) + plan
        return first
    }

    /// A new node for a scenario: a plain node, or a stack with `entries` entries made
    /// offline. Its `make` operations are appended to `ops` and its `drop` to `drops`.
    mutating func screenNode(
        _ ops: inout [FuzzOp], _ drops: inout [FuzzOp], stackEntries entries: Int? = nil
    ) -> FuzzID {
        screenNodeWithEntries(&ops, &drops, stackEntries: entries).id
    }

    /// ``screenNode(_:_:stackEntries:)``, and the stack's entries (none for a plain node).
    mutating func screenNodeWithEntries(
        _ ops: inout [FuzzOp], _ drops: inout [FuzzOp], stackEntries entries: Int? = nil
    ) -> (id: FuzzID, entries: [FuzzID]) {
        let id = newID()
        drops.append(.drop(id))
        guard let entries else {
            ops.append(
                .make(id, .plain, route: rng.chance(30) ? route() : nil, initialRoute: nil))
            return (id, [])
        }
        ops.append(.make(id, .stack, route: rng.chance(50) ? route() : nil, initialRoute: nil))
        var made: [FuzzID] = []
        for _ in 0..<entries {
            let entry = newID()
            ops += [
                .make(entry, .plain, route: rng.chance(30) ? route() : nil, initialRoute: nil),
                .push(id, entry), .drop(entry),
            ]
            made.append(entry)
        }
        return (id, made)
    }

    /// What a sheet is: usually a plain node, sometimes a stack with one or two entries (whose
    /// entries may present in turn).
    mutating func sheet(_ ops: inout [FuzzOp], _ drops: inout [FuzzOp]) -> FuzzID {
        sheetWithEntries(&ops, &drops).id
    }

    mutating func sheetWithEntries(
        _ ops: inout [FuzzOp], _ drops: inout [FuzzOp]
    ) -> (id: FuzzID, entries: [FuzzID]) {
        screenNodeWithEntries(&ops, &drops, stackEntries: rng.chance(30) ? 1 + rng.below(2) : nil)
    }

    /// A Fisher–Yates shuffle from the generator's choices.
    mutating func shuffled<T>(_ list: [T]) -> [T] {
        var result = list
        for index in stride(from: result.count - 1, to: 0, by: -1) {
            result.swapAt(index, rng.below(index + 1))
        }
        return result
    }

    /// The time passing after a scenario: usually until the platform is idle, sometimes a
    /// part of a transition, sometimes nothing (the next operations then meet it moving).
    mutating func settle(_ r: Int, _ ops: inout [FuzzOp]) {
        let roll = rng.below(100)
        if roll < 60 {
            ops.append(.runUntilIdle(r))
        } else if roll < 85 {
            ops.append(.advance(r, ms: rng.below(450)))
        }
    }

    /// A scenario on a running runtime with a platform that has what it needs (one made
    /// first when none has, or sometimes anyway): see the comment at the top of this file.
    mutating func screenOp(_ model: FuzzModel) -> FuzzOp? {
        guard allows("platform"), allows("screens") else { return nil }
        let runtimes = screenRuntimes(model)
        func stacks(_ r: Int) -> [FuzzID] {
            nodes(of: r, model).filter {
                model.nodes[$0]!.kind == .stack && !model.nodes[$0]!.children.isEmpty
            }
        }
        func tabs(_ r: Int) -> [FuzzID] {
            nodes(of: r, model).filter {
                model.nodes[$0]!.kind == .tabs && model.nodes[$0]!.children.count > 1
            }
        }
        let roll = rng.below(20)
        let wantsTabs = roll >= 11 && roll < 16 && allows("tabs")
        let fitting = runtimes.filter { wantsTabs ? !tabs($0).isEmpty : !stacks($0).isEmpty }
        guard let r = rng.pick(fitting), rng.chance(94) else {
            return screenBootstrap(model, tabs: wantsTabs)
        }
        let filled = stacks(r)
        switch roll {
        case 0..<6:
            if let op = sheetOverEntry(r, filled, model) { return op }
        case 6..<8:
            if let op = popWhilePresenting(r, filled, model) { return op }
        case 8..<11:
            if let op = nestedLayers(r, nodes(of: r, model), filled, model) { return op }
        case 11..<14:
            if let t = rng.pick(tabs(r)) { return tabMoves(r, t, model) }
        case 14..<16:
            if let t = rng.pick(tabs(r)) { return reorderTabs(r, t, model) }
        case 16..<18:
            if allows("setStack"), let op = reorderStack(r, filled, model) { return op }
        default:
            break
        }
        return rng.chance(50) ? .runUntilIdle(r) : .advance(r, ms: rng.below(450))
    }

    /// A stack for a screen: a stack with 1–3 entries (the bottom one sometimes with a route).
    mutating func screenStack(_ ops: inout [FuzzOp], _ drops: inout [FuzzOp]) -> FuzzID {
        screenNode(&ops, &drops, stackEntries: 1 + rng.below(3))
    }

    /// A runtime on a platform (transitions that usually take time) whose root is what real
    /// apps show: a tab container of stacks (perhaps in a switch), a split of stack columns,
    /// or a stack; started, usually run until idle.
    mutating func screenBootstrap(_ model: FuzzModel, tabs: Bool = false) -> FuzzOp {
        var ops: [FuzzOp] = []
        var drops: [FuzzOp] = []
        let r = nextRuntime
        nextRuntime += 1
        let roll = rng.below(100)
        var root: FuzzID
        if (tabs || roll < 55) && allows("tabs") {
            var list: [FuzzID] = []
            for _ in 0..<(2 + rng.below(2)) {
                if rng.chance(85) {
                    list.append(screenStack(&ops, &drops))
                } else {
                    let (content, tab) = tabContent()
                    ops += content
                    drops.append(.drop(tab))
                    list.append(tab)
                }
            }
            root = newID()
            ops.append(
                .makeTabs(
                    root, route: rng.chance(30) ? route() : nil, tabs: list,
                    selected: rng.below(list.count)))
            ops += drops
            drops = []
            if rng.chance(25) {
                let switcher = newID()
                ops += [
                    .make(switcher, .switcher, route: nil, initialRoute: nil),
                    .embed(switcher, root), .drop(root),
                ]
                root = switcher
            }
        } else if roll < 80 && allows("splits") {
            let (bundle, split) = splitBundle(model)
            ops += bundle
            root = split
        } else {
            root = screenStack(&ops, &drops)
            ops += drops
            drops = []
        }
        ops += [.newRuntime(r, root: root, platform: platformSpec(always: true)), .drop(root)]
        ops.append(.start(r))
        if rng.chance(80) { ops.append(.runUntilIdle(r)) }
        return begin(ops)
    }

    /// An entry of `s` to present from: the top one usually, else a lower one.
    mutating func presenter(in s: FuzzID, _ entries: [FuzzID]) -> FuzzID? {
        guard let top = entries.last else { return nil }
        if entries.count > 1 && rng.chance(40) { return rng.pick(Array(entries.dropLast())) }
        return top
    }

    /// Another stack of runtime `r` than `s`, preferably in another tab or column.
    mutating func otherStack(_ r: Int, besides s: FuzzID, _ model: FuzzModel) -> FuzzID? {
        let others = nodes(of: r, model).filter {
            $0 != s && model.nodes[$0]!.kind == .stack && !model.isAncestorOrSelf($0, of: s)
                && !model.isAncestorOrSelf(s, of: $0)
        }
        return rng.pick(others)
    }

    /// A sheet presented from an entry (top or lower) of a stack, usually one inside a tab
    /// container or a split, with something moving before (a push or a pop in the same stack,
    /// a push elsewhere, a selection in code or a tap on another tab, a swipe back on the
    /// stack) and after (a change elsewhere, the user back on the first tab, the swipe
    /// released or cancelled), then some time.
    mutating func sheetOverEntry(_ r: Int, _ filled: [FuzzID], _ model: FuzzModel) -> FuzzOp? {
        let inside = filled.filter { screenContainer($0, model) != nil }
        guard let s = rng.chance(75) ? rng.pick(inside) ?? rng.pick(filled) : rng.pick(filled)
        else { return nil }
        var ops: [FuzzOp] = []
        var drops: [FuzzOp] = []
        var entries = model.nodes[s]!.children
        let container = screenContainer(s, model)
        let tabs = container.flatMap { model.nodes[$0]!.kind == .tabs ? $0 : nil }
        // The tab the stack is in, and another one.
        var ownTab: FuzzID?
        var otherTab: FuzzID?
        if let tabs {
            ownTab = model.nodes[tabs]!.children.first { model.isAncestorOrSelf($0, of: s) }
            otherTab = rng.pick(model.nodes[tabs]!.children.filter { $0 != ownTab })
        }
        var swiping = false
        for _ in 0..<rng.below(3) {
            switch rng.below(8) {
            case 0, 1:
                let id = screenNode(&ops, &drops)
                ops.append(.push(s, id))
                entries.append(id)
            case 2:
                guard entries.count > 1, let to = rng.pick(Array(entries.dropLast())) else {
                    break
                }
                ops.append(.popTo(s, to))
                entries = Array(entries[...entries.firstIndex(of: to)!])
            case 3:
                guard let other = otherStack(r, besides: s, model) else { break }
                let id = screenNode(&ops, &drops)
                ops.append(.push(other, id))
            case 4:
                guard let tabs, let otherTab else { break }
                ops.append(
                    rng.chance(50)
                        ? .select(tabs, otherTab)
                        : .selectAt(tabs, model.nodes[tabs]!.children.firstIndex(of: otherTab)!))
            case 5:
                guard let tabs, let otherTab else { break }
                ops.append(.platformSelect(tabs, otherTab))
            case 6:
                guard !swiping, entries.count > 1 else { break }
                ops += [.runUntilIdle(r), .swipeBack(r, s)]
                swiping = true
            default:
                ops.append(.advance(r, ms: rng.below(300)))
            }
        }
        guard let entry = presenter(in: s, entries) else { return nil }
        let node = sheet(&ops, &drops)
        ops.append(.present(entry, node))
        if swiping && rng.chance(50) { ops.append(.updateGesture(r, percent: rng.below(100))) }
        switch rng.below(6) {
        case 0, 1:
            if let other = otherStack(r, besides: s, model) {
                let id = screenNode(&ops, &drops)
                ops.append(.push(other, id))
            }
        case 2:
            if let tabs, let ownTab { ops.append(.platformSelect(tabs, ownTab)) }
        case 3:
            if let tabs, let ownTab { ops.append(.select(tabs, ownTab)) }
        default:
            break
        }
        if swiping { ops.append(rng.chance(60) ? .releaseGesture(r) : .cancelGesture(r)) }
        settle(r, &ops)
        return begin(ops + drops)
    }

    /// A sheet presented from the top entry, then (after part of the presentation) the entry
    /// popped, by the app (pop, pop to root, a new stack) or by the user (back, a swipe).
    mutating func popWhilePresenting(
        _ r: Int, _ filled: [FuzzID], _ model: FuzzModel
    )
        -> FuzzOp?
    {
        guard let s = rng.pick(filled) else { return nil }
        var ops: [FuzzOp] = []
        var drops: [FuzzOp] = []
        var entries = model.nodes[s]!.children
        if entries.count < 2 || rng.chance(30) {
            let id = screenNode(&ops, &drops)
            ops.append(.push(s, id))
            entries.append(id)
            if rng.chance(60) { ops.append(.runUntilIdle(r)) }
        }
        let node = sheet(&ops, &drops)
        ops.append(.present(entries.last!, node))
        ops.append(.advance(r, ms: rng.below(400)))
        switch rng.below(7) {
        case 0, 1: ops.append(.pop(s))
        case 2: ops.append(.popToRoot(s))
        case 3:
            let id = screenNode(&ops, &drops)
            ops.append(.setStack(s, [id]))
        case 4: ops.append(.tapBack(r, s))
        case 5: ops += [.swipeBack(r, s), rng.chance(70) ? .releaseGesture(r) : .cancelGesture(r)]
        default: ops.append(.dismiss(entries.last!))
        }
        settle(r, &ops)
        return begin(ops + drops)
    }

    /// Layers: a stack presented (from an entry, the focused node or the root), an entry of
    /// it (top or lower) presenting in turn (sometimes one more layer), then a layer
    /// dismissed: usually the outer one (its presenter's dismiss, a drag), sometimes an inner
    /// one, or the presenting entry popped.
    mutating func nestedLayers(
        _ r: Int, _ mine: [FuzzID], _ filled: [FuzzID], _ model: FuzzModel
    ) -> FuzzOp? {
        let free = mine.filter { model.nodes[$0]!.presented == nil }
        var presenter: FuzzID?
        if rng.chance(50), let s = rng.pick(filled) {
            presenter = model.nodes[s]!.children.last
        } else if rng.chance(50) {
            presenter = model.runtimes[r]!.focused.last
        }
        guard let p = presenter ?? rng.pick(free) else { return nil }
        var ops: [FuzzOp] = []
        var drops: [FuzzOp] = []
        let (layer, entries) = screenNodeWithEntries(
            &ops, &drops, stackEntries: 1 + rng.below(3))
        ops.append(.present(p, layer))
        if rng.chance(40) { ops.append(rng.chance(50) ? .runUntilIdle(r) : .advance(r, ms: 200)) }
        let inner = rng.chance(60) ? entries.last! : rng.pick(entries)!
        let (second, secondEntries) = sheetWithEntries(&ops, &drops)
        ops.append(.present(inner, second))
        var deepest = inner
        if rng.chance(25) {
            // One more layer, from the second layer (its top entry if it is a stack).
            deepest = secondEntries.last ?? second
            let third = screenNode(&ops, &drops)
            ops.append(.present(deepest, third))
        }
        if rng.chance(50) { ops.append(rng.chance(50) ? .runUntilIdle(r) : .advance(r, ms: 150)) }
        switch rng.below(10) {
        case 0..<5: ops.append(.dismiss(p))
        case 5, 6:
            ops += [.dragDown(r, p), rng.chance(70) ? .releaseGesture(r) : .cancelGesture(r)]
        case 7: ops.append(.dismiss(inner))
        case 8: ops.append(.dismiss(deepest))
        default:
            // The presenter leaves with its layers (an entry popped, or its stack reset).
            if let s = model.nodes[p]!.parent, model.nodes[s]!.kind == .stack {
                let entries = model.nodes[s]!.children
                if let index = entries.firstIndex(of: p), index > 0, rng.chance(70) {
                    ops.append(.popTo(s, entries[index - 1]))
                } else {
                    let replacement = screenNode(&ops, &drops)
                    ops.append(.setStack(s, [replacement]))
                }
            } else {
                ops.append(.dismiss(p))
            }
        }
        settle(r, &ops)
        return begin(ops + drops)
    }

    /// Tab moves while the selected tab's stack moves: a push, a selection in code, the user's
    /// tap on that tab (no change in the tree), a selection back (29.8's shape); a push, a
    /// sheet from the pushed entry, the user's tap on another tab, time, the user back
    /// (29.5's shape); or a random mix of selections, taps, pushes and sheets in the tabs.
    mutating func tabMoves(_ r: Int, _ t: FuzzID, _ model: FuzzModel) -> FuzzOp {
        let tabs = model.nodes[t]!.children
        let selected = model.nodes[t]!.selected
        let own = tabs.indices.contains(selected) ? tabs[selected] : tabs[0]
        let other = rng.pick(tabs.filter { $0 != own }) ?? own
        let otherIndex = tabs.firstIndex(of: other)!
        var ops: [FuzzOp] = []
        var drops: [FuzzOp] = []
        let stack = model.reselectionStack(own)
        func push() -> FuzzID? {
            guard let stack else { return nil }
            let id = screenNode(&ops, &drops)
            ops.append(.push(stack, id))
            return id
        }
        switch rng.below(3) {
        case 0:
            _ = push()
            ops += [.selectAt(t, otherIndex), .platformSelect(t, other)]
            ops.append(rng.chance(70) ? .selectAt(t, tabs.firstIndex(of: own)!) : .select(t, own))
        case 1:
            let pushed = push() ?? own
            let node = sheet(&ops, &drops)
            ops += [.present(pushed, node), .platformSelect(t, other)]
            ops.append(.advance(r, ms: rng.below(450)))
            if rng.chance(60) { ops.append(.platformSelect(t, own)) }
        default:
            for _ in 0..<(2 + rng.below(4)) {
                let tab = rng.pick(tabs)!
                switch rng.below(5) {
                case 0: ops.append(.selectAt(t, tabs.firstIndex(of: tab)!))
                case 1: ops.append(.platformSelect(t, tab))
                case 2:
                    if let s = model.reselectionStack(tab) {
                        let id = screenNode(&ops, &drops)
                        ops.append(.push(s, id))
                    }
                case 3:
                    if let s = model.reselectionStack(tab),
                        let entry = presenter(in: s, model.nodes[s]!.children)
                    {
                        let node = sheet(&ops, &drops)
                        ops.append(.present(entry, node))
                    }
                default: ops.append(.advance(r, ms: rng.below(300)))
                }
            }
        }
        settle(r, &ops)
        return begin(ops + drops)
    }

    /// `setTabs` with the tabs in another order (sometimes one added or left out), selecting
    /// an index or keeping the selected tab, sometimes with a sheet up in one of them or a
    /// push running.
    mutating func reorderTabs(_ r: Int, _ t: FuzzID, _ model: FuzzModel) -> FuzzOp {
        let tabs = model.nodes[t]!.children
        var ops: [FuzzOp] = []
        var drops: [FuzzOp] = []
        if rng.chance(50), let tab = rng.pick(tabs), let s = model.reselectionStack(tab),
            let entry = presenter(in: s, model.nodes[s]!.children)
        {
            let node = sheet(&ops, &drops)
            ops.append(.present(entry, node))
            if rng.chance(50) { ops.append(.runUntilIdle(r)) }
        }
        if rng.chance(30), let tab = rng.pick(tabs), let s = model.reselectionStack(tab) {
            let id = screenNode(&ops, &drops)
            ops.append(.push(s, id))
        }
        var list = shuffled(tabs)
        if list == tabs { list.reverse() }
        if rng.chance(15) && list.count > 2 { list.remove(at: rng.below(list.count)) }
        if rng.chance(15) {
            let (content, tab) = tabContent()
            ops += content
            drops.append(.drop(tab))
            list.insert(tab, at: rng.below(list.count + 1))
        }
        ops.append(.setTabs(t, list, selecting: rng.chance(70) ? rng.below(list.count) : nil))
        settle(r, &ops)
        return begin(ops + drops)
    }

    /// `setStack` reordering a stack whose entry (top or lower) presents a sheet: the entries
    /// in another order, sometimes with a new one first or one left out.
    mutating func reorderStack(_ r: Int, _ filled: [FuzzID], _ model: FuzzModel) -> FuzzOp? {
        guard let s = rng.pick(filled) else { return nil }
        var ops: [FuzzOp] = []
        var drops: [FuzzOp] = []
        var entries = model.nodes[s]!.children
        if entries.count < 2 {
            let id = screenNode(&ops, &drops)
            ops.append(.push(s, id))
            entries.append(id)
        }
        if let entry = presenter(in: s, entries) {
            let node = sheet(&ops, &drops)
            ops.append(.present(entry, node))
        }
        if rng.chance(70) { ops.append(.runUntilIdle(r)) }
        var list = shuffled(entries)
        if list == entries { list.reverse() }
        if rng.chance(20) { list.remove(at: rng.below(list.count)) }
        if rng.chance(40) { list.insert(screenNode(&ops, &drops), at: 0) }
        ops.append(.setStack(s, list))
        settle(r, &ops)
        return begin(ops + drops)
    }
}
