import FlowKit
import FlowKitTesting
import Testing

@MainActor
@Suite("Harness: passing cases")
struct HarnessTests {
    @Test("Signing in is checked record by record, as values")
    func signInRecords() throws {
        let harness = try FlowTestHarness(root: SampleApp())
        harness.send(SignIn(user: "ada"), from: harness.node("app/login"))
        harness.expect([
            .send(SignIn(user: "ada"), from: "app/login"),
            .exit("app/login"),
            .enter("app/main"),
            .enter("app/main/stack"),
            .enter("app/main/stack/list"),
            .change(.switch, "app", exited: ["app/login"], entered: ["app/main"]),
            .activate("app/main"),
            .activate("app/main/stack"),
            .activate("app/main/stack/list"),
            .handled(SignIn(user: "ada"), at: "app"),
        ])
        harness.expectTree(
            """
            * app
              * main
                * stack
                  * list
            """)
        harness.finish()
    }

    @Test("The start is received only when asked for")
    func startRecords() throws {
        let harness = try FlowTestHarness(root: SampleApp(), includesStart: true)
        harness.expect([
            .enter("app"),
            .enter("app/login"),
            .change(.start, "", entered: ["app"]),
            .activate("app"),
            .activate("app/login"),
        ])
        harness.finish()
        #expect(harness.recorder?.changes.map(\.description) == ["start +app"])
    }

    @Test("Trace lines check the same records as text, in steps")
    func traceLinesInSteps() throws {
        let harness = try FlowTestHarness(root: SampleApp(startSignedIn: "ada"))
        harness.send(Select(item: 7), from: harness.node("app/main/stack/list"))
        harness.expectTrace([
            "send Select from app/main/stack/list",
            "enter app/main/stack/detail",
            "change push app/main/stack +app/main/stack/detail",
        ])
        harness.expectTrace([
            "deactivate app/main/stack/list",
            "activate app/main/stack/detail",
            "handled Select at app/main/stack/list",
        ])
        harness.send(Back(), from: harness.node("app/main/stack/detail"))
        harness.expectTrace([
            "send Back from app/main/stack/detail",
            "exit app/main/stack/detail",
            "change pop app/main/stack -app/main/stack/detail",
            "activate app/main/stack/list",
            "handled Back at app/main/stack/detail",
        ])
        harness.finish()
    }

    @Test("Platform back and platform dismiss are traced but not told to the host")
    func platformActions() throws {
        let harness = try FlowTestHarness(root: SampleApp(startSignedIn: "ada"))
        let stack = harness.node("app/main/stack", as: FlowStack.self)
        harness.send(Select(item: 1), from: harness.node("app/main/stack/list"))
        harness.skipReceived()
        harness.send(Share(), from: harness.node("app/main/stack/detail"))
        harness.skipReceived()
        harness.recorder?.skipChanges()
        harness.expectTree(
            """
            * app
              * main
                * stack
                    list
                  * detail
                    * ^share
            """)

        try harness.platformDismiss(presentedBy: harness.node("app/main/stack/detail"))
        harness.expect([
            .exit("app/main/stack/detail/share"),
            .change(
                .platformDismiss, "app/main/stack/detail", exited: ["app/main/stack/detail/share"]),
            // No activation record: the core keeps a presenter active under its presented
            // node (it stays on the focused path), although `present(_:)` documents it as
            // inactive. Reported to the core's owner.
        ])
        try harness.platformBack(in: stack)
        harness.expect([
            .exit("app/main/stack/detail"),
            .change(.platformPop, "app/main/stack", exited: ["app/main/stack/detail"]),
            .activate("app/main/stack/list"),
        ])
        harness.recorder?.expectNoChanges()
        harness.finish()
    }

    @Test("A deep link from the login screen builds main, stack and detail")
    func deepLink() throws {
        let harness = try FlowTestHarness(root: SampleApp())
        try harness.navigate(to: ["main", "stack", "detail"])
        harness.expect([
            .exit("app/login"),
            .enter("app/main"),
            .enter("app/main/stack"),
            .enter("app/main/stack/list"),
            .enter("app/main/stack/detail"),
            .change(.navigate, "app", exited: ["app/login"], entered: ["app/main"]),
            .activate("app/main"),
            .activate("app/main/stack"),
            .activate("app/main/stack/detail"),
        ])
        harness.finish()
    }

