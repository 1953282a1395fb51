import FlowKit

/// The demo's windows, on FlowKit's scenes (``FlowApp``): each window is a scene with a tree
/// of its own (an ``AppRoot``), built by the factory registered for ``DemoWindow``; the
/// terminal is the platform (``DemoWindowPlatform``) and shows the focused window.
///
/// - `window new [link]` opens a window (with a link: ``FlowApp/openInNewScene(_:from:removingFromSource:)``,
///   the new window builds the link's screens from its route); `windows` lists them;
///   `window N` brings window N forward (reconnecting it if the system reclaimed it);
///   `close` closes the focused window (a sheet first, if one is shown); `reclaim N` is the
///   system reclaiming window N in the background (snapshot saved, tree stopped and released).
/// - `open <link>` goes through the app's router: to a window that shows the link's target,
///   else the focused window (then the others), else a new window; the demo says which and why.
/// - `logout` with several windows signs out every window at once (``FlowApp/broadcast(_:)``):
///   the main window shows sign-in, the others close.
extension DemoApp {
    /// The focused window's screen and pipeline.
    var focusedHosts: DemoWindowPlatform.Hosts {
        windows.focusedScene.flatMap { platform.hosts[$0.id] } ?? idleHosts
    }

    /// The windows that have a tree (in the order they were opened).
    var connectedWindows: [FlowScene] { windows.scenes.filter { $0.phase.isConnected } }

    /// The window bar: every window by number, the focused one in brackets, a reclaimed one
    /// marked; `nil` while there is one window.
    var windowBar: String? {
        guard windows.scenes.count > 1 else { return nil }
        return windows.scenes.map { scene in
            let name = "\(scene.id) \(windowTitle(scene))"
            return scene.isFocused ? "[\(name)]" : name
        }.joined(separator: " · ")
    }

    /// What a window shows, in a word or two: its focused screen's title, `reclaimed`.
    func windowTitle(_ scene: FlowScene) -> String {
        guard scene.phase.isConnected else { return "reclaimed" }
        guard let screen = scene.runtime?.focusedNode as? any DemoScreen else { return "" }
        return screen.title
    }

    // MARK: The platform

    /// Connects window `id` (a new number when `nil`), sets its runtime up and brings it
    /// forward. A new window shows the tabs signed in as ``signedInAccount`` if someone is
    /// (a session of its own).
    @discardableResult
    func connectWindow(
        _ id: FlowSceneID?, value: DemoWindow?, restoration: FlowSceneRestoration
    ) throws -> FlowScene {
        let id = id ?? FlowSceneID(String(nextWindowNumber))
        nextWindowNumber = max(nextWindowNumber, (Int(id.rawValue) ?? 0) + 1)
        if case .none = restoration { accountForNewWindow = signedInAccount }
        defer { accountForNewWindow = nil }
        let scene = try windows.connect(
            id, value: value.map { FlowRoute($0) }, restoration: restoration)
        if let runtime = scene.runtime { configure(runtime) }
        if windows.scenes.count > 1 { showsWindows = true }
        bringForward(scene)
        return scene
    }

    /// The root of a new window: an ``AppRoot``, showing a main flow already when someone is
    /// signed in (``accountForNewWindow``).
    func makeWindowRoot() -> FlowController {
        let root = AppRoot(counter: liveNodes)
        if let account = accountForNewWindow {
            do {
                try root.switch(
                    to: MainFlow(counter: liveNodes, session: UserSession(account: account)))
            } catch {
                preconditionFailure("DemoApp: a new root takes a main flow: \(error)")
            }
        }
        return root
    }

    /// Who is signed in: in the focused window, else in the first window where someone is.
    var signedInAccount: Account? {
        let ordered = (windows.focusedScene.map { [$0] } ?? []) + connectedWindows
        for scene in ordered {
            if let main = (scene.runtime?.root as? AppRoot)?.current as? MainFlow,
                let session = main.session
            {
                return session.account
            }
        }
        return nil
    }

    /// The platform's facts that bring `scene` forward: the focused window resigns and goes
    /// to the background (its snapshot is saved), `scene` comes to the foreground and
    /// becomes active.
    func bringForward(_ scene: FlowScene) {
        guard scene.phase.isConnected, !scene.isFocused else { return }
        if let current = windows.focusedScene {
            report(.deactivate, current)
            report(.enterBackground, current)
        }
        if scene.phase != .inactive { report(.enterForeground, scene) }
        report(.activate, scene)
        if let runtime = scene.runtime { lastRuntime = runtime }
    }

    /// Reports a fact the demo's platform only reports where it is legal.
    func report(_ fact: FlowSceneFact, _ scene: FlowScene) {
        do {
            try windows.report(fact, for: scene.id)
        } catch {
            preconditionFailure("DemoApp: the platform reported \(fact) illegally: \(error)")
        }
    }

    /// Carries out what the app asked of the platform during the command: opens, closes and
    /// brings forward windows, and reports each to the app.
    func processWindowRequests() {
        while !platform.requests.isEmpty {
            switch platform.requests.removeFirst() {
            case .open(let value):
                do {
                    let scene = try connectWindow(
                        nil, value: value.value(as: DemoWindow.self), restoration: .none)
                    var note = "a tree of its own"
                    if let main = (scene.runtime?.root as? AppRoot)?.current as? MainFlow,
                        let session = main.session
                    {
                        note =
                            "\(session.account.displayName) is signed in there too, a session of its own"
                    }
                    console.write("Window \(scene.id) opened (\(note)).", style: .success)
                } catch {
                    console.write("Could not open a window: \(error)", style: .error)
                }
            case .close(let id):
                closeNow(id)
            case .activate(let id):
                guard let scene = windows.scene(id) else { continue }
                guard scene.phase == .disconnected else {
                    bringForward(scene)
                    continue
                }
                do {
                    try connectWindow(id, value: nil, restoration: .stored)
                    console.write(
                        "Window \(id) is back with its screens (restored from its snapshot).",
                        style: .success)
                } catch {
                    console.write("Could not bring window \(id) back: \(error)", style: .error)
                }
            }
        }
    }

