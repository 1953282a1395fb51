extension FlowStack {
    func _checkStackInvariants() {
        #if DEBUG
        // Compares the unretained dispatch link's address with this stack's; it is never
        // dereferenced here, so a stale link could not be read through.
        precondition(
            _children.allSatisfy {
                $0.parent === self
                    && $0._next?.toOpaque() == Unmanaged.passUnretained(self).toOpaque()
            },
            "FlowStack '\(path)': an entry with a foreign parent")
        precondition(
            Set(_children.map(ObjectIdentifier.init)).count == _children.count,
            "FlowStack '\(path)': an entry appears twice")
        precondition(
            state != .entered || _children.allSatisfy { $0.state == .entered },
            "FlowStack '\(path)': an entry of an entered stack is not entered")
        #endif
    }
}
