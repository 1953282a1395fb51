// The code of Docs/Navigation.md. GuideCodeBlockTests checks that every ```swift block of the
// page appears here verbatim: change the page and this file together.

import FlowKit
import Testing

extension LoginFlow {
    /// What the sign-in form's success ends in.
    func signedIn(as account: Account) {
        // in LoginFlow (a ResultFlow whose Result is Account), after a successful sign-in
        finish(with: account)
    }
}

/// The path of each node a trace line names, for the lines of `kinds` (such as `enter`).
@MainActor
func tracedPaths(_ runtime: FlowRuntime, _ kinds: Set<String>, from start: Int = 0) -> [String] {
    runtime.trace.lines.dropFirst(start).compactMap { line in
        let parts = line.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, kinds.contains(String(parts[0])) else { return nil }
        return "\(parts[0]) \(parts[1])"
    }
}

@MainActor
@Suite("Navigation guide")
struct NavigationGuideTests {
    @Test("Stacks: push, pop, pop to an entry, pop to the root, set the whole stack")
    func stacks() throws {
        let list = ListScreen()
        let item = 7
        let settings = SettingsFlow()

        let stack = FlowStack(name: "stack", root: list)
        let runtime = try FlowRuntime(root: stack)
        try runtime.start()
        try stack.push(DetailScreen(item: item))  // [list, detail]
        try stack.pop()  // [list]
        try stack.push(DetailScreen(item: item))
        try stack.push(ShareSheet())  // [list, detail, share]
        try stack.pop(to: list)  // pops everything above list
        try stack.popToRoot()  // [list] already: nothing to do
        try stack.setStack([list, settings])  // keeps list, enters settings

        #expect(stack.entries.map(\.name) == ["list", "settings"])
        #expect(list.state == .entered && !list.isActive)
        #expect(runtime.focusedNode?.path == "stack/settings/general")
        #expect(
            tracedPaths(runtime, ["enter", "exit"]) == [
                "enter stack", "enter stack/list",
                "enter stack/detail", "exit stack/detail",
                "enter stack/detail", "enter stack/share",
                "exit stack/share", "exit stack/detail",  // top-most first
                "enter stack/settings", "enter stack/settings/general",
            ])
        #expect(throws: FlowError.cannotPopLastEntry(stack: "stack", entry: "stack/list")) {
            try stack.setStack([list])
            try stack.pop()
        }
    }

    @Test("Switches: the old child's whole subtree exits, the new one enters")
    func switches() throws {
        let session = Session(user: "ada")

        let app = FlowSwitch(name: "app", initial: LoginFlow())
        app.register("settings") { SettingsFlow() }
        let runtime = try FlowRuntime(root: app)
        try runtime.start()
        try app.switch(to: MainFlow(session: session))  // login's whole subtree exits, main enters
        try app.switch(to: "settings")  // by route, with a registered factory

        #expect(
            tracedPaths(runtime, ["enter", "exit"]) == [
                "enter app", "enter app/login",
                "exit app/login",
                "enter app/main", "enter app/main/stack", "enter app/main/stack/list",
                "exit app/main/stack/list", "exit app/main/stack", "exit app/main",
                "enter app/settings", "enter app/settings/general",
            ])
        #expect(app.current is SettingsFlow)
    }

    @Test("Presentation: the presenter stays entered and active; dismissing exits the sheet")
    func presentation() throws {
        let detail = DetailScreen(item: 7)
        let runtime = try FlowRuntime(root: FlowStack(name: "stack", root: detail))
        try runtime.start()

        let start = runtime.trace.lines.count

        try detail.present(ShareSheet())  // detail stays entered and active, below share
        try detail.dismiss()  // share's subtree exits
        try detail.present(ShareSheet())
        try detail.platformDidDismiss()  // the user swiped it away

        #expect(detail.state == .entered && detail.isActive)
        #expect(detail.presentedChild == nil && runtime.focusedNode === detail)
        #expect(
            Array(runtime.trace.lines.dropFirst(start)) == [
                "enter stack/detail/share",
                "change present stack/detail +stack/detail/share",
                "activate stack/detail/share",  // detail is not deactivated
                "exit stack/detail/share",
                "change dismiss stack/detail -stack/detail/share",
                "enter stack/detail/share",
                "change present stack/detail +stack/detail/share",
                "activate stack/detail/share",
                "exit stack/detail/share",
                "change platformDismiss stack/detail -stack/detail/share",
            ])
        #expect(throws: FlowError.nothingPresented(presenter: "stack/detail")) {
            try detail.dismiss()
        }
    }

    @Test("Guards: an exit guard refuses, and nothing changes")
    func guards() throws {
        let editor = EditorScreen()
        let stack = FlowStack(name: "stack", root: ListScreen())
        let runtime = try FlowRuntime(root: stack)
        try runtime.start()
        try stack.push(editor)

        editor.exitGuard = { [unowned editor] in
            editor.hasUnsavedEdits ? .refuse("unsaved edits") : .allow
        }
        editor.hasUnsavedEdits = true
        #expect(throws: FlowError.exitRefused(node: "stack/editor", reason: "unsaved edits")) {
            try stack.pop()
        }
        #expect(runtime.focusedNode === editor)
        editor.hasUnsavedEdits = false
        try stack.pop()
        #expect(runtime.focusedNode?.name == "list")
    }

    @Test("Routes: factories build what navigate(to:) needs, with the least change")
    func routes() throws {
        let app = SampleApp(startSignedIn: "ada")
        let runtime = try FlowRuntime(root: app)
        try runtime.start()
        let main = try #require(app.current as? MainFlow)
        let stack = main.stack

        stack.register("detail") { DetailScreen(item: 1) }  // DetailScreen uses route "detail"
        main.register("settings") { SettingsFlow() }  // SettingsFlow uses route "settings"
        try runtime.navigate(to: ["main", "stack", "detail"])

        #expect(runtime.focusedNode?.path == "app/main/stack/detail")
        #expect(app.current === main && main.stack === stack)  // kept
        try runtime.navigate(to: ["main", "settings"])
        #expect(runtime.focusedRoutes == ["main", "settings", "general"])
        #expect(throws: FlowError.unknownRoute(route: "nowhere", node: "app/main")) {
            try runtime.navigate(to: ["main", "nowhere"])
        }
    }

    @Test("History: a node with a policy records its focused routes when it exits")
    func history() throws {
        let settings = SettingsFlow()
        let app = FlowSwitch(name: "app", initial: settings)
        app.register("away") { FlowController(name: "away", route: "away") }
        let runtime = try FlowRuntime(root: app)
        try runtime.start()
        try runtime.navigate(to: ["settings", "account", "edit"])

        settings.history = .deep  // .none, .recorded, .shallow, .deep
        try app.switch(to: "away")
        #expect(runtime.recordedHistory(at: "app/settings") == ["account", "edit"])
    }

    @Test("Finishing a flow: awaited by run, or handled as an event")
    func finishing() throws {
        let app = FlowSwitch(name: "app")
        let login = LoginFlow()
        try app.embed(login)
        let runtime = try FlowRuntime(root: app)
        try runtime.start()

        app.on(FlowFinished<Account>.self, from: login) { [unowned app] done in
            try app.switch(to: MainFlow(user: done.result.name))
            return .handled
        }
        login.signedIn(as: Account(name: "ada"))
        #expect(runtime.focusedNode?.path == "app/main/stack/list")
        let main = try #require(app.current as? MainFlow)
        #expect(try main.dependencies.require(SessionKey.self).user == "ada")
    }
}
