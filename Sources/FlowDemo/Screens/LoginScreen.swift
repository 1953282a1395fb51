import FlowKit

/// The sign-in form: `login <user> <password>`, checked by the ``AuthService`` with the
/// per-user lockout of its ``LockoutPolicy``.
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

    var commandNames: [String] { ["login"] }

    func content() -> [String] {
        let policy = auth.policy
        var lines = ["Demo accounts (username / password):"]
        lines += auth.accounts.map { "  \($0.username) / \($0.password)" }
        lines.append(
            "\(policy.maxFailures) wrong attempts in a row lock a user out for "
                + "\(policy.seconds) seconds.")
        let locked = auth.lockedUsernames(at: now)
        if !locked.isEmpty { lines.append("") }
        for (username, remaining) in locked {
            lines.append(
                "LOCKED: \(Self.shown(username)); try again in "
                    + "\(LockoutPolicy.wholeSeconds(remaining)) s. Other users can sign in.")
        }
        return lines
    }

    func perform(_ command: String, arguments: [String]) {
        let username = arguments.first ?? ""
        let password = arguments.count > 1 ? arguments[1] : ""
        let user = Self.shown(AuthService.key(for: username))
        switch auth.signIn(username: username, password: password, at: now) {
        case .emptyField(let field):
            let what = username.isEmpty ? "a username and a password" : "the \(field)"
            console.write("Refused: enter \(what) (login <user> <password>).", style: .error)
        case .rejected(let failures, let remaining):
            console.write(
                "Wrong username or password (\(failures) in a row for \(user); \(remaining) "
                    + "more lock\(remaining == 1 ? "s" : "") \(user) out for "
                    + "\(auth.policy.seconds) s).", style: .error)
        case .lockedOut(let duration):
            console.write(
                "Wrong username or password. \(auth.policy.maxFailures) in a row: \(user) is "
                    + "locked out; try again in \(LockoutPolicy.wholeSeconds(duration)) s.",
                style: .error)
        case .locked(let remaining):
            console.write(
                "\(user) is locked out: try again in \(LockoutPolicy.wholeSeconds(remaining)) s "
                    + "(other users can sign in).", style: .error)
        case .accepted(let account):
            send(CredentialsAccepted(account: account))
        }
    }

    func whyNot(_ command: String) -> String {
        switch command {
        case "logout": return "nobody is signed in."
        case "back": return "nothing to go back to; signing in is the first screen."
        default: return "sign in first; the book list comes after login."
        }
    }

    /// A username as messages quote it: at most 24 characters.
    static func shown(_ username: String) -> String {
        DemoInput.shortened(username, to: 24)
    }
}
