import FlowKit

/// A node of the random tester, named `n<id>` (factory-built nodes `f<id>`).
typealias FuzzID = Int

/// The kinds of node the random tester builds.
enum FuzzKind: CaseIterable, Sendable {
    case plain, stack, switcher, tabs, split

    var typeName: String {
        switch self {
        case .plain: return "FlowController"
        case .stack: return "FlowStack"
        case .switcher: return "FlowSwitch"
        case .tabs: return "FlowTabs"
        case .split: return "FlowSplit"
        }
    }
}

/// A column of a split, as `FlowSplit.Column`'s order: 0 sidebar, 1 content, 2 detail.
typealias FuzzColumn = Int

/// The name of a column, as `FlowSplit.Column` spells it.
func fuzzColumnName(_ column: FuzzColumn) -> String {
    ["sidebar", "content", "detail"][column]
}

/// One step of a navigation path: `.child("r<route>")`, or `.root("r<route>")`.
struct FuzzStep: Sendable, Hashable, CustomStringConvertible {
    var route: Int
    var isRoot = false

    /// How the step reads in Swift.
    var description: String { "\(isRoot ? ".root" : ".child")(\"r\(route)\")" }
    /// How FlowKit describes it (`FlowStep.description`).
    var text: String { isRoot ? "root r\(route)" : "r\(route)" }
}

/// A node id written to a binding that names no node (`FlowNodeID(rawValue: .max)`).
let fuzzBogusID: FuzzID = -1

/// The event types the random tester sends (`A#seq`, `B#seq`, `C#seq`, `D#seq` in the trace).
/// A `D` event carries a fresh node (`c<id>`) the tester makes for it and drops: the trace
/// must not keep it alive (only the event's traceName is kept), and a handler may attach it
/// (``FuzzAction/adoptCarried``).
enum FuzzEventKind: Int, CaseIterable, Sendable {
    case a, b, c, d

    var letter: String { ["A", "B", "C", "D"][rawValue] }
}

/// A lifecycle hook.
enum FuzzHook: CaseIterable, Sendable {
    case didEnter, willExit, didBecomeActive, didResignActive

    var label: String {
        switch self {
        case .didEnter: return "didEnter"
        case .willExit: return "willExit"
        case .didBecomeActive: return "didBecomeActive"
        case .didResignActive: return "didResignActive"
        }
    }
}

/// The two dependency keys.
enum FuzzKey: Int, CaseIterable, Sendable {
    case first, second

    var label: String { self == .first ? "FuzzKey1" : "FuzzKey2" }
}

/// Something a hook, handler, guard, factory or observer does besides its job.
indirect enum FuzzAction: Sendable, CustomStringConvertible {
    /// `node.send(X(seq))` from the node that runs the closure.
    case send(FuzzEventKind)
    /// `node.runtime?.send(X(seq))`.
    case runtimeSend(FuzzEventKind)
    /// Runs an operation (nodes it names that do not exist yet are created fresh).
    case op(FuzzOp)
    /// Sets a fresh token for `key` on a node (a setter: applies at once).
    case setValue(FuzzID, FuzzKey, token: Int)
    /// Builds a throwaway offline subtree (a stack with one entry) and drops it.
    case composeFresh
    /// From a handler of a `D` event: presents the node the event carries on the handler's
    /// node (nothing for other events).
    case adoptCarried

    var description: String {
        switch self {
        case .send(let kind): return "send(\(kind.letter))"
        case .runtimeSend(let kind): return "runtime.send(\(kind.letter))"
        case .op(let op): return "{ \(op) }"
        case .setValue(let id, let key, let token):
            return "n\(id).dependencies[\(key.label)] = t\(token)"
        case .composeFresh: return "composeFresh"
        case .adoptCarried: return "try node.present(event.node)"
        }
    }
}

/// A guard: its answer, whether the closure captures its own node strongly, and a side
/// effect run every time it is consulted. With `redirect`, it answers
/// `.redirect(to: routes as child steps)` (whatever `refuses` says).
struct FuzzGuard: Sendable, CustomStringConvertible {
    var refuses = false
    var captures = false
    var effect: FuzzAction?
    var redirect: [Int]?

