import FlowKit

/// A difference between FlowKit and the model.
struct FuzzFailure: Error, CustomStringConvertible {
    /// What kind of check failed and for which operation: shrinking keeps this the same.
    var signature: String
    var message: String
    var step: Int

    var description: String { "step \(step): [\(signature)] \(message)" }
}

/// Runs operations against FlowKit and the model side by side and compares them after each.
@MainActor
final class FuzzRun {
    let world = FuzzWorld()
    let model = FuzzModel()
    /// The app above the scenes, beside the model's runtimes (FuzzRunner+Scenes.swift).
    let scenes = FuzzScenes()
    /// Checks to skip (`pathCheck`), to look past a known failure.
    let exclude: Set<String>
    private(set) var steps = 0
    /// How often each kind of top-level operation succeeded or threw, and each kind of change
    /// and failure the traces recorded (printed by long runs, to see what was exercised).
    var coverage: [String: Int] = [:]

    init(exclude: Set<String> = []) {
        self.exclude = exclude
        model.identity = { [world] id in world.identity(id)?.description ?? "#?" }
        model.shown = { [world] op in world.shownAnswer(op) }
    }

    /// Applies `op` to both sides, then checks everything observable.
    func step(_ op: FuzzOp) async -> FuzzFailure? {
        steps += 1
        if case .scene(let sceneOp) = op { return await sceneStep(sceneOp) }
        model.lenient = false
        model.journal = []
        model.trace = []
        model.host = []
        world.journal = []
        world.traceLog = []
        world.hostLog = []
        world.actionBudget = 64
        model.actionBudget = 64
        world.stepsInOperation = 0
        world.runaway = nil
        let tags = screenTags(op)
        model.uncertainGesture = nil
        var expected = model.apply(op)
        var thrown: Error?
        do {
            try await world.runTopLevel(op)
        } catch {
            thrown = error
        }
        if let refusal = settleGestureBegin(thrown) { expected = refusal }
        if let r = world.runaway, let platform = world.runtimes[r]?.platform {
            return fail(
                "platform steps without end", op,
                "rt\(r): more than \(FuzzWorld.stepBudget) steps in one operation, the last: "
                    + platform.performedSteps.suffix(6).map { "\($0)" }.joined(separator: "; "))
        }
        coverage["op \(op.name)\(thrown == nil ? "" : " threw")", default: 0] += 1
        countScreens(tags, threw: thrown != nil)
        if let error = thrown as? FlowError {
            let name = Mirror(reflecting: error).children.first?.label ?? "\(error)"
            coverage["error \(name)", default: 0] += 1
        }
        for line in world.traceLog {
            let words = line.split(separator: " ")
            if words.count > 2, words[1] == "intent" {
                let reason =
                    line.hasSuffix("left without finishing)")
                    ? " (flow left)"
                    : line.hasSuffix("(the runtime stopped)")
                        ? " (stopped)"
                        : line.contains("(the redirect failed")
                            ? " (redirect failed)"
                            : line.contains("(a newer navigation") ? " (by navigation)" : ""
                coverage["intent \(words[2])\(reason)", default: 0] += 1
            }
            if words.count > 3, words[1] == "gesture" {
                coverage["gesture \(words[2]) \(words[3])", default: 0] += 1
            }
            if words.count > 2, words[1] == "change" || words[1] == "failed" {
                let exits = words[1] == "change" && words.contains { $0.hasPrefix("-") }
                coverage["\(words[1]) \(words[2])\(exits ? " (exits)" : "")", default: 0] += 1
            }
        }
        if let failure = compareOutcome(op, expected: expected, thrown: thrown) {
            return failure
        }
        if let failure = compareLogs(op) { return failure }
        if let failure = await census(op) { return failure }
        if let failure = compareTree(op) { return failure }
        if let problem = world.invariantProblem() {
            return fail(problem.check, op, problem.message)
        }
        world.countPlatformSteps()
        if let problem = world.platformProblem(model) {
            return fail(problem.check, op, problem.message)
        }
        return nil
    }

