import FlowKit
import Foundation
import Testing

@testable import FlowDemo

/// `flowdemo --state FILE` across an update: a state file written by another release of the
/// demo, with routes this one does not have, restores the rest and says what was left out.
@MainActor
@Suite("State file across an update")
struct StateFileUpdateTests {
    /// The reviews screen of a simulated earlier release of the demo, pushed above a book's
    /// detail: its route type (`FlowDemo.ReviewRoute`) is gone from this release.
    enum ReviewRoute: Codable, Hashable, Sendable {
        case reviews(bookID: Int)
    }

    /// The line Docs/Demo.md shows for the simulated update.
    static let droppedLine =
        "Not restored: app/main/tabs/catalog/book/reviews: its route type FlowDemo.ReviewRoute is "
        + "unknown."

    /// A state file as the earlier release would have written it after `login alice
    /// wonderland`, `select 10` and `reviews`: this release's file with the reviews screen
    /// pushed on the book column.
    static func earlierReleaseFile() async throws -> DemoStateFile {
        let file = try StateFileTests.temporaryStateFile()
        try await StateFileTests.save(["login alice wonderland", "select 10"], in: file)
        var snapshot = try JSONDecoder().decode(
            FlowSnapshot.self, from: try Data(contentsOf: file.url))
        let book = snapshot.root.children[0].children[0].children[0].children[1]
        #expect(book.name == "book" && book.children.map(\.name) == ["detail"])
        snapshot.root.children[0].children[0].children[0].children[1].children.append(
            FlowSnapshot.Node(
                name: "reviews",
                route: FlowSnapshot.Route(
                    type: "FlowDemo.ReviewRoute",
                    value: try FlowSnapshotValue(encoding: ReviewRoute.reviews(bookID: 10)))))
        try DemoStateFile.encode(snapshot).write(to: file.url)
        return file
    }

    @Test("A file of an earlier release with a screen this one lacks restores the rest and says so")
    func screenOfAnEarlierRelease() async throws {
        let file = try await Self.earlierReleaseFile()
        let app = try StateFileTests.makeApp(file: file)
        let start = await app.start()
        #expect(
            Array(start.prefix(4)) == [
                "FlowKit demo: the app is a tree of FlowControllers. Type 'help' for help.",
                "Restored the state saved in \(file.path): Alice is signed in.",
                Self.droppedLine,
                "",
            ])
        #expect(app.prompt == "app/main/tabs/catalog/book/detail> ")
        #expect(app.runtime.trace.lines.contains { $0.hasPrefix("not restored ") })
        // Quitting saves this release's state, without the screen that is gone.
        _ = await app.run("quit")
        #expect(app.liveNodes.alive == 0)
        let saved = try String(contentsOf: file.url, encoding: .utf8)
        #expect(!saved.contains("ReviewRoute") && saved.contains("\"detail\""))
        let again = try StateFileTests.makeApp(file: file)
        #expect(Array(await again.start().prefix(3))[2] == "")
        _ = await again.run("quit")
    }

    @Test("Docs/Demo.md shows the simulated update as the demo prints it")
    func guideShowsTheUpdate() throws {
        let guide = try String(contentsOf: DemoTranscriptTests.demoGuide, encoding: .utf8)
        #expect(guide.contains("\n" + Self.droppedLine + "\n"))
    }
}
