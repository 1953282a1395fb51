import FlowDemo
import FlowKit
import Testing

@MainActor
@Suite("Login screen")
struct LoginTests {
    @Test("A wrong password shows an error and stays on the login screen")
    func wrongPassword() async throws {
        let app = try makeApp()
        var transcript = await app.start()
        transcript += await app.echoAndRun("login alice hunter2")
        transcript += await app.echoAndRun("tree")

        #expect(
            transcript
                == lines(greeting) + lines(loginPanel)
                + [
                    "> login alice hunter2",
                    "Wrong username or password (1 in a row for alice; 2 more lock alice out "
                        + "for 10 s).",
                    "> tree",
                    "* app",
                    "  * login",
                    "    * form",
                    "FlowController instances alive: 3 (3 in the tree; * marks the focused path)",
                ])
    }

    @Test("Empty fields and extra words are refused and never count as failures")
    func emptyFieldsAreRefused() async throws {
        let app = try makeApp()
        _ = await app.start()
        var transcript: [String] = []
        for command in ["login", "login alice", "login alice a b", "login nobody x"] {
            transcript += await app.echoAndRun(command)
        }

        #expect(
            transcript == [
                "> login",
                "Refused: enter a username and a password (login <user> <password>).",
                "> login alice",
                "Refused: enter the password (login <user> <password>).",
                "> login alice a b",
                "Refused: too many words; usage: login <user> <password>.",
                "> login nobody x",
                "Wrong username or password (1 in a row for nobody; 2 more lock nobody out for "
                    + "10 s).",
            ])
    }

    @Test("Usernames are read in any case; passwords are not")
    func usernamesIgnoreCase() async throws {
        let app = try makeApp()
        _ = await app.start()

        #expect(
            await app.run("login Bob BUILDER") == [
                "Wrong username or password (1 in a row for bob; 2 more lock bob out for 10 s)."
            ])
        #expect(
            Array(await app.run("LOGIN BOB builder").prefix(1)) == [
                "Signed in as Bob: the app root shows the main flow."
            ])
        #expect(app.runtime.focusedNode?.path == "app/main/tabs/catalog/books/list")
    }

    @Test("Three failures in a row lock that user out for ten seconds, and the message says when")
    func lockout() async throws {
        let clock = ManualDemoClock()
        let app = try makeApp(clock: clock)
        _ = await app.start()
        var transcript: [String] = []
        transcript += await app.echoAndRun("login alice one")
        transcript += await app.echoAndRun("login ALICE two")
        transcript += await app.echoAndRun("login alice three")
        transcript += await app.echoAndRun("login alice wonderland")
        clock.advance(by: .milliseconds(9_500))
        transcript += await app.echoAndRun("login alice wonderland")
        clock.advance(by: .milliseconds(500))
        transcript += await app.echoAndRun("login alice four")
        transcript += await app.echoAndRun("login alice wonderland")

        let expected =
            [
                "> login alice one",
                "Wrong username or password (1 in a row for alice; 2 more lock alice out for "
                    + "10 s).",
                "> login ALICE two",
                "Wrong username or password (2 in a row for alice; 1 more locks alice out for "
                    + "10 s).",
                "> login alice three",
                "Wrong username or password. 3 in a row: alice is locked out; try again in 10 s.",
            ] + lines(lockedPanel(["alice; try again in 10 s."]))
            + [
                "> login alice wonderland",
                "alice is locked out: try again in 10 s (other users can sign in).",
                "> login alice wonderland",
                "alice is locked out: try again in 1 s (other users can sign in).",
            ] + lines(lockedPanel(["alice; try again in 1 s."]))
            + [
                "> login alice four",
                "Wrong username or password (1 in a row for alice; 2 more lock alice out for "
                    + "10 s).",
            ] + lines(loginPanel)
            + [
                "> login alice wonderland",
                "Signed in as Alice: the app root shows the main flow.",
            ]
        #expect(Array(transcript.prefix(expected.count)) == expected)
        #expect(transcript.dropFirst(expected.count).first == "+-- Books " + dashes(62))
        #expect(app.runtime.focusedNode?.path == "app/main/tabs/catalog/books/list")
    }

    @Test("The lockout is per user: a locked-out alice does not stop bob")
    func lockoutIsPerUser() async throws {
        let clock = ManualDemoClock()
        let app = try makeApp(clock: clock)
        _ = await app.start()
        for attempt in ["x", "y", "z"] { _ = await app.run("login alice \(attempt)") }
        _ = await app.run("login bob wrong")
        clock.advance(by: .seconds(3))

        #expect(
            await app.run("login alice wonderland")
                == ["alice is locked out: try again in 7 s (other users can sign in)."]
                + lines(lockedPanel(["alice; try again in 7 s."])))
        #expect(
            Array(await app.run("login bob builder").prefix(1)) == [
                "Signed in as Bob: the app root shows the main flow."
            ])
    }

    @Test("The lockout survives logging out, because the auth service belongs to the app root")
    func lockoutOutlivesTheLoginFlow() async throws {
        let clock = ManualDemoClock()
        let app = try makeApp(clock: clock)
        _ = await app.start()
        _ = await app.run("login alice wonderland")
        _ = await app.run("logout")
        for attempt in ["x", "y", "z"] { _ = await app.run("login bob \(attempt)") }

        #expect(await app.run("logout") == ["logout: nobody is signed in."])
        #expect(
            await app.run("login bob builder") == [
                "bob is locked out: try again in 10 s (other users can sign in)."
            ])
        #expect(app.runtime.focusedNode?.path == "app/login/form")
    }

    /// The login panel with a `LOCKED` line for each of `locks`.
    private func lockedPanel(_ locks: [String]) -> String {
        """
        +-- Sign in ------------------------------------------------------------
        | app/login/form
        |
        | Demo accounts (username / password):
        |   alice / wonderland
        |   bob / builder
        | 3 wrong attempts in a row lock a user out for 10 seconds.
        |

        """ + locks.map { "| LOCKED: \($0) Other users can sign in.\n" }.joined()
            + """
            |
            | Here: login <user> <password>
            | Anywhere: open, about, tree, trace, help, quit
            +-----------------------------------------------------------------------
            """
    }
}

private func dashes(_ count: Int) -> String {
    String(repeating: "-", count: count)
}
