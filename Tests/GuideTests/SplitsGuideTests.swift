import FlowKit
import Testing

/// The code of Docs/Splits.md, verbatim, run in order.
@Suite("Guides: Splits.md")
@MainActor
struct SplitsGuideTests {
    @Test("Columns, selection, collapse and expand, as the guide shows them")
    func guide() throws {
        let sidebar = FlowStack(name: "sidebar", root: FlowController(name: "sections"))
        let list = FlowStack(name: "list", root: FlowController(name: "books"))
        let detail = FlowStack(name: "detail")  // nothing selected yet
        let split = FlowSplit(name: "split", sidebar: sidebar, content: list, detail: detail)
        let runtime = try FlowRuntime(root: split)
        try runtime.start()
        #expect(runtime.focusedPath.map(\.name) == ["split", "sidebar", "sections"])
        #expect(
            runtime.activeNodes.map(\.name) == [
                "split", "sidebar", "sections", "list", "books", "detail",
            ])

        try split.show(FlowController(name: "book-7"), in: .detail)
        #expect(detail.entries.map(\.name) == ["book-7"])
        try split.show([
            .content: FlowController(name: "poems"), .detail: FlowController(name: "poem-3"),
        ])
        #expect(list.entries.map(\.name) == ["poems"])
        #expect(detail.entries.map(\.name) == ["poem-3"])
        try split.focus(.detail)
        #expect(runtime.focusedNode?.name == "poem-3")

        try split.platformDidCollapse()
        #expect(split.compactStack.map(\.name) == ["sections", "poems", "poem-3"])
        #expect(runtime.activeNodes.map(\.name) == ["split", "detail", "poem-3"])
        try split.platformDidPopCompact(to: list.entries[0])
        #expect(detail.entries.isEmpty)
        #expect(split.focusedColumn == .content)
        try split.platformDidExpand()
        #expect(
            runtime.activeNodes.map(\.name) == [
                "split", "sidebar", "sections", "list", "poems", "detail",
            ])
    }
}