    /// A gesture whose exit guard's effect committed a change (``FuzzModel/uncertainGesture``):
    /// if FlowKit refused it because a transition now runs in its container, and one does,
    /// the model's gesture did not begin either (its `began` trace line goes); returns the
    /// refusal the model then expects.
    func settleGestureBegin(_ thrown: Error?) -> FuzzRefusal? {
        guard let (r, container, paths) = model.uncertainGesture,
            let error = thrown as? FlowError,
            case .gestureNotPossible(let path, "a transition runs") = error, paths.contains(path),
            world.hasStepInFlight(r, at: container)
        else { return nil }
        model.runtimes[r]?.gesture = nil
        if let index = model.trace.lastIndex(where: {
            $0.options.contains { $0.hasPrefix("rt\(r): gesture ") && $0.contains(" began at ") }
        }) {
            model.trace.remove(at: index)
        }
        return FuzzRefusal(candidates: [error])
    }

    private func fail(_ check: String, _ op: FuzzOp, _ message: String) -> FuzzFailure {
        FuzzFailure(signature: "\(check) after \(op.name)", message: message, step: steps)
    }

    private func compareOutcome(
        _ op: FuzzOp, expected: FuzzRefusal?, thrown: Error?
    ) -> FuzzFailure? {
        switch (expected, thrown) {
        case (nil, nil):
            return nil
        case (nil, let error?):
            return fail("unexpected error", op, "\(op) threw \(error); the model expected success")
        case (let refusal?, nil):
            return fail(
                "missing error", op,
                "\(op) succeeded; the model expected \(refusal.candidates.map(\.description))")
        case (let refusal?, let error?):
            if let error = error as? FlowError, refusal.candidates.contains(error) { return nil }
            return fail(
                "wrong error", op,
                "\(op) threw \(error); the model expected one of "
                    + "\(refusal.candidates.map { "\($0)" })")
        }
    }

    private func compareLines(
        _ name: String, _ op: FuzzOp, actual: [String], expected: [FuzzExpect]
    ) -> FuzzFailure? {
        var index = 0
        while index < max(actual.count, expected.count) {
            let line = index < actual.count ? actual[index] : nil
            let expectation = index < expected.count ? expected[index] : nil
            if let line, let expectation, expectation.matches(line) {
                index += 1
                continue
            }
            let context = actual.enumerated().map { "    \($0.offset): \($0.element)" }
            let wanted = expected.enumerated().map { "    \($0.offset): \($0.element)" }
            let got =
                line?.split(separator: " ").dropFirst(name == "hook" ? 0 : 1).first ?? "nothing"
            let want =
                expectation?.options[0].split(separator: " ")
                .dropFirst(name == "hook" ? 0 : 1).first ?? "nothing"
            return fail(
                "\(name) mismatch (\(got) instead of \(want))", op,
                "\(name) line \(index): got \(line ?? "nothing"), expected "
                    + "\(expectation?.description ?? "nothing")\n  got:\n"
                    + context.joined(separator: "\n") + "\n  expected:\n"
                    + wanted.joined(separator: "\n"))
        }
        return nil
    }

    private func compareLogs(_ op: FuzzOp) -> FuzzFailure? {
        if model.lenient {
            let exits = world.journal.filter { $0.hasPrefix("willExit ") }
            return compareLines("teardown hook", op, actual: exits, expected: model.journal)
        }
        if let failure = compareLines("hook", op, actual: world.journal, expected: model.journal) {
            return failure
        }
        if let failure = compareLines("trace", op, actual: world.traceLog, expected: model.trace) {
            return failure
        }
        return compareLines("host", op, actual: world.hostLog, expected: model.host)
    }

