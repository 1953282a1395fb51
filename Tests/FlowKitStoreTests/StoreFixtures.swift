import FlowKit
import Foundation

@testable import FlowKitStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The app of the store tests: a stack of pages. A `crash` page kills the process when it is
/// built while `StoreApp.crashes` is set (a screen that crashes when it is restored).
@MainActor
enum StoreApp {
    enum Page: Codable, Hashable, Sendable {
        case home
        case item(Int)
        case crash
    }

    /// Whether building a `crash` page kills the process.
    static var crashes = false

    static func makeRoot() -> FlowStack {
        let stack = FlowStack(name: "stack")
        stack.register(Page.self) { page, _ in
            switch page {
            case .home: return FlowController(name: "home", route: FlowRoute(page))
            case .item: return FlowController(name: "item", route: FlowRoute(page))
            case .crash:
                if crashes { kill(getpid(), SIGKILL) }
                return FlowController(name: "crash", route: FlowRoute(page))
            }
        }
        stack.initialRoute = FlowRoute(Page.home)
        return stack
    }

    /// A snapshot of the app showing `pages` above its home page.
    static func snapshot(_ pages: [Page]) throws -> FlowSnapshot {
        let runtime = try FlowRuntime(root: makeRoot())
        try runtime.start()
        try runtime.navigate(to: [.child(Page.home)] + pages.map { .push($0) })
        return try runtime.snapshot()
    }

    /// The routes of a runtime's stack.
    static func pages(of runtime: FlowRuntime) -> [Page] {
        (runtime.root as! FlowStack).entries.compactMap { $0.route?.value(as: Page.self) }
    }
}

/// A new, empty folder for a store.
func temporaryStoreDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("flowkit-store-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// The names of the files in `url`, sorted.
func fileNames(in url: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
}
