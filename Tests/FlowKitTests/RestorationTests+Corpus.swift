import FlowKit
import Foundation
import Testing

@MainActor
@Suite("Restoration: corrupt and hostile snapshots")
struct RestorationCorpusTests {
    /// The valid document everything is made from, and its JSON-like value: format 1's long
    /// form, whose keys the edits below name (the compact form has its own corpus in
    /// RestorationTests+Size.swift).
    static func validDocument() throws -> (data: Data, value: FlowSnapshotValue) {
        let world = RestoreWorld()
        let runtime = try makeSavedApp(world: world)
        let data = try JSONEncoder().encode(LegacySnapshotDocument(try runtime.snapshot()))
        return (data, try JSONDecoder().decode(FlowSnapshotValue.self, from: data))
    }

    static func corpus() throws -> [HostileSnapshot] {
        let (data, value) = try validDocument()
        var cases: [HostileSnapshot] = []

        // Truncated at 40 offsets spread over the document, and other non-documents.
        for cut in stride(from: 0, to: data.count, by: max(1, data.count / 40)) {
            cases.append(
                .init(name: "truncated at \(cut)", data: data.prefix(cut), outcome: .decodingError))
        }
        cases.append(.init(name: "last byte cut", data: data.dropLast(), outcome: .decodingError))
        for text in ["[]", "null", "42", "\"snapshot\"", "{}", "{\"version\": 1}"] {
            cases.append(
                .init(name: "document \(text)", data: Data(text.utf8), outcome: .decodingError))
        }
        cases.append(
            .init(
                name: "invalid UTF-8", data: Data([0x7B, 0xFF, 0xFE, 0x7D]), outcome: .decodingError
            ))

        func edited(
            _ name: String, _ path: [ValueStep], _ outcome: HostileSnapshot.Outcome,
            routeTypes: [any (Codable & Hashable & Sendable).Type] = [LoginStep.self],
            _ body: (inout FlowSnapshotValue) -> Void
        ) throws -> HostileSnapshot {
            var copy = value
            copy.edit(path[...], body)
            return HostileSnapshot(
                name: name, data: try JSONEncoder().encode(copy), outcome: outcome,
                routeTypes: routeTypes)
        }
        func set(_ key: String, _ newValue: FlowSnapshotValue?) -> (inout FlowSnapshotValue) -> Void
        {
            { node in
                guard case .object(var items) = node else { return }
                items[key] = newValue
                node = .object(items)
            }
        }
        let snapshotError = HostileSnapshot.Outcome.snapshotError
        let decoding = HostileSnapshot.Outcome.decodingError

        cases += [
            // Versions.
            try edited("version as a string", [], decoding, set("version", .string("1"))),
            try edited(
                "version 3", [], snapshotError("unsupportedVersion"), set("version", .int(3))),
            try edited(
                "version 0", [], snapshotError("unsupportedVersion"), set("version", .int(0))),
            try edited(
                "version -1", [], snapshotError("unsupportedVersion"), set("version", .int(-1))),
            try edited("no version", [], decoding, set("version", nil)),
            // Wrong types and missing parts.
            try edited("no root", [], decoding, set("root", nil)),
            try edited("root is an array", [], decoding, set("root", .array([]))),
            try edited("name is a number", NodePath.root, decoding, set("name", .int(42))),
            try edited("kind is unknown", NodePath.main, decoding, set("kind", .string("bogus"))),
            try edited("kind is null", NodePath.main, decoding, set("kind", .null)),
            try edited(
                "children is an object", NodePath.main, decoding, set("children", .object([:]))),
            try edited(
                "children holds a string", NodePath.main, decoding,
                set("children", .array([.string("x")]))),
            try edited(
                "route is a string", NodePath.detail, decoding, set("route", .string("detail"))),
            try edited(
                "route type is a number", NodePath.detail + [.key("route")], decoding,
                set("type", .int(1))),
            try edited(
                "route without a value", NodePath.detail + [.key("route")], decoding,
                set("value", nil)),
            try edited(
                "selectedTab is a string", NodePath.tabs, decoding, set("selectedTab", .string("1"))
            ),
            try edited("history is an object", [], decoding, set("history", .object([:]))),
            try edited(
                "history path is null", [.key("history"), .index(0)], decoding, set("path", .null)),
            try edited("two presented nodes", NodePath.review, decoding) { review in
                guard case .object(let items) = review, let share = items["presented"] else {
                    return
                }
                set("presented", .array([share, share]))(&review)
            },
            // The root must fit the runtime's.
            try edited(
                "root renamed", NodePath.root, snapshotError("mismatch"),
                set("name", .string("other"))),
            try edited(
                "root is a stack", NodePath.root, snapshotError("mismatch"),
                set("kind", .string("stack"))),
            // Impossible shapes.
            try edited(
                "empty stack", NodePath.catalog, snapshotError("impossibleShape"),
                set("children", .array([]))),
            try edited(
                "stack without children", NodePath.catalog, snapshotError("impossibleShape"),
                set("children", nil)),
            try edited(
                "tab selection 3 of 3", NodePath.tabs, snapshotError("impossibleShape"),
                set("selectedTab", .int(3))),
            try edited(
                "tab selection -1", NodePath.tabs, snapshotError("impossibleShape"),
                set("selectedTab", .int(-1))),
            try edited(
                "tabs without a selection", NodePath.tabs, snapshotError("impossibleShape"),
                set("selectedTab", nil)),
            try edited(
                "a selection on a stack", NodePath.catalog, snapshotError("impossibleShape"),
                set("selectedTab", .int(0))),
            try edited(
                "a name with a slash", NodePath.detail, snapshotError("impossibleShape"),
                set("name", .string("de/tail"))),
            // A slash followed by a combining mark is one character, but still the separator's
            // byte: refused (a node's init would trap on it).
            try edited(
                "a name with a slash and a combining mark", NodePath.detail,
                snapshotError("impossibleShape"), set("name", .string("de/\u{301}tail"))),
            try edited(
                "an empty name", NodePath.search, snapshotError("impossibleShape"),
                set("name", .string(""))),
            try edited(
                "a switch with two children", NodePath.root, snapshotError("impossibleShape")
            ) { root in
                guard case .object(let items) = root, case .array(let children)? = items["children"]
                else { return }
                set("children", .array(children + children))(&root)
            },
            try edited("a flow with two children", NodePath.main, snapshotError("impossibleShape"))
            { main in
                guard case .object(let items) = main, case .array(let children)? = items["children"]
                else { return }
                set("children", .array(children + children))(&main)
            },
            try edited(
                "a stack of plain nodes as a node", NodePath.catalog,
                snapshotError("impossibleShape"), set("kind", .string("node"))),
            try edited(
                "detail is a switch", NodePath.detail, snapshotError("impossibleShape"),
                set("kind", .string("switch"))),
            try edited("duplicate history", [], snapshotError("impossibleShape")) { document in
                guard case .object(let items) = document,
                    case .array(let history)? = items["history"]
                else { return }
                set("history", .array(history + history))(&document)
            },
            // Routes. (A route type that is unknown or a value that does not decode costs its
            // node instead: RestorationMigrationTests.unreadableRoutesCostTheirNodes.)
            try edited(
                "a route no factory builds", NodePath.detail, snapshotError("buildFailed"),
                set(
                    "route",
                    .object(["type": .string("Swift.String"), "value": .string("nowhere")]))),
            try edited(
                "a sheet no factory builds", NodePath.share, snapshotError("buildFailed"),
                set("route", .object(["type": .string("Swift.Int"), "value": .int(3)]))),
            try edited(
                "a sheet of another kind", NodePath.share + [.key("route")],
                snapshotError("impossibleShape"), set("value", .object(["rate": .object([:])]))),
            // A node without a route where the app composes none is not an error: it is left
            // out and reported (RestorationTests.routelessPresentedNode).
            // Tabs must match the app's tabs.
            try edited(
                "a tab renamed", NodePath.search, snapshotError("mismatch"),
                set("name", .string("find"))),
            try edited(
                "a tab with another route", NodePath.search + [.key("route")],
                snapshotError("mismatch"), set("value", .string("find"))),
            try edited("a tab missing", NodePath.tabs, snapshotError("mismatch")) { tabs in
                guard case .object(let items) = tabs, case .array(let children)? = items["children"]
                else { return }
                set("children", .array(Array(children.dropLast())))(&tabs)
            },
            try edited("tabs reordered", NodePath.tabs, snapshotError("mismatch")) { tabs in
                guard case .object(let items) = tabs, case .array(let children)? = items["children"]
                else { return }
                set("children", .array(children.reversed()))(&tabs)
            },
            // Saved states.
            try edited(
                "search state is a number", NodePath.search, snapshotError("stateRejected"),
                set("state", .int(42))),
            try edited(
                "search state refused", NodePath.search, snapshotError("stateRejected"),
                set("state", .string("reject"))),
            try edited(
                "main state of another shape", NodePath.main, snapshotError("stateRejected"),
                set("state", .object(["user": .int(1)]))),
            try edited(
                "detail state is an array", NodePath.detail, snapshotError("stateRejected"),
                set("state", .array([]))),
            // Numbers JSON cannot hold as Swift values.
            HostileSnapshot(
                name: "a number too large",
                data: Data(
                    String(decoding: data, as: UTF8.self).replacingOccurrences(
                        of: "\"version\":1", with: "\"version\":1e400"
                    ).utf8),
                outcome: .anyTypedError),
        ]
        return cases
    }

