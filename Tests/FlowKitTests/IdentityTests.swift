import FlowKit
import Testing

@Suite("Identity")
@MainActor
struct IdentityTests {
    @Test("Every node has its own identity; the runtime finds live nodes by it")
    func uniqueIdentities() throws {
        let app = try TabbedApp()
        let nodes = [app.tabs, app.catalog, app.favourites, app.profile] + app.catalog.entries
        #expect(Set(nodes.map(\.id)).count == nodes.count)
        #expect(app.runtime.node(id: app.profile.id) === app.profile)
        let detail = FlowController(name: "detail")
        #expect(app.runtime.node(id: detail.id) == nil)
        try app.catalog.push(detail)
        #expect(app.runtime.node(id: detail.id) === detail)
        try app.catalog.pop()
        #expect(app.runtime.node(id: detail.id) == nil)
    }

    @Test("Two same-named stack entries are told apart by identity in FlowChange")
    func sameNamedEntries() throws {
        let app = try TabbedApp()
        let first = FlowController(name: "detail")
        let second = FlowController(name: "detail")
        try app.catalog.push(first)
        try app.catalog.push(second)
        try app.catalog.pop()
        let changes = app.host.changes
        #expect(changes.map(\.description)[1] == changes.map(\.description)[0])  // same paths
        #expect(changes[0].enteredIDs == [first.id])
        #expect(changes[1].enteredIDs == [second.id])
        #expect(changes[2].exitedIDs == [second.id])
        #expect(changes[2].containerID == app.catalog.id)
        #expect(
            changes[2].identifiedDescription
                == "pop app/catalog\(app.catalog.id) -app/catalog/detail\(second.id)")
        #expect(changes[0] != changes[1])
        #expect(
            FlowChange(
                kind: .push, container: "app/catalog", exited: [], entered: ["app/catalog/detail"]
            ).matches(changes[0]))
    }

    @Test("treeDescription can show identities")
    func treeWithIdentities() throws {
        let app = try TabbedApp()
        let lines = app.runtime.treeDescription(showingIdentities: true).split(separator: "\n")
        #expect(lines.first == "* app \(app.tabs.id)")
        #expect(lines.contains { $0.hasSuffix("profile \(app.profile.id)") })
        #expect(!app.runtime.treeDescription().contains("#"))
    }
}