    @Test("Unhandled and dropped events are records too")
    func unhandledAndDropped() throws {
        let harness = try FlowTestHarness(root: SampleApp(startSignedIn: "ada"))
        harness.send(Ping())
        harness.expect([
            .send(Ping(), from: "app/main/stack/list"),
            .unhandled(Ping(), from: "app/main/stack/list"),
        ])
        harness.finish()
    }

    @Test("Non-exhaustive mode checks only the named records, in order")
    func nonExhaustive() throws {
        let harness = try FlowTestHarness(root: SampleApp(), exhaustivity: .off)
        harness.send(SignIn(user: "ada"), from: harness.node("app/login"))
        harness.send(Select(item: 2), from: harness.node("app/main/stack/list"))
        harness.expect([
            .change(.switch, "app", exited: ["app/login"], entered: ["app/main"]),
            .change(.push, "app/main/stack", entered: ["app/main/stack/detail"]),
        ])
        // The records after the last match stay received.
        harness.expect([
            .handled(Select(item: 2), at: "app/main/stack/list")
        ])
        #expect(harness.received.isEmpty)
        harness.finish()
    }

    @Test("Direct calls on nodes are seen like actions")
    func directCalls() throws {
        let harness = try FlowTestHarness(root: SampleApp(startSignedIn: "ada"))
        let stack = harness.node("app/main/stack", as: FlowStack.self)
        let detail = DetailScreen(item: 3)
        try harness.perform { try stack.push(detail) }
        #expect(
            harness.receivedChanges == [
                FlowChange(
                    kind: .push, container: "app/main/stack", exited: [],
                    entered: ["app/main/stack/detail"], containerID: stack.id,
                    enteredIDs: [detail.id])
            ])
        harness.skipReceived()
        try stack.pop()
        harness.expect([
            .exit("app/main/stack/detail"),
            .change(.pop, "app/main/stack", exited: ["app/main/stack/detail"]),
            .activate("app/main/stack/list"),
        ])
        harness.finish()
    }

    @Test("A harness can wrap a runtime that is already running")
    func wrapsRuntime() throws {
        let recorder = FlowChangeRecorder()
        let runtime = try FlowRuntime(root: SampleApp(), host: recorder)
        try runtime.start()
        var forwarded: [String] = []
        runtime.trace.addObserver { forwarded.append($0.description) }
        let harness = FlowTestHarness(runtime: runtime)
        harness.send(SignOut())
        harness.expect([
            .send(SignOut(), from: "app/login"),
            .exit("app/login"),
            .enter("app/login"),
            .change(.switch, "app", exited: ["app/login"], entered: ["app/login"]),
            .activate("app/login"),
            .handled(SignOut(), at: "app"),
        ])
        harness.finish()
        #expect(forwarded.count == 6)
        #expect(
            recorder.changes.map(\.description) == [
                "start +app", "switch app -app/login +app/login",
            ])
    }

    @Test("Stopping the runtime exits the whole tree, innermost first")
    func stopping() throws {
        let harness = try FlowTestHarness(root: SampleApp(startSignedIn: "ada"))
        harness.leaks.trackSubtree(harness.node("app"))
        try harness.stop()
        harness.expect([
            .exit("app/main/stack/list"),
            .exit("app/main/stack"),
            .exit("app/main"),
            .exit("app"),
            .change(.stop, "", exited: ["app"]),
        ])
        harness.expectTree("")
        harness.finish()
        harness.leaks.expectAllReleased()
    }

    @Test("Repeated steps are written once with a helper that returns records")
    func helperRecords() throws {
        let harness = try FlowTestHarness(root: SampleApp(startSignedIn: "ada"))
        let list = harness.node("app/main/stack/list")
        harness.send(Select(item: 1), from: list)
        harness.expect(selectPushesDetail(covering: "app/main/stack/list"))
        harness.send(Select(item: 2), from: list)
        harness.expect(selectPushesDetail(covering: "app/main/stack/detail"))
        harness.finish()
    }

    private func selectPushesDetail(covering below: String) -> [FlowTraceRecord] {
        [
            .send(event: "Select", from: "app/main/stack/list"),
            .enter("app/main/stack/detail"),
            .change(.push, "app/main/stack", entered: ["app/main/stack/detail"]),
            .deactivate(below),
            .activate("app/main/stack/detail"),
            .handled(event: "Select", at: "app/main/stack/list"),
        ]
    }
}
