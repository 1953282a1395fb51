/// Where ``FlowApp``'s router sent a link or a command, by which rule, and why (see
/// <doc:Scenes>, "The router"). Every decision is also an app trace record.
public struct FlowRoutingDecision: Hashable, Sendable, CustomStringConvertible {
    /// The rules of the router, in the order it applies them.
    public enum Rule: String, Hashable, Sendable, CaseIterable {
        /// The delivery's identity was delivered before in this launch: it runs once.
        case duplicate
        /// A scene is still restoring: the link waits for its restoration, then is routed.
        case waitsForRestoration
        /// A command goes to the focused scene.
        case focusedScene
        /// A link goes to a scene that already shows its target (brought forward).
        case showsTarget
        /// A link goes to a scene that can navigate its path: the scene that received it,
        /// then the focused scene, then the others, most recently active first.
        case resolvesRoute
        /// The link's scene value is unique and a scene has it: that scene takes the link
        /// (brought forward; reconnected first if it was disconnected).
        case uniqueValue
        /// No open scene takes the link: the host is asked to open a scene for its value,
        /// which runs the link once connected.
        case opensScene
        /// Nothing can take it: ``FlowSceneError/unroutable(link:reasons:)`` is thrown.
        case refused
    }

    /// The rule that decided.
    public let rule: Rule
    /// The scene the delivery went to (or waits for), if any.
    public let scene: FlowSceneID?
    /// Why, in words: `it shows book(id: 12)`, `the focused scene`.
    public let reason: String

    /// A decision.
    public init(_ rule: Rule, scene: FlowSceneID?, reason: String) {
        self.rule = rule
        self.scene = scene
        self.reason = reason
    }

    /// `showsTarget scene 2: it shows book(id: 12)`.
    public var description: String {
        let target = scene.map { " scene \($0)" } ?? ""
        return "\(rule.rawValue)\(target): \(reason)"
    }
}
