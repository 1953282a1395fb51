extension FlowApp {
    /// Checks the app's invariants in debug builds, after each platform fact: every scene
    /// once, by identity; only connected or disconnected scenes are kept; a connected scene
    /// has a running tree of its own (or waits for restoration data), a disconnected one has
    /// none; each runtime knows its scene. (The app may stop a scene's runtime itself: a
    /// stopped tree is not a broken invariant.)
    func _checkInvariants() {
        #if DEBUG
        var ids = Set<FlowSceneID>()
        for scene in scenes {
            precondition(ids.insert(scene.id).inserted, "FlowApp: scene \(scene.id) appears twice")
            precondition(!scene.phase.isGone, "FlowApp: scene \(scene.id) is \(scene.phase)")
            precondition(scene.app === self, "FlowApp: scene \(scene.id) of another app")
            if let runtime = scene.runtime {
                precondition(
                    scene.phase.isConnected, "FlowApp: disconnected scene \(scene.id) has a tree")
                precondition(
                    runtime._scene === scene, "FlowApp: scene \(scene.id)'s runtime is another's")
            } else {
                precondition(
                    !scene.phase.isConnected || scene.isRestoring,
                    "FlowApp: connected scene \(scene.id) has no tree")
            }
            precondition(
                !scene.isRestoring || scene.phase.isConnected,
                "FlowApp: scene \(scene.id) restores while \(scene.phase)")
        }
        #endif
    }
}
