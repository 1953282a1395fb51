import FlowKit

/// One scene operation, then the scene checks: each delivery handled by exactly one scene (or
/// refused with a typed error), the lifecycle table, no node in two scenes (nor in a scene and
/// a runtime of the model), a reclaimed scene's tree released and its snapshot restorable to
/// the same tree, no snapshot left for a discarded or closed scene, nothing leaked.
extension FuzzRun {
    func sceneStep(_ op: FuzzSceneOp) async -> FuzzFailure? {
        let name = "scene " + op.name
        func fail(_ check: String, _ message: String) -> FuzzFailure {
            FuzzFailure(signature: "\(check) after \(name)", message: message, step: steps)
        }
        var problems: [String] = []
        var thrown: (any Error)?
        do {
            try await runScene(op, problems: &problems)
        } catch {
            thrown = error
        }
        if let thrown, !(thrown is FlowSceneError || thrown is FlowError) {
            problems.append("\(op) threw an untyped error: \(thrown)")
        }
        coverage["scene \(name)\(thrown == nil ? "" : " threw")", default: 0] += 1
        if let thrown = thrown as? FlowSceneError {
            let kind = Mirror(reflecting: thrown).children.first?.label ?? "\(thrown)"
            coverage["scene \(name) threw \(kind)", default: 0] += 1
        }
        if let problem = problems.first { return fail("scene rule", problem) }
        if let problem = sceneStructureProblem() { return fail("scene structure", problem) }
        if let problem = await sceneCensus() { return fail("scene leak", problem) }
        model.sceneView = scenes.view
        return nil
    }

    /// The trees of the connected scenes, by identity.
    func sceneTrees() -> [FlowSceneID: String] {
        var trees: [FlowSceneID: String] = [:]
        for scene in scenes.app?.scenes ?? [] {
            if let runtime = scene.runtime, runtime.isRunning {
                trees[scene.id] = runtime.treeDescription()
            }
        }
        return trees
    }

    /// The scenes' identities and phases, for "nothing changed".
    func scenePhases() -> [String] {
        (scenes.app?.scenes ?? []).map { "\($0.id) \($0.phase) \($0.isRestoring)" }
    }

