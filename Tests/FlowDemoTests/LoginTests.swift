import FlowDemo
import FlowKit
import Testing

@MainActor
@Suite("Login screen")
struct LoginTests {
    @Test("A wrong password shows an error and stays on the login screen")
    func wrongPassword() throws {
        let app = try makeApp()
        var transcript = app.start()
        transcript += app.echoAndRun("login alice hunter2")
        transcript += app.echoAndRun("tree")

        #expect(
            transcript
                == lines(greeting) + lines(loginPanel)
                + [
                    "> login alice hunter2",
                    "Wrong username or password (1 in a row; 2 more lock sign-in for 10 s).",
                    "> tree",
                    "* app",
                    "  * login",
                    "    * form",
                    "FlowController instances alive: 3 (3 in the tree; * marks the focused path)",
                ])
    }

    @Test("Empty fields and extra words are refused and never count as failures")
    func emptyFieldsAreRefused() throws {
        let app = try makeApp()
        _ = app.start()
        var transcript: [String] = []
        for command in ["login", "login alice", "login alice a b", "login nobody x"] {
            transcript += app.echoAndRun(command)
        }

        #expect(
            transcript == [
                "> login",
                "Refused: enter a username and a password (login <user> <password>).",
                "> login alice",
                "Refused: enter the password (login <user> <password>).",
                "> login alice a b",
                "Refused: too many words; use login <user> <password>.",
                "> login nobody x",
                "Wrong username or password (1 in a row; 2 more lock sign-in for 10 s).",
            ])
    }

    @Test("Three failures in a row lock sign-in for ten seconds on the app's clock")
    func lockout() throws {
        let clock = ManualDemoClock()
        let app = try makeApp(clock: clock)
        _ = app.start()
        var transcript: [String] = []
        transcript += app.echoAndRun("login alice one")
        transcript += app.echoAndRun("login bob two")
        transcript += app.echoAndRun("login alice three")
        transcript += app.echoAndRun("login alice wonderland")
        clock.advance(by: .milliseconds(9_500))
        transcript += app.echoAndRun("login alice wonderland")
        clock.advance(by: .milliseconds(500))
        transcript += app.echoAndRun("login alice four")
        transcript += app.echoAndRun("login alice wonderland")

        let lockedPanel = """
            +-- Sign in ------------------------------------------------------------
            | app > login > form
            |
            | Demo accounts (username / password):
            |   alice / wonderland
            |   bob / builder
            | 3 wrong attempts in a row lock sign-in for 10 seconds.
            |
            | LOCKED after 3 wrong attempts: wait, then try again.
            |
            | Here: login <user> <password>
            | Anywhere: tree, trace, help, quit
            +-----------------------------------------------------------------------
            """
        let expected =
            [
                "> login alice one",
                "Wrong username or password (1 in a row; 2 more lock sign-in for 10 s).",
                "> login bob two",
                "Wrong username or password (2 in a row; 1 more locks sign-in for 10 s).",
                "> login alice three",
                "Wrong username or password. 3 in a row: sign-in is locked for 10 s.",
            ] + lines(lockedPanel)
            + [
                "> login alice wonderland",
                "Sign-in is locked: try again in 10 s.",
                "> login alice wonderland",
                "Sign-in is locked: try again in 1 s.",
                "> login alice four",
                "Wrong username or password (1 in a row; 2 more lock sign-in for 10 s).",
            ] + lines(loginPanel)
            + [
                "> login alice wonderland",
                "Signed in as Alice: the app root switched to main.",
            ]
        #expect(Array(transcript.prefix(expected.count)) == expected)
        #expect(transcript.dropFirst(expected.count).first == "+-- Books " + dashes(62))
        #expect(app.runtime.focusedNode?.path == "app/main/stack/list")
    }

    @Test("The lockout survives logging out, because the auth service belongs to the app root")
    func lockoutOutlivesTheLoginFlow() throws {
        let clock = ManualDemoClock()
        let app = try makeApp(clock: clock)
        _ = app.start()
        _ = app.run("login alice wonderland")
        _ = app.run("logout")
        for attempt in ["x", "y", "z"] { _ = app.run("login bob \(attempt)") }
        _ = app.run("logout")  // not a command on the login screen: nothing changes

        #expect(app.run("login bob builder") == ["Sign-in is locked: try again in 10 s."])
        #expect(app.runtime.focusedNode?.path == "app/login/form")
    }
}

private func dashes(_ count: Int) -> String {
    String(repeating: "-", count: count)
}
