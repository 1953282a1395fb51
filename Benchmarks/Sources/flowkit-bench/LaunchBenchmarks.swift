import FlowKit
import Foundation

/// The app sizes (nodes) the launch cases run at.
let launchSizes = [500, 10_000]

/// Bytes of JSON per node of the launch app, compact (format 2) and long (format 1), by size.
@MainActor var launchBytesPerNode: [Int: (compact: Double, long: Double)] = [:]

/// The launch app's screens: one enum family, as an app's routes usually are, stored through
/// its own conversion (`FlowSnapshotValueConvertible`, written as Docs/Restoration.md shows).
enum LaunchScreen: Codable, Hashable, Sendable, FlowSnapshotValueConvertible, LaunchRoute {
    case list
    case item(id: Int)

    var snapshotValue: FlowSnapshotValue {
        switch self {
        case .list: return .enumCase("list")
        case .item(let id): return .enumCase("item", ["id": .int(Int64(id))])
        }
    }

    init(snapshotValue value: FlowSnapshotValue) throws {
        guard let (name, fields) = value.enumCase else {
            throw value.typeMismatch(LaunchScreen.self)
        }
        switch name {
        case "list": self = .list
        case "item":
            guard case .int(let id)? = fields["id"], let id = Int(exactly: id) else {
                throw value.typeMismatch(LaunchScreen.self)
            }
            self = .item(id: id)
        default: throw value.typeMismatch(LaunchScreen.self)
        }
    }
}

/// The same screens stored through their synthesized `Codable` conformance alone: what an
/// enum route costs without the conversion.
enum LaunchScreenCodable: Codable, Hashable, Sendable, LaunchRoute {
    case list
    case item(id: Int)
}

/// A launch app's screen type: its two cases.
protocol LaunchRoute: Codable, Hashable, Sendable {
    static var list: Self { get }
    static func item(id: Int) -> Self
    var isList: Bool { get }
}

extension LaunchScreen {
    var isList: Bool { self == .list }
}

extension LaunchScreenCodable {
    var isList: Bool { self == .list }
}

/// The launch app: four tabs, each a stack of `Screen`s built by one family, the second
/// selected. With `entries` items per tab it has 1 + 4 × (2 + entries) nodes.
@MainActor
func makeLaunchApp<Screen: LaunchRoute>(
    entries: Int = 0, screens: Screen.Type = LaunchScreen.self
) throws -> FlowTabs {
    var tabs: [FlowController] = []
    for index in 0..<4 {
        let stack = FlowStack(
            name: "tab\(index)", route: FlowRoute("tab\(index)"),
            root: FlowController(name: "list", route: FlowRoute(Screen.list)))
        stack.register(Screen.self) { screen, _ in
            FlowController(name: screen.isList ? "list" : "item")
        }
        for id in 0..<entries {
            try stack.push(
                FlowController(name: "item", route: FlowRoute(Screen.item(id: 1_000 + id))))
        }
        tabs.append(stack)
    }
    return FlowTabs(name: "shop", tabs: tabs, selected: 1)
}

/// `Int` routes as the launch app's screens (0 is the list, any other value an item): values
/// FlowKit stores directly, with no `Codable` container.
extension Int: LaunchRoute {
    static var list: Int { 0 }
    static func item(id: Int) -> Int { id }
    var isList: Bool { self == 0 }
}

/// A snapshot in format 1's long form, as FlowKit wrote whole snapshots before format 2.
struct LongFormSnapshot: Encodable {
    let snapshot: FlowSnapshot

    private enum CodingKeys: String, CodingKey {
        case version, root, history
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(1, forKey: .version)
        try container.encode(snapshot.root, forKey: .root)
        try container.encode(snapshot.history, forKey: .history)
    }
}

