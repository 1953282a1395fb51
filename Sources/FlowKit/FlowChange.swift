/// One committed change to the tree, as reported to the host and the trace.
///
/// It is a value (paths, not node references), so hosts and tests can keep and compare it
/// without keeping exited nodes alive. A host finds live nodes with
/// ``FlowRuntime/node(at:)``.
public struct FlowChange: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// What kind of operation made the change.
    public enum Kind: String, Sendable, Equatable, Hashable {
        /// ``FlowRuntime/start()`` entered the tree.
        case start
        /// ``FlowRuntime/stop()`` (or a runtime released without it) exited the tree.
        case stop
        /// ``FlowController/embed(_:)`` replaced a node's embedded children.
        case embed
        /// ``FlowStack/push(_:)`` added an entry on top.
        case push
        /// ``FlowStack/pop()`` removed the top entry.
        case pop
        /// ``FlowStack/pop(to:)`` or ``FlowStack/popToRoot()`` removed the entries above one.
        case popTo
        /// ``FlowStack/setStack(_:)`` replaced or reordered the entries.
        case setStack
        /// A ``FlowSwitch`` replaced its current child.
        case `switch`
        /// ``FlowController/present(_:)`` presented a node modally.
        case present
        /// ``FlowController/dismiss()`` dismissed the presented node.
        case dismiss
        /// ``FlowController/navigate(to:history:historyDefault:reentering:)-([FlowStep],_,_,_)``
        /// moved the focus.
        case navigate
        /// ``FlowController/unwind(to:)-(FlowController)`` dismissed and popped back to a node.
        case unwind
        /// ``FlowController/open(_:)`` showed a global route.
        case open
        /// The platform popped entries on its own (``FlowStack/platformDidPop(to:)``).
        case platformPop
        /// The platform dismissed a presented node (``FlowController/platformDidDismiss()``).
        case platformDismiss
    }

    /// What kind of operation made the change.
    public var kind: Kind
    /// The path of the node the change happened in (the stack, the presenter, the navigation
    /// domain); empty for `start` and `stop`.
    public var container: String
    /// The paths of the roots of the subtrees that exited, in exit order.
    public var exited: [String]
    /// The paths of the roots of the subtrees that entered, in entry order.
    public var entered: [String]

    /// Creates a change record from its parts.
    ///
    /// - Parameters:
    ///   - kind: What kind of operation made the change.
    ///   - container: The path of the node the change happened in; empty for start and stop.
    ///   - exited: The paths of the roots of the subtrees that exited, in exit order.
    ///   - entered: The paths of the roots of the subtrees that entered, in entry order.
    public init(kind: Kind, container: String, exited: [String], entered: [String]) {
        self.kind = kind
        self.container = container
        self.exited = exited
        self.entered = entered
    }

    /// One line: `push app/main/stack +app/main/stack/detail`.
    public var description: String {
        var line = kind.rawValue
        if !container.isEmpty { line += " " + container }
        for path in exited { line += " -" + path }
        for path in entered { line += " +" + path }
        return line
    }
}
