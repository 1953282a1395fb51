import FlowKit
import Foundation
import Synchronization
import Testing

/// A screen that converts itself (`FlowSnapshotValueConvertible`), counting its conversions.
enum ConvertingScreen: Codable, Hashable, Sendable, FlowSnapshotValueConvertible {
    case list
    case item(id: Int, title: String?)

    /// How many values were stored and read through the conversion.
    static let conversions = Mutex((stored: 0, read: 0))

    var snapshotValue: FlowSnapshotValue {
        Self.conversions.withLock { $0.stored += 1 }
        switch self {
        case .list: return .enumCase("list")
        case .item(let id, let title):
            var fields: [String: FlowSnapshotValue] = ["id": .int(Int64(id))]
            if let title { fields["title"] = .string(title) }
            return .enumCase("item", fields)
        }
    }

    init(snapshotValue value: FlowSnapshotValue) throws {
        Self.conversions.withLock { $0.read += 1 }
        guard let (name, fields) = value.enumCase else {
            throw value.typeMismatch(ConvertingScreen.self)
        }
        switch name {
        case "list": self = .list
        case "item":
            guard case .int(let id)? = fields["id"], let id = Int(exactly: id) else {
                throw value.typeMismatch(ConvertingScreen.self)
            }
            switch fields["title"] {
            case nil: self = .item(id: id, title: nil)
            case .string(let title)?: self = .item(id: id, title: title)
            case let other?: throw other.typeMismatch(String.self)
            }
        default: throw value.typeMismatch(ConvertingScreen.self)
        }
    }
}

/// The same screen through its synthesized `Codable` conformance alone.
enum CodableScreen: Codable, Hashable, Sendable {
    case list
    case item(id: Int, title: String?)
}

/// A screen whose conversion disagrees with its `Codable` form (it stores its id as a
/// string): the debug check stops a snapshot of it.
enum DisagreeingScreen: Codable, Hashable, Sendable, FlowSnapshotValueConvertible {
    case item(id: Int)

    var snapshotValue: FlowSnapshotValue {
        guard case .item(let id) = self else { return .null }
        return .object(["item": .object(["id": .string("\(id)")])])
    }

    init(snapshotValue value: FlowSnapshotValue) throws {
        self = try value.decode(Self.self)
    }
}

/// A screen whose conversion reads a stored value as another screen than its `Codable`
/// conformance does: the debug check stops a restoration of it.
enum MisreadingScreen: Codable, Hashable, Sendable, FlowSnapshotValueConvertible {
    case item(id: Int)

    var snapshotValue: FlowSnapshotValue {
        guard case .item(let id) = self else { return .null }
        return .object(["item": .object(["id": .int(Int64(id))])])
    }

    init(snapshotValue value: FlowSnapshotValue) throws {
        guard case .item(let id) = try value.decode(Self.self) else {
            throw value.typeMismatch(Self.self)
        }
        self = .item(id: id + 1)
    }
}

/// A stack of `Screen`s: a list, then items 1 to `items`.
@MainActor
func makeScreenStack<Screen: Codable & Hashable & Sendable>(
    _ type: Screen.Type, items: Int, list: Screen, item: (Int) -> Screen
) throws -> FlowStack {
    let stack = FlowStack(
        name: "stack", root: FlowController(name: "list", route: FlowRoute(list)))
    stack.register(Screen.self) { screen, _ in
        FlowController(name: screen == list ? "list" : "item")
    }
    for id in 0..<items {
        try stack.push(FlowController(name: "item", route: FlowRoute(item(id + 1))))
    }
    return stack
}

/// A stack of `Screen`s (see `makeScreenStack`) under a switch.
@MainActor
func makeScreenApp<Screen: Codable & Hashable & Sendable>(
    _ type: Screen.Type, items: Int, list: Screen, item: (Int) -> Screen
) throws -> (FlowSwitch, FlowStack) {
    let stack = try makeScreenStack(type, items: items, list: list, item: item)
    return (FlowSwitch(name: "app", initial: stack), stack)
}

@MainActor
@Suite("Restoration: route types that convert themselves (FlowSnapshotValueConvertible)")
struct RestorationConvertibleTests {
    func convertingApp(items: Int) throws -> (FlowSwitch, FlowStack) {
        try makeScreenApp(
            ConvertingScreen.self, items: items, list: .list,
            item: { .item(id: $0, title: $0.isMultiple(of: 2) ? "even \($0)" : nil) })
    }

