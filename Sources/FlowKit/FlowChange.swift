/// One committed change to the tree, as reported to the host and the trace.
///
/// It is a value (paths, not node references), so hosts and tests can keep and compare it
/// without keeping exited nodes alive. A host finds live nodes with
/// ``FlowRuntime/node(at:)``.
public struct FlowChange: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// What kind of operation made the change.
    public enum Kind: String, Sendable, Equatable, Hashable {
        case start, stop
        case embed, push, pop, popTo, setStack
        case `switch`
        case present, dismiss
        case navigate
        case platformPop, platformDismiss
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
