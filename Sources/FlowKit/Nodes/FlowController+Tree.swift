extension FlowController {
    /// The names from the root to this node, joined by `/` (for example
    /// `app/main/stack/detail`). Stable while the node is attached.
    ///
    /// While a change is being planned, a node about to join the tree already has the path it
    /// will have. Cached only once the node is entered (an entered node never moves), so a
    /// subtree composed offline always shows its current shape.
    public var path: String {
        if let cached = _pathCache { return cached.path }
        let computed = _effectiveParent.map { "\($0.path)/\(name)" } ?? name
        if state == .entered { _pathCache = _PathCache(path: computed) }
        return computed
    }

    /// Makes an exiting node keep the path it has (trace records and errors about it name it
    /// in full after it is unlinked): its parent's path is kept, and joined with the name
    /// only if someone reads it.
    func _keepPath() {
        guard _pathCache == nil else { return }
        _pathCache = _PathCache(prefix: _effectiveParent?.path, name: name)
    }

    /// The path object trace records keep for this node: its cache, made now for an entered
    /// node (as reading ``path`` would), or a new one for a node that is not entered (whose
    /// path can still change). Shared, so that a record costs one reference, not a copy of
    /// the path's strings.
    var _tracePath: _PathCache {
        if let cached = _pathCache { return cached }
        let path = _PathCache(prefix: _effectiveParent?.path, name: name)
        if state == .entered { _pathCache = path }
        return path
    }

    /// The parent, or while a change is planned the container this node is about to join.
    var _effectiveParent: FlowController? { _parent ?? _pendingParent }

    /// Whether the node embeds and presents nothing.
    var _isLeaf: Bool { _children.isEmpty && _presented == nil }

    /// Whether `node` is this node or one of its real or prospective ancestors.
    func _isWithin(_ node: FlowController) -> Bool {
        var current: FlowController? = self
        while let candidate = current {
            if candidate === node { return true }
            current = candidate._effectiveParent
        }
        return false
    }

    /// `true` if this node has no parent.
    public var isRoot: Bool { parent == nil }

    /// `true` if this node is presented modally by its parent.
    public var isPresented: Bool {
        guard let parent else { return false }
        return parent._presented === self
    }

    /// The ancestors from the parent up to the root.
    public var ancestors: [FlowController] {
        var result: [FlowController] = []
        var node = parent
        while let current = node {
            result.append(current)
            node = current.parent
        }
        return result
    }

    /// Whether `node` is this node or one of its ancestors.
    public func isDescendant(of node: FlowController) -> Bool {
        var current: FlowController? = self
        while let candidate = current {
            if candidate === node { return true }
            current = candidate.parent
        }
        return false
    }
}

/// A node's cached path (see ``FlowController/_pathCache``): the whole path, or the parent's
/// path and the name, joined when first read (``FlowController/_keepPath()``). Trace records
/// share it with the node (``FlowController/_tracePath``); only the main actor reads it.
final class _PathCache {
    private(set) var prefix: String?
    private(set) var name: String

    init(path: String) {
        prefix = nil
        name = path
    }

    init(prefix: String?, name: String) {
        self.prefix = prefix
        self.name = name
    }

    var path: String {
        guard let prefix else { return name }
        let joined = prefix + "/" + name
        self.prefix = nil
        name = joined
        return joined
    }
}

extension FlowController {
    /// Whether ``_next`` may be followed from this node, in a debug build's `assert`: the node
    /// is entered, and the unretained link names the same node as the `weak` parent (which
    /// reads `nil` once that parent is freed), so following it reaches a live node. This is
    /// the link's invariant; release builds do not evaluate it (see Reliability.md).
    func _nextIsSound() -> Bool {
        guard state == .entered else { return false }
        switch (_next, _parent) {
        case (nil, nil): return true
        case (let next?, let parent?):
            return next.toOpaque() == Unmanaged.passUnretained(parent).toOpaque()
        default: return false
        }
    }

    /// Sets `parent` and the dispatch chain's copy together (and drops a prospective link).
    func _setParent(_ newParent: FlowController?) {
        _parent = newParent
        if let newParent { _next = Unmanaged.passUnretained(newParent) } else { _next = nil }
        _pendingParent = nil
    }
}
