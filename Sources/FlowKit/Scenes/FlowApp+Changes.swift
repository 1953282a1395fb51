extension FlowApp {
    /// Sends an app-wide event (sign-out) to every connected scene, as one traced operation:
    /// one ``FlowAppRecord/broadcast(event:scenes:)`` record, then the event from each
    /// scene's focused node, scene by scene in connection order.
    ///
    ///     app.dependencies.removeValue(for: AccountKey.self)   // every tree sees it gone
    ///     app.broadcast(SignOut())                              // each tree follows its guards
    ///
    /// Each scene's tree handles it as it would any event (its own guards decide what it
    /// shows next); what goes past a scene's root reaches the app's handler for it, once per
    /// scene, with that scene (a handler that closes secondary scenes:
    /// ``requestClose(_:)``). Disconnected scenes have no tree: their snapshots are restored
    /// through the same guards when they come back, so a signed-out app restores signed out.
    ///
    /// - Returns: The scenes the event was sent to.
    @discardableResult
    public func broadcast<Event: FlowEvent>(_ event: Event) -> [FlowSceneID] {
        let targets = scenes.filter { $0.phase.isConnected && $0.runtime?.isRunning == true }
        let ids = targets.map(\.id)
        _record(.broadcast(event: event.traceName, scenes: ids))
        for scene in targets {
            scene.runtime?.send(event)
        }
        return ids
    }

    /// Moves a screen to a new scene ("open in new window", a tab or a detail dragged out):
    /// the host is asked to open a scene for the link's scene value, which builds the screen
    /// from the link's path once connected. Nodes never move: the new scene builds its own.
    ///
    ///     try app.openInNewScene(bookLink, from: "window-1", removingFromSource: true)
    ///
    /// - Parameters:
    ///   - link: The route to show (its ``FlowLink/target``) and the path that builds it in
    ///     the new scene; its ``FlowLink/sceneValue`` says which scene to open.
    ///   - source: The scene that shows it now.
    ///   - removingFromSource: Whether the source scene stops showing it: a stack entry
    ///     with the target's route is popped (with what is above it), a presented node is
    ///     dismissed, as one change whose exit guards decide.
    /// - Throws: ``FlowSceneError/noSuchScene(_:)``; ``FlowSceneError/routeNotFound(route:scene:)``
    ///   when the source does not show the target (with `removingFromSource`);
    ///   ``FlowSceneError/unroutable(link:reasons:)`` without a scene value, a factory for it
    ///   or a host; the pop's ``FlowError`` (an exit guard refused). Then nothing changed.
    public func openInNewScene(
        _ link: FlowLink, from source: FlowSceneID, removingFromSource: Bool
    ) throws {
        guard let scene = scene(source), scene.phase.isConnected else {
            throw FlowSceneError.noSuchScene(source)
        }
        guard let value = link.sceneValue, _kind(of: value) != nil, let host else {
            let reason =
                link.sceneValue == nil
                ? "the link has no scene value"
                : _kind(of: link.sceneValue!) == nil
                    ? "no scene factory builds \(link.sceneValue!)" : "no scene host"
            throw FlowSceneError.unroutable(link: link.description, reasons: [reason])
        }
        let target = link.target.map { "\($0)" } ?? link.description
        if removingFromSource {
            guard let route = link.target, let runtime = scene.runtime,
                let node = runtime.activeNodes.last(where: { $0.route == route })
            else { throw FlowSceneError.routeNotFound(route: target, scene: source) }
            if node.isPresented, let presenter = node.parent {
                try presenter.dismiss()
            } else if let stack = node.parent as? FlowStack,
                let index = stack.entries.firstIndex(where: { $0 === node }), index > 0
            {
                try stack.pop(to: stack.entries[index - 1])
            } else {
                throw FlowSceneError.routeNotFound(
                    route: "\(target) as a stack entry or sheet", scene: source)
            }
        }
        _record(.moved(route: target, from: source, removed: removingFromSource))
        _opening.append((value, [link]))
        host.openScene(value: value)
    }
}
