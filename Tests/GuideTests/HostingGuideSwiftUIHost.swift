import FlowKit
import Observation

// The FlowKit-facing part of the SwiftUI host of Docs/HostingSwiftUI.md, verbatim: the observable
// state SwiftUI's views bind to and the host that writes it. Exercised by
// HostingGuideSwiftUITests.swift; the views themselves need SwiftUI and are not compiled.

/// What SwiftUI shows of one node: the state its views bind to. The host writes it only when
/// ``FlowTransitions`` hands it a step; SwiftUI writes back only what the user did.
@MainActor
@Observable
final class ShownNode {
    let id: FlowNodeID
    /// The children SwiftUI shows: a stack's entries (bottom first), a switch's child, tabs.
    fileprivate(set) var children: [FlowNodeID] = []
    /// What the node shows as a sheet.
    fileprivate(set) var sheet: FlowNodeID?
    /// The selected tab.
    fileprivate(set) var selectedTab = 0
    @ObservationIgnored fileprivate weak var host: SwiftUITransitionHost?

    fileprivate init(id: FlowNodeID, host: SwiftUITransitionHost) {
        self.id = id
        self.host = host
    }

    /// `NavigationStack`'s path: the entries above the bottom one. SwiftUI writes a shorter
    /// one when the user goes back.
    var path: [FlowNodeID] {
        get { Array(children.dropFirst()) }
        set { host?.userWentBack(in: self, to: newValue) }
    }

    /// `sheet(isPresented:)`: SwiftUI writes `false` when the user dragged the sheet away.
    var isShowingSheet: Bool {
        get { sheet != nil }
        set { if !newValue { host?.userDismissedSheet(of: self) } }
    }

    /// `TabView`'s selection: SwiftUI writes the tab the user tapped.
    var tabSelection: Int {
        get { selectedTab }
        set { host?.userSelectedTab(newValue, in: self) }
    }
}

/// Shows FlowKit's tree with SwiftUI: each step becomes one write of the state the views
/// bind to, and is done once SwiftUI has shown it.
@MainActor
@Observable
final class SwiftUITransitionHost: FlowTransitionHost {
    @ObservationIgnored let transitionRules: FlowTransitionRules
    @ObservationIgnored weak var runtime: FlowRuntime?
    @ObservationIgnored weak var transitions: FlowTransitions?
    /// The node SwiftUI shows at the root (none before the start and after the stop).
    private(set) var root: ShownNode?
    @ObservationIgnored private var nodes: [FlowNodeID: ShownNode] = [:]
    /// Calls its argument once SwiftUI has shown what the host just wrote.
    @ObservationIgnored private let whenShown: (@escaping @MainActor () -> Void) -> Void

    init(
        rules: FlowTransitionRules = .oneAtATime,
        whenShown: @escaping (@escaping @MainActor () -> Void) -> Void
    ) {
        transitionRules = rules
        self.whenShown = whenShown
    }

    /// What SwiftUI shows of the node `id`, if it shows it.
    func shown(_ id: FlowNodeID) -> ShownNode? { nodes[id] }

    func perform(
        _ step: FlowTransitionStep, in runtime: FlowRuntime, completion: FlowTransitionCompletion
    ) {
        let container = nodes[step.container]
        switch step.kind {
        case .start:
            root = runtime.node(id: step.container).map(show)
        case .setEntries(_, let to), .setChildren(_, let to):
            for id in to where nodes[id] == nil {
                if let node = runtime.node(id: id) { _ = show(node) }
            }
            container?.children = to
        case .select(_, let to):
            container?.selectedTab = to
        case .present(let id):
            if let node = runtime.node(id: id) { _ = show(node) }
            container?.sheet = id
        case .dismiss:
            container?.sheet = nil
        case .stop:
            root = nil
            nodes.removeAll()
            completion.done()
            return
        }
        whenShown { [weak self] in
            self?.forgetWhatLeft()
            completion.done()
        }
    }

    /// The shown state of `node` and its embedded subtree as they are now (what FlowKit
    /// expects a step that shows a node to show), never what it presents.
    private func show(_ node: FlowController) -> ShownNode {
        let shown = nodes[node.id] ?? ShownNode(id: node.id, host: self)
        nodes[node.id] = shown
        shown.children = node.children.map { show($0).id }
        if let tabs = node as? FlowTabs { shown.selectedTab = tabs.selectedIndex }
        return shown
    }

    /// Forgets the state of every node SwiftUI no longer shows.
    private func forgetWhatLeft() {
        var kept: [FlowNodeID: ShownNode] = [:]
        var pending = [root].compactMap { $0 }
        while let shown = pending.popLast() {
            kept[shown.id] = shown
            pending += (shown.children + [shown.sheet].compactMap { $0 }).compactMap { nodes[$0] }
        }
        nodes = kept
    }

    // MARK: What the user did

    /// The back button or the swipe: SwiftUI already shows the shorter path.
    fileprivate func userWentBack(in shown: ShownNode, to path: [FlowNodeID]) {
        guard path.count < shown.path.count, shown.path.starts(with: path) else { return }
        shown.children = Array(shown.children.prefix(path.count + 1))
        if let stack = runtime?.node(id: shown.id) as? FlowStack,
            let entry = stack.entries.last(where: { $0.id == shown.children.last }),
            stack.top !== entry
        {
            do {
                try stack.platformDidPop(to: entry)
            } catch {
                assertionFailure("\(error)")
            }
        }
        forgetWhatLeft()
    }

    /// The sheet dragged away (only possible where `interactiveDismissDisabled` allowed it).
    fileprivate func userDismissedSheet(of shown: ShownNode) {
        guard let sheet = shown.sheet else { return }
        shown.sheet = nil
        if let presenter = runtime?.node(id: shown.id), presenter.presentedChild?.id == sheet {
            do {
                try presenter.platformDidDismiss()
            } catch {
                assertionFailure("\(error)")
            }
        }
        forgetWhatLeft()
    }

    /// A tab tapped.
    fileprivate func userSelectedTab(_ index: Int, in shown: ShownNode) {
        guard index != shown.selectedTab else { return }
        shown.selectedTab = index
        if let tabs = runtime?.node(id: shown.id) as? FlowTabs, tabs.tabs.indices.contains(index) {
            do {
                try tabs.platformDidSelect(tabs.tabs[index])
            } catch {
                assertionFailure("\(error)")
            }
        }
    }
}

extension SwiftUITransitionHost {
    /// The identities the host keeps state for (for the tests).
    var shownIDs: Set<FlowNodeID> { Set(nodes.keys) }
}
