import FlowKit

/// Proves that nodes, and any objects that belong to them, are deallocated once their
/// subtree has left the tree.
///
///     let leaks = LeakTracker()
///     leaks.track(detail)                           // records "app/main/stack/detail"
///     leaks.track(cart, ownedBy: checkout)          // a service in checkout's scope
///     try stack.pop()
///     leaks.expectNoLeaks()       // everything whose node left the tree is gone
///
/// The tracker holds each object weakly and checks at once: it never waits, sleeps or polls,
/// so a check is deterministic. A failure names every leaked object with the path of its
/// node when it was tracked, where it was tracked, and how long ago: the number of changes
/// since (when the tracker counts changes) and the elapsed time (measured, not waited for).
///
/// > Note: A local variable in the test keeps its object alive to the end of its scope.
/// > Create nodes inside a `do { }` block or a helper, or look them up with
/// > `FlowRuntime.node(at:)`, so only the tree owns them.
///
/// ``FlowTestHarness`` has a tracker (``FlowTestHarness/leaks``) that counts the changes it
/// observed and runs ``expectNoLeaks(fileID:filePath:line:column:)`` when the harness finishes.
@MainActor
public final class LeakTracker {
    private struct Entry {
        weak var object: AnyObject?
        weak var owner: FlowController?
        let ownerWasAttached: Bool
        let label: String
        let path: String
        let changeCount: Int?
        let start: ContinuousClock.Instant
        let location: _FailureLocation
    }

    private var entries: [Entry] = []
    private let changeCount: (@MainActor () -> Int)?

    /// Creates a tracker that measures how long objects were tracked in elapsed time only.
    public init() {
        self.changeCount = nil
    }

    /// Creates a tracker that also counts the changes `recorder` received since an object
    /// was tracked.
    public init(counting recorder: FlowChangeRecorder) {
        self.changeCount = { [weak recorder] in recorder?.changes.count ?? 0 }
    }

    /// Creates a tracker that counts changes with `changeCount` (a monotonic counter).
    init(changeCount: @escaping @MainActor () -> Int) {
        self.changeCount = changeCount
    }

    /// How many objects have been tracked.
    public var trackedCount: Int { entries.count }

    /// The tracked objects that are still alive, each as `path (Type)`.
    public var aliveObjects: [String] {
        entries.filter { $0.object != nil }.map { "\($0.path) (\($0.label))" }
    }

    /// Tracks `node`: it must be deallocated once it has left the tree.
    ///
    /// Records the node's path now, so track it once it is in the tree.
    public func track(
        _ node: FlowController, fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        append(
            node, label: String(describing: type(of: node)), owner: node,
            location: _FailureLocation(fileID, filePath, line, column))
    }

    /// Tracks `node` and every node below it (embedded children and presented nodes).
    public func trackSubtree(
        _ node: FlowController, fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        var pending = [node]
        while let current = pending.popLast() {
            track(current, fileID: fileID, filePath: filePath, line: line, column: column)
            if let presented = current.presentedChild { pending.append(presented) }
            pending.append(contentsOf: current.children.reversed())
        }
    }

    /// Tracks any object, for example a service set in a node's dependency scope.
    ///
    /// - Parameters:
    ///   - object: The object to watch.
    ///   - label: Its name in failure messages; defaults to its type.
    ///   - owner: The node whose subtree the object belongs to. Once `owner` has left the
    ///     tree, ``expectNoLeaks(fileID:filePath:line:column:)`` requires the object to be gone.
    ///     Without an owner only ``expectAllReleased(fileID:filePath:line:column:)`` and
    ///     ``expectReleased(under:fileID:filePath:line:column:)`` check it.
    ///   - fileID: The file a failure is reported in; leave the default, the caller's
    ///     (see ``FlowTestHarness``).
    ///   - filePath: The full path of that file; leave the default.
    ///   - line: The line a failure is reported at; leave the default.
    ///   - column: The column a failure is reported at; leave the default.
    public func track(
        _ object: AnyObject, as label: String? = nil, ownedBy owner: FlowController? = nil,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
        column: UInt = #column
    ) {
        append(
            object, label: label ?? String(describing: type(of: object)), owner: owner,
            location: _FailureLocation(fileID, filePath, line, column))
    }

