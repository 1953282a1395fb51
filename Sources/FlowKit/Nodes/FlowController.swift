import Observation

/// A node of the navigation tree: a flow (app, login, checkout) or a screen.
///
/// A node owns its children strongly and knows its parent weakly, so the tree itself is the
/// record of what is on screen: there is no `childCoordinators` array to keep in sync.
///
///     final class DetailScreen: FlowController {
///         init(item: Item) {
///             super.init(name: "detail")
///             on(Back.self) { [unowned self] _ in
///                 try (parent as? FlowStack)?.pop()
///                 return .handled
///             }
///         }
///         override func didEnter() { print("showing", path) }
///     }
///
/// A node joins a running tree when a container attaches it (``FlowStack/push(_:)``,
/// ``FlowSwitch/switch(to:)-(FlowController)``, ``present(_:)``, ``embed(_:)``) or when its runtime starts;
/// it is then *entered*. It leaves when it is popped, dismissed, replaced or its runtime stops;
/// it is then *exited* for good: its exit hook has run, its tasks are cancelled, its handlers
/// and dependency values are released, and FlowKit keeps no reference to it.
///
/// Nodes that are not yet in a running tree can be composed freely (a flow embedding its
/// stack in `init`); those changes are structural only and run no hooks.
@MainActor
open class FlowController {
    /// The node's name: one path component in traces and paths. Never empty, never
    /// contains `/`.
    public let name: String

    /// The identifier FlowKit uses to rebuild this node for navigation paths and history,
    /// or `nil` for nodes that are only attached by instance. A node built by a route
    /// factory carries the route it was built for, whether or not its `init` passed one.
    public internal(set) var route: FlowRoute?

    /// The node this one belongs to: its container, or for a presented node its presenter.
    /// `nil` for a root, for a node that is not attached, and once the parent is freed.
    ///
    /// The child does not retain its parent.
    public var parent: FlowController? { _parent }

    /// The owning link as everyone but the responder chain reads it: `weak`, so it reads `nil`
    /// once the parent is freed, on whatever thread the app let go of it (a `@MainActor`
    /// class is `Sendable`, so its last reference may be dropped anywhere).
    weak var _parent: FlowController?

    /// The same link, unretained, for the responder chain's hot loop and scope inheritance
    /// (a `weak` load per hop would cost a side-table access).
    ///
    /// - Invariant: followed only from a node entered in the runtime that follows it; it then
    ///   names that node's live parent (an entered node's ancestors are entered, owned from
    ///   `runtime.root` down, and a runtime tears its tree down on the main actor).
    /// - Enforced by: ``_setParent(_:)`` sets it with the `weak` parent, ``_unlink()`` clears
    ///   it at exit; followers check `state == .entered` first (``FlowRuntime/_deliver(_:from:)``,
    ///   ``_recomputeScope()``); attach validation only tests it for `nil`.
    /// - Tested by: `ConcurrencyTests.orphanEntersAfterOffMainRelease` under AddressSanitizer.
    /// - Debug check: ``_nextIsSound()``, asserted before each follow.
    var _next: Unmanaged<FlowController>?

    /// The container a planned subtree root is about to join, set only while a change is
    /// being planned and checked (it is cleared when the change commits or fails). It makes
    /// ``path``, dependency lookups and the "is this node part of a change?" test see the
    /// prospective tree. Strong: the change holds the container anyway, and the link never
    /// outlives the change.
    var _pendingParent: FlowController?

    // Unchecked exclusivity (the attributes below): each of these properties is only read by
    // copying it out or written by a short assignment or in-place mutation that calls no app
    // code (hooks, handlers, guards, factories, hosts and observers run before or after, never
    // inside, an access). So no two accesses can overlap, the dynamic check could never fire,
    // and skipping it changes nothing but speed. The model-based random test drives every
    // operation from hooks, handlers, guards and factories under AddressSanitizer. Only the
    // properties whose checks a release build keeps carry the attribute (see Reliability.md):
    // on the others the optimiser proves exclusivity itself, so they stay checked in debug
    // builds, where the tests would trap on an overlap.

    /// The embedded children, in the order they were attached. For a ``FlowStack`` these are
    /// the entries, bottom first; for a ``FlowTabs`` the tabs; other nodes have at most one.
    ///
    /// Observable (see <doc:Hosting>): reading it inside `withObservationTracking` (or a
    /// SwiftUI view) registers for the next change.
    public var children: [FlowController] {
        _observation().access(self, keyPath: \.children)
        return _children
    }

    /// The node this one presents modally, if any. Observable like ``children``.
    public var presentedChild: FlowController? {
        _observation().access(self, keyPath: \.presentedChild)
        return _presented
    }

    /// Storage of ``children``: FlowKit reads it directly (no observation bookkeeping) and
    /// writes it only through ``_setContent(_:presented:)``, which notifies observers.
    @exclusivity(unchecked)
    var _children: [FlowController] = []

    /// Storage of ``presentedChild`` (see ``_children``).
    var _presented: FlowController?