    var description: String {
        var text = refuses ? "refuse" : "allow"
        if let redirect {
            text =
                "redirect(to: [" + redirect.map { ".child(\"r\($0)\")" }.joined(separator: ", ")
                + "])"
        }
        if captures { text += ", capturing" }
        if let effect { text += ", then \(effect)" }
        return "{ \(text) }"
    }
}

/// An event handler: what it does, then whether it handles or forwards.
struct FuzzHandler: Sendable, CustomStringConvertible {
    var handles = false
    var captures = false
    var actions: [FuzzAction] = []

    var description: String {
        var parts = actions.map(\.description)
        if captures { parts.insert("_ = node", at: 0) }
        parts.append(handles ? "return .handled" : "return .forward")
        return "{ " + parts.joined(separator: "; ") + " }"
    }
}

/// What a registered route factory builds, and its side effect.
enum FuzzFactory: Sendable, CustomStringConvertible {
    /// A plain node with the route.
    case plain
    /// A node with the route embedding a fresh stack with one entry, composed in the factory.
    case withStack
    /// A plain node, after a side effect.
    case effect(FuzzAction)
    /// A node carrying route `(route + offset) % 4` (another route), whose handler captures
    /// the node itself: `factoryRouteMismatch`, and the node must be released.
    case mismatch(offset: Int)
    /// A node with the route, attached below a wrapper the factory also made:
    /// `factoryNodeInUse`, and both must be released.
    case inUse

    var description: String {
        switch self {
        case .plain: return "{ node(route) }"
        case .withStack: return "{ node(route) embedding FlowStack(root: node) }"
        case .effect(let action): return "{ \(action); return node(route) }"
        case .mismatch(let offset):
            return "{ node(route + \(offset)) with a handler capturing it }"
        case .inUse:
            return "{ w.embed(node(route)); node.on(A) { _ = w }; return node }"
        }
    }
}

/// A column a split's `show` fills, and the node it shows there.
struct FuzzShown: Sendable, Hashable {
    var column: FuzzColumn
    var node: FuzzID
}

/// A runtime's platform: a ``SimulatedPlatform`` with these rules and duration behind a
/// ``FlowTransitions`` (the runtime's host, wrapped by the recording ``FuzzHost``).
struct FuzzPlatformSpec: Sendable, CustomStringConvertible {
    /// `.uiKit`, `.oneAtATime`, or a mix of the two (each rule chosen on its own).
    var rules: FlowTransitionRules
    /// How long a transition takes, in virtual milliseconds (0: at once).
    var duration: Int

    var description: String {
        "SimulatedPlatform(rules: \(rulesDescription), duration: \(duration))"
    }

    /// The rules as Swift.
    var rulesDescription: String {
        if rules == .uiKit { return ".uiKit" }
        if rules == .oneAtATime { return ".oneAtATime" }
        return "FlowTransitionRules(stackSteps: "
            + (rules.stackSteps == .wholeStack ? ".wholeStack" : ".oneEntry")
            + ", oneModalTransitionAtATime: \(rules.oneModalTransitionAtATime)"
            + ", dismissesLayersAbove: \(rules.dismissesLayersAbove)"
            + ", changesUnderPresentation: \(rules.changesUnderPresentation)"
            + ", containersAnimateTogether: \(rules.containersAnimateTogether))"
    }
}

