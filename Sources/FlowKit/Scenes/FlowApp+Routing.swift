extension FlowApp {
    /// Routes a link from outside (a URL, a user activity, a notification tap, a quick
    /// action) to one scene, by the router's policy, in this order (see <doc:Scenes>):
    ///
    /// 1. **duplicate**: a delivery identity seen before in this launch runs once;
    /// 2. **waitsForRestoration**: while a scene is still restoring, the link waits, then is
    ///    routed;
    /// 3. **showsTarget**: a scene that shows the link's target (an active node has its
    ///    route) navigates its path and is brought forward;
    /// 4. **uniqueValue**: where the link's scene value is unique, the scene with that value
    ///    takes it (brought forward; a disconnected one is reconnected and the link waits);
    /// 5. **resolvesRoute**: a scene whose kind accepts the link and whose tree navigates
    ///    its path (or redirects it: sign-in first, the link carried on after, in that
    ///    scene): the scene that received it, the focused one, then the others, most
    ///    recently active first;
    /// 6. **opensScene**: the host is asked to open a scene for the link's scene value;
    ///    the link runs there once it is connected;
    /// 7. **refused**: ``FlowSceneError/unroutable(link:reasons:)``.
    ///
    /// Among scenes, the focused scene comes first, then the most recently active. Each
    /// decision, and each scene skipped on the way, is a record of ``trace``.
    ///
    /// - Parameters:
    ///   - link: The link.
    ///   - delivery: The delivery's identity, if the platform gives one (see
    ///     ``FlowDeliveryID``).
    ///   - receivedBy: The scene the platform delivered it to (`scene(_:openURLContexts:)`),
    ///     tried first among the scenes that can resolve it.
    /// - Returns: The decision.
    /// - Throws: ``FlowSceneError/unroutable(link:reasons:)`` when nothing can take it; then
    ///   nothing changed (the delivery is not remembered either).
    @discardableResult
    public func open(
        _ link: FlowLink, delivery: FlowDeliveryID? = nil, receivedBy: FlowSceneID? = nil
    ) throws -> FlowRoutingDecision {
        if let delivery, _deliveries.contains(delivery) {
            return _decide(
                link.description, .duplicate, nil, "delivery \(delivery) ran already in this launch"
            )
        }
        if let restoring = scenes.first(where: { $0.phase.isConnected && $0.isRestoring }) {
            if let delivery { _deliveries.insert(delivery) }
            _waitingLinks.append((link, receivedBy))
            return _decide(
                link.description, .waitsForRestoration, restoring.id,
                "scene \(restoring.id) is restoring: routed once it is restored")
        }
        let decision = try _route(link, receivedBy: receivedBy)
        if let delivery { _deliveries.insert(delivery) }
        return decision
    }

    /// Routes a command (a menu command, a keyboard shortcut) to the focused scene: it is
    /// sent from that scene's focused node, and goes past its root to the app's handlers
    /// (``on(_:handler:)``) if no node handles it.
    ///
    /// - Throws: ``FlowSceneError/noFocusedScene`` when no scene is active; nothing is sent.
    @discardableResult
    public func perform<Event: FlowEvent>(
        _ command: Event, delivery: FlowDeliveryID? = nil
    ) throws -> FlowRoutingDecision {
        let text = { "command \(command.traceName)" }
        if let delivery, _deliveries.contains(delivery) {
            return _decide(
                text(), .duplicate, nil, "delivery \(delivery) ran already in this launch")
        }
        guard let focused = focusedScene, let runtime = focused.runtime else {
            _ = _decide(text(), .refused, nil, "no scene is active")
            throw FlowSceneError.noFocusedScene
        }
        if let delivery { _deliveries.insert(delivery) }
        let decision = _decide(text(), .focusedScene, focused.id, "the focused scene")
        runtime.send(command)
        return decision
    }

    // MARK: The policy

    /// Rules 3 to 7 of ``open(_:delivery:receivedBy:)``.
    func _route(_ link: FlowLink, receivedBy: FlowSceneID?) throws -> FlowRoutingDecision {
        let focused = focusedScene
        // 3. A scene that shows the target: of those, the focused one, else the most recently
        // active (one pass, in connection order, so the first connected wins a tie; nothing
        // allocated).
        if let target = link.target {
            var shows: FlowScene?
            var best = Int.min
            for scene in scenes where scene._isRoutable {
                let rank = scene === focused ? Int.max : scene._lastActivation
                if rank > best, scene._shownNode(target) != nil {
                    shows = scene
                    best = rank
                }
            }
            if let scene = shows {
                let note = _focusTarget(link, in: scene)
                _bringForward(scene)
                return _decide(
                    link.description, .showsTarget, scene.id, "it shows \(target)\(note)")
            }
        }
        // 4. The scene of a unique value.
        if let value = link.sceneValue, let kind = _kind(of: value), kind.uniqueValues,
            let scene = scenes.first(where: { $0.value == value })
        {
            if scene.phase == .disconnected {
                scene._waitingLinks.append(link)
                host?.activateScene(scene.id)
                return _decide(
                    link.description, .uniqueValue, scene.id,
                    "it has the unique value \(value) and is disconnected: reconnecting")
            }
            if let failure = _navigate(link, in: scene) {
                _record(.skipped(delivery: link.description, scene: scene.id, reason: failure))
            } else {
                _bringForward(scene)
                return _decide(
                    link.description, .uniqueValue, scene.id, "it has the unique value \(value)")
            }
        }
        // 5. A scene that resolves the route.
        var candidates = _scenesByRecency(focused: focused)
        if let receivedBy, let index = candidates.firstIndex(where: { $0.id == receivedBy }) {
            candidates.insert(candidates.remove(at: index), at: 0)
        }
        var reasons: [String] = []
        for scene in candidates {
            let rank =
                scene.id == receivedBy
                ? "it received the link" : scene === focused ? "the focused scene" : "an open scene"
            if let accepts = scene._kind.accepts, !accepts(link) {
                let reason = "its kind does not take the link"
                _record(.skipped(delivery: link.description, scene: scene.id, reason: reason))
                reasons.append("scene \(scene.id): \(reason)")
                continue
            }
            var then = ""
            switch _attempt(link, in: scene) {
            case .failed(let failure):
                _record(.skipped(delivery: link.description, scene: scene.id, reason: failure))
                reasons.append("scene \(scene.id): \(failure)")
                continue
            case .redirected(let target):
                then = ", after \(target) (redirected by a guard)"
            case .done:
                break
            }
            _bringForward(scene)
            return _decide(
                link.description, .resolvesRoute, scene.id, "\(rank) resolves the route\(then)")
        }
        // 6. A new scene.
        if let value = link.sceneValue, _kind(of: value) != nil, let host {
            if let index = _opening.firstIndex(where: { $0.value == value }),
                _kind(of: value)!.uniqueValues
            {
                _opening[index].links.append(link)
            } else {
                _opening.append((value, [link]))
                host.openScene(value: value)
            }
            return _decide(
                link.description, .opensScene, nil,
                "no open scene takes it: opening a scene for \(value)")
        }
        if let value = link.sceneValue {
            reasons.append(
                _kind(of: value) == nil
                    ? "no scene factory builds \(value)" : "no scene host to open \(value)")
        }
        _ = _decide(
            link.description, .refused, nil,
            reasons.isEmpty ? "no scene is open" : reasons.joined(separator: "; "))
        throw FlowSceneError.unroutable(link: link.description, reasons: reasons)
    }

    /// Connected scenes with a running tree, not restoring: the focused one first, then the
    /// most recently active, then in connection order.
    func _scenesByRecency(focused: FlowScene?) -> [FlowScene] {
        func rank(_ scene: FlowScene) -> Int {
            scene === focused ? Int.max : scene._lastActivation
        }
        return scenes.filter(\._isRoutable).sorted {
            rank($0) != rank($1) ? rank($0) > rank($1) : $0._order < $1._order
        }
    }

    /// Shows the link in the scene: focuses its target if the scene shows it, else
    /// navigates its path. The failure's text, or `nil` on success.
    func _navigate(_ link: FlowLink, in scene: FlowScene) -> String? {
        if let target = link.target, scene._shownNode(target) != nil {
            _ = _focusTarget(link, in: scene)
            return nil
        }
        if case .failed(let reason) = _attempt(link, in: scene) { return reason }
        return nil
    }

    /// Makes the shown target the focused node (unwinding what is presented or pushed
    /// above it); a note when that was refused (the scene still shows the target).
    func _focusTarget(_ link: FlowLink, in scene: FlowScene) -> String {
        guard let target = link.target, let runtime = scene.runtime,
            let node = scene._shownNode(target), runtime.focusedNode !== node,
            runtime.focusedPath.contains(where: { $0 === node })
        else { return "" }
        do {
            try runtime.unwind(to: node)
            return ""
        } catch {
            return " (what is above it stays: \(error))"
        }
    }

    /// Navigates the link's path in the scene. A guard's redirect is a success: the intent
    /// waits in that scene and is carried on after the redirect's flow finishes.
    func _attempt(_ link: FlowLink, in scene: FlowScene) -> _Attempt {
        guard let runtime = scene.runtime else { return .failed("it has no tree") }
        do {
            try runtime.navigate(to: link.path)
            return .done
        } catch FlowError.redirected(_, let target) {
            return .redirected(target)
        } catch {
            return .failed("\(error)")
        }
    }

    func _bringForward(_ scene: FlowScene) {
        if !scene.isFocused { host?.activateScene(scene.id) }
    }

    /// Records a decision and returns it.
    func _decide(
        _ delivery: @autoclosure () -> String, _ rule: FlowRoutingDecision.Rule,
        _ scene: FlowSceneID?, _ reason: String
    ) -> FlowRoutingDecision {
        let decision = FlowRoutingDecision(rule, scene: scene, reason: reason)
        _record(.routed(delivery: delivery(), decision: decision))
        return decision
    }

    /// Runs the links that can run now: each restored scene's own, then (once no scene is
    /// restoring) the app's, routed again.
    func _runWaitingLinks() {
        for scene in scenes where scene.phase.isConnected && !scene.isRestoring {
            while !scene._waitingLinks.isEmpty {
                let link = scene._waitingLinks.removeFirst()
                if let failure = _navigate(link, in: scene) {
                    _report(
                        FlowFailure(
                            .other("link"), node: "scene \(scene.id)",
                            error: FlowSceneError.unroutable(
                                link: link.description, reasons: [failure])),
                        scene: scene.id)
                } else {
                    _ = _decide(
                        link.description, .resolvesRoute, scene.id,
                        "it was opened or reconnected for the link")
                }
            }
        }
        guard !_waitingLinks.isEmpty,
            !scenes.contains(where: { $0.phase.isConnected && $0.isRestoring })
        else { return }
        let waiting = _waitingLinks
        _waitingLinks = []
        for (link, receivedBy) in waiting {
            do {
                _ = try _route(link, receivedBy: receivedBy)
            } catch {
                _report(FlowFailure(.other("link"), node: name, error: error), scene: nil)
            }
        }
    }
}

/// How navigating a link's path in one scene went.
enum _Attempt {
    case done
    case redirected(String)
    case failed(String)
}
