import FlowKit

// Actions run by hooks, handlers, guards, factories and observers; event delivery.
extension FuzzModel {
    func perform(_ action: FuzzAction, actor: FuzzID?, context: Context) {
        guard actionBudget > 0 else { return }
        actionBudget -= 1
        switch action {
        case .send(let kind):
            let seq = newEvent(kind)
            guard let actor, let r = runtimeOf(actor) else { return }
            send(kind, seq: seq, origin: actor, in: r)
        case .runtimeSend(let kind):
            let seq = newEvent(kind)
            guard let actor, let r = runtimeOf(actor), runtimes[r]!.running else { return }
            send(kind, seq: seq, origin: nil, in: r)
        case .setValue(let id, let key, let token):
            guard nodes[id] != nil else { return }
            tokens.insert(token)
            if nodes[id]!.state != .exited { nodes[id]!.values[key] = token }
        case .composeFresh:
            let stack = create(freshID(), .stack, route: nil)
            let entry = create(freshID(), .plain, route: nil)
            let root = create(freshID(), .plain, route: nil)
            nodes[entry]!.parent = stack
            nodes[stack]!.children = [entry]
            nodes[stack]!.parent = root
            nodes[root]!.children = [stack]
        case .adoptCarried:
            guard let carried = carrying.last ?? nil, let actor else { return }
            let op = FuzzOp.present(actor, carried)
            do {
                try perform(op, context: context)
            } catch let refusal as FuzzRefusal {
                journal.append(
                    FuzzExpect(
                        options: refusal.candidates.map { "\(context.name) \(op) threw \($0)" }))
            } catch {
                preconditionFailure("unexpected \(error)")
            }
        case .op(let op):
            // A node nothing holds is already freed on the real side (an exited node, or a
            // fresh one a failed change did not keep): the action finds no node to call.
            let live = reachable()
            if let domain = changeDomain(op), isGone(domain, actor: actor, live) { return }
            if namedNodes(op).contains(where: { isGone($0, actor: actor, live) }) { return }
            if case .deferred(let name) = context, op.isChange, !removesNothing(op),
                let r = applyingRuntimes.last
            {
                // Resolve fresh nodes now, as the real side creates them in the hook.
                ensureFresh(op)
                runtimes[r]!.queue.append(.change(op, context: name))
                return
            }
            ensureFresh(op)
            do {
                try perform(op, context: context)
            } catch let refusal as FuzzRefusal {
                var candidates = refusal.candidates
                if case .checking = context, let domain = changeDomain(op),
                    let r = runtimeOf(domain), runtimes[r]!.applying,
                    nodes[domain]!.state == .entered
                {
                    candidates.append(.changeInProgress(node: livePath(domain)))
                }
                journal.append(
                    FuzzExpect(options: candidates.map { "\(context.name) \(op) threw \($0)" }))
            } catch {
                preconditionFailure("unexpected \(error)")
            }
        }
    }

    /// Whether `op` must return a node it removes but has none to remove now: `pop()` on a
    /// stack without entries, `dismiss()` with nothing presented. Asked for from a hook, such
    /// a call throws at once instead of being queued (it has nothing to return).
    func removesNothing(_ op: FuzzOp) -> Bool {
        switch op {
        case .pop(let stack), .platformPop(let stack):
            return nodes[stack]?.children.isEmpty ?? true
        case .dismiss(let node), .platformDismiss(let node):
            return nodes[node]?.presented == nil
        default:
            return false
        }
    }

