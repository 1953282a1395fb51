extension FlowController {
    /// Attaches one node below this one, which is in no running tree: the prospective link,
    /// the layout edit and the link that planning the attach and applying it offline
    /// (``_applyOffline(_:)``) would make, in the same order, without a change. Building a
    /// flow in `init` attaches node by node, and planning each attach cost about half of it.
    /// The caller has validated the node (``_validateNewChild(_:)``).
    ///
    /// Observers of this node's content are told before it changes and may run app code
    /// then, which must find the node taken (an attach of it elsewhere, or of this node below
    /// it, is refused): so the prospective link is set first, as planning sets it. Only
    /// observers can run code in the middle of the attach (nothing it releases has a
    /// `deinit` that could: the old presented node and the children stay), and an observer
    /// needs this node's registrar, made when an observable property is first read; without
    /// one the link is not needed, and not set (it retains and releases this node, a fifth
    /// of the attach). `OfflineAttachTests.observerCannotAttachTheNodeTwice` checks it.
    func _attachOffline(_ attach: _OfflineAttach) {
        if _observationRegistrar != nil { attach.node._pendingParent = self }
        let selectedBefore = _childToKeepSelected
        if attach.presenting {
            _editContent(droppingFromTop: 0, appending: _Appended(), presented: attach.node)
        } else {
            var appended = _Appended()
            appended.append(attach.node)
            _editContent(droppingFromTop: 0, appending: appended, presented: _presented)
        }
        _childrenWereReshaped(keeping: selectedBefore)
        attach.node._setParent(self)
    }

    /// Applies a planned change to nodes that are not in a running tree: structure only.
    func _applyOffline(_ change: _Transaction) {
        change.applyLayouts()
        change.applySelections()
        for removal in change.removals { removal._setParent(nil) }
        change.applyLinks()
    }
}
