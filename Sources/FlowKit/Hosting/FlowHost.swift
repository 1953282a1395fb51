/// What a platform implements to show FlowKit's tree: a terminal UI, a test recorder, a
/// UIKit or SwiftUI adapter.
///
/// The runtime tells its host about every change FlowKit made, after the change is applied
/// and before activation is reported. Changes the platform made itself (a back-button pop, a
/// swipe-dismiss) come in through ``FlowStack/platformDidPop(to:)`` and
/// ``FlowController/platformDidDismiss()`` and are not echoed back to ``apply(_:in:)``;
/// ``platformDidChange(_:in:)`` notes them.
@MainActor
public protocol FlowHost: AnyObject {
    /// Shows `change`. Read the live tree through `runtime` (for example
    /// `runtime.node(at: change.container)`) to update the screen.
    func apply(_ change: FlowChange, in runtime: FlowRuntime)

    /// Told after a change the platform made itself (``FlowStack/platformDidPop(to:)``,
    /// ``FlowController/platformDidDismiss()``, ``FlowTabs/platformDidSelect(_:)``), which the
    /// screen already shows: nothing to show, only to note (``FlowTransitions`` keeps its
    /// record of what is shown). The default does nothing.
    func platformDidChange(_ change: FlowChange, in runtime: FlowRuntime)

    /// Told when the platform reports selecting the tab the tree already selects
    /// (``FlowTabs/platformDidSelect(_:)``, a tab bar tap): the tree does not change, but
    /// the platform may have shown another tab until then (a selection made in code that it
    /// had not shown yet). ``FlowTransitions`` notes that it shows the tab. The default does
    /// nothing.
    func platformDidShowSelection(of tabs: FlowTabs, in runtime: FlowRuntime)

    /// Whether the platform shows the tab `tabs` selects as selected now. FlowKit asks when
    /// the platform reports selecting the tab the tree already selects (a tab bar tap,
    /// ``FlowTabs/platformDidSelect(_:)``): if the platform showed another tab (a selection
    /// made in code that it had not shown yet), the tap selected the tab for the platform,
    /// and a ``FlowTabs/reselectionPopsToRoot`` pop does not happen. ``FlowTransitions``
    /// answers from its record of what is shown. The default answers `true`.
    func platformShowsSelection(of tabs: FlowTabs, in runtime: FlowRuntime) -> Bool
}

extension FlowHost {
    /// Does nothing: the screen already shows a platform's own change.
    public func platformDidChange(_ change: FlowChange, in runtime: FlowRuntime) {}

    /// Does nothing: the tree already selects the tab the platform shows.
    public func platformDidShowSelection(of tabs: FlowTabs, in runtime: FlowRuntime) {}

    /// `true`: without a record of what is shown, the platform is taken to show the tree.
    public func platformShowsSelection(of tabs: FlowTabs, in runtime: FlowRuntime) -> Bool {
        true
    }
}

/// A host that remembers the changes it was told about, for tests and tools.
///
///     let host = RecordingFlowHost()
///     let runtime = try FlowRuntime(root: app, host: host)
///     try runtime.start()
///     #expect(host.changes.map(\.kind) == [.start])
@MainActor
public final class RecordingFlowHost: FlowHost {
    /// The changes received, oldest first. With a ``limit``, older ones are dropped in
    /// batches, so between `limit` and twice `limit` of the most recent are kept.
    public private(set) var changes: [FlowChange] = []

    /// How many changes to keep, or `nil` for all of them.
    public var limit: Int?

    /// Creates an empty recorder.
    public init(limit: Int? = nil) {
        self.limit = limit
    }

    public func apply(_ change: FlowChange, in runtime: FlowRuntime) {
        changes.append(change)
        if let limit, changes.count > limit * 2 {
            changes.removeFirst(changes.count - limit)
        }
    }

    /// Forgets the changes received so far.
    public func removeAll() {
        changes.removeAll()
    }
}
