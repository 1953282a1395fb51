// The code of Docs/Testing.md. GuideCodeBlockTests checks that every ```swift block of the
// page appears here verbatim: change the page and this file together. The page's blocks
// from the demo's tests are checked against Tests/FlowDemoTests by DemoBlocksTests.

import FlowKit
import FlowKitTesting
import Testing

@MainActor
@Test func selectingABookPushesItsDetail() throws {
    let harness = try FlowTestHarness(root: SampleApp(startSignedIn: "ada"))
    harness.send(Select(item: 7), from: harness.node("app/main/stack/list"))
    harness.expect([
        .send(Select(item: 7), from: "app/main/stack/list"),
        .enter("app/main/stack/detail"),
        .change(.push, "app/main/stack", entered: ["app/main/stack/detail"]),
        .deactivate("app/main/stack/list"),
        .activate("app/main/stack/detail"),
        .handled(Select(item: 7), at: "app/main/stack/list"),
    ])
    harness.finish()
}

@MainActor
@Test func aSheetAskedForDuringAPushWaitsForIt() throws {
    let platform = SimulatedPlatform(rules: .uiKit, duration: 350)
    let transitions = FlowTransitions(host: platform)
    let harness = try FlowTestHarness(
        root: SampleApp(startSignedIn: "ada"), host: transitions, exhaustivity: .off)
    platform.runUntilIdle()
    harness.send(Select(item: 7), from: harness.node("app/main/stack/list"))
    let detail = harness.node("app/main/stack/detail")
    harness.send(Share(), from: detail)  // while the push runs
    #expect(!platform.isOnScreen(detail))  // sliding in: UIKit would refuse to present from it
    platform.runUntilIdle()  // the push ends, then the share sheet is presented from detail
    #expect(platform.illegalCalls == [])
    #expect(platform.differences(from: harness.runtime) == [])
    harness.finish()
}

@MainActor
@Suite("Testing guide")
struct TestingGuideTests {
    @Test("The leak tracker: nodes, subtrees and services, checked at once")
    func leaks() throws {
        let harness = try FlowTestHarness(
            root: SampleApp(startSignedIn: "ada"), exhaustivity: .off)
        harness.send(Select(item: 7), from: harness.node("app/main/stack/list"))
        let app = harness.node("app", as: SampleApp.self)

        let leaks = LeakTracker()  // or harness.leaks
        leaks.track(harness.node("app/main/stack/detail"))  // records its path now
        leaks.trackSubtree(harness.node("app/main"))  // the node and everything below it
        leaks.track(  // any object, tied to a node
            try harness.node("app/main").dependencies.require(SessionKey.self),
            ownedBy: harness.node("app/main"))
        try app.switch(to: LoginScreen())  // main's subtree exits
        leaks.expectNoLeaks()  // objects whose node left the tree must be gone
        leaks.expectReleased(under: "app/main")  // everything tracked there must be gone
        leaks.expectAllReleased()  // everything tracked must be gone

        #expect(leaks.trackedCount == 6)  // detail twice, main, stack, list, the session
        #expect(leaks.aliveObjects.isEmpty)
        harness.finish()
    }

    @Test("A tree snapshot: two spaces a level, * on the focused path, ^ before a presented node")
    func treeSnapshot() throws {
        let harness = try FlowTestHarness(root: SampleApp(startSignedIn: "ada"))
        harness.send(Select(item: 7), from: harness.node("app/main/stack/list"))
        harness.skipReceived()
        harness.send(Share(), from: harness.node("app/main/stack/detail"))
        harness.skipReceived()

        harness.expectTree(
            """
            * app
              * main
                * stack
                    list
                  * detail
                    * ^share
            """)
        harness.finish()
    }

    @Test("The change recorder checks the changes told to the host, and forwards them")
    func changeRecorder() throws {
        let myRealHost = RecordingFlowHost()
        let app = SampleApp(startSignedIn: "ada")
        let stack = try #require(app.current as? MainFlow).stack

        let recorder = FlowChangeRecorder(forwardingTo: myRealHost)  // forwarding is optional
        let runtime = try FlowRuntime(root: app, host: recorder)
        try runtime.start()
        recorder.expectChanges(["start +app"])
        try stack.push(DetailScreen(item: 7))  // what the test does
        recorder.expectChanges([
            FlowChange(
                kind: .push, container: "app/main/stack", exited: [],
                entered: ["app/main/stack/detail"])
        ])
        recorder.expectNoChanges()

        #expect(myRealHost.changes.map(\.description) == recorder.changes.map(\.description))
        #expect(myRealHost.changes.count == 2)
    }
}