    /// The platform closes window `id`: a connected window closes (its tree stops, its
    /// snapshot is deleted), a reclaimed one is discarded. If it was focused, the main window
    /// (else the last one opened) comes forward.
    func closeNow(_ id: FlowSceneID) {
        guard let scene = windows.scene(id) else { return }
        let wasFocused = scene.isFocused
        if scene.phase == .disconnected {
            report(.discard, scene)
            console.write("Window \(id) (reclaimed) is discarded: its snapshot is deleted.")
        } else {
            report(.close, scene)
            console.write("Window \(id) closed: its tree stopped, its snapshot is deleted.")
        }
        platform.forget(id)
        guard wasFocused else { return }
        let next =
            connectedWindows.first { $0.value == FlowRoute(DemoWindow.main) }
            ?? connectedWindows.last
        if let next { return bringForward(next) }
        reconnectMainWindow()
    }

    /// The platform brings the main window back when the system had reclaimed it: restored
    /// from its snapshot, in front.
    func reconnectMainWindow() {
        guard let main = windows.scenes.first(where: { $0.value == FlowRoute(DemoWindow.main) }),
            main.phase == .disconnected
        else { return }
        do {
            try connectWindow(main.id, value: nil, restoration: .stored)
            console.write(
                "Window \(main.id) is back with its screens (restored from its snapshot).",
                style: .success)
        } catch {
            console.write("Could not bring window \(main.id) back: \(error)", style: .error)
        }
    }

    // MARK: Links

    /// `open <link>` through the app's router: the decision, in words.
    func routeLink(_ text: String, steps: [FlowStep]) {
        let link = FlowLink(steps, sceneValue: FlowRoute(DemoWindow.extra))
        let shown = link.target.map { target in
            connectedWindows.contains { scene in
                scene.runtime?.activeNodes.contains { $0.route == target } ?? false
            }
        }
        if shown != true { dismissSheetLeftBehind(by: steps) }
        let before = windows.focusedScene?.id
        var skipped: [String] = []
        let watch = windows.trace.addObserver { record in
            guard case .app(.skipped(_, let scene, let reason)) = record else { return }
            skipped.append("Window \(scene) does not take it: \(reason).")
        }
        defer { windows.trace.removeObserver(watch) }
        do {
            let decision = try windows.open(link)
            let scene = decision.scene.flatMap(windows.scene)
            let redirected = scene?.runtime?.redirectedIntent != nil
            if decision.rule == .opensScene {
                console.write(skipped, style: .notice)
                console.write("No window takes \(text): \(decision.reason).", style: .notice)
            } else if !showsWindows {
                console.write(
                    redirected
                        ? "Sign in first: \(text) opens once you have signed in."
                        : "Opened \(text).", style: redirected ? .notice : .success)
            } else {
                console.write(skipped, style: .notice)
                let window = decision.scene.map { "window \($0)" } ?? "a window"
                var first = redirected ? " (sign in there first)" : ""
                if decision.scene != before { first += ", brought forward" }
                console.write(
                    "Opened \(text) in \(window)\(first): \(decision.reason).", style: .success)
            }
        } catch {
            console.write("Cannot open \(text): \(error)", style: .error)
        }
    }

    // MARK: Trace

    /// `trace`: every window's trace (and, with several windows, the app's) as it happens.
    func toggleTrace() {
        isTracing.toggle()
        if isTracing {
            for scene in connectedWindows {
                if let runtime = scene.runtime { observeTrace(of: runtime) }
            }
            appTraceObservation = windows.trace.addObserver { [weak self, console] record in
                guard self?.showsWindows == true else { return }
                console.write("  app: \(record.description)", style: .trace)
            }
            console.write("Trace on: FlowKit's trace lines follow as they happen.")
        } else {
            for (runtime, observation) in traceObservations {
                runtime.value?.trace.removeObserver(observation)
            }
            traceObservations = []
            if let appTraceObservation { windows.trace.removeObserver(appTraceObservation) }
            appTraceObservation = nil
            console.write("Trace off.")
        }
    }

    /// Prints `runtime`'s trace lines while the trace is on; with several windows, a window's
    /// lines other than the focused one's say which window.
    func observeTrace(of runtime: FlowRuntime) {
        let observation = runtime.trace.addObserver {
            [weak self, weak runtime, console] record in
            var label = "trace"
            if let self, self.showsWindows, let runtime, runtime !== self.runtime,
                let scene = self.windows.scenes.first(where: { $0.runtime === runtime })
            {
                label = "trace (window \(scene.id))"
            }
            console.write("  \(label): \(record.description)", style: .trace)
        }
        traceObservations.append((WeakRuntime(runtime), observation))
    }
}

/// A runtime held weakly (a window's runtime the trace observes).
struct WeakRuntime {
    weak var value: FlowRuntime?

    init(_ value: FlowRuntime) { self.value = value }
}
