import FlowKitTesting
import Foundation
import Testing

@testable import FlowKit

/// The model-based random test: random operations on real FlowKit trees, each checked against
/// a simple model (see Docs/Reliability.md).
///
/// - `FLOWKIT_FUZZ_OPERATIONS`: how many operations (default 2,000; `scripts/fuzz.sh` runs
///   1,000,000 in release).
/// - `FLOWKIT_FUZZ_SEED`: the first episode's seed (a failure prints the seed to replay).
/// - `FLOWKIT_FUZZ_EXCLUDE`: operation kinds to leave out (see ``FuzzGenerator``).
/// - `FLOWKIT_FUZZ_KEEP_GOING=1`: report every distinct failure, not just the first.
/// - `FLOWKIT_FUZZ_COVERAGE=1` (with `FLOWKIT_FUZZ_OPERATIONS`): print how often each kind of
///   operation succeeded and threw, and each kind of change and failure traced.
/// - `FLOWKIT_FUZZ_STRICT=1`: expect the documented behaviour even where FlowKit has a known,
///   unfixed bug (see ``FuzzModel/knownIssues``).
/// - `FLOWKIT_FUZZ_PRINT=1`: print each operation before it runs (`op <episode> <operation>`),
///   to find one that does not return.
@MainActor
@Suite("Model-based random test")
struct ModelBasedTests {
    static let episodeLength = 150

    /// The `operations` fuzz target's seeds and the inputs it found
    /// (Tests/Fuzz/Corpus/operations), each read by the byte-driven generator and run as the
    /// target runs it (scripts/fuzz-inputs.sh operations), with no fuzzer.
    @Test("The operations fuzz target's corpus matches the model")
    func operationsCorpusMatchesTheModel() async throws {
        let folder = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/Corpus/operations")
        let files = try FileManager.default.contentsOfDirectory(
            at: folder, includingPropertiesForKeys: nil
        ).sorted { $0.lastPathComponent < $1.lastPathComponent }
        #expect(files.count >= 5)
        var operations = 0
        for file in files {
            let (ops, failure) = await fuzzRun(bytes: [UInt8](try Data(contentsOf: file)))
            operations += ops.count
            if let failure {
                let replay = ops.prefix(failure.step).map { "    \($0)" }.joined(separator: "\n")
                Issue.record(
                    Comment(
                        rawValue: "\(file.lastPathComponent): \(failure)\n  replay:\n\(replay)"))
            }
        }
        #expect(operations >= 100)
    }

    @Test(
        "Found by the random test: a hook's pop() on an empty stack throws at once and is not queued",
        .bug(id: "29.f", "the admission queued the pop, then threw: it ran again later"))
    func hookPopOnAnEmptyStackIsNotQueued() throws {
        // Since every operation went through `_change`, the call was queued first, then
        // `pop()` threw that the stack had no entries (as its doc says); when its turn came,
        // the queued pop ran anyway, after the push the hook queued before it.
        let t = FlowStack(name: "t")
        let app = FlowStack(name: "app", root: FlowController(name: "home"))
        try app.entries[0].embed(t)
        let runtime = try FlowRuntime(root: app)
        var failures: [String] = []
        runtime.onError = { failures.append("\($0)") }
        try runtime.start()
        var thrown: (any Error)?
        try app.push(
            Picker("hooked") { _ in
                try? t.push(FlowController(name: "b"))
                do { try t.pop() } catch { thrown = error }
            })
        #expect(thrown as? FlowError == .emptyStack(stack: "app/home/t"))
        #expect(t.entries.map(\.name) == ["b"])
        #expect(failures == [])
    }

