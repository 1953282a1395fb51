/// Checks usernames and passwords against the demo's accounts and enforces the lockout, per
/// user.
///
/// Usernames are compared ignoring case (`ALICE` is `alice`); passwords exactly. Wrong
/// attempts are counted per username (in lower case, whether or not an account has it), so
/// locking one user out does not lock out anyone else. One service serves the whole app (it
/// is set on the app root under ``AuthServiceKey``), so the counts survive the login flow
/// being torn down and rebuilt.
///
///     let auth = AuthService(accounts: Account.shipped)
///     auth.signIn(username: "alice", password: "nope", at: .zero)
///     // .rejected(failuresInARow: 1, remaining: 2)
///     auth.signIn(username: "BOB", password: "builder", at: .zero)
///     // .accepted(bob)
@MainActor
public final class AuthService {
    /// The outcome of one attempt.
    public enum Outcome: Equatable, Sendable {
        /// The credentials match `account`.
        case accepted(Account)
        /// A field was empty; nothing was checked or counted.
        case emptyField(String)
        /// Wrong credentials; `remaining` more in a row lock this username out.
        case rejected(failuresInARow: Int, remaining: Int)
        /// Wrong credentials, and this attempt locked the username out for `duration`.
        case lockedOut(duration: Duration)
        /// The username is locked out; `remaining` is the time left. Nothing was checked or
        /// counted.
        case locked(remaining: Duration)
    }

    /// The accounts that may sign in.
    public let accounts: [Account]
    /// The lockout rule.
    public let policy: LockoutPolicy

    private var failures: [String: Int] = [:]
    private var locks: [String: Duration] = [:]

    /// Creates a service for `accounts`.
    public init(accounts: [Account], policy: LockoutPolicy = .standard) {
        self.accounts = accounts
        self.policy = policy
    }

    /// The key a username is counted and locked under: the username in lower case.
    public static func key(for username: String) -> String {
        username.lowercased()
    }

    /// Wrong attempts in a row for `username` since its last success or lock.
    public func failuresInARow(for username: String) -> Int {
        failures[Self.key(for: username)] ?? 0
    }

    /// When the lock on `username` ends (a reading of the ``DemoClock``), if it was locked
    /// and no attempt has been made since the lock ended.
    public func lockEnd(for username: String) -> Duration? {
        locks[Self.key(for: username)]
    }

    /// Whether `username` is locked out at `now`.
    public func isLocked(_ username: String, at now: Duration) -> Bool {
        lockEnd(for: username).map { now < $0 } ?? false
    }

    /// The usernames (as keys) locked out at `now`, with the time left, sorted by name.
    public func lockedUsernames(at now: Duration) -> [(username: String, remaining: Duration)] {
        locks.filter { now < $0.value }.sorted { $0.key < $1.key }
            .map { (username: $0.key, remaining: $0.value - now) }
    }

    /// Checks one attempt made at `now` (a ``DemoClock`` reading).
    public func signIn(username: String, password: String, at now: Duration) -> Outcome {
        if username.isEmpty { return .emptyField("username") }
        if password.isEmpty { return .emptyField("password") }
        let key = Self.key(for: username)
        if let until = locks[key] {
            if now < until { return .locked(remaining: until - now) }
            locks[key] = nil
            failures[key] = nil
        }
        if let account = accounts.first(where: { Self.key(for: $0.username) == key }),
            account.password == password
        {
            failures[key] = nil
            return .accepted(account)
        }
        let count = (failures[key] ?? 0) + 1
        if count >= policy.maxFailures {
            failures[key] = nil
            locks[key] = now + policy.duration
            return .lockedOut(duration: policy.duration)
        }
        failures[key] = count
        return .rejected(failuresInARow: count, remaining: policy.maxFailures - count)
    }
}
