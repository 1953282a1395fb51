import FlowKit
import FlowKitLinks
import Foundation
import Testing

enum Shelf: Hashable, Sendable {
    case list
    case detail(id: Int)
}

enum SignedInKey: DependencyKey {
    static let defaultValue = false
}

/// The book app of the deep-link tests: `app` switches between `login` and a guarded `main`
/// holding a stack of `Shelf` routes over a 64-book catalog.
@MainActor
final class LinkedApp {
    let app = FlowSwitch(name: "app")
    let runtime: FlowRuntime
    let host = RecordingFlowHost()
    var mainEntries = 0
    var guardDecisions: [FlowGuardDecision] = []

    init(signedIn: Bool) throws {
        runtime = try FlowRuntime(root: app, host: host)
        app.dependencies[SignedInKey.self] = signedIn
        app.register("login") { FlowController(name: "login", route: "login") }
        app.register("main") { [unowned self] in
            let main = Counted(name: "main", route: "main") { [unowned self] in
                self.mainEntries += 1
            }
            main.entryGuard = { [unowned self, unowned main] in
                let decision: FlowGuardDecision =
                    main.dependencies[SignedInKey.self] ? .allow : .redirect(to: [.child("login")])
                self.guardDecisions.append(decision)
                return decision
            }
            let stack = FlowStack(name: "stack", route: "stack")
            stack.register(Shelf.self) { shelf, _ in
                switch shelf {
                case .list: return FlowController(name: "list")
                case .detail(let id):
                    let detail = FlowController(name: "detail-\(id)")
                    detail.register("share") { FlowController(name: "share") }
                    return detail
                }
            }
            try? main.embed(stack)
            return main
        }
        app.initialRoute = signedIn ? "main" : "login"
        try runtime.start()
    }

    static func router() throws -> FlowURLRouter {
        var router = FlowURLRouter(scheme: "flowdemo")
        let books: [FlowStep] = [.child("main"), .child("stack"), .child(Shelf.list)]
        try router.add("/books") { _ in books }
        try router.add("/books/:id") { match in
            books + [.push(Shelf.detail(id: try match.int("id", in: 1...64)))]
        }
        try router.add("/books/:id/share") { match in
            books + [.push(Shelf.detail(id: try match.int("id", in: 1...64))), .present("share")]
        }
        return router
    }

    var snapshot: [String] {
        [runtime.treeDescription()] + host.changes.map(\.description) + runtime.trace.lines
    }
}

@MainActor
final class Counted: FlowController {
    let onEnter: @MainActor () -> Void
    init(name: String, route: FlowRoute, onEnter: @escaping @MainActor () -> Void) {
        self.onEnter = onEnter
        super.init(name: name, route: route)
    }
    override func didEnter() { onEnter() }
}

/// The error case's name, as the corpus writes it.
func caseName(_ error: FlowURLError) -> String {
    switch error {
    case .tooLong: return "tooLong"
    case .malformed: return "malformed"
    case .unsupportedScheme: return "unsupportedScheme"
    case .unsupportedHost: return "unsupportedHost"
    case .invalidSegment: return "invalidSegment"
    case .unmapped: return "unmapped"
    case .invalidParameter: return "invalidParameter"
    case .missingParameter: return "missingParameter"
    case .rejected: return "rejected"
    case .invalidPattern: return "invalidPattern"
    }
}

struct CorpusLine: Sendable, CustomStringConvertible {
    let expected: String
    let url: String
    var description: String { "\(expected) \(url)" }
}

func loadCorpus() throws -> [CorpusLine] {
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/hostile-urls.txt")
    let text = try String(contentsOf: file, encoding: .utf8)
    return text.split(separator: "\n", omittingEmptySubsequences: true).compactMap { line in
        if line.hasPrefix("#") { return nil }
        let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        return CorpusLine(expected: String(parts[0]), url: String(parts[1]))
    }
}

