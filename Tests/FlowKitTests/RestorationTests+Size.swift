import FlowKit
import Foundation
import Testing

/// The fixture app's snapshot as FlowKit wrote it before format 2 (format 1's long form,
/// `JSONEncoder` with sorted keys and unescaped slashes).
private let formatOneDocument = #"""
    {"history":[{"path":"app/login","routes":[{"type":"Swift.String","value":"steps"},{"type":"FlowKitTests.LoginStep","value":{"password":{}}}]}],"root":{"children":[{"children":[{"children":[{"children":[{"kind":"node","name":"list","route":{"type":"FlowKitTests.Shelf","value":{"list":{}}}},{"kind":"node","name":"detail","route":{"type":"FlowKitTests.Shelf","value":{"detail":{"id":1}}},"state":120},{"kind":"node","name":"detail","route":{"type":"FlowKitTests.Shelf","value":{"detail":{"id":2}}},"state":40},{"kind":"node","name":"review","presented":{"kind":"node","name":"share","route":{"type":"FlowKitTests.Sheet","value":{"share":{"id":2}}}},"route":{"type":"FlowKitTests.Shelf","value":{"review":{"id":2,"stars":5}}}}],"kind":"stack","name":"catalog","route":{"type":"Swift.String","value":"catalog"}},{"kind":"node","name":"search","route":{"type":"Swift.String","value":"search"},"state":"dune"},{"kind":"node","name":"profile","route":{"type":"Swift.String","value":"profile"}}],"kind":"tabs","name":"tabs","route":{"type":"Swift.String","value":"tabs"},"selectedTab":1}],"kind":"node","name":"main","route":{"type":"Swift.String","value":"main"},"state":{"user":"alice"}}],"kind":"switch","name":"app"},"version":1}
    """#

/// A shop in four tabs, each a stack of screens from one enum family, as the launch
/// benchmark builds it (Benchmarks/Sources/flowkit-bench/LaunchBenchmarks.swift).
enum ShopScreen: Codable, Hashable, Sendable {
    case list
    case item(id: Int)
}

@MainActor
func makeTabbedShop(entriesPerTab: Int = 0) -> FlowTabs {
    let tabs = (0..<4).map { index in
        let stack = FlowStack(
            name: "tab\(index)", route: FlowRoute("tab\(index)"),
            root: FlowController(name: "list", route: FlowRoute(ShopScreen.list)))
        stack.register(ShopScreen.self) { screen, _ in
            switch screen {
            case .list: return FlowController(name: "list", route: FlowRoute(screen))
            case .item: return FlowController(name: "item", route: FlowRoute(screen))
            }
        }
        for id in 0..<entriesPerTab {
            try? stack.push(
                FlowController(
                    name: "item", route: FlowRoute(ShopScreen.item(id: index * 100_000 + id))))
        }
        return stack as FlowController
    }
    return FlowTabs(name: "shop", tabs: tabs, selected: 1)
}

@MainActor
@Suite("Restoration: the compact form and its size")
struct RestorationSizeTests {
    @Test("A snapshot encodes in the compact form: short keys, each route type named once")
    func compactForm() throws {
        let snapshot = try makeSavedApp(world: RestoreWorld()).snapshot()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let text = String(decoding: try encoder.encode(snapshot), as: UTF8.self)
        #expect(
            text
                == #"{"h":[{"p":"app/login","r":[{"r":"steps","y":0},{"r":{"password":{}},"y":3}]}],"#
                + #""r":{"c":[{"c":[{"c":[{"c":[{"n":"list","r":{"list":{}},"y":1},"#
                + #"{"n":"detail","r":{"detail":{"id":1}},"s":120},{"r":{"detail":{"id":2}},"s":40},"#
                + #"{"n":"review","p":{"n":"share","r":{"share":{"id":2}},"y":2},"#
                + #""r":{"review":{"id":2,"stars":5}}}],"k":"stack","n":"catalog","r":"catalog"},"#
                + #"{"n":"search","r":"search","s":"dune"},{"n":"profile","r":"profile"}],"#
                + #""i":1,"k":"tabs","n":"tabs","r":"tabs"}],"n":"main","r":"main","#
                + #""s":{"user":"alice"}}],"k":"switch","n":"app"},"#
                + #""t":["Swift.String","FlowKitTests.Shelf","FlowKitTests.Sheet","#
                + #""FlowKitTests.LoginStep"],"v":2}"#)
        #expect(try jsonRoundTrip(snapshot) == snapshot)
    }

    @Test("A format 1 document written by the previous release decodes and restores the same")
    func formatOneStillRestores() throws {
        let old = try JSONDecoder().decode(FlowSnapshot.self, from: Data(formatOneDocument.utf8))
        let current = try makeSavedApp(world: RestoreWorld()).snapshot()
        #expect(old.version == 1)
        #expect(old.root == current.root && old.history == current.history)

        let restored = try FlowRuntime(root: RestoreWorld().makeApp())
        let report = try restored.start(restoring: old, routeTypes: [LoginStep.self])
        #expect(report.isComplete && report.restoredCount == 11)
        #expect(try restored.snapshot() == current)
        // Saved again, it is format 2, and half the size.
        let compact = try JSONEncoder().encode(try restored.snapshot())
        #expect(compact.count * 2 <= formatOneDocument.utf8.count + 60)
    }

    @Test("Every snapshot value survives the compact form, defaults and missing values alike")
    func everyValueSurvives() throws {
        func route(_ value: some Codable & Hashable & Sendable) throws -> FlowSnapshot.Route {
            try FlowSnapshot.Route(FlowRoute(value))
        }
        let leaf = FlowSnapshot.Node(name: "leaf")
        var snapshot = FlowSnapshot(
            root: FlowSnapshot.Node(
                name: "root", kind: .switch,
                children: [
                    FlowSnapshot.Node(
                        name: "tabs", kind: .tabs,
                        children: [
                            FlowSnapshot.Node(name: "a", kind: .tabs, selectedTab: nil),
                            FlowSnapshot.Node(name: "a", kind: .tabs, selectedTab: 0),
                            FlowSnapshot.Node(name: "b", kind: .tabs, selectedTab: 2),
                            FlowSnapshot.Node(name: "p", kind: .parallel, focusedRegion: nil),
                            FlowSnapshot.Node(name: "p", kind: .parallel, focusedRegion: 0),
                            FlowSnapshot.Node(
                                name: "s", kind: .split, focusedRegion: 1, collapsed: false,
                                preferredColumn: .content),
                            FlowSnapshot.Node(name: "n", selectedTab: 0, focusedRegion: 0),
                            FlowSnapshot.Node(name: "r", route: try route(ShopScreen.list)),
                            FlowSnapshot.Node(name: "r", route: try route(7)),
                            FlowSnapshot.Node(name: "r"),
                            FlowSnapshot.Node(name: "r", route: try route(8)),
                            FlowSnapshot.Node(name: "r", route: try route(ShopScreen.item(id: 1))),
                            FlowSnapshot.Node(
                                name: "x", route: try route(true), children: [leaf, leaf],
                                presented: FlowSnapshot.Node(name: "x", route: try route(2.5)),
                                state: .array([.null, .string("s"), .object([:])])),
                        ], selectedTab: 4)
                ]),
            history: [FlowSnapshot.HistoryEntry(path: "root/x", routes: [try route("h")])])
        snapshot.dropped = [.init(path: "root/gone"), .init(path: "root/tabs/x", count: 3)]
        #expect(try jsonRoundTrip(snapshot) == snapshot)
    }

    @Test(
        "A damaged compact document is a DecodingError",
        arguments: [
            #"{"v":2,"t":[],"r":{}}"#,  // a root without a name
            #"{"v":2,"t":[],"r":{"n":"a","c":[{}]}}"#,  // a first child without a name
            #"{"v":2,"t":["Swift.Int"],"r":{"n":"a","y":1,"r":3}}"#,  // no type 1
            #"{"v":2,"t":["Swift.Int"],"r":{"n":"a","y":-1,"r":3}}"#,
            #"{"v":2,"t":["Swift.Int"],"r":{"n":"a","r":"3"}}"#,  // not an Int
            #"{"v":2,"t":[],"r":{"n":"a","k":"bogus"}}"#,
            #"{"v":2,"t":[],"r":{"n":"a","i":"1"}}"#,
            #"{"v":2,"t":[],"r":{"n":"a"},"h":[{"p":"a","r":[{"r":1}]}]}"#,  // no type index
            #"{"v":"2","t":[],"r":{"n":"a"}}"#,
            #"{"v":2,"t":[],"r":[]}"#,
        ])
    func damagedCompactDocument(_ text: String) {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(FlowSnapshot.self, from: Data(text.utf8))
        }
    }

    @Test("100,000 nested compact nodes are refused without exhausting the stack")
    func deepCompactNesting() {
        let depth = 100_000
        let text =
            #"{"v":2,"t":[],"r":"# + String(repeating: #"{"n":"n","c":["#, count: depth)
            + String(repeating: "]}", count: depth) + "}"
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(FlowSnapshot.self, from: Data(text.utf8))
        }
    }

    @Test("The shop takes at most 40 bytes of JSON per node (format 1 took about 90)")
    func bytesPerNode() throws {
        let runtime = try FlowRuntime(root: makeTabbedShop(entriesPerTab: 124))
        try runtime.start()
        let snapshot = try runtime.snapshot()
        let nodes = 1 + 4 * 126
        #expect(nodes == 505)
        let compact = try JSONEncoder().encode(snapshot).count
        let long = try JSONEncoder().encode(LegacySnapshotDocument(snapshot)).count
        #expect(compact <= 40 * nodes, "\(compact / nodes) bytes per node")
        #expect(long >= 80 * nodes, "format 1: \(long / nodes) bytes per node")
    }

    // MARK: The size budget

    /// The shop, running, with `entries` items pushed on each tab and a sheet (a stack of
    /// four) presented by the top entry of the last tab.
    static func runningShop(entries: Int) throws -> FlowRuntime {
        let shop = makeTabbedShop(entriesPerTab: entries)
        let last = try #require(shop.tabs.last?.children.last)
        let runtime = try FlowRuntime(root: shop)
        try runtime.start()
        let sheet = FlowStack(name: "sheet", route: "sheet", root: FlowController(name: "form"))
        for _ in 0..<3 { try sheet.push(FlowController(name: "field")) }
        try last.present(sheet)
        return runtime
    }

    @Test("encodedSize is the size of the compact JSON JSONEncoder writes")
    func encodedSizeIsExact() throws {
        let saved = try makeSavedApp(world: RestoreWorld()).snapshot()
        let shop = try Self.runningShop(entries: 3).snapshot()
        var odd = FlowSnapshot(
            root: FlowSnapshot.Node(
                name: "a/\"b\u{1}é", kind: .split,
                route: try FlowSnapshot.Route(FlowRoute(2.5)),
                children: [FlowSnapshot.Node(name: "c", kind: .tabs, selectedTab: nil)],
                state: .object(["k": .array([.null, .bool(false), .int(-12)])]),
                focusedRegion: 2, collapsed: true, preferredColumn: .detail))
        odd.dropped = [.init(path: "x/y", count: 12), .init(path: "z")]
        for snapshot in [saved, shop, shop.trimmed(toFit: 300), odd] {
            #expect(snapshot.encodedSize == (try JSONEncoder().encode(snapshot).count))
        }
    }

    @Test("Over budget, a snapshot drops the farthest branches first, restores, and reports")
    func budgetDropsFarthestFirst() throws {
        let runtime = try Self.runningShop(entries: 3)
        let full = try runtime.snapshot()
        // The farthest branch: the sheet over tab 3's top entry (3 levels off the path).
        let noSheet = try runtime.snapshot(budget: full.encodedSize - 1)
        #expect(noSheet.dropped == [.init(path: "shop/tab3/item/sheet")])
        #expect(noSheet.encodedSize <= full.encodedSize - 1)
        // Then the entries of the tabs not shown, from the top, the last tab first; never
        // the bottom entry, never the selected tab's covered entries.
        let small = try runtime.snapshot(budget: noSheet.encodedSize - 60)
        #expect(small.encodedSize <= noSheet.encodedSize - 60)
        #expect(small.dropped.map(\.description) == ["shop/tab3/item and the 2 entries above it"])
        let smallest = full.trimmed(toFit: 0)
        #expect(
            smallest.dropped.map(\.description) == [
                "shop/tab3/item and the 2 entries above it",
                "shop/tab2/item and the 2 entries above it",
                "shop/tab0/item and the 2 entries above it",
            ])
        #expect(smallest.root.children.map(\.children.count) == [1, 4, 1, 1])
        #expect(smallest.trimmed(toFit: 0) == smallest)
        #expect(try jsonRoundTrip(smallest) == smallest)

        // Restoring it restores the rest, and reports what was left out.
        let restored = try FlowRuntime(root: makeTabbedShop())
        let report = try restored.start(restoring: try jsonRoundTrip(small))
        #expect(
            report.skipped.map(\.description) == [
                "shop/tab3/item: left out of the snapshot to fit its size budget, with the 2 "
                    + "entries above it"
            ])
        #expect(report.restoredCount == 1 + 4 + 3 * 4 + 1)
        let tabs = try #require(restored.root as? FlowTabs)
        #expect(tabs.tabs.map(\.children.count) == [4, 4, 4, 1])
        #expect(restored.focusedNode?.route == FlowRoute(ShopScreen.item(id: 100_002)))
        let notRestored = restored.trace.records.filter {
            if case .notRestored = $0 { return true }
            return false
        }
        #expect(notRestored.count == 1)
    }

    // MARK: FlowKit's own JSON

    @Test("FlowKit's own JSON writes what JSONEncoder writes, and reads what JSONDecoder reads")
    func ownJSON() throws {
        let saved = try makeSavedApp(world: RestoreWorld()).snapshot()
        let shop = try Self.runningShop(entries: 3).snapshot()
        var odd = FlowSnapshot(
            root: FlowSnapshot.Node(
                name: "a/\"b\u{1}é\u{1F600}", kind: .split,
                route: try FlowSnapshot.Route(FlowRoute(2.5)),
                children: [FlowSnapshot.Node(name: "c", kind: .tabs, selectedTab: nil)],
                state: .object(["k": .array([.null, .bool(false), .int(-12), .double(0.25)])]),
                focusedRegion: 2, collapsed: true, preferredColumn: .detail),
            history: [.init(path: "a/b", routes: [try FlowSnapshot.Route(FlowRoute("x"))])])
        odd.dropped = [.init(path: "x/y", count: 12), .init(path: "z")]
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        for snapshot in [saved, shop, shop.trimmed(toFit: 300), odd] {
            let own = snapshot.json()
            #expect(own.count == snapshot.encodedSize)
            #expect(try JSONDecoder().decode(FlowSnapshot.self, from: Data(own)) == snapshot)
            #expect(try FlowSnapshot(json: own) == snapshot)
            #expect(try FlowSnapshot(json: Array(try encoder.encode(snapshot))) == snapshot)
        }
        let old = try FlowSnapshot(json: Array(formatOneDocument.utf8))
        #expect(old.version == 1 && old.root == saved.root && old.history == saved.history)
    }

    @Test(
        "Every corrupt or hostile document: FlowKit's JSON gives JSONDecoder's snapshot or a DecodingError"
    )
    func ownJSONOnTheCorpus() throws {
        var documents = try RestorationCorpusTests.corpus().map(\.data)
        let compact = try JSONEncoder().encode(try makeSavedApp(world: RestoreWorld()).snapshot())
        for cut in 0..<compact.count { documents.append(compact.prefix(cut)) }
        documents += [
            #"{"v":2,"t":[],"r":{}}"#, #"{"v":2,"t":["Swift.Int"],"r":{"n":"a","y":1,"r":3}}"#,
            #"{"v":2,"t":["Swift.Int"],"r":{"n":"a","r":"3"}}"#, #"{"v":2,"t":[],"r":[]}"#,
            #"{"v":2,"t":[],"r":{"n":"a"}} x"#, #"{"v":2,"t":[],"r":{"n":"\ud800"}}"#,
            #"{"v":2,"t":[],"r":{"n":"a","i":1e400}}"#, #"[01]"#, #"{"a":tru}"#, "\u{FEFF}{}",
            #"{"version":1,"version":2,"root":{"name":"a","kind":"node","name":"b"}}"#,
            #"{"v":2,"t":["S.T"],"r":{"n":"a","r":{"k":1,"k":2}},"r":{"n":"b"}}"#,
        ].map { Data($0.utf8) }
        documents.append(Data([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D]))
        let depth = 100_000
        documents.append(
            Data(
                (#"{"v":2,"t":[],"r":"# + String(repeating: #"{"n":"n","c":["#, count: depth)
                    + String(repeating: "]}", count: depth) + "}").utf8))
        documents.append(Data((String(repeating: "[", count: depth) + "]").utf8))
        for document in documents {
            let foundation = try? JSONDecoder().decode(FlowSnapshot.self, from: document)
            do {
                let own = try FlowSnapshot(json: Array(document))
                #expect(
                    own == foundation, "\(String(decoding: document.prefix(200), as: UTF8.self))")
            } catch is DecodingError {
            } catch {
                Issue.record("not a DecodingError: \(error)")
            }
        }
    }
}
