import FlowKit
import FlowKitTesting
import Testing

/// Each case makes the harness fail on purpose and checks the exact failure: its message and
/// the line it is reported at (the line of the call that failed, by default).
@MainActor
@Suite("Harness: failing on purpose (each known issue is an expected failure)")
struct HarnessFailureTests {
    @Test(
        "Expected failure: a change that is never checked fails the test when the harness finishes")
    func uncheckedChangeFailsAtFinish() throws {
        let harness = try FlowTestHarness(root: SampleApp(startSignedIn: "ada"))
        harness.send(Select(item: 1), from: harness.node("app/main/stack/list"))
        let message = """
            The test ended with 6 unchecked records (check them with expect, or call \
            skipReceived()):
            + send Select from app/main/stack/list
            + enter app/main/stack/detail
            + change push app/main/stack +app/main/stack/detail
            + deactivate app/main/stack/list
            + activate app/main/stack/detail
            + handled Select at app/main/stack/list
            """
        expectIssue(message, atLine: #line) { harness.finish() }
    }

    @Test(
        "Expected failure: a wrong expectation fails with a line-by-line diff of expected and received"
    )
    func wrongExpectationShowsDiff() throws {
        let harness = try FlowTestHarness(root: SampleApp(startSignedIn: "ada"))
        harness.send(Select(item: 1), from: harness.node("app/main/stack/list"))
        let expected: [FlowTraceRecord] = [
            .send(Select(item: 1), from: "app/main/stack/list"),
            .enter("app/main/stack/detail"),
            .change(.push, "app/main/stack", entered: ["app/main/stack/detail"]),
            .activate("app/main/stack/detail"),
            .handled(Select(item: 1), at: "app/main/stack"),
        ]
        let message = """
            The received records do not match the expected ones (- expected, + received):
              send Select from app/main/stack/list
              enter app/main/stack/detail
              change push app/main/stack +app/main/stack/detail
            + deactivate app/main/stack/list
              activate app/main/stack/detail
            - handled Select at app/main/stack
            + handled Select at app/main/stack/list
            """
        expectIssue(message, atLine: #line) { harness.expect(expected) }
        // A mismatch counts every received record as checked: nothing more fails.
        #expect(harness.received.isEmpty)
        harness.finish()
    }

    @Test(
        "Expected failure: an expectation that covers only the start of what happened leaves the rest"
    )
    func partialExpectationLeavesRest() throws {
        let harness = try FlowTestHarness(root: SampleApp(startSignedIn: "ada"))
        harness.send(Select(item: 1), from: harness.node("app/main/stack/list"))
        harness.expectTrace([
            "send Select from app/main/stack/list",
            "enter app/main/stack/detail",
            "change push app/main/stack +app/main/stack/detail",
            "deactivate app/main/stack/list",
        ])
        let message = """
            The test ended with 2 unchecked records (check them with expect, or call \
            skipReceived()):
            + activate app/main/stack/detail
            + handled Select at app/main/stack/list
            """
        expectIssue(message, atLine: #line) { harness.finish() }
    }

    @Test("Expected failure: an action fails when the records of the one before were not checked")
    func actionAfterUncheckedRecords() throws {
        let harness = try FlowTestHarness(root: SampleApp())
        harness.send(Ping())
        let message = """
            2 records were not checked before navigate(to: ["main"]) (check them with \
            expect, or call skipReceived()):
            + send Ping from app/login
            + unhandled Ping from app/login
            """
        expectIssue(message, atLine: #line) { try harness.navigate(to: ["main"]) }
        harness.skipReceived()
        harness.finish()
    }

    @Test("Expected failure: a harness released without finish reports at the line that created it")
    func releasedWithoutFinish() {
        let message = """
            The test ended with 2 unchecked records (check them with expect, or call \
            skipReceived()):
            + send Ping from app/login
            + unhandled Ping from app/login
            """
        expectIssue(message, atLine: #line) { try FlowTestHarness(root: SampleApp()).send(Ping()) }
    }

    @Test("Expected failure: expecting nothing fails when something was received")
    func expectNothingFails() throws {
        let harness = try FlowTestHarness(root: SampleApp())
        harness.send(Ping())
        let message = """
            Expected nothing, but 2 records were received:
            + send Ping from app/login
            + unhandled Ping from app/login
            """
        expectIssue(message, atLine: #line) { harness.expectNothingReceived() }
        harness.finish()
    }

    @Test(
        "Expected failure: non-exhaustive expect fails when a named record did not happen in that order"
    )
    func nonExhaustiveMissingRecord() throws {
        let harness = try FlowTestHarness(root: SampleApp(), exhaustivity: .off)
        harness.send(Ping())
        let expected: [FlowTraceRecord] = [
            .unhandled(Ping(), from: "app/login"), .send(Ping(), from: "app/login"),
        ]
        let message = """
            The received records do not match the expected ones in order (non-exhaustive) \
            (- expected, + received):
            - unhandled Ping from app/login
              send Ping from app/login
            + unhandled Ping from app/login
            """
        expectIssue(message, atLine: #line) { harness.expect(expected) }
        harness.finish()
    }

    @Test("Expected failure: a node kept alive after it left the tree fails with its path and age")
    func leakedNode() throws {
        let harness = try FlowTestHarness(root: SampleApp(startSignedIn: "ada"))
        let stack = harness.node("app/main/stack", as: FlowStack.self)
        let detail = DetailScreen(item: 1)  // this local variable leaks it
        try harness.perform { try stack.push(detail) }
        harness.skipReceived()
        let trackLine = #line + 1
        harness.leaks.track(detail)
        harness.leaks.track(harness.node("app/main/stack/list"))
        try harness.platformBack(in: stack)
        harness.skipReceived()
        try harness.perform { try stack.push(DetailScreen(item: 2)) }
        harness.skipReceived()
        let message = """
            1 tracked object outlived its node:
              app/main/stack/detail (DetailScreen): tracked at HarnessFailureTests.swift:\
            \(trackLine), 2 changes and <time> ago; exited
            Something still holds them: a local variable, a handler or task that captured \
            them strongly, or a reference cycle.
            """
        expectIssue(message, atLine: #line) { harness.finish() }
        #expect(detail.state == .exited)
    }

    @Test(
        "Expected failure: a service captured by a handler outlives its node and is named with its path"
    )
    func leakedService() throws {
        let harness = try FlowTestHarness(root: SampleApp(startSignedIn: "ada"))
        let leaks = LeakTracker()
        let trackLine: Int
        do {
            let main = harness.node("app/main")
            let session = try main.dependencies.require(SessionKey.self)
            trackLine = #line + 1
            leaks.track(session, ownedBy: main)
            // The app root captures the session, so it outlives the main flow.
            harness.node("app").on(Ping.self) { _ in
                _ = session.user
                return .handled
            }
        }
        harness.send(SignOut(), from: harness.node("app/main/stack/list"))
        harness.skipReceived()
        let message = """
            1 tracked object under app/main was not deallocated:
              app/main (Session): tracked at HarnessFailureTests.swift:\(trackLine), <time> \
            ago; its node was deallocated
            Something still holds them: a local variable, a handler or task that captured \
            them strongly, or a reference cycle.
            """
        expectIssue(message, atLine: #line) { leaks.expectReleased(under: "app/main") }
        harness.finish()
    }

    @Test("Expected failure: a wrong tree fails with both trees line by line")
    func wrongTree() throws {
        let harness = try FlowTestHarness(root: SampleApp(startSignedIn: "ada"))
        let expected = """
            * app
              * main
                * stack
                    list
                  * detail
            """
        let message = """
            The tree is not the expected one (- expected, + actual):
              * app
                * main
                  * stack
            -         list
            -       * detail
            +       * list
            """
        expectIssue(message, atLine: #line) { harness.expectTree(expected) }
        harness.finish()
    }

    @Test("Expected failure: the recorder fails with a diff when the host was told other changes")
    func recorderMismatch() throws {
        let recorder = FlowChangeRecorder()
        let runtime = try FlowRuntime(root: SampleApp(), host: recorder)
        try runtime.start()
        runtime.node(at: "app/login")!.send(SignIn(user: "ada"))
        let expected = ["start +app", "switch app -app/login +app/main/stack"]
        let message = """
            The host received other changes than expected (- expected, + received):
              start +app
            - switch app -app/login +app/main/stack
            + switch app -app/login +app/main
            """
        expectIssue(message, atLine: #line) { recorder.expectChanges(expected) }
        recorder.expectNoChanges()
    }
}
