import Foundation
import Observation
import Testing

@testable import FlowKit

/// A tab container app: `app` (tabs) → catalog (stack [list]), favourites (stack [saved]),
/// profile (a screen), started with a recording host.
@MainActor
final class TabbedApp {
    let journal = Journal()
    let host = RecordingFlowHost()
    let catalog: FlowStack
    let favourites: FlowStack
    let profile: LoggingNode
    let tabs: FlowTabs
    let runtime: FlowRuntime

    init(selected: Int = 0) throws {
        catalog = FlowStack(
            name: "catalog", route: "catalog", root: LoggingNode("list", journal: journal))
        favourites = FlowStack(
            name: "favourites", route: "favourites",
            root: LoggingNode("saved", journal: journal))
        profile = LoggingNode("profile", route: "profile", journal: journal)
        tabs = FlowTabs(name: "app", tabs: [catalog, favourites, profile], selected: selected)
        runtime = try FlowRuntime(root: tabs, host: host)
        try runtime.start()
        journal.entries.removeAll()
        host.removeAll()
    }

    var focus: [String] { runtime.focusedPath.map(\.path) }
}

/// Runs `read` under observation tracking and reports whether `change` notified it.
@MainActor
func notifies(_ read: () -> Void, when change: () throws -> Void) rethrows -> Bool {
    let flag = ChangeFlag()
    withObservationTracking(read) { flag.set() }
    try change()
    return flag.value
}

/// Set from an observation's `onChange` (which is `@Sendable`): guarded by a lock.
final class ChangeFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var storage = false
    func set() { lock.withLock { storage = true } }
    var value: Bool { lock.withLock { storage } }
}

@Suite("Tabs")
@MainActor
struct TabsTests {
    @Test("Every tab enters at start; only the selected one is on the focused path")
    func allTabsEnter() throws {
        let app = try TabbedApp(selected: 1)
        #expect(app.tabs.tabs.allSatisfy { $0.state == .entered })
        #expect(app.catalog.entries[0].state == .entered)
        #expect(app.focus == ["app", "app/favourites", "app/favourites/saved"])
        #expect(app.tabs.selectedTab === app.favourites)
        #expect(app.tabs.selectedIndex == 1)
    }

    @Test("Switching tabs exits nothing, keeps each stack, and fires activation hooks once")
    func switchingKeepsStacks() throws {
        let app = try TabbedApp()
        let detail = LoggingNode("detail", journal: app.journal)
        try app.catalog.push(detail)
        app.journal.entries.removeAll()
        app.host.removeAll()
        app.runtime.trace.removeAll()

        try app.tabs.select(app.favourites)
        #expect(app.journal.entries == ["inactive detail", "active saved"])
        #expect(app.host.changes.map(\.description) == ["select app"])
        #expect(app.catalog.entries.map(\.name) == ["list", "detail"])
        #expect(detail.state == .entered && !detail.isActive)
        #expect(app.focus == ["app", "app/favourites", "app/favourites/saved"])

        app.journal.entries.removeAll()
        try app.tabs.select(at: 0)
        #expect(app.journal.entries == ["inactive saved", "active detail"])
        #expect(app.focus == ["app", "app/catalog", "app/catalog/detail"])
        let exits = app.runtime.trace.lines.filter { $0.hasPrefix("exit") || $0.hasPrefix("enter") }
        #expect(exits.isEmpty)
    }

