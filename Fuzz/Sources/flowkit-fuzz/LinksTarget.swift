import FlowKit
import FlowKitLinks
import Foundation

/// The deep-link door: bytes as a URL string, matched by a router with literal and parameter
/// segments and query items, then opened on a running app whose `main` flow is guarded.
///
/// Oracle, for each input and both a signed-out and a signed-in app:
/// - the router's answer is a typed ``FlowURLError`` or a path of the table's shapes (ids in
///   range, names that are not dot segments, separators or control characters, read from a
///   URL whose own segments are none of these);
/// - `open` agrees with it: the same error with the tree unchanged; signed out, a redirect to
///   sign-in with `main` never entered; signed in, the path's screen focused.
@MainActor
enum LinksTarget {
    static func run(_ data: Data) {
        let string = String(decoding: data, as: UTF8.self)
        let router = LinkApp.router
        let answer = Result { try router.steps(for: string) }
        switch answer {
        case .success(let steps): checkMapped(string, steps)
        case .failure(let error):
            oracle(error is FlowURLError, "\(debug(string)): untyped error \(error)")
        }
        for signedIn in [false, true] {
            openChecked(string, answer: answer, signedIn: signedIn)
        }
    }

    /// Checks that `steps`, the path `string` maps to, is one the table allows.
    static func checkMapped(_ string: String, _ steps: [FlowStep]) {
        oracle(string.utf8.count <= 2_048, "\(debug(string)): mapped a link over the limit")
        let segments = rawSegments(of: string)
        for segment in segments {
            let decoded = segment.removingPercentEncoding ?? segment
            oracle(
                decoded != "." && decoded != ".." && !decoded.contains("/")
                    && !decoded.contains("\\"),
                "\(debug(string)): mapped a link with the segment '\(segment)'")
        }
        let books = LinkApp.books
        guard steps.count > books.count, Array(steps.prefix(books.count)) == books else {
            oracle(steps == books, "\(debug(string)): mapped to \(steps)")
            return
        }
        let rest = Array(steps.dropFirst(books.count))
        for id in 1...64 where rest == [.push(Shelf.detail(id: id))] { return }
        for id in 1...64 where rest == [.push(Shelf.detail(id: id)), .present("share")] { return }
        if rest.count == 1, let route = rest.first?.route.base as? Shelf {
            switch route {
            case .author(let name):
                oracle(
                    LinkApp.isSafeName(name)
                        && segments.contains { ($0.removingPercentEncoding ?? $0) == name },
                    "\(debug(string)): mapped to the author '\(name)'")
                return
            case .search(let query):
                oracle(
                    !query.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F },
                    "\(debug(string)): mapped to a search with control characters")
                return
            case .list, .detail: break
            }
        }
        oracle(false, "\(debug(string)): mapped to \(steps)")
    }

    /// The path segments of `string` as written (host first), read without the router.
    static func rawSegments(of string: String) -> [String] {
        guard let colon = string.firstIndex(of: ":") else { return [] }
        var rest = string[string.index(after: colon)...]
        if let end = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            rest = rest[..<end]
        }
        return rest.split(separator: "/").map(String.init)
    }

    static func openChecked(
        _ string: String, answer: Result<[FlowStep], any Error>, signedIn: Bool
    ) {
        let app = LinkApp(signedIn: signedIn)
        let before = app.observable
        do {
            try app.runtime.open(string, with: LinkApp.router)
            guard case .success(let steps) = answer else {
                return oracle(false, "\(debug(string)): opened a link the router refuses")
            }
            oracle(signedIn, "\(debug(string)): opened while signed out")
            let focused = app.runtime.focusedPath.compactMap(\.route)
            // A pushed step covers the entry before it, which leaves the focused path.
            let expected = steps.indices.filter {
                $0 + 1 == steps.count || steps[$0 + 1].placement != .push
            }.map { steps[$0].route }
            oracle(
                focused.suffix(expected.count) == expected[...],
                "\(debug(string)): focused \(focused), expected \(expected)")
        } catch let error as FlowURLError {
            guard case .failure(let refusal) = answer else {
                return oracle(false, "\(debug(string)): open refused a mapped link: \(error)")
            }
            oracle(refusal as? FlowURLError == error, "\(debug(string)): \(error) vs \(refusal)")
            oracle(app.observable == before, "\(debug(string)): a refused link changed the tree")
        } catch let error as FlowError {
            oracle(
                !signedIn && error == .redirected(node: "app/main", to: "login"),
                "\(debug(string)): \(error)")
            oracle(
                app.runtime.focusedNode?.path == "app/login",
                "\(debug(string)): redirected to \(app.runtime.focusedNode?.path ?? "-")")
        } catch {
            oracle(false, "\(debug(string)): untyped error \(error)")
        }
        oracle(
            app.mainEntries <= app.allowed,
            "\(debug(string)): main entered \(app.mainEntries) times, allowed \(app.allowed)")
        if !signedIn { oracle(app.mainEntries == 0, "\(debug(string)): main entered") }
    }

    static func debug(_ string: String) -> String {
        string.debugDescription.prefix(300) + (string.utf8.count > 300 ? "…" : "")
    }
}