    /// The scenes whose tree changed since `before` (or appeared, or went).
    func changedScenes(since before: [FlowSceneID: String]) -> Set<FlowSceneID> {
        let after = sceneTrees()
        return Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }
    }

    /// Runs `op`, adding to `problems` what breaks the rules it must follow.
    private func runScene(_ op: FuzzSceneOp, problems: inout [String]) async throws {
        if case .releaseApp = op {
            scenes.releaseApp()
            scenes.mustGo = scenes.made
            scenes.makeApp()
            return
        }
        guard let app = scenes.app else { return }
        let treesBefore = sceneTrees()
        let phasesBefore = scenePhases()
        let storeBefore = scenes.store.scenes
        let handledBefore = scenes.handled.count
        var routed: [FlowRoutingDecision] = []
        let watch = app.trace.addObserver { record in
            if case .app(.routed(_, let decision)) = record { routed.append(decision) }
        }
        defer { app.trace.removeObserver(watch) }
        /// A typed refusal changes nothing: no scene, phase, tree or snapshot.
        func unchanged(_ what: String) -> [String] {
            var found: [String] = []
            if scenePhases() != phasesBefore { found.append("\(what): the scenes changed") }
            if sceneTrees() != treesBefore { found.append("\(what): a tree changed") }
            if scenes.store.scenes != storeBefore {
                found.append("\(what): the stored snapshots changed")
            }
            return found
        }
        switch op {
        case .open(let push, let sheet, let value, let delivery, let receivedBy):
            var path: [FlowStep] = [.child(FuzzScreen.s(0))]
            if let push { path.append(.push(FuzzScreen.s(push))) }
            if let sheet { path.append(.present(FuzzScreen.sheet(sheet))) }
            let link = FlowLink(path, sceneValue: value.map(fuzzSceneValue))
            let decision: FlowRoutingDecision
            do {
                decision = try app.open(
                    link, delivery: delivery.map { FlowDeliveryID(source: "fuzz", token: "\($0)") },
                    receivedBy: receivedBy.map { FlowSceneID("s\($0)") })
            } catch {
                if routed.map(\.rule) != [.refused] {
                    problems.append("\(op) threw, but the router decided \(routed)")
                }
                problems += unchanged("\(op) refused")
                throw error
            }
            if routed != [decision] {
                problems.append("\(op): one decision expected, the trace has \(routed)")
            }
            if let delivery {
                let isDuplicate = scenes.deliveries.contains(delivery)
                if isDuplicate != (decision.rule == .duplicate) {
                    problems.append("\(op): delivery d\(delivery) seen \(isDuplicate): \(decision)")
                }
                scenes.deliveries.insert(delivery)
            }
            let changed = changedScenes(since: treesBefore)
            switch decision.rule {
            case .showsTarget, .resolvesRoute, .uniqueValue:
                let taker = decision.scene.flatMap(app.scene)
                if !changed.isSubset(of: decision.scene.map { [$0] } ?? []) {
                    problems.append("\(op): \(decision), yet scenes \(changed.sorted()) changed")
                }
                if let taker, taker.phase.isConnected, let target = link.target,
                    taker.runtime?.activeNodes.contains(where: { $0.route == target }) != true
                {
                    problems.append("\(op): \(decision), but the scene does not show \(target)")
                }
            default:
                if !changed.isEmpty {
                    problems.append("\(op): \(decision), yet scenes \(changed.sorted()) changed")
                }
            }
        case .perform(let n, let delivery):
            let focused = app.focusedScene
            let id = delivery.map { FlowDeliveryID(source: "fuzz", token: "\($0)") }
            let duplicate = delivery.map { scenes.deliveries.contains($0) } ?? false
            do {
                let decision = try app.perform(FuzzAppEvent(n: n), delivery: id)
                if let delivery { scenes.deliveries.insert(delivery) }
                let handled = scenes.handled[handledBefore...]
                if duplicate {
                    if decision.rule != .duplicate || !handled.isEmpty {
                        problems.append("\(op): a duplicate ran: \(decision), \(Array(handled))")
                    }
                } else if decision.scene != focused?.id || handled.count != 1
                    || handled.first?.scene != focused?.id
                {
                    problems.append(
                        "\(op): the focused scene \(focused?.id.rawValue ?? "none") should handle "
                            + "it once: \(decision), handled \(Array(handled))")
                }
            } catch {
                if duplicate || (focused != nil && focused?.runtime != nil) {
                    problems.append("\(op) threw \(error) with a focused scene")
                }
                if scenes.handled.count != handledBefore {
                    problems.append("\(op) ran, then threw")
                }
                throw error
            }
        case .broadcast(let n):
            let targets = (app.scenes).filter {
                $0.phase.isConnected && $0.runtime?.isRunning == true
            }
            .map(\.id)
            let reached = app.broadcast(FuzzAppEvent(n: n))
            let handled = scenes.handled[handledBefore...].map(\.scene)
            if reached != targets || handled.sorted() != targets.sorted() {
                problems.append(
                    "\(op): sent to \(reached), handled in \(handled); scenes \(targets)")
            }
        case .fact(let n, let fact):
            try applyFact(
                app, FlowSceneID("s\(n)"), fact, problems: &problems, unchanged: unchanged)
        case .connect(let n, let value, let restoration):
            let id = FlowSceneID("s\(n)")
            let wasConnected = app.scene(id)?.phase.isConnected == true
            let restoring: FlowSceneRestoration
            switch restoration {
            case .none: restoring = .none
            case .stored: restoring = .stored
            case .later: restoring = .later
            case .storedUnder(let m): restoring = .storedUnder(FlowSceneID("s\(m)"))
            }
            let hadSnapshot = scenes.store.scenes[id] != nil
            do {
                let scene = try app.connect(
                    id, value: value.map(fuzzSceneValue), restoration: restoring)
                scenes.gone.remove(id)
                if wasConnected { problems.append("\(op): connected a scene that was connected") }
                // (Links that waited for the scene ran there once it was back.)
                if restoration == .stored, hadSnapshot, let tree = scenes.treeAtDisconnect[id],
                    routed.allSatisfy({ $0.scene != id }),
                    scene.runtime?.treeDescription() != tree
                {
                    problems.append(
                        "\(op): restored\n\(scene.runtime?.treeDescription() ?? "nothing")\n"
                            + "instead of the tree it had\n\(tree)")
                }
                if scene.runtime == nil && !scene.isRestoring {
                    problems.append("\(op): connected without a tree")
                }
                if let runtime = scene.runtime {
                    scenes.made.append(FuzzWeakRef(object: runtime, label: "\(id) runtime"))
                }
                // Links waiting for the scene ran there, and nowhere else.
                let changed = changedScenes(since: treesBefore).subtracting([id])
                if !routed.isEmpty, !changed.isEmpty, routed.allSatisfy({ $0.scene == id }) {
                    problems.append("\(op): waiting links changed scenes \(changed.sorted())")
                }
            } catch {
                if wasConnected, error as? FlowSceneError != .alreadyConnected(id) {
                    problems.append("\(op) threw \(error), not alreadyConnected")
                }
                problems += unchanged("\(op) refused")
                throw error
            }
        case .lateData(let n, let fromStore):
            let id = FlowSceneID("s\(n)")
            let placeholder = app.scene(id)?.runtime
            let expected = app.scene(id).map { $0.phase.isConnected && $0.isRestoring }
            do {
                try app.restorationDidArrive(
                    for: id, snapshot: fromStore ? scenes.store.scenes[id] : nil)
                if expected != true { problems.append("\(op) took data the scene waits not for") }
                if let placeholder {
                    scenes.mustGo.append(
                        FuzzWeakRef(object: placeholder, label: "placeholder runtime"))
                }
                if let runtime = app.scene(id)?.runtime {
                    scenes.made.append(FuzzWeakRef(object: runtime, label: "\(id) runtime"))
                }
            } catch {
                if expected == true, !fromStore { problems.append("\(op) threw \(error)") }
                problems += unchanged("\(op) refused")
                throw error
            }
        case .serve:
            try await serve(app, problems: &problems)
        case .push(let n, let screen):
            guard let stack = sceneStack(app, n) else { return }
            try sceneTreeOp(treesBefore, n, &problems) {
                try stack.push(scenes.screen(.s(screen), FlowSceneID("s\(n)")))
            }
        case .pop(let n):
            guard let stack = sceneStack(app, n) else { return }
            try sceneTreeOp(treesBefore, n, &problems) { try stack.pop() }
        case .present(let n, let sheet):
            guard let top = sceneStack(app, n)?.top else { return }
            try sceneTreeOp(treesBefore, n, &problems) {
                try top.present(scenes.screen(.sheet(sheet), FlowSceneID("s\(n)")))
            }
        case .dismiss(let n):
            guard let top = sceneStack(app, n)?.top else { return }
            try sceneTreeOp(treesBefore, n, &problems) { try top.dismiss() }
        case .moveOut(let n, let screen, let value, let removing):
            let link = FlowLink(
                [.child(FuzzScreen.s(0)), .push(FuzzScreen.s(screen))],
                sceneValue: fuzzSceneValue(value))
            let requests = scenes.host.requests.count
            do {
                try app.openInNewScene(
                    link, from: FlowSceneID("s\(n)"), removingFromSource: removing)
                if scenes.host.requests.count != requests + 1 {
                    problems.append("\(op): the host was not asked for one scene")
                }
                let changed = changedScenes(since: treesBefore)
                if !changed.isSubset(of: removing ? [FlowSceneID("s\(n)")] : []) {
                    problems.append("\(op) changed scenes \(changed.sorted())")
                }
            } catch {
                problems += unchanged("\(op) refused")
                throw error
            }
        case .requestClose(let n):
            do {
                try app.requestClose(FlowSceneID("s\(n)"))
            } catch {
                problems += unchanged("\(op) refused")
                throw error
            }
        case .releaseApp:
            break
        }
    }

    /// The root stack of scene `n`'s running tree.
    private func sceneStack(_ app: FlowApp, _ n: Int) -> FlowStack? {
        guard let runtime = app.scene(FlowSceneID("s\(n)"))?.runtime, runtime.isRunning else {
            return nil
        }
        return runtime.root as? FlowStack
    }

    /// A change inside scene `n`'s tree changes no other scene; what it removes is released.
    private func sceneTreeOp(
        _ before: [FlowSceneID: String], _ n: Int, _ problems: inout [String],
        _ body: () throws -> Void
    ) throws {
        let nodes = Set(
            fuzzTreeNodes(scenes.app?.scene(FlowSceneID("s\(n)"))?.runtime?.root).map(
                ObjectIdentifier.init))
        let all = fuzzTreeNodes(scenes.app?.scene(FlowSceneID("s\(n)"))?.runtime?.root)
        defer {
            let now = Set(
                fuzzTreeNodes(scenes.app?.scene(FlowSceneID("s\(n)"))?.runtime?.root)
                    .map(ObjectIdentifier.init))
            for node in all
            where !now.contains(ObjectIdentifier(node)) && nodes.contains(ObjectIdentifier(node)) {
                scenes.mustGo.append(
                    FuzzWeakRef(object: node, label: "s\(n) \(node.name) (removed)"))
            }
            let changed = changedScenes(since: before).subtracting([FlowSceneID("s\(n)")])
            if !changed.isEmpty { problems.append("a change in s\(n) changed \(changed.sorted())") }
        }
        try body()
    }
}
