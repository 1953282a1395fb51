import FlowKit

/// A flow that finishes with an `Int`; it embeds a `page` so that it has a subtree.
@MainActor
final class Picker: FlowController, ResultFlow {
    typealias Result = Int
    var onEnter: (@MainActor (Picker) -> Void)?

    init(_ name: String = "picker", onEnter: (@MainActor (Picker) -> Void)? = nil) {
        self.onEnter = onEnter
        super.init(name: name)
        try! embed(FlowController(name: "page"))
    }

    override func didEnter() { onEnter?(self) }
}

/// Yields to the main actor until `condition` holds (at most 1,000 times).
@MainActor
func waitUntil(_ condition: () -> Bool) async {
    var turns = 0
    while !condition() && turns < 1_000 {
        await Task.yield()
        turns += 1
    }
}

/// The error a task ended with, or `nil` if it returned.
func failure<Success>(of task: Task<Success, any Error>) async -> (any Error)? {
    switch await task.result {
    case .success: return nil
    case .failure(let error): return error
    }
}
