import FlowKit

extension SimulatedPlatform {
    /// A windowing system as strict as UIKit's scene life cycle, driving a `FlowApp`: the
    /// `FlowSceneHost` of the app, and the system's and the user's own actions on windows.
    ///
    ///     let app = FlowApp()
    ///     try app.register(Window.self) { window, _ in makeWindow(window) }
    ///     let windows = SimulatedPlatform.SceneManager(app: app)
    ///     try windows.launch(FlowRoute(Window.main))         // window "scene-1", active
    ///     try app.open(link)                                   // may ask for a new window
    ///     windows.runUntilIdle()                               // the platform opens it
    ///     try windows.sendToBackground("scene-1")
    ///     try windows.reclaim("scene-1")                       // the system reclaims it
    ///     try windows.reconnect("scene-1", lateData: true)     // back, data after unlock
    ///     try windows.unlock()                                 // the data arrives
    ///     #expect(windows.illegalCalls.isEmpty)
    ///
    /// The app's requests (`FlowSceneHost.openScene(value:)`, `closeScene`,
    /// `activateScene`) are asynchronous, as on the platform: they are queued and carried out
    /// by ``runUntilIdle()``. The system's and the user's actions (``reclaim(_:)``,
    /// ``discard(_:)``, ``userCloses(_:)``, ``sendToBackground(_:)``,
    /// ``bringToForeground(_:)``, ``reconnect(_:lateData:newIdentity:)``, ``unlock()``) report
    /// every fact UIKit reports, in UIKit's order. The rules (the table in the Testing guide):
    ///
    /// - **The system reclaims only scenes in the background** (`sceneDidDisconnect(_:)`:
    ///   "the system may disconnect a scene in the background at any time to reclaim its
    ///   resources"). An action that breaks this throws ``Refusal``.
    /// - **A closed window goes through the whole sequence**: `sceneWillResignActive`,
    ///   `sceneDidEnterBackground`, `sceneDidDisconnect`, then
    ///   `application(_:didDiscardSceneSessions:)`: the app sees `deactivate`,
    ///   `enterBackground`, `disconnect` and `discard`, never a shortcut.
    /// - **A session the app asks for must exist**: `requestSceneSessionActivation` and
    ///   `requestSceneSessionDestruction` with a session that was discarded fail (their
    ///   `errorHandler`): recorded in ``illegalCalls`` as `activate <id>: no such session`.
    /// - **Restoration data of a locked device arrives after unlock** (protected data is
    ///   unavailable until the first unlock): a scene reconnected with `lateData` gets it on
    ///   ``unlock()``.
    /// - **One focused window**: activating a window makes the active one inactive (it stays
    ///   in the foreground), as a key window does on iPadOS.
    @MainActor
    public final class SceneManager: FlowSceneHost {
        /// What a system or user action could not do (the test asked for something the
        /// platform never does).
        public struct Refusal: Error, CustomStringConvertible, Equatable {
            /// Why, with the scene's identity and phase.
            public let description: String
        }

        /// The app the windows belong to.
        public let app: FlowApp
        /// The rules of each window's own ``SimulatedPlatform`` (its navigation stacks, tab
        /// bars and sheets), or `nil` for windows without transitions (their runtimes have no
        /// host).
        public let transitionRules: FlowTransitionRules?
        /// How long each window's transitions take, in virtual milliseconds.
        public let duration: Int
        /// Each connected window's platform, when windows have transitions: the platform of
        /// the runtime the scene has now (a new one each time the scene gets a runtime).
        public private(set) var platforms: [FlowSceneID: SimulatedPlatform] = [:]
        /// What UIKit would have refused of the app's requests, in order.
        public private(set) var illegalCalls: [String] = []
        /// The app's requests as the platform received them (`open book(id: 12)`,
        /// `activate scene-2`, `close scene-3`), in order.
        public private(set) var requests: [String] = []
        /// Requests not carried out yet.
        private var pending: [Request] = []
        /// Snapshots withheld until ``unlock()``, by scene.
        private var locked: [FlowSceneID] = []
        private var nextWindow = 0
        private var retiredIllegalCalls: [String] = []
        /// Scenes this platform discarded or closed.
        private var gone: Set<FlowSceneID> = []

        private enum Request {
            case open(FlowRoute)
            case close(FlowSceneID)
            case activate(FlowSceneID)
        }