    /// The registrar of this node's observable properties, made the first time one of them is
    /// read through its public accessor (kept in ``_extras``): nodes nobody observes never
    /// allocate one, and writes to them skip the notification with a nil test or two.
    var _observationRegistrar: _Observation? { _extras?.observation }

    @exclusivity(unchecked)
    weak var _runtime: FlowRuntime?

    /// Where the node is in its life.
    @exclusivity(unchecked)
    public internal(set) var state: FlowLifecycleState = .created

    /// Whether the node is active: it lies on the focused path (root → … → focused leaf), or
    /// in a region of a ``FlowParallel`` (a column of a ``FlowSplit``) that is shown beside
    /// the focused one. See ``FlowRuntime/activeNodes``.
    @exclusivity(unchecked)
    public internal(set) var isActive = false

    /// Whether activation branches below this node (it is a ``FlowParallel``): the runtime
    /// counts the entered ones and takes the general activation path while any is entered.
    /// Stored next to the one-byte flags around it, where it takes no room of its own.
    var _branchesActivation = false

    /// Whether this node keeps a flattened dependency scope: set when it enters, cleared when
    /// it exits. A plain stored flag so that inlined lookups test it with one load.
    @exclusivity(unchecked)
    @usableFromInline final var _isScoped = false

    /// One bit per event type this node has a handler for (from a hash of the type, so two
    /// types may share a bit): a dispatch hop calls into the handler table only where the
    /// event's bit is set. 32 bits, stored next to the one-byte flags above so that it takes
    /// no room of its own.
    var _handlerFilter: UInt32 = 0

    /// The route entered below this node when it enters without an explicit path and has no
    /// children (a statechart's initial state). Needs a factory registered for that route.
    public var initialRoute: FlowRoute? {
        get { _extras?.initialRoute }
        set {
            guard state != .exited else { return }
            _writableExtras.initialRoute = newValue
        }
    }

    /// Whether this node records which child path was focused when it exits, and whether it
    /// restores that path when it is entered again. See ``FlowHistoryPolicy``.
    public var history: FlowHistoryPolicy {
        get { _extras?.history ?? .none }
        set {
            guard state != .exited else { return }
            _writableExtras.history = newValue
        }
    }

    /// An optional check run before this node exits (pop, dismiss, switch, navigate).
    /// Returning ``FlowGuardDecision/refuse(_:)`` cancels the whole change.
    ///
    /// Guards run in a change's check phase: a guard that asks for another change gets
    /// ``FlowError/changeInProgress(node:)``. Setting a guard on an exited node does nothing.
    public var exitGuard: (@MainActor () -> FlowGuardDecision)? {
        get { _extras?.exitGuard }
        set {
            guard state != .exited else { return }
            _writableExtras.exitGuard = newValue
        }
    }

    /// An optional check run before this node enters.
    public var entryGuard: (@MainActor () -> FlowGuardDecision)? {
        get { _extras?.entryGuard }
        set {
            guard state != .exited else { return }
            _writableExtras.entryGuard = newValue
        }
    }

    /// The event handlers, boxed (and allocated on the first registration) so that nodes
    /// without handlers stay small; dispatch reads it only where ``_handlerFilter`` says the
    /// node may handle the event.
    var _handlerBox: _HandlerBox?
    // Unchecked exclusivity (every lookup reads it): see the argument above `children`.
    @exclusivity(unchecked)
    @usableFromInline var _scope: _DependencyScope?
    /// What most nodes never use (routes, guards, tasks, own dependency values), allocated on
    /// first use so that plain screens stay small and are quick to tear down.
    var _extras: _NodeExtras?
    /// The path, once computed for an entered node (see ``path``); boxed so that it takes one
    /// word in every node.
    var _pathCache: _PathCache?
    /// When the node was made, in creation order: nodes made while a change was being checked
    /// (by route factories) are newer than the change's mark (see ``FlowRuntime/_checkMark``).
    let _serial: UInt64

    var _writableExtras: _NodeExtras {
        if let extras = _extras { return extras }
        let extras = _NodeExtras()
        _extras = extras
        return extras
    }

    var _ownValues: _IdentityTable<_AnyValueBox>? {
        get { _extras?.ownValues }
        set {
            if newValue != nil || _extras != nil { _writableExtras.ownValues = newValue }
        }
    }

    /// Creates a node.
    ///
    /// - Parameters:
    ///   - name: The path component shown in traces; not empty and without `/`.
    ///   - route: The identifier used to rebuild the node in navigation paths and history.
    /// - Precondition: `name` is not empty and contains no `/`.
    public init(name: String, route: FlowRoute? = nil) {
        precondition(
            _isValidNodeName(name),
            "FlowController name '\(name)' must be non-empty and must not contain '/'")
        self.name = name
        self.route = route
        _serial = _NodeSerial.next
        _NodeSerial.next &+= 1
    }

    /// The runtime whose tree this node is in, or `nil`.
    public var runtime: FlowRuntime? { _runtime }

    /// The child the focused path continues into: the presented node, otherwise the last
    /// embedded child (a stack's top).
    public var focusedChild: FlowController? { _presented ?? _children.last }

