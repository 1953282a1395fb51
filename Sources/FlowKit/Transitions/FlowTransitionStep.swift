/// One transition a platform performs to catch up with the tree, issued by ``FlowTransitions``
/// from what the platform shows to what the tree is now.
///
/// A step that shows a node shows its embedded subtree as it is when the step is issued (a
/// stack's entries, a switch's child, a tab container's tabs and selection), never what it
/// presents: every presentation is a step of its own, issued once its presenter is shown.
public struct FlowTransitionStep: Sendable, Equatable, CustomStringConvertible {
    /// What the step changes in its ``container``.
    public enum Kind: Sendable, Equatable {
        /// Show the tree for the first time, from the root (no presentation).
        case start
        /// A stack's entries change from `from` to `to`, bottom first (UIKit:
        /// `setViewControllers(_:animated:)`). A push when `to` extends `from`, a pop when `to`
        /// is a prefix of `from`.
        case setEntries(from: [FlowNodeID], to: [FlowNodeID])
        /// A container's embedded children change (a switch replaces its child, a flow embeds
        /// another node, a tab container's tabs change).
        case setChildren(from: [FlowNodeID], to: [FlowNodeID])
        /// A tab container selects the tab at `to` (it showed `from`).
        case select(from: Int, to: Int)
        /// The container presents `node` modally.
        case present(FlowNodeID)
        /// The container dismisses `node`, with whatever `node` presents.
        case dismiss(FlowNodeID)
        /// The tree is gone (the runtime stopped): show nothing.
        case stop
    }

    /// What the step changes.
    public let kind: Kind
    /// The node the step happens in: the stack, the container, the presenter, or the root.
    public let container: FlowNodeID
    /// The container's path when the step was issued (for logs and traces).
    public let containerPath: String

    /// Creates a step (``FlowTransitions`` issues them; tests may make their own).
    public init(kind: Kind, container: FlowNodeID, containerPath: String) {
        self.kind = kind
        self.container = container
        self.containerPath = containerPath
    }

    /// Whether the step presents or dismisses (a modal transition).
    public var isModal: Bool {
        switch kind {
        case .present, .dismiss: return true
        default: return false
        }
    }

    /// `setEntries app/main/stack [#3 #7] -> [#3 #7 #9]`, `present app/main/stack/detail #12`.
    public var description: String {
        func list(_ ids: [FlowNodeID]) -> String {
            "[" + ids.map(\.description).joined(separator: " ") + "]"
        }
        switch kind {
        case .start: return "start \(containerPath)"
        case .setEntries(let from, let to):
            return "setEntries \(containerPath) \(list(from)) -> \(list(to))"
        case .setChildren(let from, let to):
            return "setChildren \(containerPath) \(list(from)) -> \(list(to))"
        case .select(let from, let to): return "select \(containerPath) \(from) -> \(to)"
        case .present(let node): return "present \(containerPath) \(node)"
        case .dismiss(let node): return "dismiss \(containerPath) \(node)"
        case .stop: return "stop \(containerPath)"
        }
    }
}

/// What a platform allows, as a ``FlowTransitionHost`` declares it: ``FlowTransitions`` issues
/// only steps these rules allow, one transition at a time where they say so.
public struct FlowTransitionRules: Sendable, Equatable {
    /// How far one step may move a stack.
    public enum StackSteps: Sendable, Equatable {
        /// From any entries to any entries in one step (UIKit's `setViewControllers`:
        /// several pushes or pops show as one animated transition).
        case wholeStack
        /// One push or one pop per step; to go elsewhere, pop back to the common entries
        /// first, then push.
        case oneEntry
    }

    /// How far one step may move a stack.
    public var stackSteps: StackSteps
    /// Whether at most one modal transition (present or dismiss) runs at a time across the
    /// whole app (UIKit); otherwise one per presenter.
    public var oneModalTransitionAtATime: Bool
    /// Whether dismissing a presented node also takes away what it presents in the same step
    /// (UIKit); otherwise the layers are dismissed one at a time, top-most first, whichever
    /// node of a layer presents the next one (an entry of a presented stack, for example).
    public var dismissesLayersAbove: Bool
    /// Whether a container covered by a presentation (its own, an ancestor's, or one a node
    /// inside it makes, such as an entry's sheet) may change while a presentation or a
    /// dismissal runs; otherwise its steps wait until that transition ends (not until the
    /// presentation is gone).
    public var changesUnderPresentation: Bool
    /// Whether steps of different containers may run at the same time; otherwise one step at
    /// a time in all.
    public var containersAnimateTogether: Bool

    /// Creates rules.
    public init(
        stackSteps: StackSteps, oneModalTransitionAtATime: Bool, dismissesLayersAbove: Bool,
        changesUnderPresentation: Bool, containersAnimateTogether: Bool
    ) {
        self.stackSteps = stackSteps
        self.oneModalTransitionAtATime = oneModalTransitionAtATime
        self.dismissesLayersAbove = dismissesLayersAbove
        self.changesUnderPresentation = changesUnderPresentation
        self.containersAnimateTogether = containersAnimateTogether
    }

    /// UIKit: a navigation controller moves its whole stack in one transition; one modal
    /// transition at a time app-wide; a dismissal takes the layers above with it; a stack
    /// may change under a sheet; different navigation controllers animate independently.
    public static let uiKit = FlowTransitionRules(
        stackSteps: .wholeStack, oneModalTransitionAtATime: true, dismissesLayersAbove: true,
        changesUnderPresentation: true, containersAnimateTogether: true)

    /// The most careful platform: one push, pop, presentation or dismissal at a time in all,
    /// layers dismissed one by one, nothing changed under a presentation while one moves
    /// (SwiftUI versions that refuse a path written twice in one frame).
    public static let oneAtATime = FlowTransitionRules(
        stackSteps: .oneEntry, oneModalTransitionAtATime: true, dismissesLayersAbove: false,
        changesUnderPresentation: false, containersAnimateTogether: false)
}
