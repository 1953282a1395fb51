import FlowKit

extension FlowRecorder {
    /// Records every scene of `app`: each scene's runtime under the scene's identity as its
    /// label (`rt`), from before its tree starts (`FlowApp.observeSceneRuntimes(_:)`),
    /// and again with its new tree when a reclaimed scene reconnects. A scene connected
    /// already is attached at once (its session begins with an `attach` step holding its tree).
    ///
    ///     let recorder = try FlowRecorder(writingTo: "session.jsonl")
    ///     recorder.attach(app)  // before the first scene connects, to record its start
    ///
    /// A scene's tree that stops (reclaimed, closed) records nothing more; the recorder keeps
    /// no app, scene, runtime or node alive. The app's own records (phases, the router's
    /// decisions) stay in `FlowApp.trace`.
    public func attach(_ app: FlowApp) {
        for scene in app.scenes {
            if let runtime = scene.runtime { attach(runtime, label: scene.id.rawValue) }
        }
        app.observeSceneRuntimes { [weak self] scene, runtime in
            self?.attach(runtime, label: scene.id.rawValue)
        }
    }
}
