import FlowKit

/// The app's root: a switch whose one child is the login flow or the main flow.
///
/// When it enters, it starts the app's session loop as a task of its own. The loop shows a
/// login flow and awaits the account it finishes with
/// (`try await run(LoginFlow(…), .switch)`), then shows a main flow with a new
/// ``UserSession`` (set on the main flow, so only that subtree sees it) and awaits that flow
/// too: the main flow finishes when the user logs out. Then it starts again; switching to the
/// next login flow tears the main flow, with its tabs, stacks, screens and session, down.
///
/// Stopping the runtime exits the flow being awaited and cancels the loop's task: the loop
/// ends there, quietly.
final class AppRoot: FlowSwitch {
    private let counter: LiveNodeCounter
    private let registration: LiveNodeCounter.Registration

    init(counter: LiveNodeCounter) {
        self.counter = counter
        registration = counter.register()
        super.init(name: "app")
        // A deep link to the catalog while logged out builds a main flow only for its guard
        // to decide (it redirects to the login screen); the signed-in main flow is the one
        // the session loop shows.
        register("main") { MainFlow(counter: counter) }
        registerGlobal("about") { AboutScreen(counter: counter) }
    }

    override func didEnter() {
        task { [weak self] in try await self?.runSessions() }
    }

    /// Signs in, shows the catalog until logout, and starts again.
    private func runSessions() async throws {
        var signedOut: SignedOut?
        while true {
            // The flow is made in the call, so that nothing but `run` holds it while it runs.
            let account = try await run(
                LoginFlow(counter: counter) { [console, signedOut] in
                    // The login flow enters after the main flow exited and was released.
                    guard let signedOut else { return }
                    console.write(
                        "\(signedOut.name) signed out: the app root tore the main flow down and "
                            + "shows a new login flow.", style: .success)
                    if signedOut.session == nil {
                        console.write(
                            "The session is gone (checked with a weak reference).", style: .success)
                    } else {
                        console.write(
                            "The session is STILL ALIVE: something leaked it.", style: .error)
                    }
                }, .switch)
            do {
                let session = UserSession(account: account)
                let main = MainFlow(counter: counter, session: session)
                signedOut = SignedOut(name: account.displayName, session: session)
                console.write(
                    "Signed in as \(account.displayName): the app root shows the main flow.",
                    style: .success)
                try await run(main, .switch)  // until the user logs out
            }
        }
    }
}

/// Who signed out, with their session held weakly, to show that logging out released it.
@MainActor
private final class SignedOut {
    let name: String
    weak var session: UserSession?

    init(name: String, session: UserSession) {
        self.name = name
        self.session = session
    }
}
