import FlowDemo
import FlowKit
import FlowKitTesting
import Testing

/// The demo's flows driven through FlowKitTesting's harness: every change, event delivery
/// and lifecycle step of login → list → detail → back → detail → logout is accounted for,
/// and the leak tracker proves the main flow's nodes and session are released.
@MainActor
@Suite("Demo through the harness")
struct DemoHarnessTests {
    @Test("Login, list, detail, back, detail and logout: every step accounted for")
    func loginListDetailLogout() async throws {
        let app = try makeApp()
        let harness = FlowTestHarness(runtime: app.runtime)

        await harness.perform { _ = await app.start() }
        // The app root enters alone; its task then shows the login flow and awaits it.
        harness.expect([
            .enter("app"),
            .change(.start, "", entered: ["app"]),
            .activate("app"),
            .enter("app/login"),
            .enter("app/login/form"),
            .change(.switch, "app", entered: ["app/login"]),
            .activate("app/login"),
            .activate("app/login/form"),
        ])

        await harness.perform { _ = await app.run("login alice wonderland") }
        harness.expect(signInRecords)
        harness.expectTree(
            """
            * app
              * main
                * stack
                  * list
            """)
        trackMainFlow(harness)

        await harness.perform { _ = await app.run("select 1") }
        harness.expect(openDetailRecords(covering: "app/main/stack/list"))
        harness.leaks.track(harness.node("app/main/stack/detail"))

        await harness.perform { _ = await app.run("back") }  // the platform's back button
        harness.expect([
            .exit("app/main/stack/detail"),
            .change(.platformPop, "app/main/stack", exited: ["app/main/stack/detail"]),
            .activate("app/main/stack/list"),
        ])
        harness.leaks.expectReleased(under: "app/main/stack/detail")

        await harness.perform { _ = await app.run("select 6") }
        harness.expect(openDetailRecords(covering: "app/main/stack/list"))
        harness.leaks.track(harness.node("app/main/stack/detail"))

        await harness.perform { _ = await app.run("logout") }
        harness.expect([
            .send(event: "LogoutRequested", from: "app/main/stack/detail"),
            .finished(flow: "app/main", awaitedAt: "app"),
            .handled(event: "LogoutRequested", at: "app/main"),
            .exit("app/main/stack/detail"),
            .exit("app/main/stack/list"),
            .exit("app/main/stack"),
            .exit("app/main"),
            .enter("app/login"),
            .enter("app/login/form"),
            .change(.switch, "app", exited: ["app/main"], entered: ["app/login"]),
            .activate("app/login"),
            .activate("app/login/form"),
        ])
        harness.expectTree(
            """
            * app
              * login
                * form
            """)
        harness.leaks.expectReleased(under: "app/main")
        harness.finish()
        #expect(harness.leaks.trackedCount == 6)
        #expect(harness.leaks.aliveObjects.isEmpty)
    }

    @Test("A wrong password sends nothing and changes nothing")
    func wrongPasswordChangesNothing() async throws {
        let app = try makeApp()
        _ = await app.start()
        let harness = FlowTestHarness(runtime: app.runtime)
        await harness.perform { _ = await app.run("login alice secret") }
        harness.expectNothingReceived()
        harness.expectTree(
            """
            * app
              * login
                * form
            """)
        harness.finish()
    }

    @Test("The lockout refuses even the right password until the clock moves on")
    func lockoutThenSignIn() async throws {
        let clock = ManualDemoClock()
        let app = try makeApp(clock: clock)
        _ = await app.start()
        let harness = FlowTestHarness(runtime: app.runtime)
        for _ in 0..<3 { await harness.perform { _ = await app.run("login bob wrong") } }
        await harness.perform { _ = await app.run("login bob builder") }
        harness.expectNothingReceived()
        clock.advance(by: .seconds(10))
        await harness.perform { _ = await app.run("login bob builder") }
        harness.expect(signInRecords)
        harness.finish()
    }

