import FlowKit

// Split views: columns, the focus, collapse and expand, selections, compact pops.
extension FuzzModel {
    /// The index among `split`'s columns of `column`, if the split has it (a two-column
    /// split has no content column).
    func columnIndex(_ split: FuzzID, _ column: FuzzColumn) -> Int? {
        let count = nodes[split]!.columnCount
        switch column {
        case 0: return 0
        case 1: return count == 3 ? 1 : nil
        default: return count - 1
        }
    }

    /// The column at `index` among `split`'s columns.
    func column(at index: Int, of split: FuzzID) -> FuzzColumn {
        index == 0 ? 0 : index == nodes[split]!.columnCount - 1 ? 2 : 1
    }

    /// Whether a column adds anything to the compact stack: a stack with entries, or any
    /// other node.
    func showsSomething(_ column: FuzzID) -> Bool {
        nodes[column]!.kind != .stack || !nodes[column]!.children.isEmpty
    }

    /// What a column contributes to the compact stack: a stack's entries, else itself.
    func compactEntries(_ column: FuzzID) -> [FuzzID] {
        nodes[column]!.kind == .stack ? nodes[column]!.children : [column]
    }

    /// The column on top of the compact stack: the last one up to the preferred column that
    /// shows something (the sidebar always; 0 for an exited split, whose columns left).
    func topColumn(_ split: FuzzID) -> Int {
        let node = nodes[split]!
        guard !node.children.isEmpty else { return 0 }
        var index = columnIndex(split, node.preferred) ?? node.children.count - 1
        while index > 0, !showsSomething(node.children[index]) { index -= 1 }
        return index
    }

    /// The index of the column the focused path runs through: the top of the compact stack
    /// when collapsed.
    func effectiveFocus(_ split: FuzzID) -> Int {
        nodes[split]!.collapsed ? topColumn(split) : nodes[split]!.selected
    }

    /// The columns shown (and so active) when nothing is presented over the split.
    func shownColumns(_ split: FuzzID) -> [FuzzID] {
        let node = nodes[split]!
        return node.collapsed ? [node.children[topColumn(split)]] : node.children
    }

    func compactStack(_ split: FuzzID) -> [FuzzID] {
        guard !nodes[split]!.children.isEmpty else { return [] }
        return (0...topColumn(split)).flatMap { compactEntries(nodes[split]!.children[$0]) }
    }

    /// Every active node of `id`'s subtree, in entry order: the node, then the focused path
    /// below it, every shown column of a split (or only what is presented over it).
    func appendActive(_ id: FuzzID, to list: inout [FuzzID]) {
        list.append(id)
        let node = nodes[id]!
        if node.kind == .split && node.presented == nil {
            for column in shownColumns(id) { appendActive(column, to: &list) }
        } else if let next = focusedChild(id) {
            appendActive(next, to: &list)
        }
    }

    func plannedSplitArrangement(_ split: FuzzID, _ change: Change) -> SplitArrangement {
        change.splitArrangements[split]
            ?? SplitArrangement(
                collapsed: nodes[split]!.collapsed, preferred: nodes[split]!.preferred)
    }

    /// Plans `split`'s arrangement (`nil` keeps what is planned so far).
    func setSplitArrangement(
        _ split: FuzzID, collapsed: Bool? = nil, preferred: FuzzColumn? = nil,
        _ change: inout Change
    ) {
        var arrangement = plannedSplitArrangement(split, change)
        if let collapsed { arrangement.collapsed = collapsed }
        if let preferred { arrangement.preferred = preferred }
        change.splitArrangements[split] = arrangement
    }

    /// The splits whose arrangement a change moves.
    func movedSplitArrangements(_ change: Change) -> [FuzzID] {
        change.splitArrangements.filter { split, arrangement in
            arrangement
                != SplitArrangement(
                    collapsed: nodes[split]!.collapsed, preferred: nodes[split]!.preferred)
        }.map(\.key).sorted()
    }

    func applySplitArrangements(_ change: Change) {
        for (split, arrangement) in change.splitArrangements {
            nodes[split]!.collapsed = arrangement.collapsed
            nodes[split]!.preferred = arrangement.preferred
        }
    }