    /// The two ways the tests build a fresh root: `app` with its login flow composed in
    /// init, or with an app-made `main` composed like the snapshot (reused, then restored
    /// back to its composition on failure).
    enum RootStyle: CaseIterable {
        case login, main
    }

    /// Restores `document` into a fresh runtime and checks the promises of a failed
    /// restoration: a typed error, the runtime not started, the root's composition as it
    /// was, everything built released, and a normal start afterwards.
    func checkRefused(_ document: HostileSnapshot, style: RootStyle) throws {
        let world = RestoreWorld()
        let main: MainFlow? = style == .main ? world.makeMain(session: nil) : nil
        let root = world.makeApp(initial: main ?? world.makeLogin())
        let runtime = try FlowRuntime(root: root)
        let composed = composition(of: root)
        let alive = world.bag.alive.sorted()

        var outcome: HostileSnapshot.Outcome?
        do {
            let snapshot =
                try document.snapshot
                ?? JSONDecoder().decode(FlowSnapshot.self, from: document.data)
            do {
                try runtime.start(restoring: snapshot, routeTypes: document.routeTypes)
                Issue.record("\(document): restored")
            } catch let error as FlowSnapshotError {
                outcome = .snapshotError(caseName(error))
            }
        } catch is DecodingError {
            outcome = .decodingError
        }
        switch document.outcome {
        case .anyTypedError:
            #expect(outcome != nil, "\(document)")
        default:
            #expect(outcome == document.outcome, "\(document)")
        }
        #expect(!runtime.isRunning, "\(document)")
        #expect(composition(of: root) == composed, "\(document)")
        #expect(world.bag.alive.sorted() == alive, "\(document): built nodes must be released")
        #expect(runtime.recordedHistory(at: "app/login") == nil, "\(document)")
        #expect(runtime.trace.records.isEmpty, "\(document)")

        main?.session = SavedSession(user: "bob")
        try runtime.start()
        #expect(runtime.isRunning)
        #expect(runtime.focusedNode?.isActive == true)
    }

