import FlowKit
import Foundation
import Testing

/// Inputs the snapshot fuzz target (Fuzz/, scripts/fuzz-inputs.sh snapshots) found, replayed
/// on the restoration fixtures. The documents are the fuzzer's, with its route type names
/// (`flowkit_fuzz.…`) renamed to this module's.
@MainActor
@Suite("Restoration: inputs found by fuzzing")
struct FuzzFindingsTests {
    /// Decodes `json` after renaming the fuzz target's route types to the fixtures'.
    func document(_ json: String) throws -> FlowSnapshot {
        let text = json.replacingOccurrences(
            of: "flowkit_fuzz.ShelfRoute", with: "FlowKitTests.Shelf"
        )
        .replacingOccurrences(of: "flowkit_fuzz.", with: "FlowKitTests.")
        return try JSONDecoder().decode(FlowSnapshot.self, from: Data(text.utf8))
    }

    @Test("A stack left with no entry and no default fails the restoration and changes nothing")
    func stackLeftEmpty() throws {
        // The catalog's only entry lost its route ("rhute"): it is left out, and the
        // catalog (whose bottom entry the app composes, with no initial route) has nothing.
        // The restoration used to succeed with the catalog empty, a tree `snapshot()` refuses.
        let snapshot = try document(
            #"""
            {"history":[{"path":"app\/login","routes":[{"type":"Swift.String","value":"steps"},
            {"type":"flowkit_fuzz.LoginStep","value":{"password":{}}}]}],
            "root":{"children":[{"children":[{"children":[{"children":[{"kind":"node",
            "name":"list","rhute":{"type":"flowkit_fuzz.ShelfRoute","value":{"list":{}}}}],
            "kind":"stack","name":"catalog","route":{"type":"Swift.String","value":"catalog"}},
            {"kind":"node","name":"search","route":{"type":"Swift.String","value":"search"},
            "state":""},{"kind":"node","name":"profile","route":{"type":"Swift.String",
            "value":"profile"}}],"kind":"tabs","name":"tabs","route":{"type":"Swift.String",
            "value":"tabs"},"selectedTab":0}],"kind":"node","name":"main","route":{"type":
            "Swift.String","value":"main"},"state":{"user":"alice"}}],"kind":"switch",
            "name":"app"},"version":1}
            """#)
        let world = RestoreWorld()
        let app = world.makeApp()
        let runtime = try FlowRuntime(root: app)
        let before = composition(of: app)
        #expect(
            throws: FlowSnapshotError.mismatch(
                path: "app/main/tabs/catalog",
                reason:
                    "none of the stack's entries was restored and it has no history or "
                    + "initial route to build one from")
        ) {
            try runtime.start(restoring: snapshot, routeTypes: [LoginStep.self])
        }
        #expect(!runtime.isRunning)
        #expect(composition(of: app) == before)
        #expect(world.bag.alive == ["app app"])
        try runtime.start()
        #expect(runtime.focusedNode?.path == "app/login/steps/welcome")
    }
}
