/// A platform whose transitions take time: it performs one ``FlowTransitionStep`` at a time
/// (per container, or as its ``transitionRules`` say) and tells FlowKit when the platform
/// finished it. ``FlowTransitions`` issues the steps; see <doc:Hosting>.
///
///     final class NavigationHost: FlowTransitionHost {
///         let transitionRules = FlowTransitionRules.uiKit
///         func perform(
///             _ step: FlowTransitionStep, in runtime: FlowRuntime,
///             completion: FlowTransitionCompletion
///         ) {
///             // start the platform's transition; in its completion (UIKit: the navigation
///             // delegate's didShow, a presentation's completion block):
///             completion.done()
///         }
///     }
@MainActor
public protocol FlowTransitionHost: AnyObject {
    /// What the platform allows (how far a step may move a stack, which transitions may run
    /// at once).
    var transitionRules: FlowTransitionRules { get }

    /// Performs `step` on the platform, and calls `completion` once, when the platform has
    /// finished it: ``FlowTransitionCompletion/done()``, or
    /// ``FlowTransitionCompletion/fail(_:)`` if the platform refused it. It may call it before
    /// returning (a step without animation).
    func perform(
        _ step: FlowTransitionStep, in runtime: FlowRuntime, completion: FlowTransitionCompletion)
}

/// The completion of one ``FlowTransitionStep``: the host calls ``done()`` when the platform
/// finished the step, or ``fail(_:)`` when it could not perform it. Only the first call counts.
@MainActor
public final class FlowTransitionCompletion {
    private weak var transitions: FlowTransitions?
    private let token: Int
    private var isFinished = false

    init(transitions: FlowTransitions, token: Int) {
        self.transitions = transitions
        self.token = token
    }

    /// The platform finished the step: what it shows now is what the step asked for.
    public func done() {
        guard !isFinished else { return }
        isFinished = true
        transitions?._stepEnded(token: token, error: nil)
    }

    /// The platform could not perform the step (it refused it): it still shows what it showed
    /// before. The error goes to ``FlowRuntime/onError`` and the trace; FlowKit catches up again
    /// from what is shown, and does not ask for the very same step again until the tree
    /// changes.
    public func fail(_ error: any Error) {
        guard !isFinished else { return }
        isFinished = true
        transitions?._stepEnded(token: token, error: error)
    }
}
