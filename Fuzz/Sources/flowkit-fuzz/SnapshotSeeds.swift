import FlowKit
import Foundation

/// The snapshot door's seed documents: snapshots of the bookshelf app in a few states,
/// written by `FLOWKIT_FUZZ_WRITE_SEEDS=DIR` (see ``initialize(_:_:)``).
@MainActor
enum SnapshotSeeds {
    static func documents() throws -> [String: Data] {
        var documents: [String: Data] = [:]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        func save(_ name: String, _ runtime: FlowRuntime) throws {
            documents[name] = try encoder.encode(try runtime.snapshot())
        }
        let world = ShelfWorld()
        let app = world.makeApp()
        let runtime = try FlowRuntime(root: app)
        try runtime.start()
        try save("started", runtime)
        try runtime.navigate(to: [
            .child("login"), .child("steps"), .child(LoginStep.welcome),
            .push(LoginStep.password),
        ])
        try save("login-password", runtime)
        world.signedIn = Session(user: "alice")
        try app.switch(to: "main")
        try save("main", runtime)
        try runtime.navigate(to: [
            .child("main"), .child("tabs"), .child("catalog"), .child(ShelfRoute.list),
            .push(ShelfRoute.detail(id: 1)), .push(ShelfRoute.detail(id: 2)),
            .push(ShelfRoute.review(id: 2, stars: 5)), .present(SheetRoute.share(id: 2)),
        ])
        guard let catalog = runtime.node(at: "app/main/tabs/catalog") as? FlowStack,
            let first = catalog.entries[1] as? DetailScreen,
            let search = runtime.node(at: "app/main/tabs/search") as? SearchScreen,
            let tabs = runtime.node(at: "app/main/tabs") as? FlowTabs
        else { preconditionFailure("SnapshotSeeds: the app is not as built") }
        first.scroll = 120
        search.query = "dune"
        try save("catalog-sheet", runtime)
        try tabs.select(at: 1)
        try save("search-selected", runtime)
        try runtime.navigate(to: [
            .child("main"), .child("tabs"), .child("profile"), .present(SheetRoute.rate),
        ])
        try save("profile-rate", runtime)
        return documents
    }
}

/// libFuzzer's start-up hook. With `FLOWKIT_FUZZ_WRITE_SEEDS=DIR`, writes the snapshot
/// seeds to `DIR` and exits (how Tests/Fuzz/Corpus/snapshots was made).
@_cdecl("LLVMFuzzerInitialize")
public func initialize(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
    guard let directory = ProcessInfo.processInfo.environment["FLOWKIT_FUZZ_WRITE_SEEDS"] else {
        return 0
    }
    MainActor.assumeIsolated {
        do {
            for (name, data) in try SnapshotSeeds.documents() {
                try data.write(to: URL(fileURLWithPath: directory).appendingPathComponent(name))
            }
        } catch {
            printError("flowkit-fuzz: cannot write the seeds: \(error)")
            exit(1)
        }
    }
    exit(0)
}