    /// The weak-reference census: what the model says was released must be freed (after
    /// cancelled tasks had their turn), and nothing the model keeps may be.
    private func census(_ op: FuzzOp) async -> FuzzFailure? {
        // The tester's platform user lets go of a gesture's container once the gesture ends.
        for r in world.runtimes.keys where model.runtimes[r]?.gesture == nil {
            world.runtimes[r]?.gestureContainer = nil
        }
        let freed = model.collect()
        let visible = model.visibleTokens()
        let deadTokens = model.tokens.subtracting(visible)
        let deadRuntimes = model.runtimes.filter { !$0.value.held }.map(\.key)
        func survivors() -> (nodes: [FuzzID], tokens: [Int], runtimes: [Int]) {
            (
                freed.filter { world.nodes[$0]?.object != nil }.sorted(),
                deadTokens.filter { world.tokens[$0]?.object != nil }.sorted(),
                deadRuntimes.filter { world.runtimes[$0]?.weakRuntime != nil }.sorted()
            )
        }
        var left = survivors()
        var yields = 0
        // Cancelled tasks return on later main-actor turns; on a loaded machine that can take
        // many turns (20 was too few under load: two long runs reported such tasks' nodes as
        // leaks, and replaying their seeds passed). A real leak stays after 2,000 turns too.
        while !(left.nodes.isEmpty && left.tokens.isEmpty && left.runtimes.isEmpty),
            yields < 2_000
        {
            await Task.yield()
            yields += 1
            left = survivors()
        }
        if !left.nodes.isEmpty || !left.tokens.isEmpty || !left.runtimes.isEmpty {
            let nodes = left.nodes.map { id -> String in
                let node = world.node(id)
                return "n\(id) (\(node.map { "\($0.state)" } ?? "?"), path \(node?.path ?? "?"))"
            }
            return fail(
                "leak", op,
                "still allocated: nodes \(nodes), tokens \(left.tokens.map { "t\($0)" }), "
                    + "runtimes \(left.runtimes.map { "rt\($0)" })")
        }
        for id in freed { world.nodes[id] = nil }
        for token in deadTokens {
            world.tokens[token] = nil
            model.tokens.remove(token)
        }
        for r in deadRuntimes {
            model.runtimes[r] = nil
            world.runtimes[r] = nil
        }
        for id in model.nodes.keys where world.node(id) == nil {
            return fail("freed too early", op, "n\(id) was deallocated but the model keeps it")
        }
        return nil
    }

    private func compareTree(_ op: FuzzOp) -> FuzzFailure? {
        model.frozen { compareTreeNow(op) }
    }