    private func append(
        _ object: AnyObject, label: String, owner: FlowController?, location: _FailureLocation
    ) {
        let path: String
        if let owner {
            path = owner.state == .entered ? owner.path : "\(owner.path) (\(owner.state))"
        } else {
            path = "(no node)"
        }
        entries.append(
            Entry(
                object: object, owner: owner, ownerWasAttached: owner != nil, label: label,
                path: path, changeCount: changeCount?(), start: .now, location: location))
    }

    /// Checks that every tracked object has been deallocated.
    public func expectAllReleased(
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
        column: UInt = #column
    ) {
        let leaked = entries.filter { $0.object != nil }
        report(
            leaked, header: "\(_count(leaked.count)) not deallocated:",
            at: _FailureLocation(fileID, filePath, line, column))
    }

    /// Checks that every object tracked at `path` or below it has been deallocated.
    ///
    ///     leaks.expectReleased(under: "app/main")   // after signing out
    public func expectReleased(
        under path: String, fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        let leaked = entries.filter { entry in
            entry.object != nil && (entry.path == path || entry.path.hasPrefix(path + "/"))
        }
        report(
            leaked, header: "\(_count(leaked.count, under: path)) not deallocated:",
            at: _FailureLocation(fileID, filePath, line, column))
    }

    /// Checks that every tracked object whose node has left the tree (exited or
    /// deallocated) has been deallocated too. Objects of nodes still in the tree may live.
    public func expectNoLeaks(
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
        column: UInt = #column
    ) {
        expectNoLeaks(at: _FailureLocation(fileID, filePath, line, column))
    }

    func expectNoLeaks(at location: _FailureLocation) {
        let leaked = entries.filter { entry in
            guard entry.object != nil, entry.ownerWasAttached else { return false }
            guard let owner = entry.owner else { return true }
            return owner.state == .exited
        }
        let header =
            leaked.count == 1
            ? "1 tracked object outlived its node:"
            : "\(leaked.count) tracked objects outlived their nodes:"
        report(leaked, header: header, at: location)
    }

    /// `1 tracked object was`, `2 tracked objects under app/main were`.
    private func _count(_ count: Int, under path: String? = nil) -> String {
        let place = path.map { " under \($0)" } ?? ""
        return count == 1
            ? "1 tracked object\(place) was" : "\(count) tracked objects\(place) were"
    }

    private func report(_ leaked: [Entry], header: String, at location: _FailureLocation) {
        guard !leaked.isEmpty else { return }
        let now = ContinuousClock.now
        let changesNow = changeCount?()
        var lines = [header]
        for entry in leaked {
            var since: [String] = []
            if let then = entry.changeCount, let changesNow {
                let count = changesNow - then
                since.append("\(count) change\(count == 1 ? "" : "s")")
            }
            since.append(_formatDuration(entry.start.duration(to: now)))
            var line =
                "  \(entry.path) (\(entry.label)): tracked at \(entry.location.shortDescription), "
                + since.joined(separator: " and ") + " ago"
            if let node = entry.object as? FlowController {
                line +=
                    node.state == .entered
                    ? "; still in the tree at \(node.path)" : "; \(node.state)"
            } else if let owner = entry.owner {
                line += "; its node is \(owner.state)"
            } else if entry.ownerWasAttached {
                line += "; its node was deallocated"
            }
            lines.append(line)
        }
        lines.append(
            "Something still holds them: a local variable, a handler or task that captured them "
                + "strongly, or a reference cycle.")
        _recordFailure(lines.joined(separator: "\n"), at: location)
    }
}

/// `12 µs`, `3.4 ms`, `1.25 s`.
func _formatDuration(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let micros = Double(seconds) * 1_000_000 + Double(attoseconds) / 1_000_000_000_000
    func fixed(_ value: Double, _ digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        return digits == 0 ? String(Int(rounded)) : String(rounded)
    }
    if micros < 1000 { return "\(fixed(micros, 0)) µs" }
    if micros < 1_000_000 { return "\(fixed(micros / 1000, 1)) ms" }
    return "\(fixed(micros / 1_000_000, 2)) s"
}
