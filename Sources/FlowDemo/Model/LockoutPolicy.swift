/// When the login screen locks, and for how long.
///
/// After ``maxFailures`` wrong attempts in a row, sign-in is locked for ``duration`` as
/// measured by the app's ``DemoClock``. Attempts while locked are refused without being
/// checked or counted. When the lock ends the count starts again from zero; a successful
/// sign-in also resets it. Empty fields are refused before any of this and never count.
public struct LockoutPolicy: Equatable, Sendable {
    /// Wrong attempts in a row that lock sign-in.
    public var maxFailures: Int
    /// How long the lock lasts.
    public var duration: Duration

    /// Creates a policy.
    ///
    /// - Precondition: `maxFailures` is at least 1 and `duration` is positive.
    public init(maxFailures: Int, duration: Duration) {
        precondition(maxFailures >= 1, "LockoutPolicy: maxFailures must be at least 1")
        precondition(duration > .zero, "LockoutPolicy: duration must be positive")
        self.maxFailures = maxFailures
        self.duration = duration
    }

    /// The demo's rule: 3 wrong attempts in a row lock sign-in for 10 seconds.
    public static let standard = LockoutPolicy(maxFailures: 3, duration: .seconds(10))

    /// `duration` in whole seconds, rounded up.
    var seconds: Int { Self.wholeSeconds(duration) }

    /// `duration` in whole seconds, rounded up (0.2 s reads as 1 s).
    static func wholeSeconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(seconds) + (attoseconds > 0 ? 1 : 0)
    }
}
