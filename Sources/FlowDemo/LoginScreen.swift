import FlowKit

/// The sign-in form: `login <user> <password>`, checked by the ``AuthService`` with the
/// lockout of its ``LockoutPolicy``.
final class LoginScreen: FlowController, DemoScreen {
    private let registration: LiveNodeCounter.Registration

    init(counter: LiveNodeCounter) {
        registration = counter.register()
        super.init(name: "form")
    }

    private var auth: AuthService {
        do {
            return try dependencies.require(AuthServiceKey.self)
        } catch {
            preconditionFailure("\(error)")
        }
    }

    private var now: Duration { dependencies[DemoClockKey.self].now }

    var title: String { "Sign in" }

    var commandUsages: [String] { ["login <user> <password>"] }

    func content() -> [String] {
        let policy = auth.policy
        var lines = ["Demo accounts (username / password):"]
        lines += auth.accounts.map { "  \($0.username) / \($0.password)" }
        lines.append(
            "\(policy.maxFailures) wrong attempts in a row lock sign-in for "
                + "\(policy.seconds) seconds.")
        if auth.isLocked(at: now) {
            lines.append("")
            lines.append("LOCKED after \(policy.maxFailures) wrong attempts: wait, then try again.")
        }
        return lines
    }

    func perform(_ command: String, arguments: [String]) -> Bool {
        guard command == "login" else { return false }
        guard arguments.count <= 2 else {
            console.write("Refused: too many words; use login <user> <password>.")
            return true
        }
        let username = arguments.first ?? ""
        let password = arguments.count > 1 ? arguments[1] : ""
        switch auth.signIn(username: username, password: password, at: now) {
        case .emptyField(let field):
            let what = username.isEmpty ? "a username and a password" : "the \(field)"
            console.write("Refused: enter \(what) (login <user> <password>).")
        case .rejected(let failures, let remaining):
            console.write(
                "Wrong username or password (\(failures) in a row; \(remaining) more "
                    + "lock\(remaining == 1 ? "s" : "") sign-in for \(auth.policy.seconds) s).")
        case .lockedOut(let duration):
            console.write(
                "Wrong username or password. \(auth.policy.maxFailures) in a row: sign-in is "
                    + "locked for \(LockoutPolicy.wholeSeconds(duration)) s.")
        case .locked(let remaining):
            console.write(
                "Sign-in is locked: try again in \(LockoutPolicy.wholeSeconds(remaining)) s.")
        case .accepted(let account):
            send(CredentialsAccepted(account: account))
        }
        return true
    }
}