    @Test("Selecting the selected tab does nothing unless reselection pops to root")
    func reselection() throws {
        let app = try TabbedApp()
        let bag = WeakBag()
        do {
            let detail = FlowController(name: "detail")
            let more = FlowController(name: "more")
            bag.track(detail, "detail")
            bag.track(more, "more")
            try app.catalog.push(detail)
            try app.catalog.push(more)
        }
        app.host.removeAll()
        try app.tabs.select(app.catalog)
        #expect(app.catalog.entries.count == 3)
        #expect(app.host.changes.isEmpty)

        app.tabs.reselectionPopsToRoot = true
        try app.tabs.select(app.catalog)
        #expect(app.catalog.entries.map(\.name) == ["list"])
        #expect(
            app.host.changes.map(\.description)
                == ["select app -app/catalog/more -app/catalog/detail"])
        #expect(bag.alive.isEmpty)
    }

    @Test("A reselection pop consults guards when FlowKit asks, not when the platform did it")
    func reselectionGuards() throws {
        let app = try TabbedApp()
        let editor = FlowController(name: "editor")
        editor.exitGuard = { .refuse("unsaved") }
        try app.catalog.push(editor)
        app.tabs.reselectionPopsToRoot = true
        #expect(throws: FlowError.exitRefused(node: "app/catalog/editor", reason: "unsaved")) {
            try app.tabs.select(app.catalog)
        }
        #expect(app.catalog.entries.count == 2)
        app.host.removeAll()
        try app.tabs.platformDidSelect(app.catalog)
        #expect(app.catalog.entries.count == 1)
        #expect(editor.state == .exited)
        #expect(app.host.changes.isEmpty)
    }

    @Test("A stack in a tab that is not selected can be popped and tears its entries down")
    func popInUnselectedTab() throws {
        let app = try TabbedApp()
        let bag = WeakBag()
        do {
            let saved2 = LoggingNode("saved2", journal: app.journal)
            bag.track(saved2, "saved2")
            try app.favourites.push(saved2)
            try app.tabs.select(app.catalog)
            app.journal.entries.removeAll()
            try app.favourites.pop()
            #expect(saved2.state == .exited)
        }
        #expect(app.journal.entries == ["exit saved2"])
        #expect(bag.alive.isEmpty)
        #expect(app.focus == ["app", "app/catalog", "app/catalog/list"])
        try app.favourites.push(FlowController(name: "again"))
        _ = try app.favourites.platformDidPop()
        #expect(app.favourites.entries.map(\.name) == ["saved"])
        #expect(app.focus == ["app", "app/catalog", "app/catalog/list"])
    }

    @Test("The platform's tab tap is the same change, not echoed to the host")
    func platformSelect() throws {
        let app = try TabbedApp()
        try app.tabs.platformDidSelect(app.profile)
        #expect(app.focus == ["app", "app/profile"])
        #expect(app.host.changes.isEmpty)
        #expect(app.runtime.trace.lines.contains("change platformSelect app"))
    }

    @Test("Bad selections throw typed errors and change nothing")
    func badSelections() throws {
        let app = try TabbedApp()
        let stranger = FlowController(name: "stranger")
        #expect(throws: FlowError.notATab(tabs: "app", node: "stranger")) {
            try app.tabs.select(stranger)
        }
        #expect(throws: FlowError.notATab(tabs: "app", node: "tab index 3")) {
            try app.tabs.select(at: 3)
        }
        #expect(app.tabs.selectedIndex == 0)
        #expect(app.host.changes.isEmpty)
    }

    @Test("A navigation path selects a tab by its route and goes on inside it")
    func navigationSelectsTab() throws {
        let app = try TabbedApp()
        try app.runtime.navigate(to: [.child("favourites")])
        #expect(app.focus == ["app", "app/favourites", "app/favourites/saved"])
        #expect(app.catalog.state == .entered)
        try app.runtime.navigate(to: [.child("catalog")])
        #expect(app.tabs.selectedTab === app.catalog)
        #expect(throws: FlowError.unknownRoute(route: "settings", node: "app")) {
            try app.runtime.navigate(to: [.child("settings")])
        }
        #expect(app.tabs.selectedTab === app.catalog)
    }

    @Test("setTabs keeps the tabs that stay, exits the others, and keeps the selection")
    func settingTabs() throws {
        let app = try TabbedApp()
        try app.tabs.select(app.favourites)
        let bag = WeakBag()
        bag.track(app.profile, "profile")
        let search = FlowController(name: "search")
        try app.tabs.setTabs([search, app.favourites, app.catalog])
        #expect(app.tabs.tabs.map(\.name) == ["search", "favourites", "catalog"])
        #expect(app.tabs.selectedTab === app.favourites)
        #expect(search.state == .entered && !search.isActive)
        #expect(app.profile.state == .exited)
        #expect(throws: FlowError.notATab(tabs: "app", node: "tab index 5")) {
            try app.tabs.setTabs([search], selecting: 5)
        }
        #expect(app.tabs.tabs.count == 3)
    }
}

@Suite("Identity")
@MainActor
struct IdentityTests {
    @Test("Every node has its own identity; the runtime finds live nodes by it")
    func uniqueIdentities() throws {
        let app = try TabbedApp()
        let nodes = [app.tabs, app.catalog, app.favourites, app.profile] + app.catalog.entries
        #expect(Set(nodes.map(\.id)).count == nodes.count)
        #expect(app.runtime.node(id: app.profile.id) === app.profile)
        let detail = FlowController(name: "detail")
        #expect(app.runtime.node(id: detail.id) == nil)
        try app.catalog.push(detail)
        #expect(app.runtime.node(id: detail.id) === detail)
        try app.catalog.pop()
        #expect(app.runtime.node(id: detail.id) == nil)
    }

