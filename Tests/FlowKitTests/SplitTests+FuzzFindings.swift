import FlowKit
import Testing

/// Split bugs the model-based random test found (Tests/FlowKitTests/ModelBased), each shrunk
/// to the operations that show it.
@Suite("Splits: found by the model-based random test")
@MainActor
struct SplitFuzzFindingsTests {
    @Test(
        "A root step at a split, or a reentering navigation from it, leaves its columns",
        .bug(id: "24.1", "a root step at a split or reentering it removed its columns"))
    func navigationCannotReplaceColumns() throws {
        let app = try SplitApp(focus: .detail)
        let columns = app.split.regions.map(ObjectIdentifier.init)
        app.split.register("other") { FlowController(name: "other") }
        app.reset()
        // The sidebar has the route: the root step used to keep it and remove the others.
        #expect(throws: FlowError.regionsAreFixed(container: "split")) {
            try app.split.navigate(to: [.root("sidebar")])
        }
        // A new node: the root step used to make it the split's only region.
        #expect(throws: FlowError.regionsAreFixed(container: "split")) {
            try app.split.navigate(to: [.root("other")])
        }
        // Reentering used to remove every column (a split without regions).
        #expect(throws: FlowError.regionsAreFixed(container: "split")) {
            try app.split.navigate(to: [FlowRoute](), reentering: true)
        }
        #expect(throws: FlowError.regionsAreFixed(container: "split")) {
            try app.split.navigate(to: ["detail"], reentering: true)
        }
        // A kept split given its history anew would lose its columns the same way.
        #expect(throws: FlowError.regionsAreFixed(container: "split")) {
            try app.runtime.navigate(to: [FlowRoute](), history: .shallow)
        }
        #expect(app.split.regions.map(ObjectIdentifier.init) == columns)
        #expect(app.journal.entries.isEmpty)
        #expect(app.host.changes.isEmpty)
        #expect(app.runtime.activationIsConsistent)
        // A root step into a column still replaces what it shows.
        try app.split.navigate(to: [.child("detail"), .root("item")])
        #expect(app.detail.entries.map(\.name) == ["item"])
    }

    @Test(
        "A node presented over a collapsed split, or dismissed, keeps the focused column",
        .bug(id: "24.2", "presenting over a collapsed split set its focus to the compact top"))
    func presentingKeepsTheFocus() throws {
        let app = try SplitApp(focus: .content, withDetail: false)
        // The detail shows nothing, so the content column is on top when collapsed.
        try app.split.platformDidCollapse()
        try app.split.focus(.sidebar)
        #expect(app.split.focusedColumn == .sidebar)
        #expect(app.split.focusedIndex == 1)
        try app.split.present(FlowController(name: "sheet"))
        #expect(app.split.focusedIndex == 1)
        try app.split.dismiss()
        #expect(app.split.focusedIndex == 1)
        #expect(app.split.focusedRegion === app.content)
        #expect(app.runtime.activationIsConsistent)
    }
}
