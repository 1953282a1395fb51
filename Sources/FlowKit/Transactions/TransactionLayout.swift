/// A new subtree root and the node it joins (`nil` for a runtime's root).
struct _Insertion {
    let node: FlowController
    let container: FlowController?
}

/// A node whose content is built in the check phase, from an explicit history restore or
/// from its own defaults: a kept node whose content the change replaces, or the new target
/// of a navigation that asked for history.
struct _Fill {
    let node: FlowController
    let restore: _Restore?
}

/// An explicit history restore requested for a node being (re)filled by navigation.
struct _Restore {
    let depth: FlowHistoryDepth
    let fallback: FlowRoute?
}

/// The final embedded children and presented node of a container the change touches.
///
/// Pushes and pops only touch the top of a stack, so a layout starts as an *edit* of the
/// container's current children (drop `droppedFromTop` from the top, then add `appended`)
/// and copies the whole array only when a change needs it (``_Transaction/plannedChildren(of:)``,
/// a removal that is not at the top, `setChildren`). Applying an edit mutates the
/// container's array in place, so a push or a pop costs the same on a stack of ten entries
/// as on a stack of ten thousand.
@MainActor
struct _Layout {
    let container: FlowController
    /// The planned children, once materialized (`nil` while the layout is an edit).
    var children: [FlowController]?
    /// While an edit: how many of the current children leave from the top.
    var droppedFromTop = 0
    /// While an edit: the children added above the kept ones, in order.
    var appended = _Appended()
    var presented: FlowController?
    /// For a tab container: the tab selected before the change, so that the selection stays
    /// on it wherever it moves (or goes to the first tab if it left). A selection the change
    /// plans is applied afterwards and wins.
    let selectedBefore: FlowController?

    init(container: FlowController) {
        self.container = container
        presented = container._presented
        selectedBefore = container._childToKeepSelected
    }

    /// The planned children (copies them out of an edit).
    var plannedChildren: [FlowController] {
        if let children { return children }
        let current = container._children
        return Array(current[..<(current.count - droppedFromTop)]) + appended.nodes
    }

    /// Turns an edit into a full array.
    mutating func materialize() {
        if children == nil {
            children = plannedChildren
            droppedFromTop = 0
            appended = _Appended()
        }
    }

    /// Plans `node` leaving the embedded children.
    mutating func removeChild(_ node: FlowController) {
        if children == nil {
            if let last = appended.last, last === node {
                appended.removeLast()
                return
            }
            let current = container._children
            let top = current.count - droppedFromTop - 1
            if appended.isEmpty, top >= 0, current[top] === node {
                droppedFromTop += 1
                return
            }
            materialize()
        }
        _remove(node, from: &children!)
    }

    /// Plans `node` joining on top of the embedded children.
    mutating func appendChild(_ node: FlowController) {
        if children == nil {
            appended.append(node)
        } else {
            children!.append(node)
        }
    }

    /// Applies the layout to its container (the one writer besides offline composition),
    /// handing its planned nodes over: they move into the container instead of being
    /// copied, so a layout is applied once (the change is emptied after it is applied).
    mutating func apply() {
        let presented = presented.take()
        if let children = children.take() {
            container._setContent(children, presented: presented)
        } else {
            var appended = _Appended()
            swap(&appended, &self.appended)
            container._editContent(
                droppingFromTop: droppedFromTop, appending: appended, presented: presented)
        }
        container._childrenWereReshaped(keeping: selectedBefore)
    }
}

/// The children an edit adds on top: the first one inline, so that the common edit (a push)
/// allocates no array.
struct _Appended {
    private(set) var first: FlowController?
    private(set) var rest: [FlowController] = []

    var isEmpty: Bool { first == nil }
    var last: FlowController? { rest.last ?? first }

    /// All of them, in order.
    var nodes: [FlowController] {
        guard let first else { return [] }
        return [first] + rest
    }

    mutating func append(_ node: FlowController) {
        if first == nil { first = node } else { rest.append(node) }
    }

    mutating func removeLast() {
        if rest.isEmpty { first = nil } else { rest.removeLast() }
    }
}