    private func compareTreeNow(_ op: FuzzOp) -> FuzzFailure? {
        func ids(_ nodes: [FlowController]) -> [FuzzID] { nodes.map { FuzzWorld.id(of: $0) ?? -1 } }
        for id in model.nodes.keys.sorted() {
            let expected = model.nodes[id]!
            let node = world.node(id)!
            var problems: [String] = []
            if node.state != expected.state {
                problems.append("state \(node.state) != \(expected.state)")
            }
            let parent = FuzzWorld.id(of: node.parent)
            if parent != expected.parent {
                problems.append(
                    "parent \(parent.map { "n\($0)" } ?? "nil") != \(expected.parent.map { "n\($0)" } ?? "nil")"
                )
            }
            if ids(node.children) != expected.children {
                problems.append("children \(ids(node.children)) != \(expected.children)")
            }
            let presented = FuzzWorld.id(of: node.presentedChild)
            if presented != expected.presented {
                problems.append(
                    "presented \(presented.map { "n\($0)" } ?? "nil") != \(expected.presented.map { "n\($0)" } ?? "nil")"
                )
            }
            if node.isActive != expected.isActive {
                problems.append("isActive \(node.isActive) != \(expected.isActive)")
            }
            let paths = model.paths(id)
            if !exclude.contains("pathCheck"), !paths.contains(node.path) {
                problems.append("path \(node.path) not in \(paths)")
            }
            let tasks: Int
            switch expected.state {
            case .created: tasks = expected.pendingTasks
            case .entered: tasks = expected.runningTasks
            case .exited: tasks = 0
            }
            if let tabs = node as? FlowTabs, expected.state != .exited {
                // An exited container's selection means nothing (its tabs are gone).
                if tabs.selectedIndex != expected.selected {
                    problems.append("selectedIndex \(tabs.selectedIndex) != \(expected.selected)")
                }
                let selected = model.selectedTab(id)
                if tabs.selectionBinding != selected.flatMap({ world.node($0)?.id }) {
                    problems.append(
                        "selectionBinding \(String(describing: tabs.selectionBinding)) != "
                            + "n\(selected.map(String.init) ?? "nil")")
                }
            }
            if let split = node as? FlowSplit, expected.state == .exited {
                // An exited split's columns left with it: its accessors still answer.
                _ = split.focusedColumn
                if !split.compactStack.isEmpty || split.node(for: .sidebar) != nil {
                    problems.append("an exited split still shows its columns")
                }
            } else if let split = node as? FlowSplit {
                if split.isCollapsed != expected.collapsed {
                    problems.append("isCollapsed \(split.isCollapsed) != \(expected.collapsed)")
                }
                if split.focusedIndex != expected.selected {
                    problems.append("focusedIndex \(split.focusedIndex) != \(expected.selected)")
                }
                if split.preferredCompactColumn != fuzzColumn(expected.preferred) {
                    problems.append(
                        "preferredCompactColumn \(split.preferredCompactColumn) != "
                            + fuzzColumnName(expected.preferred))
                }
                let focused = model.column(at: model.effectiveFocus(id), of: id)
                if split.focusedColumn != fuzzColumn(focused) {
                    problems.append(
                        "focusedColumn \(split.focusedColumn) != \(fuzzColumnName(focused))")
                }
                if ids(split.compactStack) != model.compactStack(id) {
                    problems.append(
                        "compactStack \(ids(split.compactStack)) != \(model.compactStack(id))")
                }
            }
            if let stack = node as? FlowStack,
                stack.pathBinding != stack.children.dropFirst().map(\.id)
            {
                problems.append(
                    "pathBinding \(stack.pathBinding) is not the entries above the bottom")
            }
            if node.presentedBinding !== node.presentedChild {
                problems.append("presentedBinding is not presentedChild")
            }
            if node.runningTaskCount != tasks {
                problems.append("runningTaskCount \(node.runningTaskCount) != \(tasks)")
            }
            for kind in FuzzEventKind.allCases
            where world.handles(kind, node) != (expected.handlers[kind] != nil) {
                problems.append("handles(\(kind.letter)) \(world.handles(kind, node))")
            }
            let values = model.lookupAll(id, state: expected.state)
            for key in FuzzKey.allCases {
                let actual = world.value(key, at: node)
                let wanted = values[key.rawValue]
                if actual != wanted {
                    problems.append(
                        "dependencies[\(key.label)] \(actual.map { "t\($0)" } ?? "nil") != "
                            + "\(wanted.map { "t\($0)" } ?? "nil")")
                }
            }
            if !problems.isEmpty {
                return fail(
                    "node mismatch (\(problems[0].split(separator: " ").first ?? ""))", op,
                    "n\(id): " + problems.joined(separator: "; "))
            }
        }
        for (r, expected) in model.runtimes.sorted(by: { $0.key < $1.key }) where expected.held {
            guard let runtime = world.runtimes[r]?.runtime else {
                return fail("runtime mismatch", op, "rt\(r) is gone")
            }
            var problems: [String] = []
            if runtime.isRunning != expected.running {
                problems.append("isRunning \(runtime.isRunning) != \(expected.running)")
            }
            let root = FuzzWorld.id(of: runtime.root)
            if root != expected.root {
                problems.append(
                    "root \(String(describing: root)) != \(String(describing: expected.root))")
            }
            let intent = runtime.redirectedIntent
            if intent?.description != expected.intent?.description
                || (intent?.flow != nil) != (expected.intent?.flow != nil)
            {
                problems.append(
                    "redirectedIntent \(intent?.description ?? "nil") (flow "
                        + "\(intent?.flow ?? "nil")) != \(expected.intent?.description ?? "nil")"
                        + " (flow \(expected.intent?.flow.map { "\($0)" } ?? "nil"))")
            }
            if ids(runtime.focusedPath) != expected.focused {
                problems.append("focusedPath \(ids(runtime.focusedPath)) != \(expected.focused)")
            }
            if ids(runtime.activeNodes) != expected.active {
                problems.append("activeNodes \(ids(runtime.activeNodes)) != \(expected.active)")
            }
            if !problems.isEmpty {
                return fail("runtime mismatch", op, "rt\(r): " + problems.joined(separator: "; "))
            }
        }
        return nil
    }
}

