import FlowKit

/// The scenes' lifecycle in the random test: the platform's facts checked against the rules
/// table, the platform serving what the app asked, and the checks after every scene step.
extension FuzzRun {
    /// Reports `fact` for scene `id` and checks what it did: an illegal fact is a typed
    /// error that changes nothing; a disconnect stops and releases the tree and leaves a
    /// snapshot that restores the same tree; a discard or a close leaves no snapshot.
    func applyFact(
        _ app: FlowApp, _ id: FlowSceneID, _ fact: FlowSceneFact, problems: inout [String],
        unchanged: (String) -> [String]
    ) throws {
        let what = "report(.\(fact), for: \"\(id)\")"
        guard let scene = app.scene(id) else {
            do {
                try app.report(fact, for: id)
                problems.append("\(what) took a fact for a scene the app does not have")
            } catch {
                if error as? FlowSceneError != .noSuchScene(id) {
                    problems.append("\(what) threw \(error), not noSuchScene")
                }
                problems += unchanged(what)
                throw error
            }
            return
        }
        let phase = scene.phase
        let expected = fact.phase(from: phase)
        let runtime = scene.runtime
        let nodes = fuzzTreeNodes(runtime?.root).map {
            FuzzWeakRef(object: $0, label: "\(id) \($0.name) (\(fact))")
        }
        let tree = runtime?.isRunning == true ? runtime?.treeDescription() : nil
        let wasRestoring = scene.isRestoring
        do {
            try app.report(fact, for: id)
        } catch {
            if expected != nil { problems.append("\(what) in \(phase) threw \(error)") }
            if error as? FlowSceneError != .illegalFact(scene: id, phase: phase, fact: fact) {
                problems.append("\(what) in \(phase) threw \(error), not illegalFact")
            }
            problems += unchanged(what)
            throw error
        }
        guard let expected else {
            return problems.append("\(what) in \(phase): taken, but the table has no such move")
        }
        let released =
            nodes + (runtime.map { [FuzzWeakRef(object: $0, label: "\(id) runtime")] } ?? [])
        if expected.isGone {
            if app.scene(id) != nil { problems.append("\(what): the scene stays in the app") }
            if scenes.store.scenes[id] != nil { problems.append("\(what): its snapshot stays") }
            scenes.gone.insert(id)
            scenes.treeAtDisconnect[id] = nil
            scenes.mustGo += released
            return
        }
        if scene.phase != expected {
            problems.append("\(what) in \(phase): \(scene.phase), the table says \(expected)")
        }
        switch fact {
        case .disconnect:
            if scene.runtime != nil { problems.append("\(what): the scene keeps a runtime") }
            scenes.mustGo += released
            scenes.treeAtDisconnect[id] = nil
            guard let tree, !wasRestoring else { return }
            guard let saved = scenes.store.scenes[id] else {
                return problems.append("\(what): no snapshot saved")
            }
            scenes.treeAtDisconnect[id] = tree
            // The snapshot restores the same tree, in a runtime of its own.
            let check = try FlowRuntime(root: scenes.root(for: id))
            _ = try check.start(restoring: saved.tree, routeTypes: [FuzzScreen.self])
            if check.treeDescription() != tree {
                problems.append(
                    "\(what): the snapshot restores\n\(check.treeDescription())\ninstead of\n\(tree)"
                )
            }
            scenes.mustGo += fuzzTreeNodes(check.root).map {
                FuzzWeakRef(object: $0, label: "restored check \($0.name)")
            }
            try check.stop()
            scenes.mustGo.append(FuzzWeakRef(object: check, label: "restored check runtime"))
        case .enterBackground:
            guard let runtime, !wasRestoring else { return }
            if scenes.store.scenes[id]?.tree != (try runtime.snapshot()) {
                problems.append("\(what): the saved snapshot is not the tree's")
            }
        default:
            break
        }
    }

    /// The platform carries out what the app asked: opens a scene for a value (a new
    /// identity, brought to the front), closes a scene (a reclaimed one is discarded), brings
    /// one forward (a reclaimed one is reconnected, restored from its snapshot).
    func serve(_ app: FlowApp, problems: inout [String]) async throws {
        var served = 0
        while !scenes.host.requests.isEmpty && served < 8 {
            served += 1
            switch scenes.host.requests.removeFirst() {
            case .open(let value):
                guard let n = (1...6).first(where: { app.scene(FlowSceneID("s\($0)")) == nil })
                else { continue }
                let scene = try app.connect(FlowSceneID("s\(n)"), value: value, restoration: .none)
                scenes.gone.remove(scene.id)
                if let runtime = scene.runtime {
                    scenes.made.append(FuzzWeakRef(object: runtime, label: "\(scene.id) runtime"))
                }
                try bringForward(app, scene, problems: &problems)
            case .close(let id):
                guard let scene = app.scene(id) else { continue }
                let fact: FlowSceneFact = scene.phase == .disconnected ? .discard : .close
                try applyFact(app, id, fact, problems: &problems) { _ in [] }
            case .activate(let id):
                guard let scene = app.scene(id) else { continue }
                if scene.phase == .disconnected {
                    let tree = scenes.treeAtDisconnect[id]
                    // Links that waited for the scene run once it is back: then its tree
                    // is the restored one and theirs.
                    var linksRan = false
                    let watch = app.trace.addObserver { record in
                        if case .app(.routed(_, let decision)) = record, decision.scene == id {
                            linksRan = true
                        }
                    }
                    defer { app.trace.removeObserver(watch) }
                    let back = try app.connect(id)
                    if let tree, !linksRan, back.runtime?.treeDescription() != tree {
                        problems.append("activate \(id): came back with another tree")
                    }
                    if let runtime = back.runtime {
                        scenes.made.append(FuzzWeakRef(object: runtime, label: "\(id) runtime"))
                    }
                    try bringForward(app, back, problems: &problems)
                } else {
                    try bringForward(app, scene, problems: &problems)
                }
            }
        }
    }

