/// A flow that finishes with a result of a declared type, so that whoever starts it can
/// `await` that result with ``FlowController/run(_:_:)``.
///
///     final class LoginFlow: FlowController, ResultFlow {
///         typealias Result = Account
///         init() {
///             super.init(name: "login")
///             respond(to: CredentialsAccepted.self) { login, accepted in
///                 login.finish(with: accepted.account)   // checked: must be an Account
///                 return .handled
///             }
///         }
///     }
///
///     // in the app root's task:
///     let account = try await run(LoginFlow(), .switch)
public protocol ResultFlow: FlowController {
    /// What the flow finishes with.
    associatedtype Result: Sendable
}

extension ResultFlow {
    /// Reports that this flow is done with `result`, a value of its declared ``Result`` type.
    ///
    /// If a ``FlowController/run(_:_:)`` awaits this flow, the result goes to it (and `run`
    /// removes the flow where it showed it as a modal or a stack entry); otherwise
    /// ``FlowFinished`` is sent, as by ``FlowController/finish(with:)``.
    public func finish(with result: Result) {
        _finish(with: result)
    }
}

/// Where ``FlowController/run(_:_:)`` shows the flow it starts, relative to the node it is
/// called on.
public enum FlowPlacement: String, Sendable, Equatable, Hashable {
    /// Pushed on the node itself if it is a ``FlowStack``, else on its nearest ancestor
    /// stack. When the flow finishes it is popped, with whatever is above it.
    case push
    /// Presented by the node. When the flow finishes it is dismissed.
    case present
    /// Embedded in the node, replacing its children. It stays when it finishes.
    case embed
    /// Switched in by the node itself if it is a ``FlowSwitch``, else by its nearest ancestor
    /// switch. It stays when it finishes.
    case `switch`
}