/// Control characters and huge inputs, which a text fixture cannot hold well.
let generatedCorpus: [CorpusLine] = [
    CorpusLine(expected: "malformed", url: "flowdemo://books/1\u{0}"),
    CorpusLine(expected: "malformed", url: "flowdemo://books/\n1"),
    CorpusLine(expected: "malformed", url: "flowdemo://books/1\t"),
    CorpusLine(expected: "malformed", url: "flowdemo://books/\u{1B}]0;pwned\u{7}1"),
    CorpusLine(expected: "malformed", url: "flowdemo://books/\u{202E}1"),
    CorpusLine(expected: "malformed", url: "flowdemo://books/1\u{7F}"),
    CorpusLine(
        expected: "tooLong", url: "flowdemo://books/" + String(repeating: "1", count: 3_000)),
    CorpusLine(
        expected: "tooLong", url: "flowdemo://books/1?q=" + String(repeating: "a", count: 1 << 20)),
    CorpusLine(
        expected: "tooLong",
        url: "flowdemo://books/1?" + (0..<10_000).map { "k\($0)=v" }.joined(separator: "&")),
    CorpusLine(
        expected: "malformed",
        url: "flowdemo://books/" + Array(repeating: "1", count: 100).joined(separator: "/")),
    CorpusLine(
        expected: "malformed",
        url: "flowdemo://books/1?" + (0..<100).map { "k\($0)=v" }.joined(separator: "&")),
    CorpusLine(
        expected: "invalidParameter",
        url: "flowdemo://books/" + String(repeating: "9", count: 1_000)),
]

@MainActor
@Suite("Deep links: a hostile corpus gives only typed errors or the guarded redirect")
struct HostileURLTests {
    @Test("The corpus holds at least 100 links, each with a known expectation")
    func corpusIsLarge() throws {
        let corpus = try loadCorpus()
        #expect(corpus.count + generatedCorpus.count >= 100)
        let known: Set = [
            "redirect", "tooLong", "malformed", "unsupportedScheme", "unsupportedHost",
            "invalidSegment", "unmapped", "invalidParameter",
        ]
        #expect(corpus.allSatisfy { known.contains($0.expected) })
    }

    @Test("Logged out: every link is a typed error that changes nothing, or leads to sign-in")
    func hostileCorpusLoggedOut() throws {
        let fixture = try LinkedApp(signedIn: false)
        let router = try LinkedApp.router()
        var outcomes: [String: Int] = [:]
        for line in try loadCorpus() + generatedCorpus {
            let before = fixture.snapshot
            do {
                try fixture.runtime.open(line.url, with: router)
                Issue.record("\(line): opened without a redirect while logged out")
            } catch let error as FlowURLError {
                #expect(caseName(error) == line.expected, "\(line): \(error)")
                #expect(fixture.snapshot == before, "\(line): a refused link changed something")
                outcomes[caseName(error), default: 0] += 1
            } catch let error as FlowError {
                #expect(line.expected == "redirect", "\(line): \(error)")
                #expect(error == .redirected(node: "app/main", to: "login"), "\(line)")
                #expect(fixture.runtime.focusedNode?.path == "app/login", "\(line)")
                #expect(fixture.runtime.redirectedIntent != nil, "\(line)")
                outcomes["redirect", default: 0] += 1
            }
        }
        #expect(fixture.mainEntries == 0)  // the guarded screen never entered
        #expect(!fixture.guardDecisions.contains(.allow))
        #expect(outcomes["redirect"] == fixture.guardDecisions.count)
        // Every kind of outcome the corpus names was seen (no host is configured, so
        // unsupportedHost cannot occur here; URLRouterTests covers it).
        let corpus = try loadCorpus() + generatedCorpus
        #expect(Set(outcomes.keys) == Set(corpus.map(\.expected)))
        #expect(outcomes.values.reduce(0, +) == corpus.count)
    }

    @Test("Signed in: the mapped links reach their screens, with a presented step")
    func mappedLinksSignedIn() throws {
        let fixture = try LinkedApp(signedIn: true)
        let router = try LinkedApp.router()
        try fixture.runtime.open("flowdemo://books/12/share", with: router)
        #expect(fixture.runtime.focusedNode?.path == "app/main/stack/detail-12/share")
        try fixture.runtime.open(URL(string: "flowdemo://books/3")!, with: router)
        #expect(fixture.runtime.focusedNode?.path == "app/main/stack/detail-3")
        try fixture.runtime.open("flowdemo://books", with: router)
        #expect(fixture.runtime.focusedNode?.path == "app/main/stack/list")
        #expect(fixture.mainEntries == 1)
    }