    /// The facts that bring a connected scene to the front: foreground, then active.
    private func bringForward(
        _ app: FlowApp, _ scene: FlowScene, problems: inout [String]
    ) throws {
        if scene.phase == .connected || scene.phase == .background {
            try applyFact(app, scene.id, .enterForeground, problems: &problems) { _ in [] }
        }
        if scene.phase == .inactive {
            try applyFact(app, scene.id, .activate, problems: &problems) { _ in [] }
        }
    }

    /// The scenes' structure: each connected scene has a running tree (or waits for late
    /// data), a disconnected one none, gone ones have left; no node is in two scenes, nor in
    /// a scene and a runtime of the model; no snapshot is left for a gone scene.
    func sceneStructureProblem() -> String? {
        guard let app = scenes.app else { return nil }
        var seen: [ObjectIdentifier: String] = [:]
        for (r, slot) in world.runtimes {
            for node in fuzzTreeNodes(slot.weakRuntime?.root) {
                seen[ObjectIdentifier(node)] = "rt\(r)"
            }
        }
        var ids: Set<FlowSceneID> = []
        for scene in app.scenes {
            if !ids.insert(scene.id).inserted { return "scene \(scene.id) is listed twice" }
            if scene.phase.isGone { return "scene \(scene.id) is \(scene.phase) but listed" }
            if scene.phase.isConnected {
                if scene.runtime == nil && !scene.isRestoring {
                    return "scene \(scene.id) is \(scene.phase) without a tree"
                }
                if let runtime = scene.runtime, !runtime.isRunning {
                    return "scene \(scene.id) is \(scene.phase) with a stopped runtime"
                }
            } else if scene.runtime != nil {
                return "scene \(scene.id) is \(scene.phase) and keeps a runtime"
            }
            for node in fuzzTreeNodes(scene.runtime?.root) {
                if let other = seen.updateValue("scene \(scene.id)", forKey: ObjectIdentifier(node))
                {
                    return "node \(node.path) is in scene \(scene.id) and in \(other)"
                }
            }
        }
        for id in scenes.gone.sorted() where scenes.store.scenes[id] != nil {
            return "scene \(id) is gone but its snapshot stays"
        }
        // Each window's platform shows its tree once idle, and was never called illegally.
        let host = scenes.host
        for scene in app.scenes {
            guard let runtime = scene.runtime, runtime.isRunning,
                let platform = host.platforms[scene.id]
            else { continue }
            platform.runUntilIdle()
            // A presentation whose presenter is not on screen (a covered entry) waits, as
            // UIKit cannot present from there: its subtree is not shown, by design.
            let waiting = (host.transitions[scene.id]?.offScreenPresentations ?? [])
                .flatMap(fuzzTreeNodes).map { "\($0.id)" }
            let differences = platform.differences(from: runtime).filter { line in
                !waiting.contains { line.contains($0) }
            }
            if let difference = differences.first {
                return "scene \(scene.id): its window does not show its tree: \(difference)"
            }
        }
        let illegal =
            host.retiredIllegalCalls
            + host.platforms.keys.sorted().flatMap { id in
                host.platforms[id]!.illegalCalls.map { "\(id): \($0)" }
            }
        if let call = illegal.first { return "illegal platform call in a window: \(call)" }
        return nil
    }

    /// Everything that must be released by now is (after the tasks cancelled have ended).
    func sceneCensus() async -> String? {
        var yields = 0
        while scenes.mustGo.contains(where: { $0.object != nil }) && yields < 2_000 {
            await Task.yield()
            yields += 1
        }
        let left = scenes.mustGo.filter { $0.object != nil }.map(\.label)
        scenes.mustGo = []
        scenes.made.removeAll { $0.object == nil }
        return left.isEmpty ? nil : "still alive: \(left.prefix(8).joined(separator: ", "))"
    }

    /// The end of an episode: the app is let go, and everything it made must be released.
    func finishScenes() async -> FuzzFailure? {
        scenes.releaseApp()
        scenes.mustGo = scenes.made
        if let problem = await sceneCensus() {
            return FuzzFailure(
                signature: "scene leak after the episode", message: problem, step: steps)
        }
        return nil
    }
}