    @Test("Ten sign-in and sign-out rounds release every main flow, stack, screen and session")
    func repeatedRoundsLeakNothing() async throws {
        let app = try makeApp()
        _ = await app.start()
        // Coarse: this test is about memory, so only the changes are checked.
        let harness = FlowTestHarness(runtime: app.runtime, exhaustivity: .off)
        for round in 1...10 {
            await harness.perform { _ = await app.run("login alice wonderland") }
            trackMainFlow(harness)
            await harness.perform { _ = await app.run("select \(round)") }
            harness.leaks.track(harness.node("app/main/stack/detail"))
            await harness.perform { _ = await app.run("logout") }
            harness.expect([
                .change(.switch, "app", exited: ["app/login"], entered: ["app/main"]),
                .change(.push, "app/main/stack", entered: ["app/main/stack/detail"]),
                .change(.switch, "app", exited: ["app/main"], entered: ["app/login"]),
            ])
            harness.leaks.expectReleased(under: "app/main")
        }
        harness.finish()
        #expect(harness.leaks.trackedCount == 50)
        #expect(harness.leaks.aliveObjects.isEmpty)
        // The demo's own count agrees: app, login flow and form are all that is left.
        #expect(app.liveNodes.alive == 3)
    }

    @Test("Quitting exits the whole tree innermost first and releases every node")
    func quitReleasesEverything() async throws {
        let app = try makeApp()
        _ = await app.start()
        let harness = FlowTestHarness(runtime: app.runtime)
        await harness.perform { _ = await app.run("login alice wonderland") }
        harness.skipReceived()
        harness.leaks.trackSubtree(harness.node("app"))
        await harness.perform { _ = await app.quit() }
        harness.expect([
            .exit("app/main/stack/list"),
            .exit("app/main/stack"),
            .exit("app/main"),
            .cancelled(
                flow: "app/main", awaitedAt: "app", reason: "it left without finishing"),
            .exit("app"),
            .change(.stop, "", exited: ["app"]),
        ])
        harness.expectTree("")
        harness.finish()
        harness.leaks.expectAllReleased()
        #expect(app.liveNodes.alive == 0)
    }

    /// What signing in does: the form's event makes the login flow finish, its result goes
    /// to the app root's `run`, and the app root switches from the login flow to a new main
    /// flow.
    private var signInRecords: [FlowTraceRecord] {
        [
            .send(event: "CredentialsAccepted", from: "app/login/form"),
            .finished(flow: "app/login", awaitedAt: "app"),
            .handled(event: "CredentialsAccepted", at: "app/login"),
            .exit("app/login/form"),
            .exit("app/login"),
            .enter("app/main"),
            .enter("app/main/stack"),
            .enter("app/main/stack/list"),
            .change(.switch, "app", exited: ["app/login"], entered: ["app/main"]),
            .activate("app/main"),
            .activate("app/main/stack"),
            .activate("app/main/stack/list"),
        ]
    }

    /// What selecting a book does: the list's event reaches the main flow, which pushes a
    /// detail screen over `below`.
    private func openDetailRecords(covering below: String) -> [FlowTraceRecord] {
        [
            .send(event: "BookSelected", from: "app/main/stack/list"),
            .enter("app/main/stack/detail"),
            .change(.push, "app/main/stack", entered: ["app/main/stack/detail"]),
            .deactivate(below),
            .activate("app/main/stack/detail"),
            .handled(event: "BookSelected", at: "app/main"),
        ]
    }

    /// Tracks the main flow, its stack, the list and the session in the main flow's scope,
    /// without keeping a reference in the test.
    private func trackMainFlow(_ harness: FlowTestHarness) {
        harness.leaks.trackSubtree(harness.node("app/main"))
        let main = harness.node("app/main")
        if let session = try? main.dependencies.require(SessionKey.self) {
            harness.leaks.track(session, ownedBy: main)
        } else {
            Issue.record("The main flow has no session")
        }
    }
}