    @Test("A link that waited for sign-in opens once sign-in finishes")
    func linkResumesAfterSignIn() throws {
        let fixture = try LinkedApp(signedIn: false)
        let router = try LinkedApp.router()
        fixture.app.on(FlowFinished<Bool>.self) { [unowned fixture] _ in
            fixture.app.dependencies[SignedInKey.self] = true
            try fixture.app.switch(to: "main")
            return .handled
        }
        #expect(throws: FlowError.redirected(node: "app/main", to: "login")) {
            try fixture.runtime.open("flowdemo://books/12", with: router)
        }
        fixture.app.current?.finish(with: true)
        #expect(fixture.runtime.focusedNode?.path == "app/main/stack/detail-12")
    }
}

@Suite("URL router")
struct URLRouterTests {
    @Test("Parameters are typed, query items decoded, the host read as the first segment")
    func parametersAndQuery() throws {
        var router = FlowURLRouter(scheme: "app")
        try router.add("/authors/:name/books/:id") { match in
            [
                .child(try match.string("name")), .child(try match.int("id")),
                .child(match.query("sort") ?? "none"),
            ]
        }
        let steps = try router.steps(for: "app://authors/J%C3%BCrgen/books/42?sort=year&x=1")
        #expect(steps == [.child("Jürgen"), .child(42), .child("year")])
        #expect(throws: FlowURLError.missingParameter("nope")) {
            var other = FlowURLRouter(scheme: "app")
            try other.add("/x") { match in [.child(try match.string("nope"))] }
            _ = try other.steps(for: "app://x")
        }
    }

    @Test("With a host, the host is checked and the path matched")
    func hostChecked() throws {
        var router = FlowURLRouter(scheme: "https", host: "books.example")
        try router.add("/books/:id") { match in [.child(try match.int("id"))] }
        #expect(try router.steps(for: "https://BOOKS.example/books/3") == [.child(3)])
        #expect(throws: FlowURLError.unsupportedHost("evil.example")) {
            _ = try router.steps(for: "https://evil.example/books/3")
        }
        #expect(throws: FlowURLError.unsupportedHost(nil)) {
            _ = try router.steps(for: "https:///books/3")
        }
    }

    @Test("Bad patterns are refused when added")
    func badPatterns() throws {
        var router = FlowURLRouter(scheme: "app")
        try router.add("/a/:id") { _ in [] }
        #expect(
            throws: FlowURLError.invalidPattern(
                "/a/:id", reason: "conflicts with an earlier pattern")
        ) {
            try router.add("/a/:id") { _ in [] }
        }
        #expect(
            throws: FlowURLError.invalidPattern(
                "/a/:other", reason: "conflicts with an earlier pattern")
        ) {
            try router.add("/a/:other") { _ in [] }
        }
        #expect(throws: FlowURLError.invalidPattern("/a//b", reason: "empty segment")) {
            try router.add("/a//b") { _ in [] }
        }
        #expect(throws: FlowURLError.invalidPattern("/b/:", reason: "a parameter needs a name")) {
            try router.add("/b/:") { _ in [] }
        }
        #expect(throws: FlowURLError.invalidPattern("/c/:x/:x", reason: "parameter x twice")) {
            try router.add("/c/:x/:x") { _ in [] }
        }
        #expect(router.registeredPatterns == ["/a/:id"])
    }

    @Test("A hundred patterns: each URL reaches its own builder")
    func hundredPatterns() throws {
        var router = FlowURLRouter(scheme: "app")
        for index in 0..<100 {
            try router.add("/area\(index)/items/:id") { match in
                [.child("area\(index)"), .child(try match.int("id"))]
            }
        }
        for index in stride(from: 0, to: 100, by: 7) {
            #expect(
                try router.steps(for: "app://area\(index)/items/\(index * 3)")
                    == [.child("area\(index)"), .child(index * 3)])
        }
        #expect(throws: FlowURLError.unmapped(path: "/area100/items/1")) {
            _ = try router.steps(for: "app://area100/items/1")
        }
    }

    @Test("Errors read as sentences")
    func descriptions() {
        #expect(FlowURLError.unmapped(path: "/x").description == "no link matches /x")
        #expect(
            FlowURLError.invalidParameter(name: "id", value: "99", reason: "out of range 1...64")
                .description == "the link's id '99' is not valid: out of range 1...64")
    }
}
