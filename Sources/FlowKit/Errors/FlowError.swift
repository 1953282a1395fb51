/// An error FlowKit throws when a change or a lookup cannot be done.
///
/// Every throwing operation checks its input before it touches anything: when it throws,
/// the tree, the host's record and the trace are exactly as they were.
///
///     do {
///         try stack.pop()
///     } catch let error as FlowError {
///         print(error)   // "cannot pop 'list': it is the last entry of 'app/main/stack' ..."
///     }
///
/// Paths are the nodes' ``FlowController/path`` strings at the time of the call.
public enum FlowError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The node already has a parent (or is the root of a runtime); detach it first.
    case alreadyAttached(node: String, parent: String)
    /// The node has been exited; an exited node is finished for good and cannot rejoin a tree.
    case nodeExited(node: String)
    /// The container has been exited, so nothing can be attached to it or changed in it.
    case containerExited(container: String)
    /// Attaching `node` under `parent` would make a node its own ancestor.
    case wouldCreateCycle(node: String, parent: String)
    /// A stack's bottom entry cannot be popped; use `setStack(_:)` to replace it.
    case cannotPopLastEntry(stack: String, entry: String)
    /// The stack has no entries, so there is nothing to pop.
    case emptyStack(stack: String)
    /// The node is not an entry of the stack.
    case notInStack(stack: String, node: String)
    /// `dismiss()` was called on a node that presents nothing.
    case nothingPresented(presenter: String)
    /// The node already presents `presented`; present from the top-most node instead.
    case alreadyPresenting(presenter: String, presented: String)
    /// A node's exit guard refused the change.
    case exitRefused(node: String, reason: String)
    /// A node's entry guard refused the change.
    case entryRefused(node: String, reason: String)
    /// A required dependency is provided neither by the node nor by any ancestor.
    case missingDependency(key: String, node: String)
    /// No factory is registered for `route` on `node`, so the path cannot be built.
    case unknownRoute(route: String, node: String)
    /// A change to the tree was requested while another change was being checked: from a
    /// guard or a route factory. (A change asked for from a lifecycle hook is queued instead.)
    /// Send an event, or ask from a lifecycle hook: either runs after the current change.
    case changeInProgress(node: String)
    /// The operation needs a node that is in a running runtime's tree.
    case notInTree(node: String)
    /// The runtime was already started, or was stopped and cannot start again.
    case runtimeAlreadyStarted
    /// The operation needs a started runtime.
    case runtimeNotStarted
    /// The same node was passed twice where distinct nodes are required.
    case duplicateNode(node: String)
    /// The factory registered for `route` on `node` built a node that carries another route
    /// (`builtRoute`, `nil` for none). A factory must build a node carrying its route.
    case factoryRouteMismatch(route: String, node: String, built: String, builtRoute: String?)
    /// The factory registered for `route` on `node` returned a node that is already in use
    /// (attached, entered, exited, part of the change, or a runtime's root). A factory must
    /// build a new node each time.
    case factoryNodeInUse(route: String, node: String, built: String)
    /// The factory registered for `route` on `node` threw `error` (its description).
    case factoryFailed(route: String, node: String, error: String)
    /// A ``FlowStep/Placement/push`` step followed `node`, which is not a stack entry.
    case pushOutsideStack(node: String, route: String)
    /// No node from `node` up registers `route` as a global route.
    case unknownGlobalRoute(route: String, node: String)
    /// An unwind target (`target`: a node's path or a route) is not on the way from the
    /// starting node `node` up to the root.
    case unwindTargetNotFound(target: String, node: String)
    /// A guard of `node` redirected the change to `to`: nothing changed now, the redirect
    /// was performed, and the change is kept as a pending intent, replayed when the
    /// redirect's flow finishes (see ``FlowGuardDecision/redirect(to:)``).
    case redirected(node: String, to: String)
    /// The flow that a ``FlowController/run(_:_:)`` awaited left the tree without finishing
    /// (dismissed or popped by the platform, removed with an ancestor, replaced, or its runtime
    /// stopped). `flow` is its path.
    case flowCancelled(flow: String)
    /// ``FlowController/run(_:_:)`` found no container for `placement` at or above `node`
    /// (no ``FlowStack`` for `push`, no ``FlowSwitch`` for `switch`).
    case noContainer(placement: String, node: String)
    /// A platform binding was written with a value FlowKit cannot apply (a longer stack
    /// path, an identity that is not an entry or a tab, a sheet other than `nil`). The write
    /// changed nothing; it is reported to ``FlowRuntime/onError``.
    case bindingWriteRefused(node: String, reason: String)
    /// ``FlowTabs/select(_:)`` was given a node that is not one of the container's tabs.
    case notATab(tabs: String, node: String)
    /// ``FlowParallel/focus(_:)`` (or a ``FlowSplit`` operation) was given a node that is not
    /// one of the container's regions (columns).
    case notARegion(container: String, node: String)
    /// ``FlowController/embed(_:)`` was asked of a ``FlowParallel``, whose regions are fixed
    /// when it is made (change what a region shows instead), or a navigation would replace
    /// them: a ``FlowStep/Placement/root`` step at it, a reentering navigation from it, or a
    /// history restore of it; or ``FlowSplit/show(_:in:)`` (or
    /// ``FlowSplit/show(_:clearing:)``) would replace or clear a column that is itself a
    /// ``FlowParallel`` (a nested split).
    case regionsAreFixed(container: String)
    /// A navigation would build or remove the tabs of a ``FlowTabs``, which navigation only
    /// selects (change them with ``FlowTabs/setTabs(_:selecting:)``): a
    /// ``FlowStep/Placement/root`` step at it, a reentering navigation from it, or a history
    /// restore of it.
    case tabsAreFixed(container: String)
    /// A ``FlowSplit`` operation that needs the split collapsed (or expanded) was asked of
    /// one that is not: `reason` says which.
    case splitLayoutMismatch(split: String, reason: String)
    /// ``FlowController/result(of:)`` was asked for a flow that a `run` or another
    /// `result(of:)` already awaits.
    case resultAlreadyAwaited(flow: String)
    /// ``FlowController/run(_:_:)`` with ``FlowPlacement/switch`` or
    /// ``FlowPlacement/embed`` was awaited in a task owned by `node` (started with
    /// ``FlowController/task(_:)``), which lies inside a child of `container` that the
    /// change would replace: `node`'s exit would cancel the task, and with it the `run`.
    /// Await it from a task of `container` or an ancestor.
    case runWouldReplaceCaller(node: String, container: String)
    /// An interactive gesture cannot begin in `container` now, for `reason` (nothing to pop,
    /// a transition or another gesture in progress, a presentation covering it).
    case gestureNotPossible(container: String, reason: String)

    public var description: String {
        switch self {
        case .alreadyAttached(let node, let parent):
            return "cannot attach '\(node)': it already belongs to '\(parent)'; "
                + "a node has one parent, so create a new node or move this one with a pop first"
        case .nodeExited(let node):
            return "cannot attach '\(node)': it was exited and is finished for good; "
                + "create a new node (or register a route factory) instead"
        case .containerExited(let container):
            return "'\(container)' was exited; it cannot take new children or change"
        case .wouldCreateCycle(let node, let parent):
            return "cannot attach '\(node)' under '\(parent)': '\(node)' would become "
                + "its own ancestor"
        case .cannotPopLastEntry(let stack, let entry):
            return "cannot pop '\(entry)': it is the last entry of '\(stack)'; "
                + "use setStack(_:) to replace it or remove the stack itself"
        case .emptyStack(let stack):
            return "'\(stack)' has no entries to pop"
        case .notInStack(let stack, let node):
            return "'\(node)' is not an entry of '\(stack)'"
        case .nothingPresented(let presenter):
            return "'\(presenter)' presents nothing, so there is nothing to dismiss"
        case .alreadyPresenting(let presenter, let presented):
            return "'\(presenter)' already presents '\(presented)'; dismiss it first "
                + "or present from '\(presented)'"
        case .exitRefused(let node, let reason):
            return "'\(node)' refused to exit: \(reason)"
        case .entryRefused(let node, let reason):
            return "'\(node)' refused to enter: \(reason)"
        case .missingDependency(let key, let node):
            return "no value for \(key) at '\(node)' or any ancestor, and the key has no "
                + "default; set it on '\(node)' or an ancestor"
        case .unknownRoute(let route, let node):
            return "'\(node)' has no factory for route \(route); register one with "
                + "register(_:factory:)"
        case .changeInProgress(let node):
            return "cannot change the tree at '\(node)' while another change is being "
                + "checked (from a guard or a route factory); send an event instead"
        case .notInTree(let node):
            return "'\(node)' is not in a running tree"
        case .runtimeAlreadyStarted:
            return "the runtime was already started (a stopped runtime cannot restart)"
        case .runtimeNotStarted:
            return "the runtime has not been started; call start() first"
        case .duplicateNode(let node):
            return "'\(node)' appears more than once"
        case .factoryRouteMismatch(let route, let node, let built, let builtRoute):
            return "the factory for route \(route) on '\(node)' built '\(built)' with route "
                + "\(builtRoute ?? "nil"); it must build a node carrying \(route)"
        case .factoryNodeInUse(let route, let node, let built):
            return "the factory for route \(route) on '\(node)' returned '\(built)', which is "
                + "already in use; a factory must build a new node each time"
        case .factoryFailed(let route, let node, let error):
            return "the factory for route \(route) on '\(node)' failed: \(error)"
        case .pushOutsideStack(let node, let route):
            return "cannot push \(route) after '\(node)': it is not an entry of a stack"
        case .unknownGlobalRoute(let route, let node):
            return "no node from '\(node)' up registers a global route \(route); register it "
                + "with registerGlobal(_:placement:factory:)"
        case .unwindTargetNotFound(let target, let node):
            return "cannot unwind from '\(node)' to \(target): it is not on the way up to the root"
        case .redirected(let node, let to):
            return "'\(node)' redirected this change to \(to); it will be retried when that "
                + "flow finishes"
        case .flowCancelled(let flow):
            return "'\(flow)' left the tree without finishing, so the run awaiting it has no "
                + "result"
        case .noContainer(let placement, let node):
            let kind = placement == "push" ? "FlowStack" : "FlowSwitch"
            return "cannot \(placement) a flow from '\(node)': there is no \(kind) at or "
                + "above it; run it from a node inside one, or use another placement"
        case .bindingWriteRefused(let node, let reason):
            return "the platform's write to a binding of '\(node)' was refused: \(reason)"
        case .notATab(let tabs, let node):
            return "'\(node)' is not a tab of '\(tabs)'"
        case .notARegion(let container, let node):
            return "'\(node)' is not a region of '\(container)'"
        case .regionsAreFixed(let container):
            return "the regions of '\(container)' are fixed; change what a region shows instead"
        case .tabsAreFixed(let container):
            return "navigation cannot build or remove the tabs of '\(container)'; it only "
                + "selects a tab: use setTabs(_:selecting:) to change them"
        case .splitLayoutMismatch(let split, let reason):
            return "'\(split)' \(reason)"
        case .resultAlreadyAwaited(let flow):
            return "the result of '\(flow)' is already awaited (by run or result(of:))"
        case .gestureNotPossible(let container, let reason):
            return "no interactive gesture can begin in '\(container)' now: \(reason)"
        case .runWouldReplaceCaller(let node, let container):
            return "cannot run a flow in '\(container)' from a task of '\(node)': showing it "
                + "would replace '\(node)', whose exit cancels the task and the run; await it "
                + "from a task of '\(container)' or an ancestor"
        }
    }
}