    /// Creates the nodes an action's operation names that do not exist yet, in the order the
    /// real side resolves them (container first). A node freed during this step still exists
    /// here (and the real side still knows its id: it skips the action, see ``isGone``);
    /// once the step's census forgot it, on both sides, its id is made fresh again.
    func ensureFresh(_ op: FuzzOp) {
        func ensure(_ id: FuzzID) {
            if nodes[id] == nil { create(id, .plain, route: nil) }
        }
        switch op {
        case .push(let c, let x), .popTo(let c, let x), .platformPopTo(let c, let x):
            guard nodes[c]?.kind == .stack else { return }
            ensure(x)
        case .embed(let c, let x), .present(let c, let x):
            guard nodes[c] != nil else { return }
            ensure(x)
        case .switchTo(let c, let x):
            guard nodes[c]?.kind == .switcher else { return }
            ensure(x)
        case .setStack(let c, let list):
            guard nodes[c]?.kind == .stack else { return }
            list.forEach(ensure)
        case .setTabs(let c, let list, _):
            guard nodes[c]?.kind == .tabs else { return }
            list.forEach(ensure)
        case .show(let c, let shown, _, _):
            guard nodes[c]?.kind == .split else { return }
            shown.map(\.node).forEach(ensure)
        default:
            break
        }
    }

    func changeDomain(_ op: FuzzOp) -> FuzzID? {
        switch op {
        case .push(let c, _), .pop(let c), .popTo(let c, _), .popToRoot(let c),
            .setStack(let c, _), .platformPop(let c), .platformPopTo(let c, _), .embed(let c, _),
            .switchTo(let c, _), .switchRoute(let c, _), .present(let c, _), .dismiss(let c),
            .platformDismiss(let c), .navigate(let c, _, _), .select(let c, _), .selectAt(let c, _),
            .platformSelect(let c, _), .setTabs(let c, _, _), .writeSelection(let c, _),
            .writePath(let c, _), .writePresented(let c, _), .unwind(let c, _),
            .focusColumn(let c, _), .focusRegion(let c, _, _), .show(let c, _, _, _),
            .collapse(let c),
            .expand(let c), .popCompact(let c, _), .navigateSteps(let c, _, _),
            .writePreferred(let c, _):
            return nodes[c] == nil ? nil : c
        default:
            return nil
        }
    }

    func send(_ kind: FuzzEventKind, seq: Int, origin: FuzzID?, in r: Int) {
        if runtimes[r]!.depth > 0 {
            runtimes[r]!.queue.append(.event(kind, seq: seq, origin: origin))
            return
        }
        runtimes[r]!.depth = 1
        deliver(kind, seq: seq, origin: origin, in: r)
        drain(r)
        runtimes[r]!.depth = 0
    }

    func deliver(_ kind: FuzzEventKind, seq: Int, origin: FuzzID?, in r: Int) {
        let name = "\(kind.letter)#\(seq)"
        let carried = carriedBySeq.removeValue(forKey: seq)
        guard let sender = origin ?? runtimes[r]!.focused.last else {
            trace.append(FuzzExpect(prefix: "rt\(r): dropped \(name)"))
            return
        }
        guard nodes[sender]!.state == .entered, nodes[sender]!.runtime == r else {
            trace.append(
                FuzzExpect(
                    options: paths(sender).map {
                        "rt\(r): dropped \(name) from \($0) (sender left the tree)"
                    }))
            return
        }
        trace.append(FuzzExpect("rt\(r): send \(name) from \(livePath(sender))"))
        // The real dispatch holds the sender for the whole delivery: a handler can still
        // reach it after it exits (and gets containerExited when it asks it for a change).
        delivering.append(sender)
        carrying.append(carried)
        defer {
            delivering.removeLast()
            carrying.removeLast()
        }
        var current: FuzzID? = sender
        while let node = current {
            if let handler = nodes[node]!.handlers[kind] {
                journal.append(FuzzExpect("handle \(name) at \(livePath(node))"))
                for action in handler.actions {
                    perform(action, actor: node, context: .handler)
                }
                if handler.handles {
                    trace.append(
                        FuzzExpect(options: paths(node).map { "rt\(r): handled \(name) at \($0)" }))
                    return
                }
                if nodes[sender]!.state != .entered {
                    trace.append(
                        FuzzExpect(
                            options: paths(sender).map {
                                "rt\(r): dropped \(name) from \($0) (sender left the tree)"
                            }))
                    return
                }
            }
            current = nodes[node]!.parent
        }
        trace.append(FuzzExpect("rt\(r): unhandled \(name) from \(livePath(sender))"))
        journal.append(FuzzExpect("unhandled \(name) from \(livePath(sender))"))
    }
}
