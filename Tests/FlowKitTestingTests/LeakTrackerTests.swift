import FlowKit
import FlowKitTesting
import Testing

@MainActor
@Suite("Leak tracker")
struct LeakTrackerTests {
    @Test("A popped detail and the node it presented are released, proven by weak references")
    func popReleasesSubtree() throws {
        let recorder = FlowChangeRecorder()
        let runtime = try FlowRuntime(root: SampleApp(startSignedIn: "ada"), host: recorder)
        try runtime.start()
        let leaks = LeakTracker(counting: recorder)
        runtime.node(at: "app/main/stack/list")!.send(Select(item: 1))
        runtime.node(at: "app/main/stack/detail")!.send(Share())
        leaks.trackSubtree(runtime.node(at: "app/main/stack/detail")!)
        #expect(
            leaks.aliveObjects == [
                "app/main/stack/detail (DetailScreen)",
                "app/main/stack/detail/share (FlowController)",
            ])
        leaks.expectNoLeaks()  // both are still in the tree

        runtime.node(at: "app/main/stack/detail")!.send(Back())

        #expect(leaks.aliveObjects.isEmpty)
        leaks.expectNoLeaks()
        leaks.expectAllReleased()
        #expect(leaks.trackedCount == 2)
    }

    @Test("Signing out releases the main flow's nodes and its session; the rest stays")
    func signOutReleasesMainFlow() throws {
        let runtime = try FlowRuntime(root: SampleApp(startSignedIn: "ada"))
        try runtime.start()
        let leaks = LeakTracker()
        leaks.trackSubtree(runtime.node(at: "app/main")!)
        do {
            let main = runtime.node(at: "app/main")!
            leaks.track(
                try main.dependencies.require(SessionKey.self), as: "session", ownedBy: main)
        }
        leaks.track(runtime.node(at: "app")!)
        #expect(leaks.aliveObjects.count == 5)

        runtime.node(at: "app/main/stack/list")!.send(SignOut())

        leaks.expectReleased(under: "app/main")
        leaks.expectNoLeaks()
        #expect(leaks.aliveObjects == ["app (SampleApp)"])
    }

    @Test("Expected failure: an object without a node is checked only by the explicit checks")
    func objectWithoutNode() {
        let leaks = LeakTracker()
        let box = Session(user: "kept")
        leaks.track(box)
        leaks.expectNoLeaks()  // no node, so no node has left the tree
        #expect(leaks.aliveObjects == ["(no node) (Session)"])
        withKnownIssue {
            leaks.expectAllReleased()
        } matching: { issue in
            let message = normalized(issue.comments.first?.rawValue ?? "")
            return message.hasPrefix(
                "1 tracked object was not deallocated:\n  (no node) (Session): tracked at "
                    + "LeakTrackerTests.swift:")
                && message.contains(", <time> ago\n")
        }
        withExtendedLifetime(box) {}
    }

    @Test("A node that never entered a tree is named as created and is not a leak")
    func nodeNeverEntered() throws {
        let runtime = try FlowRuntime(root: SampleApp())
        try runtime.start()
        let leaks = LeakTracker()
        let detached = FlowController(name: "loose")
        leaks.track(detached)
        #expect(leaks.aliveObjects == ["loose (created) (FlowController)"])
        leaks.expectNoLeaks()  // never in a tree: it has not left one
    }
}
