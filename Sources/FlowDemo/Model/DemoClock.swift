import Foundation

/// The time source the login lockout measures with, provided through ``DemoClockKey``.
///
/// A reading is the time elapsed since an origin the clock chooses; only differences
/// between readings of one clock mean anything. The binary uses ``SystemDemoClock``; tests
/// inject a ``ManualDemoClock`` and move it by hand, so no test waits for real time.
public protocol DemoClock: Sendable {
    /// The time elapsed since the clock's origin.
    var now: Duration { get }
}

/// A ``DemoClock`` backed by `ContinuousClock`, counting from its creation.
public struct SystemDemoClock: DemoClock {
    private let origin: ContinuousClock.Instant

    /// Creates a clock whose origin is now.
    public init() {
        origin = ContinuousClock.now
    }

    public var now: Duration { ContinuousClock.now - origin }
}

/// A ``DemoClock`` that only moves when told to: tests use it to step through the lockout.
///
///     let clock = ManualDemoClock()
///     clock.advance(by: .seconds(10))
///     clock.now   // 10 seconds
public final class ManualDemoClock: DemoClock, @unchecked Sendable {
    // @unchecked: `elapsed` is only read and written while holding `lock`. (Mutex from
    // Synchronization would need macOS 15, and the package declares no platforms.)
    private let lock = NSLock()
    private var elapsed: Duration

    /// Creates a clock reading `start`.
    public init(start: Duration = .zero) {
        elapsed = start
    }

    public var now: Duration {
        lock.withLock { elapsed }
    }

    /// Moves the clock forward by `duration`.
    public func advance(by duration: Duration) {
        lock.withLock { elapsed += duration }
    }
}