    @Test(
        "Found by the random test: a tab tap while the tab bar still shows the old order selects the tab it shows",
        .bug(id: "29.g", "the tap was noted with the tree's index, another tab in the shown order"))
    func tapWhileTheTabBarShowsTheOldOrder() throws {
        // A tap on the tab the tree selects, while the tab bar still shows the tabs' old order
        // (one step in all: a push runs), was noted with the tree's index, which names another
        // tab in the order the platform shows; after the reorder, FlowTransitions selected
        // from the wrong tab.
        let a = FlowStack(name: "a", root: FlowController(name: "a0"))
        let b = FlowStack(name: "b", root: FlowController(name: "b0"))
        let tabs = FlowTabs(name: "tabs", tabs: [a, b], selected: 1)
        let platform = SimulatedPlatform(rules: .oneAtATime, duration: 270)
        let transitions = FlowTransitions(host: platform)
        let runtime = try FlowRuntime(root: tabs, host: transitions)
        try runtime.start()
        platform.runUntilIdle()
        try b.push(FlowController(name: "b1"))  // runs: the reorder waits
        try tabs.setTabs([b, a], selecting: 1)  // the tree selects a, now at 1
        try platform.tapTab(at: 0, of: tabs, in: transitions)  // a, where the bar shows it
        platform.runUntilIdle()
        #expect(platform.illegalCalls == [])
        #expect(platform.differences(from: runtime) == [])
    }

    @Test(
        "Found by the random test: a tap that selects a stack tab the tree selected in code but the tab bar did not show yet pops nothing",
        .bug(id: "29.h", "taken for a reselection, the stack was popped as the tab bar's own pop"))
    func tapOnATabSelectedInCodeButNotShown() throws {
        // With reselectionPopsToRoot, FlowKit took the tap for a reselection (the tree selects
        // the tab already) and popped the stack as the tab bar's own pop, not shown; but the
        // tab bar showed another tab, so for it the tap is a selection, and it pops nothing.
        let a = FlowStack(name: "a", root: FlowController(name: "a0"))
        let b = FlowStack(name: "b", root: FlowController(name: "b0"))
        try b.push(FlowController(name: "b1"))
        let tabs = FlowTabs(name: "tabs", tabs: [a, b])
        tabs.reselectionPopsToRoot = true
        let platform = SimulatedPlatform(rules: .oneAtATime, duration: 250)
        let transitions = FlowTransitions(host: platform)
        let runtime = try FlowRuntime(root: tabs, host: transitions)
        try runtime.start()
        platform.runUntilIdle()
        try a.push(FlowController(name: "a1"))  // runs: the selection waits
        try tabs.select(at: 1)
        try platform.tapTab(at: 1, of: tabs, in: transitions)  // for the tab bar: 0 -> 1
        platform.runUntilIdle()
        #expect(platform.differences(from: runtime) == [])
        #expect(b.children.map(\.name) == ["b0", "b1"])
        #expect(platform.illegalCalls == [])
        #expect(transitions.isIdle)
        // Shown now, the same tap is a reselection: the stack pops to its root.
        try platform.tapTab(at: 1, of: tabs, in: transitions)
        platform.runUntilIdle()
        #expect(b.children.map(\.name) == ["b0"])
        #expect(platform.differences(from: runtime) == [])
    }

