import FlowKit

/// `--state FILE`: restoring the navigation at start and saving it at quit.
extension DemoApp {
    /// Opens the main window: restored from ``stateFile`` when it holds a state that
    /// restores (every saved window, when it holds several), else fresh. Returns what to tell
    /// the user (nothing without a state file).
    func startRuntime() -> [(text: String, style: DemoStyle)] {
        var notes: [(text: String, style: DemoStyle)] = []
        if let stateFile {
            switch stateFile.load() {
            case .missing:
                notes.append(
                    (
                        "No saved state in \(stateFile.shownPath) yet: a fresh start; quit saves it there.",
                        .notice
                    ))
            case .unreadable(let reason):
                keepsStateFile = true
                notes.append((Self.couldNotRestore(stateFile, reason), .error))
            case .snapshot(let snapshot):
                do {
                    let scene = try restoreWindow("1", value: .main, tree: snapshot)
                    notes.append((restoredNote(stateFile), .success))
                    notes += skippedNotes(scene, window: nil)
                    return notes
                } catch {
                    notes.append((Self.couldNotRestore(stateFile, Self.reason(for: error)), .error))
                }
            case .windows(let state):
                notes += restoreWindows(state, from: stateFile)
                if !connectedWindows.isEmpty { return notes }
            }
        }
        do {
            try connectWindow("1", value: .main, restoration: .none)
        } catch {
            preconditionFailure("DemoApp.start: \(error)")
        }
        return notes
    }

    /// Connects window `id` restored from `tree`.
    @discardableResult
    func restoreWindow(
        _ id: FlowSceneID, value: DemoWindow, tree: FlowSnapshot
    ) throws
        -> FlowScene
    {
        let saved = FlowSceneSnapshot(
            scene: id, value: try FlowSnapshot.Route(FlowRoute(value)), tree: tree)
        return try connectWindow(id, value: value, restoration: .snapshot(saved))
    }

    /// Restores every window of `state` (a window that does not restore is left out, and a
    /// line says why), then brings the focused one forward.
    func restoreWindows(
        _ state: DemoWindowsState, from file: DemoStateFile
    ) -> [(text: String, style: DemoStyle)] {
        var notes: [(text: String, style: DemoStyle)] = []
        var restored: [String] = []
        for window in state.windows {
            do {
                let scene =
                    try window.tree.map {
                        try restoreWindow(window.id, value: window.value, tree: $0)
                    }
                    ?? connectWindow(window.id, value: window.value, restoration: .none)
                restored.append(window.id.rawValue)
                notes += skippedNotes(scene, window: window.id)
            } catch {
                notes.append(
                    (
                        "Could not restore window \(window.id) from \(file.shownPath): "
                            + "\(Self.reason(for: error)).", .error
                    ))
            }
        }
        if let focused = state.focused.flatMap(windows.scene), focused.phase.isConnected {
            bringForward(focused)
        }
        guard !restored.isEmpty else {
            notes.append((Self.couldNotRestore(file, "no window restored"), .error))
            return notes
        }
        let front = windows.focusedScene.map { " (window \($0.id) in front)" } ?? ""
        notes.insert(
            (
                "Restored windows \(restored.joined(separator: ", ")) saved in "
                    + "\(file.shownPath)\(front).", .success
            ), at: 0)
        return notes
    }

    /// What a restored window's guards left out, from its trace.
    func skippedNotes(
        _ scene: FlowScene, window: FlowSceneID?
    ) -> [(text: String, style: DemoStyle)] {
        let skipped = (scene.runtime?.trace.records ?? []).compactMap { record -> String? in
            guard case .notRestored(let node, let reason) = record else { return nil }
            return DemoStateFile.oneLine("\(node): \(reason)")
        }
        guard !skipped.isEmpty else { return [] }
        let place = window.map { " in window \($0)" } ?? ""
        return [
            (
                "Not restored\(place): " + skipped.joined(separator: "; ") + ".",
                .notice
            )
        ]
    }

    /// Why restoring failed, in one line: a window's restoration error is its tree's.
    static func reason(for error: any Error) -> String {
        if case FlowSceneError.restorationFailed(_, let text) = error {
            return DemoStateFile.oneLine(text)
        }
        return DemoStateFile.reason(for: error)
    }

    static func couldNotRestore(_ file: DemoStateFile, _ reason: String) -> String {
        "Could not restore state from \(file.shownPath): \(reason); starting fresh."
    }

    /// What a restored start says: who is signed in, if anyone.
    func restoredNote(_ file: DemoStateFile) -> String {
        let main = (runtime.root as? AppRoot)?.current as? MainFlow
        guard let session = main?.session else {
            return "Restored the state saved in \(file.shownPath) (nobody is signed in)."
        }
        return "Restored the state saved in \(file.shownPath): \(session.account.displayName) is "
            + "signed in."
    }

    /// Saves the navigation to ``stateFile``, if there is one, and says how it went. A file
    /// that cannot be written is reported and changes nothing else (the exit status stays
    /// 0 unless something leaked). A file that held something else than a saved state at
    /// start (``DemoStateFile/Loaded/unreadable(_:)``) is not replaced: it may be a file the
    /// user named by mistake. One that held a snapshot this app could not restore (another
    /// version, a book that is gone) is.
    func saveState() {
        guard let stateFile, runtime.isRunning else { return }
        guard !keepsStateFile else {
            console.write(
                "Not saving the state to \(stateFile.shownPath): it held no saved state at start, so "
                    + "it is left as it was.", style: .notice)
            return
        }
        do {
            if windows.scenes.count > 1 {
                try stateFile.save(try windowsState())
            } else {
                try stateFile.save(try runtime.snapshot())
            }
            console.write(
                "Saved the state to \(stateFile.shownPath): flowdemo --state \(stateFile.shownPath) "
                    + "starts here.", style: .success)
        } catch {
            console.write(
                "Could not save the state to \(stateFile.shownPath): "
                    + "\(DemoStateFile.reason(for: error)).", style: .error)
        }
    }

    /// Every window's state: a connected window's tree now, a reclaimed one's as the app
    /// saved it when the system reclaimed it.
    func windowsState() throws -> DemoWindowsState {
        var saved: [DemoWindowsState.Window] = []
        for scene in windows.scenes {
            let value = scene.value.value(as: DemoWindow.self) ?? .extra
            let tree =
                try scene.runtime.map { try $0.snapshot() }
                ?? windows.store.snapshot(of: scene.id)?.tree
            saved.append(
                DemoWindowsState.Window(
                    id: scene.id, value: value, tree: tree,
                    wasReclaimed: !scene.phase.isConnected))
        }
        return DemoWindowsState(windows: saved, focused: windows.focusedScene?.id)
    }

    /// Forgets ``stateFile``: the walkthrough neither reads nor writes it.
    func forgetStateFile() {
        stateFile = nil
    }
}
