/// Checks usernames and passwords against the demo's accounts and enforces the lockout.
///
/// One service serves the whole app (it is set on the app root under ``AuthServiceKey``), so
/// the failure count survives the login flow being torn down and rebuilt.
///
///     let auth = AuthService(accounts: Account.shipped)
///     auth.signIn(username: "alice", password: "nope", at: .zero)
///     // .rejected(failuresInARow: 1, remaining: 2)
@MainActor
public final class AuthService {
    /// The outcome of one attempt.
    public enum Outcome: Equatable, Sendable {
        /// The credentials match `account`.
        case accepted(Account)
        /// A field was empty; nothing was checked or counted.
        case emptyField(String)
        /// Wrong credentials; `remaining` more in a row lock sign-in.
        case rejected(failuresInARow: Int, remaining: Int)
        /// Wrong credentials, and this attempt locked sign-in for `duration`.
        case lockedOut(duration: Duration)
        /// Sign-in is locked; `remaining` is the time left. Nothing was checked or counted.
        case locked(remaining: Duration)
    }

    /// The accounts that may sign in.
    public let accounts: [Account]
    /// The lockout rule.
    public let policy: LockoutPolicy

    /// Wrong attempts in a row since the last success or lock.
    public private(set) var failuresInARow = 0
    /// When the current lock ends, on the clock passed to ``signIn(username:password:at:)``.
    public private(set) var lockedUntil: Duration?

    /// Creates a service for `accounts`.
    public init(accounts: [Account], policy: LockoutPolicy = .standard) {
        self.accounts = accounts
        self.policy = policy
    }

    /// Whether sign-in is locked at `now`.
    public func isLocked(at now: Duration) -> Bool {
        lockedUntil.map { now < $0 } ?? false
    }

    /// Checks one attempt made at `now` (a ``DemoClock`` reading).
    public func signIn(username: String, password: String, at now: Duration) -> Outcome {
        if username.isEmpty { return .emptyField("username") }
        if password.isEmpty { return .emptyField("password") }
        if let until = lockedUntil {
            if now < until { return .locked(remaining: until - now) }
            lockedUntil = nil
            failuresInARow = 0
        }
        if let account = accounts.first(where: { $0.username == username }),
            account.password == password
        {
            failuresInARow = 0
            return .accepted(account)
        }
        failuresInARow += 1
        if failuresInARow >= policy.maxFailures {
            failuresInARow = 0
            lockedUntil = now + policy.duration
            return .lockedOut(duration: policy.duration)
        }
        return .rejected(
            failuresInARow: failuresInARow, remaining: policy.maxFailures - failuresInARow)
    }
}