    /// Moving the focus to the column at `index`: expanded, the focus only; collapsed, the
    /// column comes on top (with `requiringContent`, it must show something).
    func planFocus(
        _ split: FuzzID, _ index: Int, requiringContent: Bool, _ change: inout Change
    ) throws {
        guard plannedSplitArrangement(split, change).collapsed else {
            change.selections[split] = index
            return
        }
        if requiringContent && !showsSomething(nodes[split]!.children[index]) {
            let name = fuzzColumnName(column(at: index, of: split))
            throw refusal(split) {
                .splitLayoutMismatch(
                    split: $0, reason: "is collapsed and its \(name) column shows nothing")
            }
        }
        setSplitArrangement(split, preferred: column(at: index, of: split), &change)
    }

    func notARegion(_ split: FuzzID, column: FuzzColumn) -> FuzzRefusal {
        refusal(split) { .notARegion(container: $0, node: "column \(fuzzColumnName(column))") }
    }

    func focus(_ split: FuzzID, region: FuzzID, platform: Bool, context: Context) throws {
        try exitedCheck(split)
        guard let index = nodes[split]!.children.firstIndex(of: region) else {
            throw refusal(split, region) { .notARegion(container: $0, node: $1) }
        }
        guard index != effectiveFocus(split) else { return }
        try change(split, platform ? .platformFocus : .focus, platform: platform, context: context)
        { change in
            try planFocus(split, index, requiringContent: true, &change)
        }
    }

    func focus(_ split: FuzzID, column: FuzzColumn, context: Context) throws {
        try exitedCheck(split)
        guard let index = columnIndex(split, column) else {
            throw notARegion(split, column: column)
        }
        try focus(split, region: nodes[split]!.children[index], platform: false, context: context)
    }

    /// What the column at `index` shows becomes `node` (nothing for `nil`).
    func planShowing(_ node: FuzzID?, inColumn index: Int, of split: FuzzID, _ change: inout Change)
    {
        let column = nodes[split]!.children[index]
        for old in plannedChildren(column, change).reversed() { remove(old, from: column, &change) }
        if let node { append(node, to: column, &change) }
    }

    /// On a collapsed split, a column that gets something to show comes on top.
    func planBringingOnTop(_ index: Int, of split: FuzzID, _ change: inout Change) {
        let node = nodes[split]!
        if node.collapsed, index > columnIndex(split, node.preferred) ?? 0 {
            setSplitArrangement(split, preferred: column(at: index, of: split), &change)
        }
    }

    func show(
        _ split: FuzzID, _ shown: [FuzzShown], clearing: [FuzzColumn], single: Bool,
        context: Context
    ) throws {
        if single, let only = shown.first {
            guard let index = columnIndex(split, only.column) else {
                try exitedCheck(split)
                throw notARegion(split, column: only.column)
            }
            try validateNew(split, [only.node])
            try change(split, .show, context: context) { change in
                planShowing(only.node, inColumn: index, of: split, &change)
                planBringingOnTop(index, of: split, &change)
            }
            return
        }
        try exitedCheck(split)
        var byColumn: [FuzzColumn: FuzzID] = [:]
        for item in shown { byColumn[item.column] = item.node }
        var plan: [(index: Int, node: FuzzID?)] = []
        for column in Set(byColumn.keys).union(clearing).sorted() {
            guard let index = columnIndex(split, column) else {
                throw notARegion(split, column: column)
            }
            if clearing.contains(column) && byColumn[column] != nil {
                throw refusal(split) {
                    .notARegion(
                        container: $0, node: "column \(fuzzColumnName(column)), shown and cleared")
                }
            }
            plan.append((index, byColumn[column]))
        }
        // FlowKit checks the nodes in the dictionary's order: any invalid node's error.
        try validateNewInAnyOrder(split, Array(byColumn.values))
        guard !plan.isEmpty else { return }
        try change(split, .show, context: context) { change in
            for (index, node) in plan { planShowing(node, inColumn: index, of: split, &change) }
            if let last = plan.last(where: { $0.node != nil }) {
                planBringingOnTop(last.index, of: split, &change)
            }
        }
    }

    /// ``validateNew(_:_:)`` for nodes checked in an order the model does not know: every
    /// error that one of them (or a duplicate) gives is accepted.
    func validateNewInAnyOrder(_ container: FuzzID, _ list: [FuzzID]) throws {
        try exitedCheck(container)
        var candidates: [FlowError] = []
        var seen = Set<FuzzID>()
        for x in list {
            do {
                try validateNew(container, [x])
            } catch let refusal as FuzzRefusal {
                candidates += refusal.candidates
            }
            if !seen.insert(x).inserted {
                candidates += refusal(x) { .duplicateNode(node: $0) }.candidates
            }
        }
        if !candidates.isEmpty { throw FuzzRefusal(candidates: candidates) }
    }