/// Replays operations from scratch and reports the first difference.
@MainActor
func fuzzReplay(_ ops: [FuzzOp], exclude: Set<String> = []) async -> FuzzFailure? {
    let run = FuzzRun(exclude: exclude)
    var failure: FuzzFailure?
    for op in ops {
        failure = await run.step(op)
        if failure != nil { break }
    }
    if failure == nil { failure = await run.finishScenes() }
    await run.finish()
    return failure
}

/// Runs the operations a byte-driven generator reads from `bytes` (an input of the
/// `operations` fuzz target, which calls this), until the bytes are used up or `limit`
/// operations ran, and reports the first difference from the model with the operations run.
@MainActor
func fuzzRun(
    bytes: [UInt8], limit: Int = 100, exclude: Set<String> = []
) async -> (ops: [FuzzOp], failure: FuzzFailure?) {
    var generator = FuzzGenerator(bytes: bytes, exclude: exclude)
    let run = FuzzRun(exclude: exclude)
    var ops: [FuzzOp] = []
    var failure: FuzzFailure?
    while !generator.exhausted && ops.count < limit {
        let op = generator.next(run.model)
        ops.append(op)
        failure = await run.step(op)
        if failure != nil { break }
    }
    if failure == nil { failure = await run.finishScenes() }
    await run.finish()
    return (ops, failure)
}

/// Delta debugging: removes chunks, then single operations, while the same kind of failure
/// still happens. Returns the shortest sequence found and its failure.
@MainActor
func fuzzShrink(
    _ ops: [FuzzOp], failure: FuzzFailure, exclude: Set<String> = [], maxReplays: Int = 3_000
) async -> ([FuzzOp], FuzzFailure) {
    var best = Array(ops.prefix(failure.step))
    var bestFailure = failure
    var replays = 0
    var chunk = max(1, best.count / 2)
    while chunk >= 1 && replays < maxReplays {
        var index = 0
        var removedAny = false
        while index < best.count && replays < maxReplays {
            var candidate = best
            candidate.removeSubrange(index..<min(index + chunk, best.count))
            replays += 1
            if let found = await fuzzReplay(candidate, exclude: exclude),
                found.signature == failure.signature
            {
                best = Array(candidate.prefix(found.step))
                bestFailure = found
                removedAny = true
            } else {
                index += chunk
            }
        }
        if !removedAny {
            if chunk == 1 { break }
            chunk /= 2
        }
    }
    return (best, bestFailure)
}

extension FuzzRun {
    /// Ends the run: stops every running runtime, so the node tasks it started are cancelled
    /// and no task keeps spinning after the episode (hooks run no actions meanwhile).
    func finish() async {
        world.quiet = true
        for r in world.runtimes.keys.sorted() {
            if let runtime = world.runtimes[r]?.runtime, runtime.isRunning {
                try? runtime.stop()
            }
        }
        for _ in 0..<3 { await Task.yield() }
    }
}
