// The code of Docs/Restoration.md's "Snapshots across releases" and "The snapshot store and
// the crash-loop guard". GuideCodeBlockTests checks that every ```swift block of the page
// appears in this target verbatim: change the page and this file together.

import FlowKit
import FlowKitStore
import Foundation
import Testing

enum ReadingRoute: Codable, Hashable, Sendable {
    case shelf
    case book(id: Int, page: Int)
}

func makeReadingSchema() -> FlowSnapshotSchema {
    var schema = FlowSnapshotSchema(version: 2)
    // Release 1 stored these routes as `GuideTests.Reading`, and a book had no page.
    schema.renameRoute("GuideTests.Reading", to: ReadingRoute.self)
    schema.migrateRoutes(of: ReadingRoute.self, to: 2, from: Reading.self) { old in
        switch old {
        case .shelf: return ReadingRoute.shelf
        case .book(let id): return ReadingRoute.book(id: id, page: 1)
        }
    }
    return schema
}

/// Release 2 of the reading app: the same tree, its stack built from `ReadingRoute` routes.
final class ReleaseTwoFlow: FlowController, FlowRestorable {
    private(set) var reader: Reader?

    init() {
        super.init(name: "reading", route: "reading")
        let stack = FlowStack(name: "stack", route: "stack")
        stack.register(ReadingRoute.self) { route, _ in
            switch route {
            case .shelf: return FlowController(name: "shelf")
            case .book: return FlowController(name: "book")
            }
        }
        stack.initialRoute = FlowRoute(ReadingRoute.shelf)
        try? embed(stack)
    }

    override func shouldEnter() -> FlowGuardDecision {
        reader == nil ? .refuse("nobody is signed in") : .allow
    }

    func saveState() -> Reader? { reader }

    func restoreState(_ state: Reader) throws {
        reader = state
    }
}

@MainActor
func makeReleaseTwoApp() -> FlowSwitch {
    let app = FlowSwitch(name: "app")
    app.register("welcome") { FlowController(name: "welcome", route: "welcome") }
    app.register("reading") { ReleaseTwoFlow() }
    app.initialRoute = "welcome"
    return app
}

@MainActor
@Suite("Restoration guide: releases and the store")
struct RestorationReleaseGuideTests {
    /// What release 1 (the reading app) saves: book 7 over the shelf, signed in.
    static func releaseOneSnapshot() throws -> FlowSnapshot {
        let runtime = try FlowRuntime(root: makeReadingApp(reader: Reader(name: "ada")))
        try runtime.start()
        try runtime.navigate(to: [
            .child("reading"), .child("stack"), .child(Reading.shelf), .push(Reading.book(id: 7)),
        ])
        return try JSONDecoder().decode(
            FlowSnapshot.self, from: try JSONEncoder().encode(try runtime.snapshot()))
    }

    @Test("Release 2 reads release 1's snapshot through its schema: a rename and a migration")
    func releaseTwoReadsReleaseOne() throws {
        let snapshot = try Self.releaseOneSnapshot()
        #expect(snapshot.schema == nil)
        let restored = try FlowRuntime(root: makeReleaseTwoApp())
        restored.snapshotSchema = makeReadingSchema()
        let report = try restored.start(restoring: snapshot)  // saved by release 1
        print(restored.treeDescription())
        // * app
        //   * reading
        //     * stack
        //         shelf
        //       * book
        print(report.isComplete)  // true
        print(try restored.snapshot().schema!)  // 2
        #expect(
            restored.treeDescription()
                == "* app\n  * reading\n    * stack\n        shelf\n      * book")
        #expect(report.isComplete)
        let stack = try #require(restored.node(at: "app/reading/stack") as? FlowStack)
        #expect(stack.entries.last?.route == FlowRoute(ReadingRoute.book(id: 7, page: 1)))
        #expect(try restored.snapshot().schema == 2)
    }

    /// One launch of the reading app with the store, as the guide shows it.
    func launch(folder: URL) throws {
        let store = FlowSnapshotStore(directory: folder)
        let runtime = try FlowRuntime(root: makeReadingApp(reader: nil))
        switch try store.start(runtime, for: "main") {
        case .fresh:
            print("a fresh start")
        case .restored(let report):
            print("restored; left out: \(report.skipped)")
        case .quarantined(let quarantine):
            print("set aside: \(quarantine.reason)")
        }
        // Once the restored screen is shown (after `await transitions.settled()`):
        try store.markSettled(for: "main")
        // Whenever it suits the app: going to the background, after each change.
        try store.save(runtime, for: "main")
    }

    @Test("The store: a fresh start, a restored one, and one set aside after it never settled")
    func storeLaunches() throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("guide-store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = FlowSnapshotStore(directory: folder)
        try launch(folder: folder)  // fresh, then saved
        #expect(try store.load(for: "main") != nil)
        try launch(folder: folder)  // restored, settled, saved
        #expect(!store.isRestoring("main") && store.quarantined(for: "main").isEmpty)
        // A launch that restores and never settles (it crashed).
        let crashed = try FlowRuntime(root: makeReadingApp(reader: nil))
        #expect(try store.start(crashed, for: "main") != .fresh)
        #expect(store.isRestoring("main"))
        try launch(folder: folder)  // set aside, a fresh start
        let quarantined = store.quarantined(for: "main")
        #expect(quarantined.count == 1)
        #expect(
            try String(
                contentsOf: quarantined[0].deletingPathExtension().deletingPathExtension()
                    .appendingPathExtension("reason.txt"), encoding: .utf8)
                == FlowSnapshotStore.unsettledReason + "\n")
    }
}
