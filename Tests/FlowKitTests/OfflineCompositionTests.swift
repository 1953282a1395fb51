import Observation
import Testing

@testable import FlowKit

/// Where an observer's callback leaves the error it caught.
@MainActor
final class ErrorBox {
    var error: (any Error)?
}

/// Outside a running tree, a change that only attaches one node (a push, a present, an embed
/// or a switch into a container without children) is made directly, without planning a
/// change; everything else offline is planned and applied structurally. Both must leave the
/// same tree, tell observers the same things and refuse the same input.
@MainActor
@Suite("Offline attaches")
struct OfflineAttachTests {
    /// The four single-node attaches, each on a fresh container.
    enum Attach: String, CaseIterable, Sendable {
        case push, present, embed, switchTo
    }

    /// A container for `attach`, with nothing in the place the node goes.
    func makeContainer(for attach: Attach) -> FlowController {
        switch attach {
        case .push: return FlowStack(name: "container", root: FlowController(name: "base"))
        case .present, .embed: return FlowController(name: "container")
        case .switchTo: return FlowSwitch(name: "container")
        }
    }

    func perform(_ attach: Attach, _ node: FlowController, on container: FlowController) throws {
        switch attach {
        case .push: try (container as! FlowStack).push(node)
        case .present: try container.present(node)
        case .embed: try container.embed(node)
        case .switchTo: try (container as! FlowSwitch).switch(to: node)
        }
    }

    @Test(
        "The node is linked where the attach put it, and observers are told",
        arguments: Attach.allCases)
    func linksAndNotifies(_ attach: Attach) throws {
        let container = makeContainer(for: attach)
        let node = FlowController(name: "node")
        let childrenBefore = container.children
        let notified = try notifies(
            {
                _ = container.children
                _ = container.presentedChild
            },
            when: { try perform(attach, node, on: container) })

        #expect(notified)
        #expect(node.parent === container)
        #expect(node.path == "container/node")
        #expect(node.state == .created)
        if attach == .present {
            #expect(container.presentedChild === node)
            #expect(container.children.map(\.id) == childrenBefore.map(\.id))
        } else {
            #expect(container.children.last === node)
            #expect(container.children.count == childrenBefore.count + 1)
            #expect(container.presentedChild == nil)
        }
        #expect(node._pendingParent == nil)
    }

    @Test("Refused input leaves both nodes as they were", arguments: Attach.allCases)
    func refusalsChangeNothing(_ attach: Attach) throws {
        let container = makeContainer(for: attach)
        let elsewhere = FlowStack(name: "elsewhere", root: FlowController(name: "taken"))
        let taken = elsewhere.children[0]
        let before = (children: container.children, presented: container.presentedChild)

        #expect(throws: FlowError.alreadyAttached(node: "elsewhere/taken", parent: "elsewhere")) {
            try perform(attach, taken, on: container)
        }
        #expect(throws: FlowError.wouldCreateCycle(node: "container", parent: "container")) {
            try perform(attach, container, on: container)
        }
        #expect(container.children.map(\.id) == before.children.map(\.id))
        #expect(container.presentedChild === before.presented)
        #expect(taken.parent === elsewhere)
        #expect(elsewhere.children.count == 1)
    }

    @Test(
        "An observer told of the attach cannot attach the same node elsewhere meanwhile",
        arguments: Attach.allCases)
    func observerCannotAttachTheNodeTwice(_ attach: Attach) throws {
        let container = makeContainer(for: attach)
        let node = FlowController(name: "node")
        let other = FlowStack(name: "other")
        let refusal = ErrorBox()
        // Observers are told before the content changes (`willSet`), synchronously, so app
        // code runs in the middle of the attach.
        withObservationTracking {
            _ = container.children
            _ = container.presentedChild
        } onChange: {
            MainActor.assumeIsolated {
                do { try other.push(node) } catch { refusal.error = error }
            }
        }
        try perform(attach, node, on: container)

        #expect(
            refusal.error as? FlowError
                == .alreadyAttached(node: "container/node", parent: "container"))
        #expect(node.parent === container)
        #expect(other.children.isEmpty)
        let holders = [container.presentedChild].compactMap { $0 } + container.children
        #expect(holders.filter { $0 === node }.count == 1)
    }

    @Test("A tree composed by offline attaches enters whole, then exits and deallocates")
    func composedTreeRuns() throws {
        weak var weakApp: FlowController?
        weak var weakModal: FlowController?
        weak var weakDetail: FlowController?
        do {
            let app = FlowSwitch(name: "app")
            let main = FlowController(name: "main")
            let stack = FlowStack(name: "stack", root: FlowController(name: "list"))
            let detail = FlowController(name: "detail")
            let modal = FlowController(name: "modal")
            try app.switch(to: main)
            try main.embed(stack)
            try stack.push(detail)
            try detail.present(modal)
            weakApp = app
            weakModal = modal
            weakDetail = detail

            let runtime = try FlowRuntime(root: app, host: nil)
            try runtime.start()
            #expect(
                runtime.focusedPath.map(\.path) == [
                    "app", "app/main", "app/main/stack", "app/main/stack/detail",
                    "app/main/stack/detail/modal",
                ])
            #expect([app, main, stack, detail, modal].allSatisfy { $0.state == .entered })
            #expect(
                runtime.trace.lines.filter { $0.hasPrefix("enter") } == [
                    "enter app", "enter app/main", "enter app/main/stack",
                    "enter app/main/stack/list", "enter app/main/stack/detail",
                    "enter app/main/stack/detail/modal",
                ])
            try runtime.stop()
            #expect(modal.state == .exited && app.state == .exited)
        }
        #expect(weakApp == nil && weakModal == nil && weakDetail == nil)
    }

    @Test("Embedding into a container that has children still replaces them")
    func embedReplacesChildren() throws {
        let container = FlowController(name: "container")
        let old = FlowController(name: "old")
        let new = FlowController(name: "new")
        try container.embed(old)
        try container.embed(new)
        #expect(container.children.count == 1 && container.children[0] === new)
        #expect(old.parent == nil)
        #expect(new.parent === container)
    }

    @Test("An offline present over tabs keeps the selected tab")
    func presentOverTabsKeepsSelection() throws {
        let tabs = FlowTabs(
            name: "tabs",
            tabs: [FlowController(name: "a"), FlowController(name: "b")], selected: 1)
        try tabs.present(FlowController(name: "sheet"))
        #expect(tabs.selectedTab?.name == "b")
        #expect(tabs.focusedChild?.name == "sheet")
    }
}
