// The code of Docs/Concurrency.md, Dependencies.md and ResponderChain.md. GuideCodeBlockTests
// checks that every ```swift block of these pages appears here verbatim: change the pages and
// this file together.

import FlowKit
import Testing

// MARK: Concurrency.md

/// Prices as they come.
struct PriceFeed: Sendable {
    let prices: AsyncStream<Int>
}

/// A screen that shows the feed's prices while it is entered.
final class PriceScreen: FlowController {
    let feed: PriceFeed
    private(set) var shown: [Int] = []

    init(feed: PriceFeed) {
        self.feed = feed
        super.init(name: "prices")
    }

    func show(_ price: Int) {
        shown.append(price)
    }

    override func didEnter() {
        task { [weak self, feed] in
            for await price in feed.prices { self?.show(price) }
        }
    }
}

// MARK: Dependencies.md

/// The books on offer.
struct Catalog: Sendable, Equatable {
    var titles: [String]

    static let empty = Catalog(titles: [])
    static let shipped = Catalog(titles: ["Emma", "Middlemarch"])
}

/// Lets the main actor run until `condition` holds (the price feed's values arrive, a
/// cancelled task returns), giving up after 10,000 turns: the test's expectations then fail.
@MainActor
private func yieldUntil(_ condition: () -> Bool) async {
    var turns = 0
    while !condition() && turns < 10_000 {
        await Task.yield()
        turns += 1
    }
}

@MainActor
@Suite("Concurrency, Dependencies and Responder chain guides")
struct ShortGuidesTests {
    @Test("A node's task runs while the node is entered and is cancelled when it exits")
    func nodeOwnedTask() async throws {
        let (prices, source) = AsyncStream.makeStream(of: Int.self)
        let stack = FlowStack(name: "stack", root: FlowController(name: "home"))
        let runtime = try FlowRuntime(root: stack)
        try runtime.start()
        weak var released: PriceScreen?
        do {
            let screen = PriceScreen(feed: PriceFeed(prices: prices))
            released = screen
            try stack.push(screen)
            await runtime.settle()
            source.yield(1)
            source.yield(2)
            await yieldUntil { screen.shown.count == 2 }
            #expect(screen.shown == [1, 2])
            #expect(screen.runningTaskCount == 1)
        }
        try stack.pop()  // the task is cancelled: its loop ends
        await yieldUntil { released == nil }
        #expect(released == nil)
    }

    @Test("Scopes: defaults, values for a subtree, required values")
    func dependencies() throws {
        let app = SampleApp(startSignedIn: "ada")
        let main = try #require(app.current as? MainFlow)
        let detail = DetailScreen(item: 1)
        try main.stack.push(detail)
        let runtime = try FlowRuntime(root: app)
        try runtime.start()
        let session = Session(user: "bo")

        enum CatalogKey: DependencyKey {  // with a default
            static let defaultValue = Catalog.empty
        }
        enum SessionKey: RequiredDependencyKey {  // must be provided
            typealias Value = Session
        }

        app.dependencies[CatalogKey.self] = .shipped  // the whole app sees it
        main.dependencies.set(session, for: SessionKey.self)  // only main's subtree
        let current = try detail.dependencies.require(SessionKey.self)  // main's session

        #expect(current === session)
        #expect(detail.dependencies[CatalogKey.self] == .shipped)
        #expect(FlowController(name: "alone").dependencies[CatalogKey.self] == .empty)
        #expect(app.dependencies.value(for: SessionKey.self) == nil)
        #expect(throws: FlowError.missingDependency(key: "SessionKey", node: "app")) {
            try app.dependencies.require(SessionKey.self)
        }
    }

    @Test("An event bubbles from its sender to the first node that handles it")
    func responderChain() throws {
        let app = SampleApp(startSignedIn: "ada")
        let detail = DetailScreen(item: 1)
        try #require(app.current as? MainFlow).stack.push(detail)
        let runtime = try FlowRuntime(root: app)
        try runtime.start()
        let start = runtime.trace.lines.count

        struct SignOut: FlowEvent {}

        app.on(SignOut.self) { _ in
            try app.switch(to: LoginFlow())
            return .handled
        }
        detail.send(SignOut())  // detail → stack → main → app
        runtime.send(SignOut())  // from the focused leaf

        let lines = runtime.trace.lines.dropFirst(start)
        #expect(lines.first == "send SignOut from app/main/stack/detail")
        #expect(
            lines.filter { $0.hasPrefix("send") || $0.hasPrefix("handled") } == [
                "send SignOut from app/main/stack/detail", "handled SignOut at app",
                "send SignOut from app/login", "handled SignOut at app",
            ])
    }
}
