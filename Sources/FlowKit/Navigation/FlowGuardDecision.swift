/// A guard's answer.
public enum FlowGuardDecision: Sendable, Equatable {
    /// The change may go ahead.
    case allow
    /// The change is cancelled; the reason appears in the thrown ``FlowError``.
    case refuse(String)
    /// Not now: first go to `path` (from the root; for example the sign-in flow), then retry.
    ///
    /// The change is cancelled and throws ``FlowError/redirected(node:to:)``; the runtime
    /// keeps it as a pending intent and performs the redirect as its own transaction. When
    /// the node the redirect reaches has called ``FlowController/finish(with:)`` and then
    /// leaves the tree (the app moved on, e.g. from sign-in to its main flow), the intent is
    /// replayed (its guards decide again). It is dropped if that node leaves without
    /// finishing, if the runtime stops, or if its own redirect fails (not when the redirect of
    /// an older intent it replaced fails); a newer redirected change, or a navigation outside
    /// that node that passes its checks, replaces it (one that throws does not). The trace records each step (`intent kept`, `replaced`, `replayed`,
    /// `dropped`). See <doc:Routing>.
    ///
    ///     main.entryGuard = { [unowned main] in
    ///         main.dependencies.value(for: SessionKey.self) == nil
    ///             ? .redirect(to: [.child("login")]) : .allow
    ///     }
    case redirect(to: [FlowStep])
}