    @Test(
        "Found by the random test: a scene reclaimed while it waits for late restoration data stops waiting",
        .bug(id: "31.a", "it stayed restoring while disconnected, which the app's invariants trap"))
    func sceneReclaimedWhileWaitingForData() throws {
        let app = FlowApp()
        try app.register(FuzzPane.self, placeholder: { _ in FlowController(name: "placeholder") }) {
            _, _ in FlowStack(name: "stack", root: FlowController(name: "s0"))
        }
        let scene = try app.connect("s1", value: FlowRoute(FuzzPane.pane(0)), restoration: .later)
        #expect(scene.isRestoring)
        try app.report(.disconnect, for: "s1")
        #expect(scene.phase == .disconnected)
        #expect(!scene.isRestoring)
        #expect(scene.runtime == nil)
        // Data for the ended connection is refused; a reconnect starts from the store (none).
        #expect(throws: FlowSceneError.notRestoring("s1")) {
            try app.restorationDidArrive(for: "s1", snapshot: nil)
        }
        let back = try app.connect("s1")
        #expect(back.runtime?.treeDescription() == "* stack\n  * s0")
    }

    @Test("Random operations match the model: tree, states, errors, hooks, trace, memory")
    func randomOperationsMatchTheModel() async {
        let environment = ProcessInfo.processInfo.environment
        let budget = environment["FLOWKIT_FUZZ_OPERATIONS"].flatMap(Int.init) ?? 2_000
        let firstSeed = environment["FLOWKIT_FUZZ_SEED"].flatMap { UInt64($0) } ?? 20_260_417
        let exclude = Set(
            (environment["FLOWKIT_FUZZ_EXCLUDE"] ?? "").split(separator: ",").map(String.init))
        let keepGoing = environment["FLOWKIT_FUZZ_KEEP_GOING"] == "1"
        FuzzModel.tolerated =
            environment["FLOWKIT_FUZZ_STRICT"] == "1" ? [] : FuzzModel.knownIssues
        let verbose = environment["FLOWKIT_FUZZ_OPERATIONS"] != nil
        let clock = ContinuousClock()
        let started = clock.now
        var operations = 0
        var episodes = 0
        var signatures: Set<String> = []
        var coverage: [String: Int] = [:]
        while operations < budget {
            let seed = firstSeed &+ UInt64(episodes) &* 0x9E37_79B9
            episodes += 1
            var generator = FuzzGenerator(seed: seed, exclude: exclude)
            let run = FuzzRun(exclude: exclude)
            var ops: [FuzzOp] = []
            var failure: FuzzFailure?
            for _ in 0..<min(Self.episodeLength, budget - operations) {
                let op = generator.next(run.model)
                if environment["FLOWKIT_FUZZ_PRINT"] == "1" { print("op \(episodes) \(op)") }
                ops.append(op)
                operations += 1
                if let found = await run.step(op) {
                    failure = found
                    break
                }
            }
            if failure == nil { failure = await run.finishScenes() }
            await run.finish()
            coverage.merge(run.coverage, uniquingKeysWith: +)
            coverage.merge(run.world.coverage, uniquingKeysWith: +)
            if let failure {
                guard signatures.insert(failure.signature).inserted else { continue }
                let (shrunk, last) = await fuzzShrink(ops, failure: failure, exclude: exclude)
                let report =
                    "FlowKit differs from the model (seed \(seed), "
                    + "\(ops.count) operations, shrunk to \(shrunk.count)):\n"
                    + "  \(last)\n  replay:\n"
                    + shrunk.map { "    \($0)" }.joined(separator: "\n")
                if verbose {
                    print(report)
                    Issue.record("FlowKit differs from the model: \(last.signature) (seed \(seed))")
                } else {
                    Issue.record(Comment(rawValue: report))
                }
                if !keepGoing { break }
            }
        }
        if verbose && environment["FLOWKIT_FUZZ_COVERAGE"] == "1" {
            for (key, count) in coverage.sorted(by: { $0.key < $1.key }) {
                print("fuzz coverage: \(key): \(count)")
            }
        }
        if verbose {
            let elapsed = clock.now - started
            let seconds =
                Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            print(
                "fuzz: \(operations) operations, \(episodes) episodes from seed \(firstSeed), "
                    + "\(signatures.count) distinct failures, "
                    + "\(Int(Double(operations) / max(seconds, 0.001))) operations/s")
        }
    }
}

/// A region that finishes with an `Int`: a stack (with entries) or a plain node.
@MainActor
final class FuzzResultStack: FlowStack, ResultFlow {
    typealias Result = Int
}

@MainActor
final class FuzzResultNode: FlowController, ResultFlow {
    typealias Result = Int
}

