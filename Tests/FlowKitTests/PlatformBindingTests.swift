import FlowKit
import Testing

/// A `UINavigationController`-like fake: it shows the stack's entries as its view
/// controllers, follows FlowKit's changes as a host, and pops on its own when the user taps
/// "back", telling FlowKit through the delegate callback (`didShow`), as a
/// `UINavigationControllerDelegate` does.
@MainActor
final class FakeNavigationController: FlowHost {
    private(set) var viewControllers: [FlowNodeID] = []
    private(set) var appliedChanges: [FlowChange] = []
    let stackID: FlowNodeID
    weak var runtime: FlowRuntime?

    init(stack: FlowStack) {
        stackID = stack.id
        viewControllers = stack.entries.map(\.id)
    }

    func apply(_ change: FlowChange, in runtime: FlowRuntime) {
        appliedChanges.append(change)
        guard let stack = runtime.node(id: stackID) as? FlowStack else { return }
        viewControllers = stack.entries.map(\.id)
    }

    /// The user tapped back: the platform pops its top view controller, then its delegate
    /// reports the view controller now shown.
    func tapBack() throws {
        viewControllers.removeLast()
        try navigationController(didShow: viewControllers.last!)
    }

    /// The delegate callback: the shown view controller's node is the new top.
    func navigationController(didShow shown: FlowNodeID) throws {
        guard let stack = runtime?.node(id: stackID) as? FlowStack,
            let entry = runtime?.node(id: shown), stack.top !== entry
        else { return }
        try stack.platformDidPop(to: entry)
    }
}

/// A SwiftUI-like fake: it keeps no state of its own; it reads the binding and writes a
/// shorter path back, as `NavigationStack(path:)` does when the user goes back.
@MainActor
struct FakeNavigationStack {
    let stack: FlowStack
    var path: [FlowNodeID] {
        get { stack.pathBinding }
        nonmutating set { stack.pathBinding = newValue }
    }
    func swipeBack() { path.removeLast() }
}

@Suite("Platform bindings")
@MainActor
struct PlatformBindingTests {
    @Test("A UIKit-like back button pops through the delegate; the host is not told")
    func uikitBack() throws {
        let list = FlowController(name: "list")
        let stack = FlowStack(name: "stack", root: list)
        let nav = FakeNavigationController(stack: stack)
        let runtime = try FlowRuntime(root: stack, host: nav)
        nav.runtime = runtime
        try runtime.start()
        let bag = WeakBag()
        do {
            let detail = FlowController(name: "detail")
            bag.track(detail, "detail")
            try stack.push(detail)
        }
        #expect(nav.viewControllers.count == 2)
        let told = nav.appliedChanges.count
        try nav.tapBack()
        #expect(stack.entries.map(\.name) == ["list"])
        #expect(bag.alive.isEmpty)
        #expect(nav.appliedChanges.count == told)  // not echoed
    }

    @Test("A SwiftUI-like shorter path tears down exactly the removed entries, not echoed")
    func swiftUIShorterPath() throws {
        let app = try TabbedApp()
        let bag = WeakBag()
        do {
            for name in ["a", "b", "c"] {
                let node = FlowController(name: name)
                bag.track(node, name)
                try app.catalog.push(node)
            }
        }
        app.host.removeAll()
        let view = FakeNavigationStack(stack: app.catalog)
        #expect(view.path.count == 3)
        view.path = Array(view.path.prefix(1))
        #expect(app.catalog.entries.map(\.name) == ["list", "a"])
        #expect(bag.alive == ["a"])
        #expect(app.host.changes.isEmpty)
        #expect(
            app.runtime.trace.lines.contains(
                "change platformPop app/catalog -app/catalog/c -app/catalog/b"))
        view.swipeBack()
        #expect(bag.alive.isEmpty)
        view.path = view.path  // the same path: nothing happens
        #expect(app.catalog.entries.count == 1)
    }

    @Test("A binding write FlowKit cannot apply changes nothing and goes to onError")
    func refusedWrites() throws {
        let app = try TabbedApp()
        var failures: [String] = []
        app.runtime.onError = { failures.append("\($0.kind): \($0.error)") }
        try app.catalog.push(FlowController(name: "a"))
        app.catalog.pathBinding = app.catalog.pathBinding + [app.profile.id]
        app.tabs.selectionBinding = app.catalog.entries[0].id
        app.catalog.entries[0].presentedBinding = app.profile
        #expect(app.catalog.entries.count == 2)
        #expect(app.tabs.selectedIndex == 0)
        #expect(failures.count == 3)
        #expect(failures.allSatisfy { $0.contains("was refused") })
        #expect(
            app.runtime.trace.lines.contains { $0.hasPrefix("failed pathBinding at app/catalog") })
    }

    @Test("A swiped-away sheet (nil written) is dismissed without a guard and not echoed")
    func sheetSwipe() throws {
        let app = try TabbedApp()
        let list = app.catalog.entries[0]
        let bag = WeakBag()
        do {
            let sheet = FlowController(name: "sheet")
            sheet.exitGuard = { .refuse("FlowKit's own dismissal would be refused") }
            bag.track(sheet, "sheet")
            try list.present(sheet)
        }
        app.host.removeAll()
        #expect(list.presentedBinding != nil)
        list.presentedBinding = nil
        #expect(list.presentedChild == nil)
        #expect(bag.alive.isEmpty)
        #expect(app.host.changes.isEmpty)
    }

    @Test("A tab bar writes the selection; FlowKit selects the tab as the platform's change")
    func tabBarSelection() throws {
        let app = try TabbedApp()
        app.tabs.selectionBinding = app.profile.id
        #expect(app.tabs.selectedTab === app.profile)
        #expect(app.focus == ["app", "app/profile"])
        #expect(app.host.changes.isEmpty)
        #expect(app.tabs.selectionBinding == app.profile.id)
    }
}
