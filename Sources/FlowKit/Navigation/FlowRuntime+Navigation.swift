extension FlowRuntime {
    /// Moves the focus to `path`, a list of routes starting with a child of the root, with
    /// the least change. See ``FlowController/navigate(to:history:historyDefault:reentering:)-([FlowRoute],_,_,_)``.
    public func navigate(
        to path: [FlowRoute], history: FlowHistoryDepth? = nil,
        historyDefault: FlowRoute? = nil
    ) throws {
        try navigate(
            to: path.map { FlowStep($0) }, history: history, historyDefault: historyDefault)
    }

    /// Moves the focus along `path` from the root, in one transaction. See
    /// ``FlowController/navigate(to:history:historyDefault:reentering:)-([FlowStep],_,_,_)``.
    public func navigate(
        to path: [FlowStep], history: FlowHistoryDepth? = nil,
        historyDefault: FlowRoute? = nil
    ) throws {
        try _change(
            .navigate,
            again: { try self.navigate(to: path, history: history, historyDefault: historyDefault) }
        ) {
            try self._runningRoot().navigate(
                to: path, history: history, historyDefault: historyDefault)
        }
    }

    /// Moves along several paths from the root in one transaction. See
    /// ``FlowController/navigate(toEach:)``.
    public func navigate(toEach paths: [[FlowStep]]) throws {
        try _change(.navigate, again: { try self.navigate(toEach: paths) }) {
            try self._runningRoot().navigate(toEach: paths)
        }
    }

    /// Shows the global route `route` over the focused node. See ``FlowController/open(_:)``.
    public func open(_ route: FlowRoute) throws {
        try _change(.open, again: { try self.open(route) }) {
            try self._runningRoot().open(route)
        }
    }

    /// Unwinds from the focused node to `target`. See
    /// ``FlowController/unwind(to:)-(FlowController)``.
    public func unwind(to target: FlowController) throws {
        try _change(.unwind, again: { try self.unwind(to: target) }) {
            guard let focused = self.focusedNode, self.isRunning else {
                throw FlowError.runtimeNotStarted
            }
            try focused.unwind(to: target)
        }
    }

    /// Unwinds from the focused node to the nearest node with `route`.
    public func unwind(to route: FlowRoute) throws {
        try _change(.unwind, again: { try self.unwind(to: route) }) {
            guard let focused = self.focusedNode, self.isRunning else {
                throw FlowError.runtimeNotStarted
            }
            try focused.unwind(to: route)
        }
    }

    /// The root of this running runtime.
    func _runningRoot() throws -> FlowController {
        guard let root, isRunning else { throw FlowError.runtimeNotStarted }
        return root
    }

    /// The routes of the focused path below the root (as far as nodes carry routes): the
    /// path ``navigate(to:history:historyDefault:)-([FlowRoute],_,_)`` would return to.
    public var focusedRoutes: [FlowRoute] {
        root?._focusedRoutes() ?? []
    }

    /// Performs a guard's redirect: navigates from the root along `path`, in one
    /// transaction, and returns the node it reached. A redirect is the runtime's own change,
    /// queued (`_enqueueChange(.redirect, …)`) behind the change that asked for it: it keeps
    /// no intent of its own (the redirected change is the intent).
    func _performRedirect(along path: [FlowStep]) throws -> FlowController {
        guard let root else { throw FlowError.runtimeNotStarted }
        var target: FlowController = root
        try _transact(.navigate, domain: root) { change in
            target = try root._planNavigation(
                to: path, history: nil, historyDefault: nil, reentering: false, in: &change)
        }
        return target
    }
}