/// The screens of the link app's stack.
enum Shelf: Hashable, Sendable {
    case list
    case detail(id: Int)
    case author(name: String)
    case search(query: String)
}

private enum SignedInKey: DependencyKey {
    static let defaultValue = false
}

/// A book app: `app` switches between `login` and a guarded `main` holding a stack of
/// ``Shelf`` screens; a book's detail presents `share`.
@MainActor
final class LinkApp {
    let app = FlowSwitch(name: "app")
    let runtime: FlowRuntime
    let host = RecordingFlowHost()
    var mainEntries = 0
    var allowed = 0

    nonisolated static let books: [FlowStep] = [
        .child("main"), .child("stack"), .child(Shelf.list),
    ]

    /// The link table: literal and parameter segments, a query item.
    nonisolated static let router: FlowURLRouter = {
        var router = FlowURLRouter(scheme: "flowdemo")
        do {
            try router.add("/books") { _ in books }
            try router.add("/books/:id") { match in
                books + [.push(Shelf.detail(id: try match.int("id", in: 1...64)))]
            }
            try router.add("/books/:id/share") { match in
                books + [
                    .push(Shelf.detail(id: try match.int("id", in: 1...64))), .present("share"),
                ]
            }
            try router.add("/authors/:name") { match in
                let name = try match.string("name")
                guard isSafeName(name) else {
                    throw FlowURLError.invalidParameter(
                        name: "name", value: name, reason: "not a name")
                }
                return books + [.push(Shelf.author(name: name))]
            }
            try router.add("/search") { match in
                books + [.push(Shelf.search(query: match.query("q") ?? ""))]
            }
        } catch {
            preconditionFailure("LinkApp: \(error)")
        }
        return router
    }()

    /// Whether an author's name is 1 to 64 characters.
    nonisolated static func isSafeName(_ name: String) -> Bool {
        (1...64).contains(name.count)
    }

    init(signedIn: Bool) {
        do {
            runtime = try FlowRuntime(root: app, host: host)
            app.dependencies[SignedInKey.self] = signedIn
            app.register("login") { FlowController(name: "login", route: "login") }
            app.register("main") { [unowned self] in self.makeMain() }
            app.initialRoute = signedIn ? "main" : "login"
            try runtime.start()
        } catch {
            preconditionFailure("LinkApp: \(error)")
        }
    }

    private func makeMain() -> FlowController {
        let main = EnteredNode(name: "main", route: "main") { [unowned self] in
            self.mainEntries += 1
        }
        main.entryGuard = { [unowned self, unowned main] in
            guard main.dependencies[SignedInKey.self] else {
                return .redirect(to: [.child("login")])
            }
            self.allowed += 1
            return .allow
        }
        let stack = FlowStack(name: "stack", route: "stack")
        stack.register(Shelf.self) { shelf, _ in
            switch shelf {
            case .list: return FlowController(name: "list")
            case .detail:
                let detail = FlowController(name: "detail")
                detail.register("share") { FlowController(name: "share") }
                return detail
            case .author: return FlowController(name: "author")
            case .search: return FlowController(name: "search")
            }
        }
        try? main.embed(stack)
        return main
    }

    /// The tree, the host's record and the trace.
    var observable: [String] {
        [runtime.treeDescription()] + host.changes.map(\.description) + runtime.trace.lines
    }
}

/// A node that counts its entries.
@MainActor
final class EnteredNode: FlowController {
    let onEnter: @MainActor () -> Void

    init(name: String, route: FlowRoute, onEnter: @escaping @MainActor () -> Void) {
        self.onEnter = onEnter
        super.init(name: name, route: route)
    }

    override func didEnter() { onEnter() }
}
