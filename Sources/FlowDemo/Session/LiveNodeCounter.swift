import Foundation

/// Counts the demo's `FlowController` instances that are alive, to prove teardown.
///
/// Every demo node takes a ``Registration`` in its initializer; the registration counts the
/// node in when it is made and out when it is released, which happens exactly when the node
/// deallocates (the node is its only owner). One counter per ``DemoApp``, so tests running
/// side by side do not see each other's nodes.
///
///     let counter = LiveNodeCounter()
///     var node: FlowController? = LoginScreen(counter: counter)
///     counter.alive   // 1
///     node = nil
///     counter.alive   // 0
public final class LiveNodeCounter: @unchecked Sendable {
    // @unchecked: `counts` is only read and written while holding `lock`. A node deallocates
    // wherever its last reference goes, and deinit is nonisolated, so the count needs a lock.
    // (Mutex from Synchronization would need macOS 15, and the package declares no
    // platforms.)
    private let lock = NSLock()
    private var counts = (alive: 0, created: 0)

    /// Creates a counter at zero.
    public init() {}

    /// How many counted nodes exist now.
    public var alive: Int { lock.withLock { counts.alive } }

    /// How many counted nodes were ever created.
    public var created: Int { lock.withLock { counts.created } }

    /// Counts one node in, for as long as the returned value lives.
    public func register() -> Registration {
        Registration(counter: self)
    }

    fileprivate func change(by delta: Int) {
        lock.withLock {
            counts.alive += delta
            if delta > 0 { counts.created += delta }
        }
    }

    /// One counted node: counted in on creation, counted out on deinit. A node keeps it in a
    /// stored property and shares it with no one.
    public final class Registration: Sendable {
        /// The counter this registration counts in.
        let counter: LiveNodeCounter

        fileprivate init(counter: LiveNodeCounter) {
            self.counter = counter
            counter.change(by: 1)
        }

        deinit {
            counter.change(by: -1)
        }
    }
}
