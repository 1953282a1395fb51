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
///
/// A start restored from a saved state (`flowdemo --state`) already shows a login flow or a
/// main flow, built by this switch's factories (`login`, `main`). No `run` shows those, so the
/// loop awaits the restored flow with `result(of:)` first, then goes on
/// as usual: after a restored main flow's logout, the next login flow tears it down.
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
        // The same factory rebuilds the main flow of a saved state, which restores its session.
        register("main") { MainFlow(counter: counter) }
        // A saved state taken at the login screen: the restored login flow is awaited as the
        // first one.
        register("login") { LoginFlow(counter: counter) }
        registerGlobal("about") { AboutScreen(counter: counter) }
    }

    override func didEnter() {
        task { [weak self] in try await self?.runSessions() }
    }

    /// Signs in, shows the catalog until logout, and starts again. A restored start first
    /// awaits the flow it restored.
    ///
    /// After each `await` it first checks that the task was not cancelled: a flow that
    /// finishes hands its result over at once, but this task runs on a later main-actor turn,
    /// and if the runtime stopped in between (the input ended right after the command), the
    /// app root has exited and cancelled this task. Carrying on would use the exited root,
    /// which no longer sees its dependencies.
    private func runSessions() async throws {
        var signedOut = try await awaitRestoredMainFlow()
        var restoredAccount = try await awaitRestoredLoginFlow()
        while true {
            try Task.checkCancellation()
            let account: Account
            if let restored = restoredAccount {
                account = restored
                restoredAccount = nil
            } else {
                account = try await signIn(after: signedOut)
                try Task.checkCancellation()
            }
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

    /// Shows a new login flow (tearing the main flow down, if one is shown) and awaits the
    /// account it finishes with. Once it enters, it says whether `signedOut`'s session is gone.
    private func signIn(after signedOut: SignedOut?) async throws -> Account {
        // The flow is made in the call, so that nothing but `run` holds it while it runs.
        try await run(
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
    }
}

extension AppRoot {
    /// Awaits the main flow of a restored start until the user logs out, and returns who
    /// signed out; `nil` if the app did not start with a main flow.
    private func awaitRestoredMainFlow() async throws -> SignedOut? {
        guard let main = current as? MainFlow, let session = main.session else { return nil }
        let signedOut = SignedOut(name: session.account.displayName, session: session)
        _ = try await result(of: main)  // until the user logs out
        return signedOut
    }

    /// Awaits the login flow of a restored start: the account it finishes with, if the app
    /// started with a login flow (also after a restored main flow's logout: then it has none).
    private func awaitRestoredLoginFlow() async throws -> Account? {
        guard let login = current as? LoginFlow else { return nil }
        return try await result(of: login)
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