        /// A window manager for `app`; it becomes the app's host.
        ///
        /// - Parameters:
        ///   - app: The app.
        ///   - transitionRules: With rules, each window's tree is shown by a
        ///     ``SimulatedPlatform`` of its own through `FlowTransitions`, as strict as
        ///     UIKit; `nil` (the default): no host.
        ///   - duration: How long each window's transitions take.
        public init(
            app: FlowApp, transitionRules: FlowTransitionRules? = nil, duration: Int = 350
        ) {
            self.app = app
            self.transitionRules = transitionRules
            self.duration = duration
            app.host = self
        }

        /// A window's own platform and its `FlowTransitions`, when windows have transitions.
        public func flowHost(for scene: FlowScene) -> (any FlowHost)? {
            guard let transitionRules else { return nil }
            let platform = SimulatedPlatform(rules: transitionRules, duration: duration)
            if let earlier = platforms[scene.id] {
                retiredIllegalCalls += earlier.illegalCalls.map { "\(scene.id): \($0)" }
            }
            platforms[scene.id] = platform
            return FlowTransitions(host: platform)
        }

        /// The illegal calls of every window's platform, each after its scene's identity
        /// (`scene-2: <step>: <why>`): those of platforms replaced since (a scene that got a
        /// new runtime), then the current ones in scene order.
        public var windowIllegalCalls: [String] {
            retiredIllegalCalls
                + platforms.keys.sorted().flatMap { id in
                    platforms[id]!.illegalCalls.map { "\(id): \($0)" }
                }
        }

        /// Whether requests wait to be carried out.
        public var isIdle: Bool { pending.isEmpty }

        // MARK: FlowSceneHost

        /// Queues opening a window for `value` (``launch(_:)`` when carried out).
        public func openScene(value: FlowRoute) {
            requests.append("open \(value)")
            pending.append(.open(value))
        }

        /// Queues closing the window (``userCloses(_:)`` when carried out); an unknown
        /// session is an illegal call.
        public func closeScene(_ id: FlowSceneID) {
            requests.append("close \(id)")
            pending.append(.close(id))
        }

        /// Queues bringing the window forward (reconnected first if it was reclaimed); an
        /// unknown session is an illegal call.
        public func activateScene(_ id: FlowSceneID) {
            requests.append("activate \(id)")
            pending.append(.activate(id))
        }

        /// Carries out the queued requests (and those they cause), in order, then lets every
        /// window's platform finish its transitions.
        public func runUntilIdle() {
            defer {
                for (id, platform) in platforms where app.scene(id)?.runtime != nil {
                    platform.runUntilIdle()
                }
            }
            while !pending.isEmpty {
                let request = pending.removeFirst()
                do {
                    switch request {
                    case .open(let value):
                        try launch(value)
                    case .close(let id):
                        guard app.scene(id) != nil else {
                            illegalCalls.append("close \(id): no such session")
                            continue
                        }
                        try userCloses(id)
                    case .activate(let id):
                        guard let scene = app.scene(id) else {
                            illegalCalls.append("activate \(id): no such session")
                            continue
                        }
                        if scene.phase == .disconnected { try reconnect(id) }
                        try bringToForeground(id)
                    }
                } catch {
                    illegalCalls.append("\(request): \(error)")
                }
            }
        }

        // MARK: The system's and the user's actions

        /// Opens a new window for `value` (the user, or the app's request): connected fresh
        /// as `scene-N`, brought to the foreground and activated.
        @discardableResult
        public func launch(_ value: FlowRoute) throws -> FlowScene {
            nextWindow += 1
            let id = FlowSceneID("scene-\(nextWindow)")
            let scene = try app.connect(id, value: value, restoration: .none)
            try bringToForeground(id)
            return scene
        }

        /// Brings a window forward: `enterForeground` if needed, then `activate`; the window
        /// that was focused resigns (stays in the foreground).
        public func bringToForeground(_ id: FlowSceneID) throws {
            let scene = try connected(id, "bring to the foreground")
            if let focused = app.focusedScene, focused !== scene {
                try app.report(.deactivate, for: focused.id)
            }
            if scene.phase == .connected || scene.phase == .background {
                try app.report(.enterForeground, for: id)
            }
            if scene.phase == .inactive { try app.report(.activate, for: id) }
        }

        /// Sends a window to the background: `deactivate` if it is active, then
        /// `enterBackground`.
        public func sendToBackground(_ id: FlowSceneID) throws {
            let scene = try connected(id, "send to the background")
            if scene.phase == .active { try app.report(.deactivate, for: id) }
            if scene.phase != .background { try app.report(.enterBackground, for: id) }
        }

