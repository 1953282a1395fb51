/// One step of a navigation path: a route, and how the node built for it is shown.
///
///     // The list, book 7 pushed over it, and the share sheet presented over the book:
///     try runtime.navigate(to: [
///         .child("main"), .child("stack"), .child(Screen.list),
///         .push(Screen.detail(id: 7)), .present("share"),
///     ])
///
/// A whole path is one transaction: it is checked (factories build the new nodes, guards
/// decide) before anything exits or enters.
public struct FlowStep: Hashable, Sendable, CustomStringConvertible {
    /// How a step's node is shown relative to the node before it.
    public enum Placement: String, Hashable, Sendable {
        /// A child of the previous node: embedded (a switch's or flow's child), or for a
        /// ``FlowStack`` one of its entries (it pops to the top-most entry with the route, or
        /// pushes a new one). A node the previous node presents is kept if it has the route.
        case child
        /// The entry directly above the previous node, which must be a stack entry: kept if it
        /// has the route (entries above it are popped), else everything above the previous
        /// node is popped and a new entry is pushed. Built by the stack's factories.
        case push
        /// Presented by the previous node: kept if it has the route, else what it presents is
        /// dismissed and a new node is presented. Built by the previous node's factories or
        /// by a global route of one of its ancestors.
        case present
        /// The previous node's only embedded child (a stack's only entry): its bottom child
        /// is kept if it has the route (what is above it is popped), else every child exits
        /// and a new node built by the previous node's factories takes their place. What the
        /// previous node presents is dismissed. A selection's deep link: it replaces what a
        /// ``FlowSplit``'s detail column shows, where ``child`` would push onto it. Not at a
        /// ``FlowParallel`` (a split itself), whose regions are fixed
        /// (``FlowError/regionsAreFixed(container:)``), nor at a ``FlowTabs``, whose tabs
        /// are (``FlowError/tabsAreFixed(container:)``).
        case root
    }

    /// The route of the node this step reaches.
    public var route: FlowRoute
    /// How the node is shown.
    public var placement: Placement

    /// Creates a step.
    public init(_ route: FlowRoute, placement: Placement = .child) {
        self.route = route
        self.placement = placement
    }

    /// A child step (see ``Placement/child``).
    public static func child(_ route: some Hashable & Sendable) -> FlowStep {
        FlowStep(FlowRoute(route), placement: .child)
    }

    /// A push step (see ``Placement/push``).
    public static func push(_ route: some Hashable & Sendable) -> FlowStep {
        FlowStep(FlowRoute(route), placement: .push)
    }

    /// A root step (see ``Placement/root``).
    public static func root(_ route: some Hashable & Sendable) -> FlowStep {
        FlowStep(FlowRoute(route), placement: .root)
    }

    /// A present step (see ``Placement/present``).
    public static func present(_ route: some Hashable & Sendable) -> FlowStep {
        FlowStep(FlowRoute(route), placement: .present)
    }

    /// `list`, `push detail(id: 7)`, `present share`, `root detail(id: 7)`.
    public var description: String {
        switch placement {
        case .child: return route.description
        case .push: return "push \(route)"
        case .present: return "present \(route)"
        case .root: return "root \(route)"
        }
    }
}

extension Array where Element == FlowStep {
    /// The path in one line: `main / stack / list / push detail(id: 7) / present share`.
    var pathDescription: String { map(\.description).joined(separator: " / ") }
}