    func codableApp(items: Int) throws -> (FlowSwitch, FlowStack) {
        try makeScreenApp(
            CodableScreen.self, items: items, list: .list,
            item: { .item(id: $0, title: $0.isMultiple(of: 2) ? "even \($0)" : nil) })
    }

    @Test(
        "Routes are stored and read through the conversion, and the snapshot is the one the Codable conformance makes"
    )
    func storedAndReadThroughTheConversion() throws {
        let (app, stack) = try convertingApp(items: 4)
        let runtime = try FlowRuntime(root: app)
        try runtime.start()
        let before = ConvertingScreen.conversions.withLock { $0 }
        let snapshot = try runtime.snapshot()
        // The list and four items, each stored once through `snapshotValue`.
        #expect(ConvertingScreen.conversions.withLock { $0.stored } - before.stored == 5)

        // The same tree with the Codable twin: the same values and the same JSON, but for the
        // type's name.
        let (twin, _) = try codableApp(items: 4)
        let twinRuntime = try FlowRuntime(root: twin)
        try twinRuntime.start()
        let twinJSON = String(decoding: try twinRuntime.snapshot().json(), as: UTF8.self)
        let json = String(decoding: snapshot.json(), as: UTF8.self)
        #expect(
            json.replacingOccurrences(of: "ConvertingScreen", with: "CodableScreen") == twinJSON)
        #expect(
            snapshot.root.children[0].children.map(\.route?.value)
                == [
                    .object(["list": .object([:])]),
                    .object(["item": .object(["id": .int(1)])]),
                    .object(["item": .object(["id": .int(2), "title": .string("even 2")])]),
                    .object(["item": .object(["id": .int(3)])]),
                    .object(["item": .object(["id": .int(4), "title": .string("even 4")])]),
                ])
        // FlowSnapshot.Route(_:) stores through the conversion too.
        let stored = ConvertingScreen.conversions.withLock { $0.stored }
        let route = try FlowSnapshot.Route(FlowRoute(ConvertingScreen.item(id: 9, title: "t")))
        #expect(ConvertingScreen.conversions.withLock { $0.stored } == stored + 1)
        #expect(route.value == .object(["item": .object(["id": .int(9), "title": .string("t")])]))

        // Restored from JSON into a fresh app: every entry read through `init(snapshotValue:)`.
        let read = ConvertingScreen.conversions.withLock { $0.read }
        let (fresh, freshStack) = try convertingApp(items: 0)
        let restored = try FlowRuntime(root: fresh)
        let report = try restored.start(restoring: try FlowSnapshot(json: snapshot.json()))
        #expect(report.skipped.isEmpty)
        #expect(freshStack.entries.map(\.route) == stack.entries.map(\.route))
        #expect(ConvertingScreen.conversions.withLock { $0.read } - read >= 4)
        #expect(restored.treeDescription() == runtime.treeDescription())
    }

    @Test("enumCase makes and reads the synthesized Codable form of an enum case, and nothing else")
    func enumCaseIsTheCodableForm() throws {
        for (screen, name, fields): (CodableScreen, String, [String: FlowSnapshotValue]) in [
            (.list, "list", [:]), (.item(id: 3, title: nil), "item", ["id": .int(3)]),
            (.item(id: 4, title: "t"), "item", ["id": .int(4), "title": .string("t")]),
        ] {
            let codable = try FlowSnapshotValue(encoding: screen)
            #expect(FlowSnapshotValue.enumCase(name, fields) == codable)
            let read = try #require(codable.enumCase)
            #expect(read.name == name && read.fields == fields)
        }
        for other: FlowSnapshotValue in [
            .string("list"), .object([:]), .object(["list": .null]),
            .object(["a": .object([:]), "b": .object([:])]), .array([.object([:])]),
        ] {
            #expect(other.enumCase == nil, "\(other)")
        }
    }

    @Test(
        "A stored value the conversion refuses leaves its entry and those above it out, with the conversion's error"
    )
    func refusedValueLeavesTheEntryOut() throws {
        let (app, _) = try convertingApp(items: 3)
        let runtime = try FlowRuntime(root: app)
        try runtime.start()
        var snapshot = try runtime.snapshot()
        // The second item's route holds a string: neither the conversion nor Codable reads it.
        snapshot.root.children[0].children[2].route?.value = .string("item 2")
        let (fresh, stack) = try convertingApp(items: 0)
        let restored = try FlowRuntime(root: fresh)
        let report = try restored.start(restoring: snapshot)
        #expect(
            stack.entries.map(\.route) == [
                FlowRoute(ConvertingScreen.list),
                FlowRoute(ConvertingScreen.item(id: 1, title: nil)),
            ])
        #expect(
            report.skipped == [
                .init(
                    path: "app/stack/item",
                    reason:
                        "its route does not decode as FlowKitTests.ConvertingScreen: "
                        + "expected ConvertingScreen, found a string"),
                .init(path: "app/stack/item", reason: "an entry below it was not restored"),
            ])
    }

    @Test(
        "A type renamed through the schema is read through its conversion, in a tab restored lazily on its first visit as eagerly"
    )
    func renamedTypeThroughTheConversion() throws {
        /// Two tabs, the second a stack of converting screens (items 1 to `items`).
        func tabsApp(items: Int) throws -> (FlowTabs, FlowStack) {
            let stack = try makeScreenStack(
                ConvertingScreen.self, items: items, list: .list,
                item: { .item(id: $0, title: $0.isMultiple(of: 2) ? "even \($0)" : nil) })
            let tabs = FlowTabs(
                name: "tabs", tabs: [FlowController(name: "home"), stack], selected: 0)
            return (tabs, stack)
        }
        for lazily in [false, true] {
            let (app, _) = try tabsApp(items: 2)
            let runtime = try FlowRuntime(root: app)
            try runtime.start()
            let json = String(decoding: try runtime.snapshot().json(), as: UTF8.self)
                .replacingOccurrences(of: "FlowKitTests.ConvertingScreen", with: "Old.Screen")
            #expect(json.contains("Old.Screen"))
            var schema = FlowSnapshotSchema(version: 1)
            schema.renameRoute("Old.Screen", to: ConvertingScreen.self)
            let (fresh, stack) = try tabsApp(items: 0)
            let restored = try FlowRuntime(root: fresh)
            restored.snapshotSchema = schema
            let read = ConvertingScreen.conversions.withLock { $0.read }
            let report = try restored.start(
                restoring: try FlowSnapshot(json: Array(json.utf8)), lazily: lazily)
            #expect(report.skipped.isEmpty)
            // Lazily, the stack's tab is built on its first visit.
            #expect(stack.entries.count == (lazily ? 0 : 3))
            try fresh.select(at: 1)
            #expect(stack.entries.count == 3, "lazily: \(lazily)")
            #expect(
                stack.entries.map(\.route)
                    == [
                        ConvertingScreen.list, .item(id: 1, title: nil),
                        .item(id: 2, title: "even 2"),
                    ]
                    .map { FlowRoute($0) })
            #expect(ConvertingScreen.conversions.withLock { $0.read } - read >= 2)
        }
    }

    #if DEBUG
    @Test("Debug builds stop a snapshot whose conversion disagrees with the Codable form")
    func disagreeingConversionTraps() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                let (app, _) = try! makeScreenApp(
                    DisagreeingScreen.self, items: 1, list: .item(id: 0),
                    item: { .item(id: $0) })
                let runtime = try! FlowRuntime(root: app)
                try! runtime.start()
                _ = try? runtime.snapshot()
            }
        }
    }

    @Test("Debug builds stop a restoration whose conversion reads another value than Codable")
    func misreadingConversionTraps() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                let (app, _) = try! makeScreenApp(
                    MisreadingScreen.self, items: 1, list: .item(id: 0),
                    item: { .item(id: $0) })
                let runtime = try! FlowRuntime(root: app)
                try! runtime.start()
                let snapshot = try! runtime.snapshot()
                let (fresh, _) = try! makeScreenApp(
                    MisreadingScreen.self, items: 0, list: .item(id: 0),
                    item: { .item(id: $0) })
                _ = try? FlowRuntime(root: fresh).start(restoring: snapshot)
            }
        }
    }
    #endif
}
