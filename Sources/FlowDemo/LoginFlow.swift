import FlowKit

/// The login flow: owns the login screen and finishes with the signed-in ``Account``.
final class LoginFlow: FlowController {
    private let registration: LiveNodeCounter.Registration

    init(counter: LiveNodeCounter) {
        registration = counter.register()
        super.init(name: "login")
        do {
            try embed(LoginScreen(counter: counter))
        } catch {
            preconditionFailure("LoginFlow: \(error)")
        }
        on(CredentialsAccepted.self) { [unowned self] accepted in
            finish(with: accepted.account)
            return .handled
        }
    }
}