    @Test("Two same-named stack entries are told apart by identity in FlowChange")
    func sameNamedEntries() throws {
        let app = try TabbedApp()
        let first = FlowController(name: "detail")
        let second = FlowController(name: "detail")
        try app.catalog.push(first)
        try app.catalog.push(second)
        try app.catalog.pop()
        let changes = app.host.changes
        #expect(changes.map(\.description)[1] == changes.map(\.description)[0])  // same paths
        #expect(changes[0].enteredIDs == [first.id])
        #expect(changes[1].enteredIDs == [second.id])
        #expect(changes[2].exitedIDs == [second.id])
        #expect(changes[2].containerID == app.catalog.id)
        #expect(
            changes[2].identifiedDescription
                == "pop app/catalog\(app.catalog.id) -app/catalog/detail\(second.id)")
        #expect(changes[0] != changes[1])
        #expect(
            FlowChange(
                kind: .push, container: "app/catalog", exited: [], entered: ["app/catalog/detail"]
            ).matches(changes[0]))
    }
}

@Suite("Observation")
@MainActor
struct ObservationTests {
    @Test("Observers of a stack's entries see push, pop and a platform pop")
    func stackEntries() throws {
        let app = try TabbedApp()
        let stack = app.catalog
        #expect(
            try notifies({ _ = stack.entries }, when: { try stack.push(FlowController(name: "a")) })
        )
        #expect(try notifies({ _ = stack.entries }, when: { try stack.pop() }))
        try stack.push(FlowController(name: "b"))
        #expect(try notifies({ _ = stack.pathBinding }, when: { try stack.platformDidPop() }))
        // An unrelated change does not notify.
        #expect(
            try !notifies(
                { _ = stack.entries }, when: { try app.favourites.push(FlowController(name: "c")) })
        )
    }

    @Test("Observers of a presented child see present and dismiss")
    func presented() throws {
        let app = try TabbedApp()
        let list = app.catalog.entries[0]
        #expect(
            try notifies(
                { _ = list.presentedChild },
                when: { try list.present(FlowController(name: "sheet")) }))
        #expect(try notifies({ _ = list.presentedBinding }, when: { try list.dismiss() }))
        try list.present(FlowController(name: "sheet"))
        #expect(try notifies({ _ = list.presentedChild }, when: { try list.platformDidDismiss() }))
    }

    @Test("Observers of the selection and of the focused path see tab selection and focus moves")
    func selectionAndFocus() throws {
        let app = try TabbedApp()
        #expect(try notifies({ _ = app.tabs.selectedIndex }, when: { try app.tabs.select(at: 2) }))
        #expect(try notifies({ _ = app.runtime.focusedPath }, when: { try app.tabs.select(at: 0) }))
        #expect(
            try notifies(
                { _ = app.runtime.focusedNode },
                when: { try app.catalog.push(FlowController(name: "d")) }))
        // A change below a covered entry leaves the focus where it is.
        #expect(
            try !notifies(
                { _ = app.runtime.focusedPath },
                when: { try app.favourites.push(FlowController(name: "e")) }))
    }
}

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
        app.runtime.onError = { failures.append("\($0.operation): \($0.error)") }
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

@Suite("Tabs in navigation reports")
@MainActor
struct TabReportTests {
    @Test("A navigation that only selects a tab is reported in the tab container")
    func selectionOnlyNavigation() throws {
        let app = try TabbedApp()
        try app.runtime.navigate(to: [.child("favourites")])
        #expect(app.host.changes.map(\.description) == ["navigate app"])
        #expect(app.host.changes.first?.containerID == app.tabs.id)
    }

    @Test("treeDescription can show identities")
    func treeWithIdentities() throws {
        let app = try TabbedApp()
        let lines = app.runtime.treeDescription(showingIdentities: true).split(separator: "\n")
        #expect(lines.first == "* app \(app.tabs.id)")
        #expect(lines.contains { $0.hasSuffix("profile \(app.profile.id)") })
        #expect(!app.runtime.treeDescription().contains("#"))
    }
}