    @Test("Every hostile document is a typed error that changes nothing (over 50 of them)")
    func corpusIsRefused() throws {
        let corpus = try Self.corpus()
        #expect(corpus.count >= 90)
        for document in corpus {
            for style in RootStyle.allCases {
                try checkRefused(document, style: style)
            }
        }
    }

    @Test("The valid document restores (the corpus's starting point is sound)")
    func validDocumentRestores() throws {
        let (data, _) = try Self.validDocument()
        for style in RootStyle.allCases {
            let world = RestoreWorld()
            let main: MainFlow? = style == .main ? world.makeMain(session: nil) : nil
            let runtime = try FlowRuntime(root: world.makeApp(initial: main ?? world.makeLogin()))
            let snapshot = try JSONDecoder().decode(FlowSnapshot.self, from: data)
            let report = try runtime.start(restoring: snapshot, routeTypes: [LoginStep.self])
            #expect(report.isComplete)
        }
    }

    @Test("A 100,000-level nesting document is refused without exhausting the stack")
    func deepNesting() throws {
        let depth = 100_000
        // Nodes nested through `children`.
        var nodes = #"{"version":1,"root":"#
        nodes += String(repeating: #"{"name":"n","kind":"node","children":["#, count: depth)
        nodes += String(repeating: "]}", count: depth) + "}"
        // A route value nested through arrays, and a saved state nested through objects.
        let arrays =
            #"{"version":1,"root":{"name":"app","kind":"switch","route":{"type":"Swift.Int","value":"#
            + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}}}"
        let objects =
            #"{"version":1,"root":{"name":"app","kind":"switch","state":"#
            + String(repeating: #"{"a":"#, count: depth) + "1"
            + String(repeating: "}", count: depth)
            + "}}"
        for (name, text) in [("nodes", nodes), ("arrays", arrays), ("objects", objects)] {
            try checkRefused(
                HostileSnapshot(
                    name: "100,000 nested \(name)", data: Data(text.utf8), outcome: .decodingError),
                style: .login)
        }
    }

    @Test("Nesting is refused by the snapshot types themselves, whichever decoder reads them")
    func nestingLimitWithoutJSON() throws {
        // A decoder with no nesting limit of its own (FlowKit's), on 2,000 nested nodes.
        var node = FlowSnapshotValue.object(["name": .string("leaf"), "kind": .string("node")])
        for _ in 0..<2_000 {
            node = .object([
                "name": .string("n"), "kind": .string("node"), "children": .array([node]),
            ])
        }
        let document = FlowSnapshotValue.object(["version": .int(1), "root": node])
        #expect(throws: DecodingError.self) { try document.decode(FlowSnapshot.self) }
    }

    @Test("Nodes 129 to 256 levels deep decode, and restoring them is tooDeep")
    func tooDeep() throws {
        var node = FlowSnapshot.Node(name: "leaf")
        for _ in 0..<200 { node = FlowSnapshot.Node(name: "n", children: [node]) }
        let snapshot = FlowSnapshot(
            root: FlowSnapshot.Node(name: "app", kind: .switch, children: [node]))
        let decoded = try jsonRoundTrip(snapshot)
        let world = RestoreWorld()
        let runtime = try FlowRuntime(root: world.makeApp())
        #expect(throws: FlowSnapshotError.tooDeep(limit: FlowSnapshot.maximumDepth)) {
            try runtime.start(restoring: decoded)
        }
        #expect(!runtime.isRunning)
    }

    @Test("Huge arrays are tooLarge before anything is built")
    func hugeArrays() throws {
        // A stack of 1,000,000 entries, made in memory.
        let entry = FlowSnapshot.Node(
            name: "detail", route: try FlowSnapshot.Route(FlowRoute(Shelf.detail(id: 1))))
        var snapshot = try makeSavedApp(world: RestoreWorld()).snapshot()
        snapshot.root.children[0].children[0].children[0].children =
            Array(repeating: entry, count: 1_000_000)
        let world = RestoreWorld()
        let runtime = try FlowRuntime(root: world.makeApp())
        #expect(throws: FlowSnapshotError.tooLarge(limit: FlowSnapshot.maximumNodeCount)) {
            try runtime.start(restoring: snapshot, routeTypes: [LoginStep.self])
        }
        #expect(world.bag.alive == ["app app"])
        #expect(world.guardCalls.isEmpty, "nothing was built or asked")

        // Through JSON: a list longer than the limit is refused as it is decoded, before its
        // elements are read. Lists within it that add up to more are tooLarge at restore.
        let marker = FlowSnapshot.Node(name: "MARKER")
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let markerText = String(decoding: try encoder.encode(marker), as: UTF8.self)
        var withMarker = snapshot
        withMarker.root.children[0].children[0].children[0].children = [marker]
        let text = String(
            decoding: try encoder.encode(LegacySnapshotDocument(withMarker)), as: UTF8.self)
        #expect(text.contains(markerText))
        let entryText = #"{"name":"e","kind":"node"}"#
        let entries = Array(repeating: entryText, count: 100_001).joined(separator: ",")
        try checkRefused(
            HostileSnapshot(
                name: "100,001 stack entries",
                data: Data(text.replacingOccurrences(of: markerText, with: entries).utf8),
                outcome: .decodingError),
            style: .login)
        let routeText = #"{"type":"Swift.String","value":"steps"}"#
        let routes = Array(repeating: routeText, count: 100_001).joined(separator: ",")
        let history = #"{"path":"app/login","routes":["# + routes + "]}"
        let (valid, _) = try Self.validDocument()
        var historyText = String(decoding: valid, as: UTF8.self)
        let historyStart = try #require(historyText.range(of: #""history":["#))
        historyText.insert(contentsOf: history + ",", at: historyStart.upperBound)
        try checkRefused(
            HostileSnapshot(
                name: "100,001 history routes", data: Data(historyText.utf8),
                outcome: .decodingError),
            style: .login)

        var split = snapshot
        let plain = FlowSnapshot.Node(name: "e")
        split.root.children[0].children[0].children[0].children =
            Array(repeating: plain, count: 50_001)
        split.root.children[0].children[0].children[0].children[0].presented =
            FlowSnapshot.Node(
                name: "sheet", kind: .stack, children: Array(repeating: plain, count: 50_001))
        try checkRefused(
            HostileSnapshot(
                name: "two lists of 50,001", data: Data(), outcome: .snapshotError("tooLarge"),
                snapshot: split),
            style: .login)
    }
}
