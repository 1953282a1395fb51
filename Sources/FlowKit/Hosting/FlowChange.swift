/// One committed change to the tree, as reported to the host and the trace.
///
/// It is a value (paths and identities, not node references), so hosts and tests can keep and
/// compare it without keeping exited nodes alive. Paths repeat when siblings share a name
/// (two `detail` entries on one stack); identities (``FlowNodeID``) don't. A host finds live
/// nodes with ``FlowRuntime/node(id:)`` or ``FlowRuntime/node(at:)``.
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
        /// ``FlowStack/setStack(_:)`` replaced or reordered the entries (also
        /// ``FlowTabs/setTabs(_:selecting:)`` for tabs).
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
        /// A ``FlowTabs`` selected another tab (``FlowTabs/select(_:)``): only the focus moved.
        /// Reselecting a tab with ``FlowTabs/reselectionPopsToRoot`` set reports its stack's
        /// popped entries here too.
        case select
        /// The platform selected a tab on its own (``FlowTabs/platformDidSelect(_:)``).
        case platformSelect
        /// A lazy restoration built the content of a tab on its first visit
        /// (``FlowRuntime/start(restoring:routeTypes:lazily:)``): it entered, nothing exited.
        case restoreBranch
        /// A ``FlowParallel`` (a ``FlowSplit``) moved the focus to another region (column)
        /// (``FlowParallel/focus(_:)``): only the focus moved, nothing exited or entered.
        case focus
        /// The platform moved the focus to another region on its own
        /// (``FlowParallel/platformDidFocus(_:)``).
        case platformFocus
        /// A ``FlowSplit`` showed nodes in one or more of its columns in one transaction
        /// (``FlowSplit/show(_:in:)``, ``FlowSplit/show(_:clearing:)``): what the columns showed
        /// before exited.
        case show
        /// The platform collapsed a ``FlowSplit`` into one stack
        /// (``FlowSplit/platformDidCollapse()``): nothing exited or entered, only activation
        /// changed.
        case platformCollapse
        /// The platform expanded a collapsed ``FlowSplit`` into its columns again
        /// (``FlowSplit/platformDidExpand()``).
        case platformExpand
    }

    /// What kind of operation made the change.
    public var kind: Kind
    /// The path of the node the change happened in; empty for `start` and `stop`.
    ///
    /// For `navigate` and `unwind` it is the deepest node that contains every container the
    /// change reshapes (an unwind that pops entries reports their stack); for the other
    /// kinds it is the node the operation was asked of (the stack, the presenter, the
    /// switch, the tab container).
    public var container: String
    /// The paths of the roots of the subtrees that exited, in exit order.
    public var exited: [String]
    /// The paths of the roots of the subtrees that entered, in entry order.
    public var entered: [String]
    /// The identity of the node the change happened in; `nil` for `start` and `stop`.
    public var containerID: FlowNodeID?
    /// The identities of the roots of the subtrees that exited, in the order of ``exited``.
    public var exitedIDs: [FlowNodeID]
    /// The identities of the roots of the subtrees that entered, in the order of ``entered``.
    public var enteredIDs: [FlowNodeID]

    /// Creates a change record from its parts.
    ///
    /// - Parameters:
    ///   - kind: What kind of operation made the change.
    ///   - container: The path of the node the change happened in; empty for start and stop.
    ///   - exited: The paths of the roots of the subtrees that exited, in exit order.
    ///   - entered: The paths of the roots of the subtrees that entered, in entry order.
    ///   - containerID: The identity of the node the change happened in.
    ///   - exitedIDs: The identities of the exited subtree roots, in the order of `exited`.
    ///   - enteredIDs: The identities of the entered subtree roots, in the order of `entered`.
    public init(
        kind: Kind, container: String, exited: [String], entered: [String],
        containerID: FlowNodeID? = nil, exitedIDs: [FlowNodeID] = [],
        enteredIDs: [FlowNodeID] = []
    ) {
        self.kind = kind
        self.container = container
        self.exited = exited
        self.entered = entered
        self.containerID = containerID
        self.exitedIDs = exitedIDs
        self.enteredIDs = enteredIDs
    }

    /// One line: `push app/main/stack +app/main/stack/detail` (paths only; see
    /// ``identifiedDescription`` for identities).
    public var description: String {
        var line = kind.rawValue
        if !container.isEmpty { line += " " + container }
        for path in exited { line += " -" + path }
        for path in entered { line += " +" + path }
        return line
    }

    /// Whether `actual` is the change this record describes: equal, except that identities
    /// this record leaves out (a `nil` ``containerID``, empty ``exitedIDs`` or
    /// ``enteredIDs``) are not compared. Tests write expected changes by path and match them
    /// against reported ones with this.
    public func matches(_ actual: FlowChange) -> Bool {
        kind == actual.kind && container == actual.container && exited == actual.exited
            && entered == actual.entered
            && (containerID == nil || containerID == actual.containerID)
            && (exitedIDs.isEmpty || exitedIDs == actual.exitedIDs)
            && (enteredIDs.isEmpty || enteredIDs == actual.enteredIDs)
    }

    /// ``description`` with each path followed by its identity:
    /// `push app/main/stack#12 +app/main/stack/detail#40`.
    public var identifiedDescription: String {
        func tagged(_ path: String, _ id: FlowNodeID?) -> String {
            id.map { path + $0.description } ?? path
        }
        var line = kind.rawValue
        if !container.isEmpty { line += " " + tagged(container, containerID) }
        for (index, path) in exited.enumerated() {
            line += " -" + tagged(path, index < exitedIDs.count ? exitedIDs[index] : nil)
        }
        for (index, path) in entered.enumerated() {
            line += " +" + tagged(path, index < enteredIDs.count ? enteredIDs[index] : nil)
        }
        return line
    }
}

extension FlowChange.Kind {
    /// Whether a change of this kind is the platform's own: it is on screen already, so the
    /// host is not told and no exit guard is asked.
    var _isPlatformInitiated: Bool {
        switch self {
        case .platformPop, .platformDismiss, .platformSelect, .platformFocus, .platformCollapse,
            .platformExpand:
            return true
        default:
            return false
        }
    }
}