/// One step of the random tester, applied to the real tree and to the model.
indirect enum FuzzOp: Sendable, CustomStringConvertible {
    case make(FuzzID, FuzzKind, route: Int?, initialRoute: Int?)
    case drop(FuzzID)
    /// The test takes a reference to a node it did not hold (as a platform's binding keeps
    /// its object), until `drop`.
    case hold(FuzzID)
    case releaseOffMain(FuzzID)
    /// A runtime; with a platform, its host is a `FlowTransitions` over a `SimulatedPlatform`.
    case newRuntime(Int, root: FuzzID, platform: FuzzPlatformSpec? = nil)
    case start(Int)
    case stop(Int)
    case releaseRuntime(Int)
    case runtimeSend(Int, FuzzEventKind)
    case runtimeNavigate(Int, [Int])
    case push(FuzzID, FuzzID)
    case pop(FuzzID)
    case popTo(FuzzID, FuzzID)
    case popToRoot(FuzzID)
    case setStack(FuzzID, [FuzzID])
    case platformPop(FuzzID)
    case platformPopTo(FuzzID, FuzzID)
    case embed(FuzzID, FuzzID)
    case switchTo(FuzzID, FuzzID)
    case switchRoute(FuzzID, Int)
    case present(FuzzID, FuzzID)
    case dismiss(FuzzID)
    case platformDismiss(FuzzID)
    case navigate(FuzzID, [Int], reentering: Bool)
    case send(FuzzID, FuzzEventKind)
    case exitGuard(FuzzID, FuzzGuard?)
    case entryGuard(FuzzID, FuzzGuard?)
    case on(FuzzID, FuzzEventKind, FuzzHandler)
    case removeHandler(FuzzID, FuzzEventKind)
    case register(FuzzID, route: Int, FuzzFactory)
    case setValue(FuzzID, FuzzKey, token: Int)
    case removeValue(FuzzID, FuzzKey)
    case task(FuzzID)
    case hook(FuzzID, FuzzHook, FuzzAction)
    case armHost(Int, FuzzAction)
    case armTrace(Int, FuzzAction)
    /// `FlowTabs(name:route:tabs:selected:)`: a tab container made with its tabs (skipped,
    /// on both sides, unless every tab is a fresh node and `selected` is valid).
    case makeTabs(FuzzID, route: Int?, tabs: [FuzzID], selected: Int)
    case select(FuzzID, FuzzID)
    case selectAt(FuzzID, Int)
    case platformSelect(FuzzID, FuzzID)
    case setTabs(FuzzID, [FuzzID], selecting: Int?)
    case reselectionPops(FuzzID, Bool)
    /// `tabs.selectionBinding = x.id` (`nil` writes `nil`; ``fuzzBogusID`` an unknown id).
    case writeSelection(FuzzID, FuzzID?)
    /// `stack.pathBinding = ids` (``fuzzBogusID`` stands for an unknown id).
    case writePath(FuzzID, [FuzzID])
    /// `node.presentedBinding = x` (`nil` writes `nil`).
    case writePresented(FuzzID, FuzzID?)
    /// `node.unwind(to: target)`.
    case unwind(FuzzID, FuzzID)
    /// `runtime.unwind(to: target)` (from the focused node).
    case runtimeUnwind(Int, FuzzID)
    /// `platform(rt).advance(by: ms)`: transitions due meanwhile end (their completions run).
    case advance(Int, ms: Int)
    /// `platform(rt).runUntilIdle()`.
    case runUntilIdle(Int)
    /// `platform(rt).swipeBack(on: stack, in: transitions)`: an interactive pop begins.
    case swipeBack(Int, FuzzID)
    /// `platform(rt).dragDown(sheetOf: presenter, in: transitions)`: an interactive dismissal.
    case dragDown(Int, FuzzID)
    /// `gesture(rt).update(progress: percent / 100)`.
    case updateGesture(Int, percent: Int)
    /// `platform(rt).release(gesture, on: container)`: the gesture is committed.
    case releaseGesture(Int)
    /// `platform(rt).cancel(gesture)`.
    case cancelGesture(Int)
    /// `platform(rt).tapBack(on: stack)`: the platform pops what it shows on top.
    case tapBack(Int, FuzzID)
    /// `platform(rt).tapTab(at: index, of: tabs)`: the user taps the tab the tab bar shows at
    /// `index` (skipped, on both sides, when the tab bar shows no such tab or is in a
    /// transition: the user cannot tap it).
    case tapTab(Int, FuzzID, index: Int)
    /// `FlowSplit(name:route:sidebar:content:detail:focus:preferredCompactColumn:collapsed:)`
    /// with 2 or 3 columns (skipped, on both sides, unless every column is a fresh node and
    /// the focus and preferred columns are the split's).
    case makeSplit(
        FuzzID, route: Int?, columns: [FuzzID], focus: FuzzColumn, preferred: FuzzColumn,
        collapsed: Bool)
    /// `split.focus(.column)`.
    case focusColumn(FuzzID, FuzzColumn)
    /// `split.focus(region)`, or `split.platformDidFocus(region)`.
    case focusRegion(FuzzID, FuzzID, platform: Bool)
    /// `split.show(node, in: column)` (`single`, one column shown and none cleared), else
    /// `split.show([column: node, …], clearing: [column, …])`.
    case show(FuzzID, [FuzzShown], clearing: [FuzzColumn], single: Bool)
    /// `split.platformDidCollapse()`.
    case collapse(FuzzID)
    /// `split.platformDidExpand()`.
    case expand(FuzzID)
    /// `split.platformDidPopCompact(to: entry)`.
    case popCompact(FuzzID, FuzzID)
    /// `split.preferredCompactColumn = .column` (the platform's binding write; also late,
    /// after the split exited).
    case writePreferred(FuzzID, FuzzColumn)
    /// `node.navigate(to: steps, reentering:)` for one path, else
    /// `node.navigate(toEach: paths)`.
    case navigateSteps(FuzzID, [[FuzzStep]], reentering: Bool)
    /// An operation on the app above the scenes (FuzzScenes.swift), checked by the scene
    /// rules rather than the model.
    case scene(FuzzSceneOp)

    /// The operation's name, used to tell failures apart while shrinking.
    var name: String {
        Mirror(reflecting: self).children.first?.label ?? "\(self)"
    }

    /// Whether this operation asks for a change of a tree (as opposed to a setter or a send).
    var isChange: Bool {
        switch self {
        case .push, .pop, .popTo, .popToRoot, .setStack, .platformPop, .platformPopTo, .embed,
            .switchTo, .switchRoute, .present, .dismiss, .platformDismiss, .navigate,
            .runtimeNavigate, .start, .stop, .select, .selectAt, .platformSelect, .setTabs,
            .unwind, .runtimeUnwind, .focusColumn, .focusRegion, .show, .collapse, .expand,
            .popCompact, .navigateSteps:
            return true
        default:
            return false
        }
    }

    var description: String {
        func n(_ id: FuzzID) -> String { "n\(id)" }
        func bindingValue(_ id: FuzzID?) -> String {
            guard let id else { return "nil" }
            return id == fuzzBogusID ? "FlowNodeID(rawValue: .max)" : "n\(id).id"
        }
        func routes(_ list: [Int]) -> String {
            "[" + list.map { "\"r\($0)\"" }.joined(separator: ", ") + "]"
        }
        switch self {
        case .scene(let op): return "\(op)"
        case .make(let id, let kind, let route, let initial):
            var args = "name: \"n\(id)\""
            if let route { args += ", route: \"r\(route)\"" }
            var line = "let \(n(id)) = \(kind.typeName)(\(args))"
            if let initial { line += "; \(n(id)).initialRoute = \"r\(initial)\"" }
            return line
        case .drop(let id): return "drop(\(n(id)))"
        case .hold(let id): return "let held\(id) = \(n(id))  // a binding keeps it"
        case .releaseOffMain(let id): return "releaseOffMain(\(n(id)))"
        case .newRuntime(let r, let root, let platform):
            guard let platform else { return "let rt\(r) = FlowRuntime(root: \(n(root)))" }
            return
                "let rt\(r) = FlowRuntime(root: \(n(root)), host: FlowTransitions(host: \(platform)))"
        case .start(let r): return "try rt\(r).start()"
        case .stop(let r): return "try rt\(r).stop()"
        case .releaseRuntime(let r): return "release(rt\(r))"
        case .runtimeSend(let r, let kind): return "rt\(r).send(\(kind.letter))"
        case .runtimeNavigate(let r, let list): return "try rt\(r).navigate(to: \(routes(list)))"
        case .push(let s, let x): return "try \(n(s)).push(\(n(x)))"
        case .pop(let s): return "try \(n(s)).pop()"
        case .popTo(let s, let x): return "try \(n(s)).pop(to: \(n(x)))"
        case .popToRoot(let s): return "try \(n(s)).popToRoot()"
        case .setStack(let s, let list):
            return "try \(n(s)).setStack([" + list.map(n).joined(separator: ", ") + "])"
        case .platformPop(let s): return "try \(n(s)).platformDidPop()"
        case .platformPopTo(let s, let x): return "try \(n(s)).platformDidPop(to: \(n(x)))"
        case .embed(let p, let x): return "try \(n(p)).embed(\(n(x)))"
        case .switchTo(let p, let x): return "try \(n(p)).switch(to: \(n(x)))"
        case .switchRoute(let p, let route):
            return "try \(n(p)).switch(to: \"r\(route)\" as FlowRoute)"
        case .present(let p, let x): return "try \(n(p)).present(\(n(x)))"
        case .dismiss(let p): return "try \(n(p)).dismiss()"
        case .platformDismiss(let p): return "try \(n(p)).platformDidDismiss()"
        case .navigate(let x, let list, let reentering):
            return
                "try \(n(x)).navigate(to: \(routes(list))\(reentering ? ", reentering: true" : ""))"
        case .send(let x, let kind): return "\(n(x)).send(\(kind.letter))"
        case .exitGuard(let x, let spec):
            return "\(n(x)).exitGuard = \(spec.map(\.description) ?? "nil")"
        case .entryGuard(let x, let spec):
            return "\(n(x)).entryGuard = \(spec.map(\.description) ?? "nil")"
        case .on(let x, let kind, let handler): return "\(n(x)).on(\(kind.letter).self) \(handler)"
        case .removeHandler(let x, let kind):
            return "\(n(x)).removeHandler(for: \(kind.letter).self)"
        case .register(let x, let route, let factory):
            return "\(n(x)).register(\"r\(route)\") \(factory)"
        case .setValue(let x, let key, let token):
            return "\(n(x)).dependencies[\(key.label)] = t\(token)"
        case .removeValue(let x, let key):
            return "\(n(x)).dependencies.removeValue(for: \(key.label))"
        case .task(let x):
            return "\(n(x)).task { while !Task.isCancelled { await Task.yield() }; _ = node }"
        case .hook(let x, let hook, let action):
            return "\(n(x)).\(hook.label) = { \(action) }  // once"
        case .armHost(let r, let action): return "host(rt\(r)).onNextChange { \(action) }"
        case .armTrace(let r, let action): return "rt\(r).trace.onNextChangeRecord { \(action) }"
        case .makeTabs(let id, let route, let tabs, let selected):
            var args = "name: \"n\(id)\""
            if let route { args += ", route: \"r\(route)\"" }
            args += ", tabs: [" + tabs.map(n).joined(separator: ", ") + "], selected: \(selected)"
            return "let \(n(id)) = FlowTabs(\(args))"
        case .select(let t, let x): return "try \(n(t)).select(\(n(x)))"
        case .selectAt(let t, let index): return "try \(n(t)).select(at: \(index))"
        case .platformSelect(let t, let x): return "try \(n(t)).platformDidSelect(\(n(x)))"
        case .setTabs(let t, let list, let index):
            let tabs = "[" + list.map(n).joined(separator: ", ") + "]"
            return "try \(n(t)).setTabs(\(tabs)\(index.map { ", selecting: \($0)" } ?? ""))"
        case .reselectionPops(let t, let on): return "\(n(t)).reselectionPopsToRoot = \(on)"
        case .writeSelection(let t, let x):
            return "\(n(t)).selectionBinding = \(bindingValue(x))"
        case .writePath(let s, let list):
            return "\(n(s)).pathBinding = [" + list.map(bindingValue).joined(separator: ", ") + "]"
        case .writePresented(let p, let x):
            return "\(n(p)).presentedBinding = \(x.map(n) ?? "nil")"
        case .unwind(let x, let t): return "try \(n(x)).unwind(to: \(n(t)))"
        case .runtimeUnwind(let r, let t): return "try rt\(r).unwind(to: \(n(t)))"
        case .advance(let r, let ms): return "platform(rt\(r)).advance(by: \(ms))"
        case .runUntilIdle(let r): return "platform(rt\(r)).runUntilIdle()"
        case .swipeBack(let r, let s):
            return
                "gesture(rt\(r)) = try platform(rt\(r)).swipeBack(on: \(n(s)), in: transitions(rt\(r)))"
        case .dragDown(let r, let p):
            return
                "gesture(rt\(r)) = try platform(rt\(r)).dragDown(sheetOf: \(n(p)), in: transitions(rt\(r)))"
        case .updateGesture(let r, let percent):
            return "gesture(rt\(r)).update(progress: \(Double(percent) / 100))"
        case .releaseGesture(let r):
            return "platform(rt\(r)).release(gesture(rt\(r)), on: its container)"
        case .cancelGesture(let r): return "platform(rt\(r)).cancel(gesture(rt\(r)))"
        case .tapBack(let r, let s): return "try platform(rt\(r)).tapBack(on: \(n(s)))"
        case .tapTab(let r, let t, let index):
            return "try platform(rt\(r)).tapTab(at: \(index), of: \(n(t)))"
        case .makeSplit(let id, let route, let columns, let focus, let preferred, let collapsed):
            var args = "name: \"n\(id)\""
            if let route { args += ", route: \"r\(route)\"" }
            args += ", sidebar: \(n(columns[0]))"
            if columns.count > 2 { args += ", content: \(n(columns[1]))" }
            args += ", detail: \(columns.last.map(n) ?? "?")"
            args += ", focus: .\(fuzzColumnName(focus))"
            args += ", preferredCompactColumn: .\(fuzzColumnName(preferred))"
            if collapsed { args += ", collapsed: true" }
            return "let \(n(id)) = FlowSplit(\(args))"
        case .focusColumn(let s, let column): return "try \(n(s)).focus(.\(fuzzColumnName(column)))"
        case .focusRegion(let s, let x, let platform):
            return "try \(n(s)).\(platform ? "platformDidFocus" : "focus")(\(n(x)))"
        case .show(let s, let shown, let clearing, let single):
            if single, let only = shown.first {
                return "try \(n(s)).show(\(n(only.node)), in: .\(fuzzColumnName(only.column)))"
            }
            let map =
                shown.isEmpty
                ? "[:]"
                : "["
                    + shown.map { ".\(fuzzColumnName($0.column)): \(n($0.node))" }
                    .joined(separator: ", ") + "]"
            let cleared = clearing.map { ".\(fuzzColumnName($0))" }.joined(separator: ", ")
            return "try \(n(s)).show(\(map), clearing: [\(cleared)])"
        case .collapse(let s): return "try \(n(s)).platformDidCollapse()"
        case .expand(let s): return "try \(n(s)).platformDidExpand()"
        case .popCompact(let s, let x): return "try \(n(s)).platformDidPopCompact(to: \(n(x)))"
        case .writePreferred(let s, let column):
            return "\(n(s)).preferredCompactColumn = .\(fuzzColumnName(column))"
        case .navigateSteps(let x, let paths, let reentering):
            func steps(_ path: [FuzzStep]) -> String {
                "[" + path.map(\.description).joined(separator: ", ") + "]"
            }
            if paths.count == 1 {
                return
                    "try \(n(x)).navigate(to: \(steps(paths[0]))\(reentering ? ", reentering: true" : ""))"
            }
            return "try \(n(x)).navigate(toEach: [" + paths.map(steps).joined(separator: ", ")
                + "])"
        }
    }
}

