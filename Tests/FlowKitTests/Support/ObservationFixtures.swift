import Foundation
import Observation

/// Runs `read` under observation tracking and reports whether `change` notified it.
@MainActor
func notifies(_ read: () -> Void, when change: () throws -> Void) rethrows -> Bool {
    let flag = ChangeFlag()
    withObservationTracking(read) { flag.set() }
    try change()
    return flag.value
}

/// Set from an observation's `onChange` (which is `@Sendable`): guarded by a lock.
final class ChangeFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var storage = false
    func set() { lock.withLock { storage = true } }
    var value: Bool { lock.withLock { storage } }
}