    func collapse(_ split: FuzzID, context: Context) throws {
        try exitedCheck(split)
        guard !nodes[split]!.collapsed else { return }
        try change(split, .platformCollapse, platform: true, context: context) { change in
            setSplitArrangement(split, collapsed: true, &change)
        }
    }

    func expand(_ split: FuzzID, context: Context) throws {
        try exitedCheck(split)
        guard nodes[split]!.collapsed else { return }
        let top = effectiveFocus(split)
        try change(split, .platformExpand, platform: true, context: context) { change in
            setSplitArrangement(split, collapsed: false, &change)
            change.selections[split] = top
        }
    }

    /// A write of `preferredCompactColumn` (the platform's binding): nothing for a column the
    /// split lacks or the preferred one; after the split exited, refused and reported
    /// (`containerExited`, issue 29 bug 11: it trapped); collapsed, the platform brings the
    /// column on top (`platformDidFocus`, its failure reported as the binding's); expanded,
    /// it only decides the next collapse.
    func writePreferred(_ split: FuzzID, _ column: FuzzColumn, context: Context) {
        guard let index = columnIndex(split, column), column != nodes[split]!.preferred else {
            return
        }
        if nodes[split]!.state == .exited {
            reportBindingFailure(
                split, "preferredCompactColumn",
                refusal(split) { .containerExited(container: $0) }.candidates)
        } else if nodes[split]!.collapsed {
            bindingCall(
                .focusRegion(split, nodes[split]!.children[index], platform: true),
                "preferredCompactColumn", on: split, context: context)
        } else {
            nodes[split]!.preferred = column
        }
    }

    /// The platform popped the compact stack to `entry`: popped in its column, every later
    /// stack column cleared, its column on top. No guard is asked.
    func popCompact(_ split: FuzzID, to entry: FuzzID, context: Context) throws {
        try exitedCheck(split)
        guard nodes[split]!.collapsed else {
            throw refusal(split) { .splitLayoutMismatch(split: $0, reason: "is not collapsed") }
        }
        let columns = nodes[split]!.children
        let top = topColumn(split)
        var landing: (column: Int, position: Int)?
        for index in 0...top {
            if let position = compactEntries(columns[index]).lastIndex(of: entry) {
                landing = (index, position)
            }
        }
        guard let landing else {
            throw refusal(split, entry) { .notInStack(stack: $0, node: $1) }
        }
        var removed: [(node: FuzzID, container: FuzzID)] = []
        for index in stride(from: top, through: landing.column, by: -1) {
            let column = columns[index]
            guard nodes[column]!.kind == .stack else { continue }
            let keep = index == landing.column ? landing.position + 1 : 0
            for node in nodes[column]!.children[keep...].reversed() {
                removed.append((node, column))
            }
        }
        guard !removed.isEmpty || landing.column != top else { return }
        try change(split, .platformPop, platform: true, context: context) { change in
            for (node, container) in removed { remove(node, from: container, &change) }
            setSplitArrangement(split, preferred: column(at: landing.column, of: split), &change)
        }
    }

    /// `FlowSplit(…)` made with its columns (skipped unless they are fresh and distinct, and
    /// the focus and preferred columns exist).
    func makeSplit(
        _ id: FuzzID, route: Int?, columns: [FuzzID], focus: FuzzColumn, preferred: FuzzColumn,
        collapsed: Bool
    ) -> Bool {
        let fresh = columns.allSatisfy { column in
            nodes[column].map { $0.state == .created && $0.parent == nil && $0.rootOf == nil }
                ?? false
        }
        guard fresh, Set(columns).count == columns.count, columns.count == 2 || columns.count == 3,
            columns.count == 3 || (focus != 1 && preferred != 1)
        else { return false }
        create(id, .split, route: route)
        nodes[id]!.held = true
        nodes[id]!.children = columns
        nodes[id]!.columnCount = columns.count
        nodes[id]!.selected = focus == 0 ? 0 : focus == 2 ? columns.count - 1 : 1
        nodes[id]!.preferred = preferred
        nodes[id]!.collapsed = collapsed
        for column in columns { nodes[column]!.parent = id }
        return true
    }
}
