// The code of Docs/Restoration.md. GuideCodeBlockTests checks that every ```swift block of the
// page appears here verbatim: change the page and this file together.

import FlowKit
import Foundation
import Testing

enum Reading: Codable, Hashable, Sendable {
    case shelf
    case book(id: Int)
}

struct Reader: Codable, Sendable, Equatable {
    let name: String
}

final class ReadingFlow: FlowController, FlowRestorable {
    private(set) var reader: Reader?

    init(reader: Reader?) {
        self.reader = reader
        super.init(name: "reading", route: "reading")
        let stack = FlowStack(name: "stack", route: "stack")
        stack.register(Reading.self) { reading, _ in
            switch reading {
            case .shelf: return FlowController(name: "shelf")
            case .book: return FlowController(name: "book")
            }
        }
        stack.initialRoute = FlowRoute(Reading.shelf)
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
func makeReadingApp(reader: Reader?) -> FlowSwitch {
    let app = FlowSwitch(name: "app")
    app.register("welcome") { FlowController(name: "welcome", route: "welcome") }
    app.register("reading") { ReadingFlow(reader: reader) }
    app.initialRoute = "welcome"
    return app
}

@MainActor
@Suite("Restoration guide")
struct RestorationGuideTests {
    @Test("Save, restore into a new runtime, and fall back to a fresh start")
    func restorationWalkthrough() throws {
        let runtime = try FlowRuntime(root: makeReadingApp(reader: Reader(name: "ada")))
        try runtime.start()
        try runtime.navigate(to: [
            .child("reading"), .child("stack"), .child(Reading.shelf), .push(Reading.book(id: 7)),
        ])
        let data = try JSONEncoder().encode(try runtime.snapshot())

        let snapshot = try JSONDecoder().decode(FlowSnapshot.self, from: data)
        let restored = try FlowRuntime(root: makeReadingApp(reader: nil))
        let report = try restored.start(restoring: snapshot)
        print(restored.treeDescription())
        // * app
        //   * reading
        //     * stack
        //         shelf
        //       * book
        print(report.isComplete)  // true
        #expect(restored.treeDescription() == runtime.treeDescription())
        #expect(report.isComplete)
        let reading = try #require(restored.node(at: "app/reading") as? ReadingFlow)
        #expect(reading.reader == Reader(name: "ada"))

        let fresh = try FlowRuntime(root: makeReadingApp(reader: nil))
        var damaged = snapshot
        damaged.version = 99
        do {
            try fresh.start(restoring: damaged)
        } catch let error as FlowSnapshotError {
            print(error)  // the snapshot has format version 99; this FlowKit reads versions 1 to 2
            try fresh.start()  // nothing changed: a fresh start
        }
        #expect(fresh.focusedNode?.path == "app/welcome")
        #expect(
            FlowSnapshotError.unsupportedVersion(found: 99, supported: 2).description
                == "the snapshot has format version 99; this FlowKit reads versions 1 to 2")
    }

    @Test("A guard that refuses leaves its node out and the report says so")
    func refusedNodeIsReported() throws {
        let runtime = try FlowRuntime(root: makeReadingApp(reader: Reader(name: "ada")))
        try runtime.start()
        try runtime.navigate(to: [.child("reading")])
        var snapshot = try runtime.snapshot()
        snapshot.root.children[0].state = nil  // no saved reader: the guard refuses

        let restored = try FlowRuntime(root: makeReadingApp(reader: nil))
        let report = try restored.start(restoring: snapshot)
        for skipped in report.skipped {
            print(skipped)  // app/reading: nobody is signed in
        }
        print(restored.focusedNode!.path)  // app/welcome
        #expect(report.skipped.map(\.description) == ["app/reading: nobody is signed in"])
        #expect(restored.focusedNode?.path == "app/welcome")
    }

    @Test("FlowRoute is Codable with the route types in the decoder's userInfo")
    func codableRoutes() throws {
        let data = try JSONEncoder().encode(FlowRoute(Reading.book(id: 7)))
        let decoder = JSONDecoder()
        decoder.userInfo[FlowRoute.codableTypesKey] = [Reading.self]
        let route = try decoder.decode(FlowRoute.self, from: data)
        print(route)  // book(id: 7)
        #expect(route == FlowRoute(Reading.book(id: 7)))
    }
}