/// `result(of:)` on the regions of a `FlowParallel` and the columns of a `FlowSplit`, awaited and
/// cancelled: the random test's model does not express asynchronous waits (a task that
/// suspends, a result delivered on a later turn, a cancellation that runs in a task of its
/// own), so this is a seeded property test beside it (issue 29, bugs 14 and 15).
@MainActor
@Suite("Property: result(of:) on regions and columns")
struct RegionResultPropertyTests {
    /// What can happen to one wait.
    enum Outcome: CaseIterable {
        case cancelled, finished, awaitedTwice, awaitedFromTheRoot
    }

    @Test(
        "A wait on a region ends exactly once (cancelled, finished or left) and the regions stay fixed",
        arguments: 0..<24)
    func waitsOnRegionsKeepTheRegions(seed: UInt64) async throws {
        var rng = FuzzRandom(seed: 0x5EED_0000 &+ seed)
        let bag = WeakBag()
        var failures: [String] = []
        var expectedTrace: [String] = []
        do {
            // The container: a split of 2 or 3 columns (collapsed or not), or 1–4 regions.
            var regions: [FlowController] = []
            let count = rng.below(2) == 0 ? 2 + rng.below(2) : 1 + rng.below(4)
            for index in 0..<count {
                let region: FlowController
                if rng.chance(60) {
                    let stack = FuzzResultStack(name: "r\(index)")
                    for entry in 0..<rng.below(3) {
                        try stack.push(FlowController(name: "r\(index)e\(entry)"))
                    }
                    region = stack
                } else {
                    region = FuzzResultNode(name: "r\(index)")
                    if rng.chance(50) { try region.embed(FlowController(name: "page")) }
                }
                regions.append(region)
                bag.track(region, region.name)
            }
            let isSplit = count <= 3 && count >= 2 && rng.chance(60)
            let container: FlowParallel
            if isSplit {
                container = FlowSplit(
                    name: "split", sidebar: regions[0], content: count == 3 ? regions[1] : nil,
                    detail: regions[count - 1], focus: .sidebar, collapsed: rng.chance(40))
            } else {
                container = FlowParallel(
                    name: "parallel", regions: regions, focused: rng.below(count))
            }
            bag.track(container, "container")
            // Where it is: the root, in a switch, pushed on a stack, or presented.
            let home = FlowController(name: "home")
            let app = FlowStack(name: "app", root: home)
            let placement = rng.below(4)
            let root: FlowController
            switch placement {
            case 0: root = container
            case 1:
                let switcher = FlowSwitch(name: "app")
                try switcher.embed(container)
                root = switcher
            case 2:
                try app.push(container)
                root = app
            default:
                try home.present(container)
                root = app
            }
            let runtime = try FlowRuntime(root: root)
            runtime.onError = { failures.append("\($0)") }
            try runtime.start()
            bag.track(runtime, "runtime")
            runtime.trace.removeAll()

            func checkRegions(_ context: String) throws {
                let comment = Comment(rawValue: "seed \(seed), \(context)")
                try #require(
                    container.regions.count == regions.count
                        && zip(container.regions, regions).allSatisfy { $0 === $1 }, comment)
                #expect(regions.allSatisfy { $0.state == .entered }, comment)
                #expect(runtime.activationIsConsistent, comment)
                #expect(failures.isEmpty, comment)
                if let split = container as? FlowSplit {
                    for column in split.columns {
                        let shows = split.node(for: column).map {
                            !($0 is FlowStack) || !$0.children.isEmpty
                        }
                        guard !split.isCollapsed || shows == true else { continue }
                        try split.focus(column)
                        #expect(split.focusedColumn == column, comment)
                    }
                } else {
                    for region in regions {
                        try container.focus(region)
                        #expect(container.focusedRegion === region, comment)
                    }
                }
            }

            for round in 0..<(2 + rng.below(5)) {
                let index = rng.below(count)
                let region = regions[index]
                let outcome = rng.pick(Outcome.allCases)!
                let awaiter: FlowController = outcome == .awaitedFromTheRoot ? root : container
                let task = Task { () -> Int in
                    switch region {
                    case let region as FuzzResultStack: return try await awaiter.result(of: region)
                    case let region as FuzzResultNode: return try await awaiter.result(of: region)
                    default: return -1
                    }
                }
                await waitUntil { region._extras?.resultWaiter != nil }
                let context = "round \(round): \(outcome) on \(region.path)"
                switch outcome {
                case .cancelled, .awaitedFromTheRoot:
                    task.cancel()
                    #expect(
                        await failure(of: task) is CancellationError,
                        Comment(rawValue: "seed \(seed), \(context)"))
                    expectedTrace.append(
                        "cancelled \(region.path) (the awaiting task was cancelled; a region "
                            + "stays): run at \(awaiter.path) throws")
                case .finished:
                    let value = rng.below(1000)
                    (region as? FuzzResultStack)?.finish(with: value)
                    (region as? FuzzResultNode)?.finish(with: value)
                    #expect(
                        try await task.value == value,
                        Comment(rawValue: "seed \(seed), \(context)"))
                    expectedTrace.append(
                        "finished \(region.path): result to run at \(awaiter.path)")
                case .awaitedTwice:
                    let second = Task { () -> Int in
                        switch region {
                        case let region as FuzzResultStack:
                            return try await container.result(of: region)
                        case let region as FuzzResultNode:
                            return try await container.result(of: region)
                        default: return -1
                        }
                    }
                    #expect(
                        await failure(of: second) as? FlowError
                            == .resultAlreadyAwaited(flow: region.path),
                        Comment(rawValue: "seed \(seed), \(context)"))
                    task.cancel()
                    _ = await failure(of: task)
                    expectedTrace.append(
                        "cancelled \(region.path) (the awaiting task was cancelled; a region "
                            + "stays): run at \(container.path) throws")
                }
                await runtime.settle()
                try checkRegions(context)
            }
            #expect(
                runtime.trace.records.compactMap { record -> String? in
                    switch record {
                    case .finished, .cancelled: return record.description
                    default: return nil
                    }
                } == expectedTrace, Comment(rawValue: "seed \(seed)"))

            // The container leaves while a region is awaited: the wait ends with flowCancelled.
            let region = regions[rng.below(count)]
            let path = region.path
            let last = Task { () -> Int in
                switch region {
                case let region as FuzzResultStack: return try await container.result(of: region)
                case let region as FuzzResultNode: return try await container.result(of: region)
                default: return -1
                }
            }
            await waitUntil { region._extras?.resultWaiter != nil }
            switch placement {
            case 2: try app.pop()
            case 3: try home.dismiss()
            default: try runtime.stop()
            }
            #expect(
                await failure(of: last) as? FlowError == .flowCancelled(flow: path),
                Comment(rawValue: "seed \(seed), the container left"))
            #expect(regions.allSatisfy { $0.state == .exited })
            if runtime.isRunning { try runtime.stop() }
        }
        await waitUntil { bag.alive.isEmpty }
        #expect(bag.alive == [], Comment(rawValue: "seed \(seed): still allocated"))
    }

    @Test(
        "A runtime released while a task awaits a region frees itself; the wait ends with flowCancelled"
    )
    func releasedRuntimeEndsAWaitOnARegion() async throws {
        weak var weakRuntime: FlowRuntime?
        let task: Task<Int, any Error>
        let path: String
        do {
            let detail = FuzzResultStack(name: "detail")
            try detail.push(FlowController(name: "page"))
            let split = FlowSplit(
                name: "split", sidebar: FlowStack(name: "sidebar", root: FlowController(name: "s")),
                detail: detail)
            let runtime = try FlowRuntime(root: split)
            try runtime.start()
            weakRuntime = runtime
            path = detail.path
            task = Task { try await split.result(of: detail) }
            await waitUntil { detail._extras?.resultWaiter != nil }
        }
        await waitUntil { weakRuntime == nil }
        #expect(weakRuntime == nil)
        if weakRuntime != nil { task.cancel() }
        #expect(await failure(of: task) as? FlowError == .flowCancelled(flow: path))
    }
}
