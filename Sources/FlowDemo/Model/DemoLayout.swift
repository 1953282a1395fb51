import FlowKit

/// How wide the screen is, as the platform reports it: the fact that decides whether the
/// catalog's split shows its columns side by side or collapsed into one stack.
///
///     let layout = DemoLayout(width: 120)
///     layout.isCompact       // false: 120 >= 100, the list and the book side by side
///     layout.width = 60      // a resize; DemoApp.resizeStep(to:) tells the splits
///
/// Set on the app root under ``DemoLayoutKey``. A split reads it when it enters (a new main
/// flow after sign-in starts collapsed on a narrow terminal, as a split view in compact width
/// does); after that, only the app changes a split's layout, through
/// `FlowSplit.platformDidCollapse()` and `platformDidExpand()`, when the width changes.
@MainActor
public final class DemoLayout {
    /// The narrowest width, in columns, that shows a split's columns side by side.
    public static let splitMinWidth = 100

    /// The screen's width in columns.
    public var width: Int

    /// Creates a layout `width` columns wide.
    public init(width: Int) {
        self.width = width
    }

    /// Whether splits are collapsed into one stack: narrower than ``splitMinWidth``.
    public var isCompact: Bool { width < Self.splitMinWidth }
}

/// The screen's layout, set on the app root.
public enum DemoLayoutKey: RequiredDependencyKey {
    public typealias Value = DemoLayout
}
