import FlowKit

/// The login flow: owns the login screen and finishes with the signed-in ``Account``, which
/// the app root awaits. A login flow restored from a saved state (`flowdemo --state`) is
/// awaited with `result(of:)`.
final class LoginFlow: FlowController, ResultFlow {
    typealias Result = Account

    private let registration: LiveNodeCounter.Registration
    private let whenEntered: @MainActor () -> Void

    /// Creates the flow; `whenEntered` runs when it enters.
    init(counter: LiveNodeCounter, whenEntered: @escaping @MainActor () -> Void = {}) {
        registration = counter.register()
        self.whenEntered = whenEntered
        super.init(name: "login", route: "login")
        do {
            try embed(LoginScreen(counter: counter))
        } catch {
            preconditionFailure("LoginFlow: \(error)")
        }
        respond(to: CredentialsAccepted.self) { login, accepted in
            login.finish(with: accepted.account)
            return .handled
        }
    }

    override func didEnter() {
        whenEntered()
    }

}
