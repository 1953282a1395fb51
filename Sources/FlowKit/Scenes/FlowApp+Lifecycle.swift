extension FlowApp {
    /// The platform connected a scene (`scene(_:willConnectTo:options:)`, a SwiftUI window
    /// appearing): builds its tree with the factory registered for its value and starts it,
    /// restored from a snapshot where `restoration` says so.
    ///
    ///     try app.connect("window-2", value: FlowRoute(Window.book(id: 12)), restoration: .none)
    ///     try app.connect("window-1")      // reclaimed earlier: restored from the store
    ///
    /// The scene is ``FlowScenePhase/connected``. Links that wait for it (the host opened it
    /// for them, or it was reconnected for a unique value) run once its tree is restored.
    ///
    /// - Parameters:
    ///   - id: The scene's persistent identity. A disconnected scene with this identity comes
    ///     back (the same ``FlowScene``).
    ///   - value: The scene's value; `nil`: the one its snapshot or its disconnected record
    ///     says.
    ///   - restoration: Where its tree comes from; by default the store's snapshot, if any.
    /// - Returns: The connected scene.
    /// - Throws: ``FlowSceneError``: `alreadyConnected`, `unknownSceneValue`,
    ///   `noSceneFactory`, `factoryFailed`, `restorationFailed` (the snapshot's error),
    ///   `storeFailed`. Then nothing changed: no scene was added or changed, every node built
    ///   was released, and the store is as it was.
    @discardableResult
    public func connect(
        _ id: FlowSceneID, value: FlowRoute? = nil, restoration: FlowSceneRestoration = .stored
    ) throws -> FlowScene {
        let existing = scene(id)
        if let existing, existing.phase.isConnected { throw FlowSceneError.alreadyConnected(id) }
        var snapshot: FlowSceneSnapshot?
        var movedFrom: FlowScene?
        switch restoration {
        case .none, .later:
            break
        case .stored:
            snapshot = try _load(id)
        case .storedUnder(let old):
            snapshot = try _load(old)
            movedFrom = scene(old).flatMap { $0.phase == .disconnected ? $0 : nil }
        case .snapshot(let given):
            snapshot = given
        }
        let sceneValue =
            try value ?? snapshot.map { try _decodeValue($0.value, scene: id) }
            ?? existing?.value ?? movedFrom?.value
        guard let sceneValue else { throw FlowSceneError.unknownSceneValue(id) }
        guard let kind = _kind(of: sceneValue) else {
            throw FlowSceneError.noSceneFactory(value: "\(sceneValue)")
        }
        let scene: FlowScene
        if let existing, existing.value == sceneValue {
            scene = existing
        } else {
            scene = FlowScene(id: id, value: sceneValue, app: self, kind: kind, order: _nextCount())
        }
        let runtime: FlowRuntime?
        let note: String
        if case .later = restoration {
            runtime = try kind.placeholder.map { try _run(scene, root: $0(sceneValue)) }
            note = "waiting for restoration data"
        } else {
            runtime = try _startTree(of: scene, restoring: snapshot?.tree)
            note = snapshot == nil ? "fresh" : "restored"
        }
        // Nothing can fail from here on.
        if let movedFrom, movedFrom.id != id {
            _remove(movedFrom)
            _storeDelete(movedFrom.id)
            if let snapshot {
                var moved = snapshot
                moved.scene = id
                _storeSave(moved, scene: id)
            }
        }
        if let existing, existing !== scene { _remove(existing) }
        if !scenes.contains(where: { $0 === scene }) { _add(scene) }
        scene.runtime = runtime
        scene.phase = .connected
        if case .later = restoration { scene.isRestoring = true } else { scene.isRestoring = false }
        _record(.scene(id, phase: .connected, note: "\(sceneValue), \(note)"))
        if case .none = restoration,
            let index = _opening.firstIndex(where: { $0.value == sceneValue })
        {
            scene._waitingLinks += _opening.remove(at: index).links
        }
        _runWaitingLinks()
        _checkInvariants()
        return scene
    }

    /// The platform reports `fact` about a connected (or disconnected) scene; the rules table
    /// of <doc:Scenes> says what each does.
    ///
    ///     try app.report(.enterBackground, for: "window-1")   // snapshot saved
    ///     try app.report(.disconnect, for: "window-1")        // saved again, tree stopped
    ///     try app.report(.discard, for: "window-1")           // snapshot deleted, scene gone
    ///
    /// - Throws: ``FlowSceneError/noSuchScene(_:)`` for an unknown or gone scene;
    ///   ``FlowSceneError/illegalFact(scene:phase:fact:)`` for a fact the platform never
    ///   reports in the scene's phase. Then nothing changed.
    public func report(_ fact: FlowSceneFact, for id: FlowSceneID) throws {
        guard let scene = scene(id) else { throw FlowSceneError.noSuchScene(id) }
        guard let next = fact.phase(from: scene.phase) else {
            throw FlowSceneError.illegalFact(scene: id, phase: scene.phase, fact: fact)
        }
        var note = ""
        switch fact {
        case .activate:
            scene._lastActivation = _nextCount()
        case .enterBackground:
            note = _saveSnapshot(of: scene) ? "snapshot saved" : ""
        case .disconnect:
            note = _saveSnapshot(of: scene) ? "snapshot saved, tree stopped" : "tree stopped"
            _stopTree(of: scene)
            // Data for a scene that waited for it belongs to the connection that ended: a
            // reconnect restores from the store (found by the random test).
            scene.isRestoring = false
        case .discard:
            _storeDelete(id)
            _remove(scene)
            note = "snapshot deleted"
        case .close:
            _stopTree(of: scene)
            _storeDelete(id)
            _remove(scene)
            note = "tree stopped, snapshot deleted"
        case .enterForeground, .deactivate:
            break
        }
        scene.phase = next
        _record(.scene(id, phase: next, note: note))
        switch fact {
        case .enterBackground, .disconnect, .discard, .close: _saveAppSnapshot()
        case .enterForeground, .activate, .deactivate: break
        }
        if !next.isConnected && !scene._waitingLinks.isEmpty {
            // Links waiting for a scene that left are routed again.
            let links = scene._waitingLinks
            scene._waitingLinks = []
            for link in links { _waitingLinks.append((link, nil)) }
        }
        _runWaitingLinks()
        _checkInvariants()
    }

    /// The platform handed over the restoration data a scene connected with
    /// ``FlowSceneRestoration/later`` waits for: its tree is built and restored (the
    /// placeholder's tree stops), then the links waiting for it run.
    ///
    /// - Parameters:
    ///   - id: The restoring scene.
    ///   - snapshot: The data; `nil`: there is none (the scene starts fresh).
    /// - Throws: ``FlowSceneError/noSuchScene(_:)``, ``FlowSceneError/notRestoring(_:)``,
    ///   or the errors of ``connect(_:value:restoration:)`` for the snapshot; then nothing
    ///   changed (the scene still waits, showing its placeholder), and the platform may call
    ///   again (with `nil` to start fresh).
    public func restorationDidArrive(for id: FlowSceneID, snapshot: FlowSceneSnapshot?) throws {
        guard let scene = scene(id) else { throw FlowSceneError.noSuchScene(id) }
        guard scene.phase.isConnected, scene.isRestoring else {
            throw FlowSceneError.notRestoring(id)
        }
        let runtime = try _startTree(of: scene, restoring: snapshot?.tree)
        _stopTree(of: scene)
        scene.runtime = runtime
        scene.isRestoring = false
        _record(
            .scene(
                id, phase: scene.phase,
                note: snapshot == nil ? "no restoration data: fresh" : "restored from late data"))
        _runWaitingLinks()
        _checkInvariants()
    }

    /// The scenes the app had when it last saved its own snapshot (on background,
    /// disconnect, discard and close), for a launch that reopens windows itself.
    ///
    /// - Throws: ``FlowSceneError/storeFailed(operation:error:)``.
    public func savedScenes() throws -> [FlowAppSnapshot.Scene] {
        do {
            return try store.appSnapshot()?.scenes ?? []
        } catch {
            throw FlowSceneError.storeFailed(operation: "read the app snapshot", error: "\(error)")
        }
    }

    // MARK: Trees

    /// Builds a scene's tree and starts it, restoring `tree` if given. Throws leaving nothing
    /// behind (the runtime and its nodes are released).
    func _startTree(of scene: FlowScene, restoring tree: FlowSnapshot?) throws -> FlowRuntime {
        let root: FlowController
        do {
            root = try scene._kind.build(scene.value, scene)
        } catch {
            throw FlowSceneError.factoryFailed(value: "\(scene.value)", error: "\(error)")
        }
        return try _run(scene, root: root, restoring: tree)
    }

    /// A runtime for `root` in `scene`, started (restoring `tree`, if given).
    func _run(
        _ scene: FlowScene, root: FlowController, restoring tree: FlowSnapshot? = nil
    ) throws -> FlowRuntime {
        let runtime: FlowRuntime
        do {
            runtime = try FlowRuntime(root: root, host: host?.flowHost(for: scene))
        } catch {
            throw FlowSceneError.factoryFailed(value: "\(scene.value)", error: "\(error)")
        }
        runtime._scene = scene
        for observer in _runtimeObservers { observer(scene, runtime) }
        do {
            if let tree {
                try runtime.start(restoring: tree, routeTypes: routeTypes)
            } else {
                try runtime.start()
            }
        } catch {
            throw FlowSceneError.restorationFailed(scene: scene.id, error: "\(error)")
        }
        return runtime
    }

    /// Stops and releases a scene's tree (exit hooks run, innermost first).
    func _stopTree(of scene: FlowScene) {
        guard let runtime = scene.runtime else { return }
        scene.runtime = nil
        if runtime.isRunning { try? runtime.stop() }
    }

    // MARK: Store

    func _load(_ id: FlowSceneID) throws -> FlowSceneSnapshot? {
        do {
            return try store.snapshot(of: id)
        } catch {
            throw FlowSceneError.storeFailed(operation: "read scene \(id)", error: "\(error)")
        }
    }

    func _decodeValue(_ stored: FlowSnapshot.Route, scene: FlowSceneID) throws -> FlowRoute {
        for kind in _kinds.values where kind.typeName == stored.type {
            do {
                return try kind.decode(stored.value)
            } catch {
                throw FlowSceneError.restorationFailed(
                    scene: scene, error: "its value does not decode as \(stored.type): \(error)")
            }
        }
        throw FlowSceneError.noSceneFactory(value: stored.type)
    }

    /// Saves a connected scene's snapshot; `false` (reported) if it could not be made.
    func _saveSnapshot(of scene: FlowScene) -> Bool {
        guard !scene.isRestoring, let runtime = scene.runtime, runtime.isRunning else {
            return false
        }
        do {
            let snapshot = FlowSceneSnapshot(
                scene: scene.id, value: try scene._storedValue(),
                tree: try runtime.snapshot())
            try store.save(snapshot)
            return true
        } catch {
            _report(
                FlowFailure(.other("save snapshot"), node: "scene \(scene.id)", error: error),
                scene: scene.id)
            return false
        }
    }

    func _storeSave(_ snapshot: FlowSceneSnapshot, scene: FlowSceneID) {
        do {
            try store.save(snapshot)
        } catch {
            _report(
                FlowFailure(.other("save snapshot"), node: "scene \(scene)", error: error),
                scene: scene)
        }
    }

    func _storeDelete(_ id: FlowSceneID) {
        do {
            try store.deleteSnapshot(of: id)
        } catch {
            _report(
                FlowFailure(.other("delete snapshot"), node: "scene \(id)", error: error),
                scene: id)
        }
    }

    func _saveAppSnapshot() {
        do {
            var entries: [FlowAppSnapshot.Scene] = []
            for scene in scenes {
                entries.append(
                    FlowAppSnapshot.Scene(
                        id: scene.id, value: try scene._storedValue(),
                        phase: scene.phase))
            }
            try store.save(FlowAppSnapshot(scenes: entries, focused: focusedScene?.id))
        } catch {
            _report(FlowFailure(.other("save app snapshot"), node: name, error: error), scene: nil)
        }
    }
}
