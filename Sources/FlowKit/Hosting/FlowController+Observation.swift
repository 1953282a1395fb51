import Observation

/// FlowKit's nodes are observable with the toolchain's Observation module: a node's
/// ``FlowController/children`` and ``FlowController/presentedChild``, a tab container's
/// ``FlowTabs/selectedIndex`` and a runtime's ``FlowRuntime/focusedPath`` tell observers when
/// they change, so SwiftUI views bind to them directly. See <doc:Hosting>.
extension FlowController: Observable {}

/// An observation registrar in a class box, for the nodes and runtimes that have one. The
/// registrar is a struct from another module (resilient): copying it out of an optional
/// stored property to call it goes through its value witnesses (about 500 instructions per
/// change measured, for no observer); the box is copied as one reference and its registrar
/// used in place.
final class _Observation {
    let registrar = ObservationRegistrar()

    /// Registers an access to `keyPath` of `subject` (see `ObservationRegistrar`).
    @inline(__always)
    func access<Subject: Observable, Member>(
        _ subject: Subject, keyPath: KeyPath<Subject, Member>
    ) {
        registrar.access(subject, keyPath: keyPath)
    }

    /// Tells observers of `keyPath` of `subject` about the change `mutation` makes.
    @inline(__always)
    func withMutation<Subject: Observable, Member, T>(
        of subject: Subject, keyPath: KeyPath<Subject, Member>, _ mutation: () throws -> T
    ) rethrows -> T {
        try registrar.withMutation(of: subject, keyPath: keyPath, mutation)
    }
}

extension FlowController {
    /// The registrar, made on first use (see ``_observationRegistrar``).
    final func _observation() -> _Observation {
        if let registrar = _extras?.observation { return registrar }
        let registrar = _Observation()
        _writableExtras.observation = registrar
        return registrar
    }

    /// Replaces the embedded children and the presented node, telling observers of whichever
    /// changed. The only writer of ``_children`` and ``_presented``.
    final func _setContent(_ children: [FlowController], presented: FlowController?) {
        guard let registrar = _observationRegistrar else {
            _children = children
            _presented = presented
            return
        }
        if !_children.elementsEqual(children, by: ===) {
            registrar.withMutation(of: self, keyPath: \.children) { _children = children }
        } else {
            _children = children
        }
        if _presented !== presented {
            registrar.withMutation(of: self, keyPath: \.presentedChild) { _presented = presented }
        }
    }

    /// Removes `count` children from the top, appends `appended` and sets the presented node,
    /// in place (the children's storage is not copied when only this node holds it), telling
    /// observers of whichever changed.
    final func _editContent(
        droppingFromTop count: Int, appending appended: _Appended,
        presented: FlowController?
    ) {
        let childrenChange = count > 0 || !appended.isEmpty
        if childrenChange {
            if let registrar = _observationRegistrar {
                registrar.withMutation(of: self, keyPath: \.children) {
                    _editChildren(droppingFromTop: count, appending: appended)
                }
            } else {
                _editChildren(droppingFromTop: count, appending: appended)
            }
        }
        if _presented !== presented {
            if let registrar = _observationRegistrar {
                registrar.withMutation(of: self, keyPath: \.presentedChild) {
                    _presented = presented
                }
            } else {
                _presented = presented
            }
        }
    }

    private func _editChildren(droppingFromTop count: Int, appending appended: _Appended) {
        // One at a time: `removeLast(_:)` goes through the generic `replaceSubrange`, several
        // times the cost for the one entry a pop removes.
        for _ in 0..<count { _children.removeLast() }
        if let first = appended.first {
            // A first child gets room for a few: stacks and flows usually grow past one, and
            // growing an array one step at a time reallocates it twice on the way to four.
            if _children.capacity == 0 { _children.reserveCapacity(4) }
            _children.append(first)
            if !appended.rest.isEmpty { _children.append(contentsOf: appended.rest) }
        }
    }

    /// Reads ``presentedChild`` for a platform binding and dismisses on a `nil` write.
    ///
    /// For SwiftUI's `.sheet(item:)`: the platform writes `nil` when the user swipes the
    /// sheet away, and FlowKit tears the presented subtree down through
    /// ``platformDidDismiss()`` (no guard, the host is not told: it made the change). Writes
    /// of anything other than `nil` are refused: FlowKit presents, the platform only
    /// dismisses. A refused or failed write changes nothing and is reported to
    /// ``FlowRuntime/onError`` and the trace.
    ///
    ///     .sheet(item: $node.presentedBinding) { presented in ScreenView(node: presented) }
    public var presentedBinding: FlowController? {
        get { presentedChild }
        set {
            if newValue === _presented { return }
            guard newValue == nil else {
                _reportBindingFailure(
                    .presented,
                    FlowError.bindingWriteRefused(
                        node: path, reason: "only nil (a dismissal) can be written"))
                return
            }
            do {
                try platformDidDismiss()
            } catch {
                _reportBindingFailure(.presented, error)
            }
        }
    }

    /// Reports an error from a binding write (which cannot throw) to the runtime's error
    /// sink and trace.
    final func _reportBindingFailure(
        _ binding: FlowFailure.Operation.Binding, _ error: any Error
    ) {
        // The runtime of the tree this node is in (an offline descendant of a runtime's root
        // has none of its own); a node in no runtime's tree has nowhere to report.
        _treeRuntime()?._reportFailure(
            FlowFailure(.bindingWrite(binding), node: path, error: error))
    }
}
