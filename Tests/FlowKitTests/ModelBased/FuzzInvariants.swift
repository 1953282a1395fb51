@testable import FlowKit

extension FuzzWorld {
    /// FlowKit's own invariants after a step (the `+Invariants.swift` checks: every tab
    /// container's and split's, and every runtime's activation state), reported as a
    /// difference rather than a trap. Debug builds also trap on them where they are broken;
    /// the release build of the long runs and of the fuzz target checks them only here.
    /// Returns the check that failed and why.
    func invariantProblem() -> (check: String, message: String)? {
        for id in nodes.keys.sorted() {
            guard let node = node(id) else { continue }
            let violations: [String]
            if let tabs = node as? FlowTabs {
                violations = tabs._invariantViolations()
            } else if let split = node as? FlowSplit {
                violations = split._invariantViolations()
            } else {
                continue
            }
            if let first = violations.first {
                return ("invariant (\(node is FlowTabs ? "tabs" : "split"))", "n\(id): \(first)")
            }
        }
        for r in runtimes.keys.sorted() {
            guard let runtime = runtime(r) else { continue }
            if let first = runtime._invariantViolations().first {
                return ("invariant (runtime)", "rt\(r): \(first)")
            }
        }
        return nil
    }
}