    /// Whether the focused path continues from this node into `node` (its presented node,
    /// else its selected child). Compares without handing out a reference.
    func _continues(into node: FlowController) -> Bool {
        if _presented != nil { return _presented === node }
        return _isLast(node, of: _children)
    }

    /// The embedded child a change that re-shapes this node's children should keep focused:
    /// `nil` here (the focus follows the last child); a ``FlowTabs`` keeps its selected tab.
    var _childToKeepSelected: FlowController? { nil }

    /// Called after a change re-shaped this node's children, with what
    /// ``_childToKeepSelected`` was before; a ``FlowTabs`` moves its selection to it.
    func _childrenWereReshaped(keeping selected: FlowController?) {}

    /// The index of the selected embedded child of a container that selects one (a
    /// ``FlowTabs``'s tab, a ``FlowParallel``'s focused region); 0 for other nodes.
    var _selectedIndex: Int { 0 }

    /// Sets ``_selectedIndex``, telling observers; other nodes ignore it.
    func _setSelectedIndex(_ index: Int) {}

    /// How this container shows its children besides which ones they are (a ``FlowSplit``:
    /// collapsed into one stack or not, the column on top when collapsed); other nodes have
    /// one arrangement only, this one.
    var _arrangement: _Arrangement { _Arrangement(isCollapsed: false, preferred: 0) }

    /// Sets ``_arrangement``, telling observers; other nodes ignore it.
    func _setArrangement(_ arrangement: _Arrangement) {}

    /// The container's broken invariants, one message each (none by default; see the
    /// `+Invariants.swift` files of the tabs and the split). Read by ``_checkInvariants()``
    /// and by the random test.
    func _invariantViolations() -> [String] { [] }

    /// Traps on a broken invariant (``_invariantViolations()``) after a change made through
    /// `_change`, in debug builds and at rest only: a release build does nothing, and nothing
    /// is checked while a runtime applies a change (the tree is between two shapes).
    func _checkInvariants() {
        #if DEBUG
        guard _RuntimeActivity.applying.isEmpty else { return }
        let violations = _invariantViolations()
        precondition(violations.isEmpty, violations.joined(separator: "; "))
        #endif
    }

    /// Appends the active nodes of this node's subtree, this node first, in entry order: the
    /// node and, below it, the focused path; a ``FlowParallel`` continues into every region
    /// it shows. (See ``FlowRuntime/activeNodes``.)
    func _appendActive(to nodes: inout [FlowController]) {
        nodes.append(self)
        focusedChild?._appendActive(to: &nodes)
    }

    // MARK: Lifecycle hooks

    /// Called when the node has joined a running tree. Parents are entered before their
    /// children. Events sent from here are delivered after the current change.
    open func didEnter() {}

    /// Called just before the node leaves the tree. Children exit before their parents; the
    /// tree is still intact when it runs.
    open func willExit() {}

    /// Called when the node has become active: it came onto the focused path, or into a
    /// region of a ``FlowParallel`` that is shown (after all entries and exits of the change
    /// that did it). Not called for nodes that exit.
    open func didBecomeActive() {}

    /// Called when the node stays in the tree but is no longer active (for example when
    /// something is pushed over it, or a collapsing ``FlowSplit`` hides its column). Exiting
    /// nodes get ``willExit()`` instead. Moving the focus between the regions of a
    /// ``FlowParallel`` resigns nothing: every region stays active.
    open func didResignActive() {}

    /// Decides whether the node may exit. Runs in the check phase of every change that would
    /// exit it; refusing cancels the change and leaves everything as it was. The default
    /// consults ``exitGuard``.
    ///
    /// Platform-initiated pops and dismissals (``FlowStack/platformDidPop(to:)``,
    /// ``platformDidDismiss()``) have already happened on screen and are not guarded.
    open func shouldExit() -> FlowGuardDecision { exitGuard?() ?? .allow }

    /// Decides whether the node may enter. Runs in the check phase; the default consults
    /// ``entryGuard``.
    open func shouldEnter() -> FlowGuardDecision { entryGuard?() ?? .allow }

    // MARK: Override points of containers (see FlowController+Steps.swift)

    /// The embedded part of a step: keep the child with the route, or replace the children
    /// with a new one. ``FlowStack`` overrides it: it pops to its top-most entry with the
    /// route, or pushes a new one.
    func _planEmbeddedStep(
        toward route: FlowRoute, in change: inout _Transaction
    ) throws -> (node: FlowController, isNew: Bool) {
        let children = change.plannedChildren(of: self)
        if let last = children.last, last.route == route { return (last, false) }
        let child = try _makeChild(route)
        for old in children.reversed() { change.remove(old, from: self) }
        change.append(child, to: self)
        return (child, true)
    }

    /// Throws if navigation must not build or remove this node's embedded children: those of
    /// a ``FlowParallel`` (its regions) and of a ``FlowTabs`` (its tabs) are fixed against
    /// navigation, which only focuses or selects one of them. Asked by every navigation that
    /// would replace the children: a ``FlowStep/Placement/root`` step, a reentering
    /// navigation, a history restore of a kept node (never by a push or a pop).
    func _requireReplaceableChildren() throws {}
}