/// From JSON to a running tree whose first frame is complete (the selected tab's stack):
/// `Launch.jsonToTree` decodes the document and starts a new runtime with it, eagerly in
/// format 1 with `JSONDecoder` (what FlowKit did before), eagerly and lazily in format 2 with
/// `JSONDecoder` and with FlowKit's own JSON (`FlowSnapshot(json:)`). The parts:
/// `Launch.decode` and `Launch.ownDecode` (JSON only), `Launch.restore` (start(restoring:)
/// only, eager or lazy), `Launch.snapshot`, `Launch.encode` and `Launch.ownEncode`. The
/// bytes per node are printed. The app's screens convert themselves
/// (`FlowSnapshotValueConvertible`); `…,codableRoutes`: `snapshot` and eager `restore` of the
/// same app with screens stored through their synthesized `Codable` conformance alone;
/// `…,intRoutes`: with `Int` routes, which FlowKit stores directly: FlowKit's part without
/// the app's route coding.
@MainActor
func runLaunchBenchmarks(_ harness: Harness) throws {
    for size in launchSizes {
        guard harness.selectsArea("Launch.") else { continue }
        let entries = (size - 1) / 4 - 2
        let nodes = 1 + 4 * (2 + entries)
        let runtime = try BenchTrace.off.runtime(root: try makeLaunchApp(entries: entries))
        try runtime.start()
        let snapshot = try runtime.snapshot()
        let compact = try JSONEncoder().encode(snapshot)
        let long = try JSONEncoder().encode(LongFormSnapshot(snapshot: snapshot))
        launchBytesPerNode[size] = (
            Double(compact.count) / Double(nodes), Double(long.count) / Double(nodes)
        )
        print(
            pad("Launch.bytes/nodes=\(size)", 44)
                + String(
                    format: "%12.1f bytes/node (format 1: %.1f)", launchBytesPerNode[size]!.compact,
                    launchBytesPerNode[size]!.long))
        let repetitions = size >= 10_000 ? 5 : nil
        let unit = ("node", nodes)
        /// Checks the running tree's first frame: the selected tab's stack, complete.
        func check(_ restored: FlowRuntime, _ report: FlowRestoreReport) -> UInt {
            let shown = (restored.root as? FlowTabs)?.selectedTab?.children.count
            precondition(report.skipped.isEmpty && shown == entries + 1, "lost entries")
            return UInt(report.restoredCount)
        }
        let fresh = { try BenchTrace.off.runtime(root: try makeLaunchApp()) }
        let bytes = Array(compact)
        for (name, data, lazily, own) in [
            ("format1,eager", long, false, false), ("eager", compact, false, false),
            ("lazy", compact, true, false), ("ownJSON,eager", compact, false, true),
            ("ownJSON,lazy", compact, true, true),
        ] {
            try harness.measure(
                "Launch.jsonToTree/nodes=\(size),\(name)", operations: 1, perUnit: unit,
                repetitions: repetitions, setup: fresh,
                run: { restored in
                    let decoded =
                        own
                        ? try FlowSnapshot(json: Array(data))
                        : try JSONDecoder().decode(FlowSnapshot.self, from: data)
                    return check(restored, try restored.start(restoring: decoded, lazily: lazily))
                })
        }
        try harness.measure(
            "Launch.ownDecode/nodes=\(size)", operations: 1, perUnit: unit,
            repetitions: repetitions, setup: {},
            run: { UInt(try FlowSnapshot(json: bytes).root.children.count) })
        harness.measure(
            "Launch.ownEncode/nodes=\(size)", operations: 1, perUnit: unit,
            repetitions: repetitions, setup: {},
            run: { UInt(snapshot.json().count) })
        try harness.measure(
            "Launch.decode/nodes=\(size)", operations: 1, perUnit: unit, repetitions: repetitions,
            setup: {},
            run: {
                UInt(try JSONDecoder().decode(FlowSnapshot.self, from: compact).root.children.count)
            })
        for (name, lazily) in [("eager", false), ("lazy", true)] {
            try harness.measure(
                "Launch.restore/nodes=\(size),\(name)", operations: 1, perUnit: unit,
                repetitions: repetitions, setup: fresh,
                run: { restored in
                    check(restored, try restored.start(restoring: snapshot, lazily: lazily))
                })
        }
        try harness.measure(
            "Launch.snapshot/nodes=\(size)", operations: 1, perUnit: unit,
            repetitions: repetitions, setup: {},
            run: { UInt(try runtime.snapshot().root.children.count) })
        // The same app with the screens' synthesized `Codable` alone (no conversion of their
        // own), and with `Int` routes (FlowKit's part without the app's route coding).
        let variants: [(String, @MainActor (Int) throws -> FlowTabs)] = [
            (
                "codableRoutes",
                { try makeLaunchApp(entries: $0, screens: LaunchScreenCodable.self) }
            ),
            ("intRoutes", { try makeLaunchApp(entries: $0, screens: Int.self) }),
        ]
        for (variant, makeApp) in variants {
            let variantRuntime = try BenchTrace.off.runtime(root: try makeApp(entries))
            try variantRuntime.start()
            let variantSnapshot = try variantRuntime.snapshot()
            try harness.measure(
                "Launch.snapshot/nodes=\(size),\(variant)", operations: 1, perUnit: unit,
                repetitions: repetitions, setup: {},
                run: { UInt(try variantRuntime.snapshot().root.children.count) })
            try harness.measure(
                "Launch.restore/nodes=\(size),eager,\(variant)", operations: 1, perUnit: unit,
                repetitions: repetitions,
                setup: { try BenchTrace.off.runtime(root: try makeApp(0)) },
                run: { restored in
                    check(restored, try restored.start(restoring: variantSnapshot, lazily: false))
                })
        }
        try harness.measure(
            "Launch.encode/nodes=\(size)", operations: 1, perUnit: unit,
            repetitions: repetitions, setup: {},
            run: { UInt(try JSONEncoder().encode(snapshot).count) })
    }
}
