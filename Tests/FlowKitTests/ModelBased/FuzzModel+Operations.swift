import FlowKit

// The public operations, as the model expects them to act.
extension FuzzModel {
    /// Applies a top-level operation; returns the refusal it should throw, if any.
    func apply(_ op: FuzzOp) -> FuzzRefusal? {
        do {
            try perform(op, context: .top)
            return nil
        } catch let refusal as FuzzRefusal {
            return refusal
        } catch {
            preconditionFailure("unexpected \(error)")
        }
    }

    /// Whether node `id` exists (optionally creating it fresh, as the real side does).
    func resolve(_ id: FuzzID, fresh: Bool) -> Bool {
        if nodes[id] != nil { return true }
        if fresh {
            create(id, .plain, route: nil)
            return true
        }
        return false
    }

    func perform(_ op: FuzzOp, context: Context, fresh: Bool = false) throws {
        func has(_ id: FuzzID) -> Bool { resolve(id, fresh: fresh) }
        func isStack(_ id: FuzzID) -> Bool { has(id) && nodes[id]!.kind == .stack }
        func isSwitch(_ id: FuzzID) -> Bool { has(id) && nodes[id]!.kind == .switcher }
        func isTabs(_ id: FuzzID) -> Bool { has(id) && nodes[id]!.kind == .tabs }
        func isSplit(_ id: FuzzID) -> Bool { has(id) && nodes[id]!.kind == .split }
        func isWritable(_ id: FuzzID) -> Bool { id == fuzzBogusID || has(id) }
        let savedIntent = currentIntent
        currentIntent = op.isChange ? .composition(holds: intentHolds(op)) : nil
        // The call holds its receiver and the nodes it names until it returns.
        let held = heldByCall(op)
        operating.append(contentsOf: held)
        defer {
            currentIntent = savedIntent
            operating.removeLast(held.count)
        }
        switch op {
        case .scene:
            break  // the scenes are checked by their own rules (FuzzRunner+Scenes.swift)
        case .make(let id, let kind, let route, let initial):
            create(id, kind, route: route)
            nodes[id]!.initialRoute = initial
            nodes[id]!.held = true
        case .drop(let id):
            nodes[id]?.held = false
        case .hold(let id):
            nodes[id]?.held = true
        case .releaseOffMain(let id):
            guard let node = nodes[id], node.held, node.parent == nil, node.rootOf == nil,
                node.state == .created
            else {
                journal.append(FuzzExpect("skip \(op)"))
                return
            }
            nodes[id]!.held = false
        case .newRuntime(let r, let root, let platform):
            guard let node = nodes[root], node.parent == nil, node.rootOf == nil,
                node.state == .created, runtimes[r] == nil
            else {
                journal.append(FuzzExpect("skip \(op)"))
                return
            }
            runtimes[r] = Runtime(root: root, platform: platform)
            nodes[root]!.rootOf = r
            nodes[root]!.runtime = r
        case .releaseRuntime(let r):
            guard runtimes[r]?.held == true else {
                journal.append(FuzzExpect("skip \(op)"))
                return
            }
            releaseRuntime(r)
        case .start(let r):
            guard runtimes[r]?.held == true else { return }
            guard !runtimes[r]!.started, let root = runtimes[r]!.root else {
                throw FuzzRefusal(candidates: [.runtimeAlreadyStarted])
            }
            currentIntent = nil
            var change = Change(kind: .start, domain: nil)
            change.insertions.append((root, nil))
            try outermost(r) { try commit(change, in: r) }
            runtimes[r]!.started = true
        case .stop(let r):
            guard runtimes[r]?.held == true else { return }
            guard runtimes[r]!.running, let root = runtimes[r]!.root else {
                throw FuzzRefusal(candidates: [.runtimeNotStarted])
            }
            currentIntent = nil
            var change = Change(kind: .stop, domain: nil)
            change.removals.append(root)
            try outermost(r) { try commit(change, in: r) }
        case .runtimeSend(let r, let kind):
            let seq = newEvent(kind)
            guard runtimes[r]?.held == true, runtimes[r]!.running else { return }
            send(kind, seq: seq, origin: nil, in: r)
        case .send(let id, let kind):
            let seq = newEvent(kind)
            guard has(id), let r = runtimeOf(id) else { return }
            send(kind, seq: seq, origin: id, in: r)
        case .runtimeNavigate(let r, let routes):
            guard runtimes[r]?.held == true else { return }
            guard runtimes[r]!.running, let root = runtimes[r]!.root else {
                throw FuzzRefusal(candidates: [.runtimeNotStarted])
            }
            currentIntent = .navigate(root, [routes.map { "r\($0)" }.joined(separator: " / ")])
            try navigate(root, routes, reentering: false, context: context)
        case .navigate(let id, let routes, let reentering):
            guard has(id) else { return }
            currentIntent = .navigate(id, [routes.map { "r\($0)" }.joined(separator: " / ")])
            try navigate(id, routes, reentering: reentering, context: context)
        case .navigateSteps(let id, let paths, let reentering):
            guard has(id), !paths.isEmpty else { return }
            currentIntent = .navigate(id, paths.map { $0.map(\.text).joined(separator: " / ") })
            try navigate(
                id, paths: paths, reentering: paths.count == 1 && reentering, context: context)
        case .makeSplit(let id, let route, let columns, let focus, let preferred, let collapsed):
            if !makeSplit(
                id, route: route, columns: columns, focus: focus, preferred: preferred,
                collapsed: collapsed)
            {
                journal.append(FuzzExpect("skip \(op)"))
            }
        case .focusColumn(let s, let column):
            guard isSplit(s) else { return }
            try focus(s, column: column, context: context)
        case .focusRegion(let s, let x, let platform):
            guard isSplit(s), has(x) else { return }
            try focus(s, region: x, platform: platform, context: context)
        case .show(let s, let shown, let clearing, let single):
            guard isSplit(s), shown.allSatisfy({ has($0.node) }) else { return }
            try show(s, shown, clearing: clearing, single: single, context: context)
        case .collapse(let s):
            guard isSplit(s) else { return }
            try collapse(s, context: context)
        case .expand(let s):
            guard isSplit(s) else { return }
            try expand(s, context: context)
        case .writePreferred(let s, let column):
            guard isSplit(s) else { return }
            writePreferred(s, column, context: context)
        case .popCompact(let s, let x):
            guard isSplit(s), has(x) else { return }
            try popCompact(s, to: x, context: context)
        case .unwind(let x, let t):
            guard nodes[x] != nil, nodes[t] != nil else { return }
            currentIntent = .unwind(x, t)
            try unwind(from: x, to: t)
        case .runtimeUnwind(let r, let t):
            guard runtimes[r]?.held == true, nodes[t] != nil else { return }
            guard runtimes[r]!.running, let focused = runtimes[r]!.focused.last else {
                throw FuzzRefusal(candidates: [.runtimeNotStarted])
            }
            currentIntent = .unwind(focused, t)
            try unwind(from: focused, to: t)
        case .push(let s, let x):
            guard isStack(s), has(x) else { return }
            try validateNew(s, [x])
            try change(s, .push, context: context) { change in append(x, to: s, &change) }
        case .pop(let s):
            guard isStack(s) else { return }
            try exitedCheck(s)
            let below = try entryBelowTop(s)
            try pop(s, to: below, kind: .pop, platform: false, context: context)
        case .platformPop(let s):
            guard isStack(s) else { return }
            try exitedCheck(s)
            let below = try entryBelowTop(s)
            try pop(s, to: below, kind: .platformPop, platform: true, context: context)
        case .popTo(let s, let x):
            guard isStack(s), has(x) else { return }
            try exitedCheck(s)
            try pop(s, to: x, kind: .popTo, platform: false, context: context)
        case .platformPopTo(let s, let x):
            guard isStack(s), has(x) else { return }
            try exitedCheck(s)
            try pop(s, to: x, kind: .platformPop, platform: true, context: context)
        case .popToRoot(let s):
            guard isStack(s) else { return }
            try exitedCheck(s)
            guard let bottom = nodes[s]!.children.first else {
                throw refusal(s) { .emptyStack(stack: $0) }
            }
            try pop(s, to: bottom, kind: .popTo, platform: false, context: context)
        case .setStack(let s, let list):
            guard isStack(s), list.allSatisfy(has) else { return }
            let current = nodes[s]!.children
            let newNodes = list.filter { !current.contains($0) }
            try validateNew(s, newNodes)
            var seen = Set<FuzzID>()
            for x in list where !seen.insert(x).inserted {
                throw refusal(x) { .duplicateNode(node: $0) }
            }
            try change(s, .setStack, context: context) { change in
                setChildren(list, of: s, &change)
            }
        case .embed(let p, let x):
            guard has(p), has(x) else { return }
            try replaceChildren(p, with: x, kind: .embed, context: context)
        case .switchTo(let p, let x):
            guard isSwitch(p), has(x) else { return }
            try replaceChildren(p, with: x, kind: .switch, context: context)
        case .switchRoute(let p, let route):
            guard isSwitch(p) else { return }
            try exitedCheck(p)
            if let current = nodes[p]!.children.first, nodes[current]!.route == route { return }
            if let r = runtimeOf(p), nodes[p]!.state == .entered {
                try outermost(r) {
                    let child = try whileChecking(r) { try makeChild(of: p, route: route) }
                    try replaceChildren(p, with: child, kind: .switch, context: context)
                }
            } else {
                let child = try makeChild(of: p, route: route)
                try replaceChildren(p, with: child, kind: .switch, context: context)
            }
        case .present(let p, let x):
            guard has(p), has(x) else { return }
            try validateNew(p, [x])
            if let presented = nodes[p]!.presented {
                throw refusal(p, presented) { .alreadyPresenting(presenter: $0, presented: $1) }
            }
            try change(p, .present, context: context) { change in
                let index = layoutIndex(p, &change)
                change.layouts[index].presented = x
                change.insertions.append((x, p))
            }
        case .dismiss(let p), .platformDismiss(let p):
            guard has(p) else { return }
            try exitedCheck(p)
            guard let presented = nodes[p]!.presented else {
                throw refusal(p) { .nothingPresented(presenter: $0) }
            }
            let platform: Bool
            if case .platformDismiss = op { platform = true } else { platform = false }
            try change(
                p, platform ? .platformDismiss : .dismiss, platform: platform, context: context
            ) {
                change in remove(presented, from: p, &change)
            }
        case .exitGuard(let id, let spec):
            guard has(id), nodes[id]!.state != .exited else { return }
            nodes[id]!.exitGuard = spec
        case .entryGuard(let id, let spec):
            guard has(id), nodes[id]!.state != .exited else { return }
            nodes[id]!.entryGuard = spec
        case .on(let id, let kind, let spec):
            guard has(id), nodes[id]!.state != .exited else { return }
            nodes[id]!.handlers[kind] = spec
        case .removeHandler(let id, let kind):
            guard has(id) else { return }
            nodes[id]!.handlers[kind] = nil
        case .register(let id, let route, let spec):
            guard has(id), nodes[id]!.state != .exited else { return }
            nodes[id]!.factories[route] = spec
        case .setValue(let id, let key, let token):
            tokens.insert(token)
            guard has(id), nodes[id]!.state != .exited else { return }
            nodes[id]!.values[key] = token
        case .removeValue(let id, let key):
            guard has(id) else { return }
            nodes[id]!.values[key] = nil
        case .task(let id):
            guard has(id) else { return }
            switch nodes[id]!.state {
            case .created: nodes[id]!.pendingTasks += 1
            case .entered: nodes[id]!.runningTasks += 1
            case .exited: break
            }
        case .hook(let id, let hook, let action):
            guard has(id) else { return }
            nodes[id]!.hooks[hook] = action
        case .armHost(let r, let action):
            runtimes[r]?.armedHost = action
        case .armTrace(let r, let action):
            runtimes[r]?.armedTrace = action
        case .makeTabs(let id, let route, let list, let selected):
            let fresh = list.allSatisfy { tab in
                nodes[tab].map { $0.state == .created && $0.parent == nil && $0.rootOf == nil }
                    ?? false
            }
            guard fresh, Set(list).count == list.count,
                list.indices.contains(selected) || (list.isEmpty && selected == 0)
            else {
                journal.append(FuzzExpect("skip \(op)"))
                return
            }
            create(id, .tabs, route: route)
            nodes[id]!.held = true
            nodes[id]!.children = list
            nodes[id]!.selected = selected
            for tab in list { nodes[tab]!.parent = id }
        case .select(let t, let x), .platformSelect(let t, let x):
            guard isTabs(t), has(x) else { return }
            var platform = false
            if case .platformSelect = op { platform = true }
            try select(x, in: t, platform: platform, context: context)
        case .selectAt(let t, let index):
            guard isTabs(t) else { return }
            let tabs = nodes[t]!.children
            guard tabs.indices.contains(index) else {
                try exitedCheck(t)
                throw refusal(t) { .notATab(tabs: $0, node: "tab index \(index)") }
            }
            try select(tabs[index], in: t, platform: false, context: context)
        case .setTabs(let t, let list, let index):
            guard isTabs(t), list.allSatisfy(has) else { return }
            try exitedCheck(t)
            let current = nodes[t]!.children
            try validateNew(t, list.filter { !current.contains($0) })
            var seen = Set<FuzzID>()
            for x in list where !seen.insert(x).inserted {
                throw refusal(x) { .duplicateNode(node: $0) }
            }
            if let index, !(list.isEmpty && index == 0), !list.indices.contains(index) {
                throw refusal(t) { .notATab(tabs: $0, node: "tab index \(index)") }
            }
            // The documented rule: the selection stays on the selected tab if it remains.
            let kept = selectedTab(t)
            let newIndex = index ?? kept.flatMap { list.firstIndex(of: $0) } ?? 0
            try change(t, .setStack, context: context) { change in
                setChildren(list, of: t, &change)
                change.selections[t] = newIndex
            }
        case .reselectionPops(let t, let on):
            guard isTabs(t) else { return }
            nodes[t]!.reselectionPops = on
        case .writeSelection(let t, let x):
            guard isTabs(t), x.map(isWritable) ?? true else { return }
            guard let x, nodes[t]!.children.contains(x) else {
                let written = x.map(identity) ?? "nil"
                refuseBindingWrite(t, "selectionBinding", reason: "\(written) is not a tab")
                return
            }
            // The selected tab written again (with no reselection pop to make) is no change.
            if x == focusedChild(t) && !nodes[t]!.reselectionPops { return }
            bindingCall(.platformSelect(t, x), "selectionBinding", on: t, context: context)
        case .writePath(let s, let list):
            guard isStack(s), list.allSatisfy(isWritable) else { return }
            let entries = nodes[s]!.children
            let above = Array(entries.dropFirst())
            if list == above { return }
            guard list.count < above.count, Array(above.prefix(list.count)) == list else {
                refuseBindingWrite(
                    s, "pathBinding",
                    reason: "the platform may only shorten the path (FlowKit pushes)")
                return
            }
            bindingCall(
                .platformPopTo(s, entries[list.count]), "pathBinding", on: s, context: context)
        case .writePresented(let p, let x):
            guard has(p), x.map(has) ?? true else { return }
            if x == nodes[p]!.presented { return }
            guard x == nil else {
                refuseBindingWrite(
                    p, "presentedBinding", reason: "only nil (a dismissal) can be written")
                return
            }
            bindingCall(.platformDismiss(p), "presentedBinding", on: p, context: context)
        case .advance, .runUntilIdle, .swipeBack, .dragDown, .updateGesture, .releaseGesture,
            .cancelGesture, .tapBack, .tapTab:
            try performOnPlatform(op)
        }
    }
}