/// The source of the generator's choices: SplitMix64 (small, fast and seedable, so a seed
/// replays a run exactly), or the bytes of a fuzzer's input (the `operations` fuzz target,
/// Fuzz/Sources/flowkit-fuzz/OperationsTarget.swift), read in order, one byte per choice (two
/// when there are more than 256 options), every choice 0 once the bytes are used up.
struct FuzzRandom {
    private var state: UInt64
    private let bytes: [UInt8]?
    private var offset = 0

    init(seed: UInt64) {
        state = seed
        bytes = nil
    }

    init(bytes: [UInt8]) {
        state = 0
        self.bytes = bytes
    }

    /// Whether the choices come from bytes and every byte has been used.
    var exhausted: Bool { bytes.map { offset >= $0.count } ?? false }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The next byte of the input, 0 once they are used up.
    private mutating func byte() -> UInt64 {
        guard let bytes, offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return UInt64(bytes[offset])
    }

    /// A number in `0..<bound`.
    mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0)
        guard bytes != nil else { return Int(next() % UInt64(bound)) }
        if bound == 1 { return 0 }
        let value = bound <= 256 ? byte() : byte() << 8 | byte()
        return Int(value % UInt64(bound))
    }

    /// `true` with probability `percent` / 100.
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    mutating func pick<T>(_ items: [T]) -> T? {
        items.isEmpty ? nil : items[below(items.count)]
    }
}
