// The code of Docs/Scenes.md. GuideCodeBlockTests checks that every ```swift block of the
// page appears here verbatim: change the page and this file together.

import FlowKit
import Testing

enum Window: Codable, Hashable, Sendable {
    case main
    case book(id: Int)
}

enum Page: Codable, Hashable, Sendable {
    case shelf
    case book(id: Int)
}

enum SignedInKey: DependencyKey {
    static let defaultValue: String? = nil
}

struct SignOut: FlowEvent {}

@MainActor
func makeWindow(_ window: Window) -> FlowController {
    let stack = FlowStack(name: "shelf", route: "shelf")
    stack.register(Page.self) { page, _ in
        switch page {
        case .shelf: return FlowController(name: "shelf")
        case .book(let id): return FlowController(name: "book-\(id)")
        }
    }
    switch window {
    case .main: stack.initialRoute = FlowRoute(Page.shelf)
    case .book(let id): stack.initialRoute = FlowRoute(Page.book(id: id))
    }
    return stack
}

final class WindowOpener: FlowSceneHost {
    var requests: [String] = []
    func openScene(value: FlowRoute) { requests.append("open \(value)") }
    func closeScene(_ id: FlowSceneID) { requests.append("close \(id)") }
    func activateScene(_ id: FlowSceneID) { requests.append("activate \(id)") }
}

@MainActor
@Suite("Guide: Scenes")
struct ScenesGuideTests {
    @Test("An app with windows: the router, the lifecycle, late restoration data, sign-out")
    func scenesWalkthrough() throws {
        let app = FlowApp()
        try app.register(Window.self, uniqueValues: true) { window, _ in makeWindow(window) }
        app.dependencies[SignedInKey.self] = "ada"  // every window's tree sees it
        app.on(SignOut.self) { _, scene in  // what no node of a scene handles
            if scene.value != FlowRoute(Window.main) { try scene.requestClose() }
        }
        let opener = WindowOpener()
        app.host = opener

        let main = try app.connect("window-1", value: FlowRoute(Window.main))
        try app.report(.enterForeground, for: "window-1")
        try app.report(.activate, for: "window-1")
        print(main.runtime!.treeDescription())
        // * shelf
        //   * shelf
        #expect(main.runtime!.treeDescription() == "* shelf\n  * shelf")
        #expect(main.runtime!.node(at: "shelf/shelf")!.dependencies[SignedInKey.self] == "ada")

        let link = FlowLink(
            [.child(Page.shelf), .push(Page.book(id: 12))],
            sceneValue: FlowRoute(Window.book(id: 12)))
        // resolvesRoute scene window-1: the focused scene resolves the route
        print(try app.open(link))
        print(main.runtime!.treeDescription())
        // * shelf
        //     shelf
        //   * book-12
        #expect(main.runtime!.treeDescription() == "* shelf\n    shelf\n  * book-12")
        #expect(
            app.trace.lines.last
                == "route link book(id: 12): resolvesRoute scene window-1: the focused scene "
                + "resolves the route")

        let bookWindow = try app.connect(
            "window-2", value: FlowRoute(Window.book(id: 12)), restoration: .none)
        try app.report(.enterBackground, for: "window-2")  // snapshot saved
        try app.report(.disconnect, for: "window-2")  // saved again; tree stopped and released
        print(bookWindow.runtime == nil)  // true
        try app.connect("window-2")  // reclaimed earlier: back with its screens
        print(bookWindow.runtime!.treeDescription())
        // * shelf
        //   * book-12
        try app.report(.close, for: "window-2")  // closed: its snapshot is deleted
        #expect(bookWindow.phase == .closed)
        #expect(app.scenes.map(\.id) == ["window-1"])

        try app.connect("window-3", value: FlowRoute(Window.main), restoration: .later)
        print(try app.open(link).rule)  // waitsForRestoration
        try app.restorationDidArrive(for: "window-3", snapshot: nil)  // no data: a fresh tree
        // route link book(id: 12): showsTarget scene window-1: it shows book(id: 12)
        print(app.trace.lines.last!)
        #expect(
            app.trace.lines.last
                == "route link book(id: 12): showsTarget scene window-1: it shows book(id: 12)")

        app.dependencies.removeValue(for: SignedInKey.self)
        print(app.broadcast(SignOut()))  // [window-1, window-3]: every connected scene
        #expect(opener.requests == [])
        #expect(
            app.trace.lines.suffix(3) == [
                "broadcast SignOut to scenes [window-1, window-3]",
                "handled SignOut at app (from scene window-1)",
                "handled SignOut at app (from scene window-3)",
            ])
        #expect("\(app.broadcast(SignOut()))" == "[window-1, window-3]")
    }
}
