import FlowKit

/// `--state FILE`: restoring the navigation at start and saving it at quit.
extension DemoApp {
    /// Starts the runtime: restored from ``stateFile`` when it holds a state that restores,
    /// else fresh. Returns what to tell the user (nothing without a state file).
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
                    let report = try runtime.start(
                        restoring: snapshot, routeTypes: DemoStateFile.routeTypes)
                    notes.append((restoredNote(stateFile), .success))
                    if !report.isComplete {
                        let skipped = report.skipped.map { DemoStateFile.oneLine($0.description) }
                        notes.append(
                            (
                                "Not restored: " + skipped.joined(separator: "; ") + ".",
                                .notice
                            ))
                    }
                    return notes
                } catch {
                    notes.append(
                        (Self.couldNotRestore(stateFile, DemoStateFile.reason(for: error)), .error))
                }
            }
        }
        do {
            try runtime.start()
        } catch {
            preconditionFailure("DemoApp.start: \(error)")
        }
        return notes
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
            try stateFile.save(try runtime.snapshot())
            console.write(
                "Saved the state to \(stateFile.shownPath): flowdemo --state \(stateFile.shownPath) "
                    + "starts here.", style: .success)
        } catch {
            console.write(
                "Could not save the state to \(stateFile.shownPath): "
                    + "\(DemoStateFile.reason(for: error)).", style: .error)
        }
    }

    /// Forgets ``stateFile``: the walkthrough neither reads nor writes it.
    func forgetStateFile() {
        stateFile = nil
    }
}
