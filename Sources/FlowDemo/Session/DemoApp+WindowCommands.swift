import FlowKit

/// The window commands: `window new [link]`, `window N`, `windows`, `close` (with no sheet),
/// `reclaim N`, and `logout` with several windows (see DemoApp+Windows.swift for the windows
/// themselves).
extension DemoApp {
    /// `window new [link]` or `window N`.
    func windowCommand(_ arguments: [String]) {
        guard let first = arguments.first else {
            console.write(
                "Refused: say which; usage: window new [link], or window <n> (see 'windows').",
                style: .error)
            return
        }
        if first.lowercased() == "new" { return newWindow(link: arguments.dropFirst().first) }
        guard arguments.count == 1, let scene = windows.scene(FlowSceneID(first)) else {
            let known = windows.scenes.map(\.id.rawValue).joined(separator: ", ")
            console.write(
                "No window '\(DemoInput.shortened(first, to: 24))': the windows are \(known); "
                    + "nothing changed.", style: .error)
            return
        }
        if scene.isFocused {
            console.write("Window \(scene.id) is already in front.", style: .notice)
            return
        }
        platform.activateScene(scene.id)
        if scene.phase.isConnected {
            console.write("Window \(scene.id) in front.", style: .success)
        }
    }

    /// `window new [link]`: the platform opens a window; with a link, the app moves the
    /// link's route to it (``FlowApp/openInNewScene(_:from:removingFromSource:)``): the new
    /// window builds the screens from the route, nothing moves between trees.
    func newWindow(link text: String?) {
        guard let text else { return platform.openScene(value: FlowRoute(DemoWindow.extra)) }
        guard let focused = windows.focusedScene else { return }
        do {
            let link = FlowLink(try links.steps(for: text), sceneValue: FlowRoute(DemoWindow.extra))
            try windows.openInNewScene(link, from: focused.id, removingFromSource: false)
            console.write(
                "Opening \(text) in a new window: it builds the screens from the link's route.")
        } catch {
            console.write("Cannot open \(text) in a new window: \(error).", style: .error)
        }
    }

    /// `windows`: every window, what it shows and its phase.
    func listWindows() {
        for scene in windows.scenes {
            let mark = scene.isFocused ? "*" : " "
            let kind = scene.value == FlowRoute(DemoWindow.main) ? "main" : "window"
            var path = "no tree: its snapshot is saved"
            if let node = scene.runtime?.focusedNode {
                path = "\((node as? any DemoScreen)?.title ?? node.name) at \(node.path)"
            }
            let phase = scene.phase == .disconnected ? "reclaimed" : "\(scene.phase)"
            console.write("\(mark) \(scene.id)  \(kind), \(phase): \(path)")
        }
        console.write("* marks the focused window; 'window <n>' brings one forward.")
    }

    /// `close` where no sheet is shown: the platform closes the focused window. The main
    /// window stays.
    func closeWindow() {
        guard let scene = windows.focusedScene else { return }
        guard scene.value != FlowRoute(DemoWindow.main) else {
            console.write(
                "Refused: window \(scene.id) is the main window and stays open ('quit' ends "
                    + "the demo).", style: .error)
            return
        }
        do {
            try windows.requestClose(scene.id)
        } catch {
            console.write("Could not close window \(scene.id): \(error)", style: .error)
        }
    }

    /// `reclaim N`: the system reclaims window N, which is in the background: its snapshot is
    /// saved and its tree stopped and released; `window N` brings it back with its screens.
    func reclaim(_ argument: String?) {
        guard let argument else {
            console.write("Refused: say which window; usage: reclaim <n>.", style: .error)
            return
        }
        guard let scene = windows.scene(FlowSceneID(argument)) else {
            let known = windows.scenes.map(\.id.rawValue).joined(separator: ", ")
            console.write(
                "No window '\(DemoInput.shortened(argument, to: 24))': the windows are \(known); "
                    + "nothing changed.", style: .error)
            return
        }
        guard scene.phase == .background else {
            let why =
                scene.phase == .disconnected
                ? "it is reclaimed already"
                : "it is in front; the system reclaims windows in the background"
            console.write("Refused: window \(scene.id): \(why).", style: .error)
            return
        }
        report(.disconnect, scene)
        platform.forget(scene.id)
        console.write(
            "The system reclaimed window \(scene.id): its snapshot is saved, its tree stopped "
                + "and released; 'window \(scene.id)' brings it back.", style: .success)
    }

    /// `logout` with several windows: every window signs out at once (the app broadcasts
    /// ``LogoutRequested``: each tree follows its own rules), and the windows other than the
    /// main one close (a reclaimed main window is brought back first, to sign out too).
    func signOutEverywhere() {
        reconnectMainWindow()  // its saved tree is signed in: it signs out with the others
        let others = windows.scenes.filter { $0.value != FlowRoute(DemoWindow.main) }
        for scene in others { try? windows.requestClose(scene.id) }
        let reached = windows.broadcast(LogoutRequested())
        let list = reached.map(\.rawValue).joined(separator: ", ")
        let closing = others.map(\.id.rawValue).joined(separator: ", ")
        let close =
            others.isEmpty
            ? "."
            : others.count == 1 ? "; window \(closing) closes." : "; windows \(closing) close."
        console.write(
            "Signing out everywhere: the app sends LogoutRequested to windows \(list)\(close)",
            style: .success)
    }

    /// Whether the focused screen's exit guard refuses now (an unsaved rating): `logout`
    /// then goes to the screen, which says why it is refused.
    var focusRefusesExit: Bool {
        if case .refuse = runtime.focusedNode?.shouldExit() { return true }
        return false
    }
}