        /// The system reclaims a window in the background: `disconnect`.
        ///
        /// - Throws: ``Refusal`` unless the scene is in the background.
        public func reclaim(_ id: FlowSceneID) throws {
            let scene = try connected(id, "reclaim")
            guard scene.phase == .background else {
                throw Refusal(
                    description: "reclaim \(id): it is \(scene.phase); the system reclaims "
                        + "only scenes in the background")
            }
            try app.report(.disconnect, for: id)
        }

        /// The system brings a reclaimed window back: connected with its stored snapshot
        /// (under `newIdentity`, if given), or, with `lateData`, waiting for it until
        /// ``unlock()``.
        @discardableResult
        public func reconnect(
            _ id: FlowSceneID, lateData: Bool = false, newIdentity: FlowSceneID? = nil
        ) throws -> FlowScene {
            guard let scene = app.scene(id), scene.phase == .disconnected else {
                throw Refusal(description: "reconnect \(id): no disconnected session")
            }
            if lateData {
                guard newIdentity == nil else {
                    throw Refusal(
                        description: "reconnect \(id): late data under a new identity is not "
                            + "simulated")
                }
                let back = try app.connect(id, value: scene.value, restoration: .later)
                locked.append(id)
                return back
            }
            guard let newIdentity else { return try app.connect(id, restoration: .stored) }
            return try app.connect(newIdentity, restoration: .storedUnder(id))
        }

        /// The device is unlocked: withheld restoration data arrives, scene by scene.
        public func unlock() throws {
            let waiting = locked
            locked = []
            for id in waiting {
                guard let scene = app.scene(id), scene.isRestoring else { continue }
                try app.restorationDidArrive(for: id, snapshot: try app.store.snapshot(of: id))
            }
        }

        /// The system discards a reclaimed window's session: `discard`.
        public func discard(_ id: FlowSceneID) throws {
            guard let scene = app.scene(id), scene.phase == .disconnected else {
                throw Refusal(description: "discard \(id): no disconnected session")
            }
            try app.report(.discard, for: id)
            gone.insert(id)
        }

        /// The user closes a window: `deactivate`, `enterBackground`, `disconnect`, then
        /// `discard`, as UIKit reports them.
        public func userCloses(_ id: FlowSceneID) throws {
            try sendToBackground(id)
            try app.report(.disconnect, for: id)
            try app.report(.discard, for: id)
            gone.insert(id)
        }

        /// What breaks the scenes' contract now, for a test to expect empty after every step
        /// (a random test's oracle): a node in two scenes' trees; a connected scene without a
        /// running tree (unless it waits for restoration data); a disconnected scene with a
        /// tree or, once reclaimed, without a snapshot; a scene this platform discarded or
        /// closed that is still in the app or still has a snapshot; a window's platform that
        /// does not show its tree once idle.
        public func violations() -> [String] {
            var found: [String] = []
            var owner: [FlowNodeID: FlowSceneID] = [:]
            for scene in app.scenes {
                if let runtime = scene.runtime, runtime.isRunning, let root = runtime.root {
                    var pending = [root]
                    while let node = pending.popLast() {
                        if let other = owner.updateValue(scene.id, forKey: node.id) {
                            found.append(
                                "\(node.path) (\(node.id)) is in scenes \(other) and \(scene.id)")
                        }
                        pending.append(contentsOf: node.children)
                        if let presented = node.presentedChild { pending.append(presented) }
                    }
                    if let platform = platforms[scene.id], !platform.isAnimating,
                        !platform.differences(from: runtime).isEmpty
                    {
                        found.append("scene \(scene.id): its platform does not show its tree")
                    }
                } else if scene.phase.isConnected && !scene.isRestoring {
                    found.append("scene \(scene.id) is \(scene.phase) without a running tree")
                }
                if scene.phase == .disconnected {
                    if scene.runtime != nil {
                        found.append("scene \(scene.id) is disconnected with a tree")
                    }
                    if (try? app.store.snapshot(of: scene.id)) == nil {
                        found.append("scene \(scene.id) is disconnected without a snapshot")
                    }
                }
            }
            for id in gone.sorted() {
                if app.scene(id) != nil { found.append("scene \(id) is gone but still in the app") }
                if (try? app.store.snapshot(of: id)) != nil {
                    found.append("scene \(id) is gone but its snapshot is kept")
                }
            }
            return found
        }

        private func connected(_ id: FlowSceneID, _ action: String) throws -> FlowScene {
            guard let scene = app.scene(id), scene.phase.isConnected else {
                throw Refusal(description: "\(action) \(id): no connected scene")
            }
            return scene
        }
    }
}
