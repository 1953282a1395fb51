import FlowKit

/// The app's root: a switch whose one child is the login flow or the main flow.
///
/// It handles the two events that change who is signed in. `FlowFinished<Account>` from the
/// login flow creates a ``UserSession``, sets it on a new main flow (so only that subtree sees
/// it) and switches to it. `LogoutRequested` from anywhere below switches to a new login flow:
/// the main flow with its stack, screens and session exits and deallocates.
final class AppRoot: FlowSwitch {
    private let counter: LiveNodeCounter
    private let registration: LiveNodeCounter.Registration

    init(counter: LiveNodeCounter) {
        self.counter = counter
        registration = counter.register()
        super.init(name: "app", initial: LoginFlow(counter: counter))
        on(FlowFinished<Account>.self) { [unowned self] done in
            signIn(done.result)
            return .handled
        }
        on(LogoutRequested.self) { [unowned self] _ in
            signOut()
            return .handled
        }
    }

    private func signIn(_ account: Account) {
        let main = MainFlow(counter: counter)
        main.dependencies.set(UserSession(account: account), for: SessionKey.self)
        do {
            try self.switch(to: main)
            console.write(
                "Signed in as \(account.displayName): the app root switched to main.",
                style: .success)
        } catch {
            console.write("Could not sign in: \(error)", style: .error)
        }
    }

    private func signOut() {
        weak let session = try? current?.dependencies.require(SessionKey.self)
        let name = session?.account.displayName ?? "Nobody"
        do {
            try self.switch(to: LoginFlow(counter: counter))
        } catch {
            console.write("Could not sign out: \(error)", style: .error)
            return
        }
        console.write(
            "\(name) signed out: the app root switched to login and tore the main flow down.",
            style: .success)
        if session == nil {
            console.write("The session is gone (checked with a weak reference).", style: .success)
        } else {
            console.write("The session is STILL ALIVE: something leaked it.", style: .error)
        }
    }
}
