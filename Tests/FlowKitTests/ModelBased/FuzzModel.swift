import FlowKit

/// A line the model expects in a log: one of several texts (an exited node's path may be its
/// last path or its bare name), or any line starting with a prefix.
struct FuzzExpect: CustomStringConvertible {
    var options: [String]
    var isPrefix = false

    init(_ text: String) { options = [text] }
    init(options: [String]) { self.options = options }
    init(prefix: String) {
        options = [prefix]
        isPrefix = true
    }

    func matches(_ line: String) -> Bool {
        isPrefix ? line.hasPrefix(options[0]) : options.contains(line)
    }

    var description: String {
        isPrefix ? options[0] + "…" : options.joined(separator: " | ")
    }
}

/// A refusal the model expects: any of the candidates (paths of exited nodes have two forms).
struct FuzzRefusal: Error {
    var candidates: [FlowError]
}

/// The model: a plain description of what FlowKit should do, kept independently of FlowKit.
@MainActor
final class FuzzModel {
    struct Node {
        let id: FuzzID
        let kind: FuzzKind
        let name: String
        let route: Int?
        var initialRoute: Int?
        var parent: FuzzID?
        var children: [FuzzID] = []
        var presented: FuzzID?
        var state: FlowLifecycleState = .created
        var isActive = false
        var runtime: Int?
        var rootOf: Int?
        var held = false
        var lastPath: String?
        var handlers: [FuzzEventKind: FuzzHandler] = [:]
        var exitGuard: FuzzGuard?
        var entryGuard: FuzzGuard?
        var factories: [Int: FuzzFactory] = [:]
        var values: [FuzzKey: Int] = [:]
        var hooks: [FuzzHook: FuzzAction] = [:]
        var pendingTasks = 0
        var runningTasks = 0
        /// Tasks still running when the node exited: they keep it allocated until they return.
        var tasksAtExit = 0
        /// A tab container's selected index, and whether reselecting pops to the root.
        var selected = 0
        var reselectionPops = false

        /// Whether closures the node keeps capture it (a cycle while it is not in a tree).
        var capturesItself: Bool {
            pendingTasks > 0 || exitGuard?.captures == true || entryGuard?.captures == true
                || handlers.values.contains { $0.captures }
        }
    }

    struct Runtime {
        var root: FuzzID?
        var held = true
        var running = false
        var started = false
        var depth = 0
        var applying = false
        var queue: [Queued] = []
        var focused: [FuzzID] = []
        var armedHost: FuzzAction?
        var armedTrace: FuzzAction?
        /// The change a guard redirected, kept as the runtime's pending intent.
        var intent: PendingIntent?
    }

    /// A pending intent: its description (as `runtime.pendingIntent` and the trace give it),
    /// the nodes asking for it again keeps alive, and the node the redirect reached.
    struct PendingIntent {
        var id: Int
        var description: String
        var holds: [FuzzID]
        var flow: FuzzID?
    }

    /// What the operation being performed would keep if a guard redirected it.
    enum IntentSpec {
        /// A container's operation: described by the change's kind and domain.
        case composition(holds: [FuzzID])
        case navigate(FuzzID, [Int])
        case unwind(FuzzID, FuzzID)
    }

    /// A guard's redirect, carried from the guard to the end of the check phase.
    struct Redirect: Error {
        var node: String
        var routes: [Int]
    }

    enum Queued {
        case event(FuzzEventKind, seq: Int, origin: FuzzID?)
        case change(FuzzOp, context: String)
        /// The redirect of the pending intent `id`: a navigation from the root.
        case redirect(id: Int, routes: [Int])
    }

    enum Context {
        case top, handler, queued
        /// A guard or factory: changes of a tree being changed are refused.
        case checking(String)
        /// A lifecycle hook or an observer: changes are queued.
        case deferred(String)

        var name: String {
            switch self {
            case .top: return "top"
            case .handler: return "handler"
            case .queued: return "queued"
            case .checking(let name), .deferred(let name): return name
            }
        }
    }

    struct Layout {
        let container: FuzzID
        var children: [FuzzID]
        var presented: FuzzID?
    }

    struct Change {
        var kind: FlowChange.Kind
        var domain: FuzzID?
        var removals: [FuzzID] = []
        var layouts: [Layout] = []
        var insertions: [(node: FuzzID, container: FuzzID?)] = []
        var fills: [FuzzID] = []
        var platform = false
        /// Tab containers and the index the change selects (see ``FuzzModel/movedSelections(_:)``).
        var selections: [FuzzID: Int] = [:]

        /// Whether nothing exits, enters, is filled or reordered (selections aside).
        var changesNoContent: Bool {
            removals.isEmpty && insertions.isEmpty && fills.isEmpty && !reorders
        }
        /// A setStack that only reorders kept entries is still a change.
        var reorders = false
        /// The node a navigation (`navigate`, `unwind`) was asked of: applied, it replaces a
        /// pending intent whose flow does not contain it.
        var replacesIntentFrom: FuzzID?
    }

    var nodes: [FuzzID: Node] = [:]
    var runtimes: [Int: Runtime] = [:]
    var journal: [FuzzExpect] = []
    /// The senders of the events being delivered, innermost last.
    var delivering: [FuzzID] = []
    var trace: [FuzzExpect] = []
    var host: [FuzzExpect] = []
    var tokens: Set<Int> = []
    var nextFresh = 1_000_000
    var eventSeq = 0
    var quiet = false
    var actionBudget = 64
    /// Set by a step whose logs are compared loosely (a runtime released without stop).
    var lenient = false
    private var applyingRuntimes: [Int] = []
    /// The node each `D` event carries, by sequence number.
    var carriedBySeq: [Int: FuzzID] = [:]
    /// The node carried by each event whose handler runs, innermost last.
    var carrying: [FuzzID?] = []
    /// Runtimes performing a redirect (their guards cannot keep another intent).
    var redirecting: Set<Int> = []
    var intentCount = 0
    /// What the operation being performed keeps if a guard redirects it (`nil`: nothing).
    var currentIntent: IntentSpec?
    /// The error of the factory that last failed, for a path FlowKit names prospectively.
    var factoryError: ((String) -> FlowError)?

    /// FlowKit bugs the random test found and that are not fixed yet, each with a known-issue
    /// regression test in `TabsFuzzFindingsTests`. While a name is listed, the model expects
    /// what FlowKit does now (so the random test keeps covering the operation); with
    /// `FLOWKIT_FUZZ_STRICT=1` the list is empty and the model expects the documented
    /// behaviour. Remove a name (and the branch that reads it) once its bug is fixed.
    ///
    /// - `embedKeepsTabIndex`: a tab container's `embed(_:)` (or a reentering navigation
    ///   that removes its tabs) keeps `selectedIndex`, which may then name no tab.
    /// - `noOpSetTabsReported`: `setTabs(_:selecting:)` with the current tabs and selection
    ///   commits an empty `setStack` change (host and trace told) where `setStack(_:)` with the
    ///   current entries commits nothing.
    /// - `setTabsWhilePresenting`: `setTabs(_:selecting:)` without an index, on a tab
    ///   container that presents a node, selects the first tab instead of keeping the selected
    ///   one (it looks for the focused child, the presented node, among the new tabs).
    static let knownIssues: Set<String> = []
    static var tolerated = knownIssues
    /// The identity FlowKit gave the node the tester calls `id`, as `#<raw>` (for the text of
    /// refused binding writes); set by the runner.
    var identity: (FuzzID) -> String = { _ in "#?" }

    // MARK: Paths and errors

    func livePath(_ id: FuzzID) -> String {
        if let cached = snapshot?.paths[id] { return cached }
        var names: [String] = []
        var current: FuzzID? = id
        while let node = current.flatMap({ nodes[$0] }) {
            names.append(node.name)
            current = node.parent
        }
        let path = names.reversed().joined(separator: "/")
        snapshot?.paths[id] = path
        return path
    }

    /// Paths and dependency values remembered while nothing changes (the runner's checks
    /// after a step ask for every node's, each walking up the tree): see ``frozen(_:)``.
    private var snapshot: (paths: [FuzzID: String], values: [FuzzID: [Int?]])?

    /// Runs `body` with paths and lookups remembered; `body` must not change the model.
    func frozen<T>(_ body: () throws -> T) rethrows -> T {
        snapshot = ([:], [:])
        defer { snapshot = nil }
        return try body()
    }

    /// The values a node sees for every key, from itself up (memoized while frozen).
    private func inherited(_ id: FuzzID) -> [Int?] {
        if let cached = snapshot?.values[id] { return cached }
        guard let parent = nodes[id]?.parent, let own = nodes[id]?.values else {
            var values: [Int?] = [nil, nil]
            for (key, token) in nodes[id]?.values ?? [:] { values[key.rawValue] = token }
            snapshot?.values[id] = values
            return values
        }
        var values = inherited(parent)
        for (key, token) in own { values[key.rawValue] = token }
        snapshot?.values[id] = values
        return values
    }

    /// The accepted values of `path`: an exited node may report its last path or its name.
    func paths(_ id: FuzzID) -> [String] {
        guard let node = nodes[id] else { return ["?"] }
        guard node.state == .exited else { return [livePath(id)] }
        let last = node.lastPath ?? node.name
        return last == node.name ? [last] : [last, node.name]
    }

    func refusal(_ id: FuzzID, _ make: (String) -> FlowError) -> FuzzRefusal {
        FuzzRefusal(candidates: paths(id).map(make))
    }

    func refusal(
        _ a: FuzzID, _ b: FuzzID, _ make: (String, String) -> FlowError
    ) -> FuzzRefusal {
        FuzzRefusal(candidates: paths(a).flatMap { pa in paths(b).map { make(pa, $0) } })
    }

    func isAncestorOrSelf(_ candidate: FuzzID, of id: FuzzID) -> Bool {
        var current: FuzzID? = id
        while let node = current {
            if node == candidate { return true }
            current = nodes[node]?.parent
        }
        return false
    }

    func runtimeOf(_ id: FuzzID) -> Int? {
        guard let r = nodes[id]?.runtime, runtimes[r]?.held == true else { return nil }
        return r
    }

    /// The runtime of the tree `id` is in: its own, else its nearest ancestor's (an offline
    /// descendant of a runtime's root that has not started has none of its own).
    func treeRuntimeOf(_ id: FuzzID) -> Int? {
        var current: FuzzID? = id
        while let node = current {
            if let r = runtimeOf(node) { return r }
            current = nodes[node]?.parent
        }
        return nil
    }

    func lookup(_ id: FuzzID, _ key: FuzzKey) -> Int? {
        guard nodes[id]?.state != .exited else { return nil }
        return inherited(id)[key.rawValue]
    }

    /// ``lookup(_:_:)`` for every key (by raw value) of a node in `state`.
    func lookupAll(_ id: FuzzID, state: FlowLifecycleState) -> [Int?] {
        state == .exited ? [nil, nil] : inherited(id)
    }

    // MARK: Node creation

    @discardableResult
    func create(_ id: FuzzID, _ kind: FuzzKind, route: Int?, name: String? = nil) -> FuzzID {
        nodes[id] = Node(id: id, kind: kind, name: name ?? "n\(id)", route: route)
        return id
    }

    func freshID() -> FuzzID {
        nextFresh += 1
        return nextFresh
    }

    /// A new event's sequence number; a `D` event carries a fresh node made for it.
    func newEvent(_ kind: FuzzEventKind) -> Int {
        eventSeq += 1
        if kind == .d {
            let id = freshID()
            create(id, .plain, route: nil, name: "c\(id)")
            carriedBySeq[eventSeq] = id
        }
        return eventSeq
    }

    // MARK: Operations

    /// Applies a top-level operation; returns the refusal it should throw, if any.
    func apply(_ op: FuzzOp) -> FuzzRefusal? {
        do {
            try perform(op, context: .top)
            return nil
        } catch let refusal as FuzzRefusal {
            return refusal
        } catch {
            preconditionFailure("unexpected \(error)")
        }
    }

    /// Whether node `id` exists (optionally creating it fresh, as the real side does).
    private func resolve(_ id: FuzzID, fresh: Bool) -> Bool {
        if nodes[id] != nil { return true }
        if fresh {
            create(id, .plain, route: nil)
            return true
        }
        return false
    }

    func perform(_ op: FuzzOp, context: Context, fresh: Bool = false) throws {
        func has(_ id: FuzzID) -> Bool { resolve(id, fresh: fresh) }
        func isStack(_ id: FuzzID) -> Bool { has(id) && nodes[id]!.kind == .stack }
        func isSwitch(_ id: FuzzID) -> Bool { has(id) && nodes[id]!.kind == .switcher }
        func isTabs(_ id: FuzzID) -> Bool { has(id) && nodes[id]!.kind == .tabs }
        func isWritable(_ id: FuzzID) -> Bool { id == fuzzBogusID || has(id) }
        let savedIntent = currentIntent
        currentIntent = op.isChange ? .composition(holds: intentHolds(op)) : nil
        defer { currentIntent = savedIntent }
        switch op {
        case .make(let id, let kind, let route, let initial):
            create(id, kind, route: route)
            nodes[id]!.initialRoute = initial
            nodes[id]!.held = true
        case .drop(let id):
            nodes[id]?.held = false
        case .releaseOffMain(let id):
            guard let node = nodes[id], node.held, node.parent == nil, node.rootOf == nil,
                node.state == .created
            else {
                journal.append(FuzzExpect("skip \(op)"))
                return
            }
            nodes[id]!.held = false
        case .newRuntime(let r, let root):
            guard let node = nodes[root], node.parent == nil, node.rootOf == nil,
                node.state == .created, runtimes[r] == nil
            else {
                journal.append(FuzzExpect("skip \(op)"))
                return
            }
            runtimes[r] = Runtime(root: root)
            nodes[root]!.rootOf = r
            nodes[root]!.runtime = r
        case .releaseRuntime(let r):
            guard runtimes[r]?.held == true else {
                journal.append(FuzzExpect("skip \(op)"))
                return
            }
            releaseRuntime(r)
        case .start(let r):
            guard runtimes[r]?.held == true else { return }
            guard !runtimes[r]!.started, let root = runtimes[r]!.root else {
                throw FuzzRefusal(candidates: [.runtimeAlreadyStarted])
            }
            currentIntent = nil
            var change = Change(kind: .start, domain: nil)
            change.insertions.append((root, nil))
            try outermost(r) { try commit(change, in: r) }
            runtimes[r]!.started = true
        case .stop(let r):
            guard runtimes[r]?.held == true else { return }
            guard runtimes[r]!.running, let root = runtimes[r]!.root else {
                throw FuzzRefusal(candidates: [.runtimeNotStarted])
            }
            currentIntent = nil
            var change = Change(kind: .stop, domain: nil)
            change.removals.append(root)
            try outermost(r) { try commit(change, in: r) }
        case .runtimeSend(let r, let kind):
            let seq = newEvent(kind)
            guard runtimes[r]?.held == true, runtimes[r]!.running else { return }
            send(kind, seq: seq, origin: nil, in: r)
        case .send(let id, let kind):
            let seq = newEvent(kind)
            guard has(id), let r = runtimeOf(id) else { return }
            send(kind, seq: seq, origin: id, in: r)
        case .runtimeNavigate(let r, let routes):
            guard runtimes[r]?.held == true else { return }
            guard runtimes[r]!.running, let root = runtimes[r]!.root else {
                throw FuzzRefusal(candidates: [.runtimeNotStarted])
            }
            currentIntent = .navigate(root, routes)
            try navigate(root, routes, reentering: false, context: context)
        case .navigate(let id, let routes, let reentering):
            guard has(id) else { return }
            currentIntent = .navigate(id, routes)
            try navigate(id, routes, reentering: reentering, context: context)
        case .unwind(let x, let t):
            guard nodes[x] != nil, nodes[t] != nil else { return }
            currentIntent = .unwind(x, t)
            try unwind(from: x, to: t)
        case .runtimeUnwind(let r, let t):
            guard runtimes[r]?.held == true, nodes[t] != nil else { return }
            guard runtimes[r]!.running, let focused = runtimes[r]!.focused.last else {
                throw FuzzRefusal(candidates: [.runtimeNotStarted])
            }
            currentIntent = .unwind(focused, t)
            try unwind(from: focused, to: t)
        case .push(let s, let x):
            guard isStack(s), has(x) else { return }
            try validateNew(s, [x])
            try change(s, .push, context: context) { change in append(x, to: s, &change) }
        case .pop(let s):
            guard isStack(s) else { return }
            try exitedCheck(s)
            let below = try entryBelowTop(s)
            try pop(s, to: below, kind: .pop, platform: false, context: context)
        case .platformPop(let s):
            guard isStack(s) else { return }
            try exitedCheck(s)
            let below = try entryBelowTop(s)
            try pop(s, to: below, kind: .platformPop, platform: true, context: context)
        case .popTo(let s, let x):
            guard isStack(s), has(x) else { return }
            try exitedCheck(s)
            try pop(s, to: x, kind: .popTo, platform: false, context: context)
        case .platformPopTo(let s, let x):
            guard isStack(s), has(x) else { return }
            try exitedCheck(s)
            try pop(s, to: x, kind: .platformPop, platform: true, context: context)
        case .popToRoot(let s):
            guard isStack(s) else { return }
            try exitedCheck(s)
            guard let bottom = nodes[s]!.children.first else {
                throw refusal(s) { .emptyStack(stack: $0) }
            }
            try pop(s, to: bottom, kind: .popTo, platform: false, context: context)
        case .setStack(let s, let list):
            guard isStack(s), list.allSatisfy(has) else { return }
            let current = nodes[s]!.children
            let newNodes = list.filter { !current.contains($0) }
            try validateNew(s, newNodes)
            var seen = Set<FuzzID>()
            for x in list where !seen.insert(x).inserted {
                throw refusal(x) { .duplicateNode(node: $0) }
            }
            try change(s, .setStack, context: context) { change in
                setChildren(list, of: s, &change)
            }
        case .embed(let p, let x):
            guard has(p), has(x) else { return }
            try replaceChildren(p, with: x, kind: .embed, context: context)
        case .switchTo(let p, let x):
            guard isSwitch(p), has(x) else { return }
            try replaceChildren(p, with: x, kind: .switch, context: context)
        case .switchRoute(let p, let route):
            guard isSwitch(p) else { return }
            try exitedCheck(p)
            if let current = nodes[p]!.children.first, nodes[current]!.route == route { return }
            if let r = runtimeOf(p), nodes[p]!.state == .entered {
                try outermost(r) {
                    let child = try whileChecking(r) { try makeChild(of: p, route: route) }
                    try replaceChildren(p, with: child, kind: .switch, context: context)
                }
            } else {
                let child = try makeChild(of: p, route: route)
                try replaceChildren(p, with: child, kind: .switch, context: context)
            }
        case .present(let p, let x):
            guard has(p), has(x) else { return }
            try validateNew(p, [x])
            if let presented = nodes[p]!.presented {
                throw refusal(p, presented) { .alreadyPresenting(presenter: $0, presented: $1) }
            }
            try change(p, .present, context: context) { change in
                let index = layoutIndex(p, &change)
                change.layouts[index].presented = x
                change.insertions.append((x, p))
            }
        case .dismiss(let p), .platformDismiss(let p):
            guard has(p) else { return }
            try exitedCheck(p)
            guard let presented = nodes[p]!.presented else {
                throw refusal(p) { .nothingPresented(presenter: $0) }
            }
            let platform: Bool
            if case .platformDismiss = op { platform = true } else { platform = false }
            try change(
                p, platform ? .platformDismiss : .dismiss, platform: platform, context: context
            ) {
                change in remove(presented, from: p, &change)
            }
        case .exitGuard(let id, let spec):
            guard has(id), nodes[id]!.state != .exited else { return }
            nodes[id]!.exitGuard = spec
        case .entryGuard(let id, let spec):
            guard has(id), nodes[id]!.state != .exited else { return }
            nodes[id]!.entryGuard = spec
        case .on(let id, let kind, let spec):
            guard has(id), nodes[id]!.state != .exited else { return }
            nodes[id]!.handlers[kind] = spec
        case .removeHandler(let id, let kind):
            guard has(id) else { return }
            nodes[id]!.handlers[kind] = nil
        case .register(let id, let route, let spec):
            guard has(id), nodes[id]!.state != .exited else { return }
            nodes[id]!.factories[route] = spec
        case .setValue(let id, let key, let token):
            tokens.insert(token)
            guard has(id), nodes[id]!.state != .exited else { return }
            nodes[id]!.values[key] = token
        case .removeValue(let id, let key):
            guard has(id) else { return }
            nodes[id]!.values[key] = nil
        case .task(let id):
            guard has(id) else { return }
            switch nodes[id]!.state {
            case .created: nodes[id]!.pendingTasks += 1
            case .entered: nodes[id]!.runningTasks += 1
            case .exited: break
            }
        case .hook(let id, let hook, let action):
            guard has(id) else { return }
            nodes[id]!.hooks[hook] = action
        case .armHost(let r, let action):
            runtimes[r]?.armedHost = action
        case .armTrace(let r, let action):
            runtimes[r]?.armedTrace = action
        case .makeTabs(let id, let route, let list, let selected):
            let fresh = list.allSatisfy { tab in
                nodes[tab].map { $0.state == .created && $0.parent == nil && $0.rootOf == nil }
                    ?? false
            }
            guard fresh, Set(list).count == list.count,
                list.indices.contains(selected) || (list.isEmpty && selected == 0)
            else {
                journal.append(FuzzExpect("skip \(op)"))
                return
            }
            create(id, .tabs, route: route)
            nodes[id]!.held = true
            nodes[id]!.children = list
            nodes[id]!.selected = selected
            for tab in list { nodes[tab]!.parent = id }
        case .select(let t, let x), .platformSelect(let t, let x):
            guard isTabs(t), has(x) else { return }
            var platform = false
            if case .platformSelect = op { platform = true }
            try select(x, in: t, platform: platform, context: context)
        case .selectAt(let t, let index):
            guard isTabs(t) else { return }
            let tabs = nodes[t]!.children
            guard tabs.indices.contains(index) else {
                try exitedCheck(t)
                throw refusal(t) { .notATab(tabs: $0, node: "tab index \(index)") }
            }
            try select(tabs[index], in: t, platform: false, context: context)
        case .setTabs(let t, let list, let index):
            guard isTabs(t), list.allSatisfy(has) else { return }
            try exitedCheck(t)
            let current = nodes[t]!.children
            try validateNew(t, list.filter { !current.contains($0) })
            var seen = Set<FuzzID>()
            for x in list where !seen.insert(x).inserted {
                throw refusal(x) { .duplicateNode(node: $0) }
            }
            if let index, !(list.isEmpty && index == 0), !list.indices.contains(index) {
                throw refusal(t) { .notATab(tabs: $0, node: "tab index \(index)") }
            }
            // The documented rule: the selection stays on the selected tab if it remains.
            let kept =
                Self.tolerated.contains("setTabsWhilePresenting") ? focusedChild(t) : selectedTab(t)
            let newIndex = index ?? kept.flatMap { list.firstIndex(of: $0) } ?? 0
            try change(t, .setStack, context: context) { change in
                setChildren(list, of: t, &change)
                change.selections[t] = newIndex
            }
        case .reselectionPops(let t, let on):
            guard isTabs(t) else { return }
            nodes[t]!.reselectionPops = on
        case .writeSelection(let t, let x):
            guard isTabs(t), x.map(isWritable) ?? true else { return }
            guard let x, nodes[t]!.children.contains(x) else {
                let written = x.map(identity) ?? "nil"
                refuseBindingWrite(t, "selectionBinding", reason: "\(written) is not a tab")
                return
            }
            // The selected tab written again (with no reselection pop to make) is no change.
            if x == focusedChild(t) && !nodes[t]!.reselectionPops { return }
            bindingCall(.platformSelect(t, x), "selectionBinding", on: t, context: context)
        case .writePath(let s, let list):
            guard isStack(s), list.allSatisfy(isWritable) else { return }
            let entries = nodes[s]!.children
            let above = Array(entries.dropFirst())
            if list == above { return }
            guard list.count < above.count, Array(above.prefix(list.count)) == list else {
                refuseBindingWrite(
                    s, "pathBinding",
                    reason: "the platform may only shorten the path (FlowKit pushes)")
                return
            }
            bindingCall(
                .platformPopTo(s, entries[list.count]), "pathBinding", on: s, context: context)
        case .writePresented(let p, let x):
            guard has(p), x.map(has) ?? true else { return }
            if x == nodes[p]!.presented { return }
            guard x == nil else {
                refuseBindingWrite(
                    p, "presentedBinding", reason: "only nil (a dismissal) can be written")
                return
            }
            bindingCall(.platformDismiss(p), "presentedBinding", on: p, context: context)
        }
    }

    // MARK: Tabs and bindings

    /// The child the focused path continues into: the presented node, else a tab container's
    /// selected tab (none if the index names no tab), else the last child.
    func focusedChild(_ id: FuzzID) -> FuzzID? {
        let node = nodes[id]!
        if let presented = node.presented { return presented }
        if node.kind == .tabs { return selectedTab(id) }
        return node.children.last
    }

    func selectedTab(_ id: FuzzID) -> FuzzID? {
        let node = nodes[id]!
        return node.children.indices.contains(node.selected) ? node.children[node.selected] : nil
    }

    /// The stack a reselection of `tab` pops: the tab itself if it is a stack, else the first
    /// stack on its focused path.
    func reselectionStack(_ tab: FuzzID) -> FuzzID? {
        var current: FuzzID? = tab
        while let node = current {
            if nodes[node]!.kind == .stack { return node }
            current = focusedChild(node)
        }
        return nil
    }

    /// Selecting moves activation only; reselecting pops the tab's stack to its bottom entry
    /// when the container says so (guarded unless the platform did it).
    func select(_ x: FuzzID, in t: FuzzID, platform: Bool, context: Context) throws {
        try exitedCheck(t)
        guard let index = nodes[t]!.children.firstIndex(of: x) else {
            throw refusal(t, x) { .notATab(tabs: $0, node: $1) }
        }
        var popped: [FuzzID] = []
        var stack: FuzzID?
        if index == nodes[t]!.selected {
            guard nodes[t]!.reselectionPops, let found = reselectionStack(x),
                nodes[found]!.children.count > 1
            else { return }
            stack = found
            popped = nodes[found]!.children.dropFirst().reversed()
        }
        try change(t, platform ? .platformSelect : .select, platform: platform, context: context) {
            change in
            change.selections[t] = index
            if let stack {
                for entry in popped { remove(entry, from: stack, &change) }
            }
        }
    }

    /// A binding write FlowKit refuses: nothing changes, the error sink and trace of the
    /// runtime whose tree the node is in get it once (if it is in one).
    func refuseBindingWrite(_ node: FuzzID, _ binding: String, reason: String) {
        reportBindingFailure(
            node, binding, paths(node).map { .bindingWriteRefused(node: $0, reason: reason) })
    }

    func reportBindingFailure(_ node: FuzzID, _ binding: String, _ errors: [FlowError]) {
        guard let r = treeRuntimeOf(node) else { return }
        let paths = paths(node)
        trace.append(
            FuzzExpect(
                options: paths.flatMap { path in
                    errors.map { "rt\(r): failed \(binding) at \(path): \($0)" }
                }))
        journal.append(
            FuzzExpect(
                options: paths.flatMap { path in
                    errors.map { "onError \(binding) at \(path) failed: \($0)" }
                }))
    }

    /// What a binding write that FlowKit accepts calls: the platform operation, queued when a
    /// hook or an observer writes (its failure then goes to onError when its turn comes),
    /// else run at once with its failure reported as the binding's.
    func bindingCall(_ op: FuzzOp, _ binding: String, on node: FuzzID, context: Context) {
        if case .deferred(let name) = context, let r = applyingRuntimes.last {
            runtimes[r]!.queue.append(.change(op, context: name))
            return
        }
        do {
            try perform(op, context: context)
        } catch let refusal as FuzzRefusal {
            var candidates = refusal.candidates
            if case .checking = context, let r = runtimeOf(node), runtimes[r]!.applying,
                nodes[node]!.state == .entered
            {
                candidates.append(.changeInProgress(node: livePath(node)))
            }
            reportBindingFailure(node, binding, candidates)
        } catch {
            preconditionFailure("unexpected \(error)")
        }
    }

    /// The selections of a change that move (select another index than the current one).
    func movedSelections(_ change: Change) -> [FuzzID] {
        change.selections.filter { nodes[$0.key]!.selected != $0.value }.map(\.key).sorted()
    }

    /// Whether a planned change changes nothing (FlowKit then commits nothing).
    func isEmpty(_ change: Change) -> Bool {
        if Self.tolerated.contains("noOpSetTabsReported"),
            change.selections.keys.contains(where: { t in
                change.layouts.contains { $0.container == t }
            })
        {
            return false
        }
        return change.changesNoContent && movedSelections(change).isEmpty
    }

    /// Applies a change's selections, after its layouts. A tab container whose tabs changed
    /// otherwise (an `embed`, a reentering navigation) keeps its index while it names a tab,
    /// else selects the first.
    func applySelections(_ change: Change) {
        for (t, index) in change.selections { nodes[t]!.selected = index }
        if Self.tolerated.contains("embedKeepsTabIndex") { return }
        for layout in change.layouts
        where nodes[layout.container]!.kind == .tabs && change.selections[layout.container] == nil {
            let node = nodes[layout.container]!
            if !node.children.indices.contains(node.selected) {
                nodes[layout.container]!.selected = 0
            }
        }
    }

    /// Plans `container`'s children to be exactly `list` (kept ones stay, others exit or
    /// enter).
    func setChildren(_ list: [FuzzID], of container: FuzzID, _ change: inout Change) {
        let current = plannedChildren(container, change)
        let kept = Set(list)
        for child in current.reversed() where !kept.contains(child) {
            remove(child, from: container, &change)
        }
        let index = layoutIndex(container, &change)
        change.layouts[index].children = list
        for x in list where !current.contains(x) {
            change.insertions.append((x, container))
        }
        let keptOrder = list.filter { current.contains($0) }
        let oldOrder = current.filter { kept.contains($0) }
        if keptOrder != oldOrder { change.reorders = true }
    }

    private func exitedCheck(_ id: FuzzID) throws {
        if nodes[id]!.state == .exited { throw refusal(id) { .containerExited(container: $0) } }
    }

    private func entryBelowTop(_ s: FuzzID) throws -> FuzzID {
        let entries = nodes[s]!.children
        guard let top = entries.last else { throw refusal(s) { .emptyStack(stack: $0) } }
        guard entries.count > 1 else {
            throw refusal(s, top) { .cannotPopLastEntry(stack: $0, entry: $1) }
        }
        return entries[entries.count - 2]
    }

    private func pop(
        _ s: FuzzID, to entry: FuzzID, kind: FlowChange.Kind, platform: Bool, context: Context
    ) throws {
        guard let index = nodes[s]!.children.firstIndex(of: entry) else {
            throw refusal(s, entry) { .notInStack(stack: $0, node: $1) }
        }
        let removed = Array(nodes[s]!.children[(index + 1)...].reversed())
        guard !removed.isEmpty else { return }
        try change(s, kind, platform: platform, context: context) { change in
            for node in removed { remove(node, from: s, &change) }
        }
    }

    private func replaceChildren(
        _ p: FuzzID, with x: FuzzID, kind: FlowChange.Kind, context: Context
    ) throws {
        try validateNew(p, [x])
        try change(p, kind, context: context) { change in
            for old in plannedChildren(p, change).reversed() { remove(old, from: p, &change) }
            append(x, to: p, &change)
        }
    }

    func validateNew(_ container: FuzzID, _ list: [FuzzID]) throws {
        try exitedCheck(container)
        var seen = Set<FuzzID>()
        for x in list {
            // Every error that applies to the node is accepted: which one comes first is
            // FlowKit's choice.
            let node = nodes[x]!
            var candidates: [FlowError] = []
            if node.state == .exited {
                candidates += refusal(x) { .nodeExited(node: $0) }.candidates
            }
            if let parent = node.parent {
                candidates +=
                    refusal(x, parent) { .alreadyAttached(node: $0, parent: $1) }.candidates
            }
            if node.rootOf != nil {
                candidates +=
                    refusal(x) { .alreadyAttached(node: $0, parent: "its runtime (root)") }
                    .candidates
            }
            if isAncestorOrSelf(x, of: container) {
                candidates +=
                    refusal(x, container) { .wouldCreateCycle(node: $0, parent: $1) }
                    .candidates
            }
            if !candidates.isEmpty { throw FuzzRefusal(candidates: candidates) }
            if list.count > 1 && !seen.insert(x).inserted {
                throw refusal(x) { .duplicateNode(node: $0) }
            }
        }
    }

    // MARK: Planning

    func layoutIndex(_ container: FuzzID, _ change: inout Change) -> Int {
        if let index = change.layouts.firstIndex(where: { $0.container == container }) {
            return index
        }
        let node = nodes[container]!
        change.layouts.append(
            Layout(container: container, children: node.children, presented: node.presented))
        return change.layouts.count - 1
    }

    func plannedChildren(_ container: FuzzID, _ change: Change) -> [FuzzID] {
        change.layouts.first { $0.container == container }?.children ?? nodes[container]!.children
    }

    func plannedPresented(_ container: FuzzID, _ change: Change) -> FuzzID? {
        if let layout = change.layouts.first(where: { $0.container == container }) {
            return layout.presented
        }
        return nodes[container]!.presented
    }

    func remove(_ node: FuzzID, from container: FuzzID, _ change: inout Change) {
        let index = layoutIndex(container, &change)
        if change.layouts[index].presented == node {
            change.layouts[index].presented = nil
        } else {
            change.layouts[index].children.removeAll { $0 == node }
        }
        change.removals.append(node)
    }

    func removeContent(of container: FuzzID, _ change: inout Change) {
        if let presented = plannedPresented(container, change) {
            remove(presented, from: container, &change)
        }
        for child in plannedChildren(container, change).reversed() {
            remove(child, from: container, &change)
        }
    }

    func append(_ node: FuzzID, to container: FuzzID, _ change: inout Change) {
        let index = layoutIndex(container, &change)
        change.layouts[index].children.append(node)
        change.insertions.append((node, container))
    }

    /// Runs `plan` as a structural change (offline) or a transaction.
    func change(
        _ container: FuzzID, _ kind: FlowChange.Kind, platform: Bool = false, context: Context,
        _ plan: (inout Change) throws -> Void
    ) throws {
        switch nodes[container]!.state {
        case .exited:
            throw refusal(container) { .containerExited(container: $0) }
        case .created:
            var change = Change(kind: kind, domain: container)
            try plan(&change)
            applyOffline(change)
        case .entered:
            guard let r = runtimeOf(container), runtimes[r]!.running else {
                throw refusal(container) { .notInTree(node: $0) }
            }
            var change = Change(kind: kind, domain: container)
            change.platform = platform
            try plan(&change)
            if isEmpty(change) { return }
            try outermost(r) { try commit(change, in: r) }
        }
    }

    func applyOffline(_ change: Change) {
        for layout in change.layouts {
            nodes[layout.container]!.children = layout.children
            nodes[layout.container]!.presented = layout.presented
        }
        applySelections(change)
        for removal in change.removals { nodes[removal]!.parent = nil }
        for insertion in change.insertions { nodes[insertion.node]!.parent = insertion.container }
    }

    func makeChild(of owner: FuzzID, route: Int) throws -> FuzzID {
        guard let spec = nodes[owner]!.factories[route] else {
            throw refusal(owner) { .unknownRoute(route: "r\(route)", node: $0) }
        }
        let id = freshID()
        journal.append(FuzzExpect("factory r\(route) -> f\(id)"))
        factoryError = nil
        if case .mismatch(let offset) = spec {
            // Refused: the node (whose handler captures it) is released with the change.
            let carried = (route + offset) % 4
            create(id, .plain, route: carried, name: "f\(id)")
            let make: (String) -> FlowError = {
                .factoryRouteMismatch(
                    route: "r\(route)", node: $0, built: "f\(id)", builtRoute: "r\(carried)")
            }
            factoryError = make
            throw FuzzRefusal(candidates: paths(owner).map(make))
        }
        create(id, .plain, route: route, name: "f\(id)")
        switch spec {
        case .mismatch:
            break
        case .inUse:
            // Refused: the node and the wrapper the factory made around it are released.
            let wrapperID = freshID()
            let wrapper = create(wrapperID, .plain, route: nil, name: "f\(wrapperID)")
            nodes[id]!.parent = wrapper
            nodes[wrapper]!.children = [id]
            let make: (String) -> FlowError = {
                .factoryNodeInUse(route: "r\(route)", node: $0, built: "f\(wrapper)/f\(id)")
            }
            factoryError = make
            throw FuzzRefusal(candidates: paths(owner).map(make))
        case .plain:
            break
        case .withStack:
            let stack = create(freshID(), .stack, route: nil)
            let entry = create(freshID(), .plain, route: nil)
            nodes[entry]!.parent = stack
            nodes[stack]!.children = [entry]
            nodes[stack]!.parent = id
            nodes[id]!.children = [stack]
        case .effect(let action):
            perform(action, actor: owner, context: .checking("factory"))
        }
        return id
    }

    /// Runs `body` with `r` marked as applying (factories run in the check phase).
    func whileChecking<T>(_ r: Int, _ body: () throws -> T) throws -> T {
        let wasApplying = runtimes[r]!.applying
        runtimes[r]!.applying = true
        applyingRuntimes.append(r)
        defer {
            runtimes[r]!.applying = wasApplying
            applyingRuntimes.removeLast()
        }
        return try body()
    }

    func planStep(
        _ node: FuzzID, toward route: Int, _ change: inout Change
    ) throws -> (FuzzID, Bool) {
        if let presented = plannedPresented(node, change) {
            if nodes[presented]!.route == route { return (presented, false) }
            remove(presented, from: node, &change)
        }
        let children = plannedChildren(node, change)
        if nodes[node]!.kind == .tabs {
            // A step selects the first tab with the route; tabs are never built.
            guard let index = children.firstIndex(where: { nodes[$0]!.route == route }) else {
                throw refusal(node) { .unknownRoute(route: "r\(route)", node: $0) }
            }
            change.selections[node] = index
            return (children[index], false)
        }
        if nodes[node]!.kind == .stack {
            // What lies above the entry is popped once the whole path is planned (`popAbove`).
            if let index = children.lastIndex(where: { nodes[$0]!.route == route }) {
                return (children[index], false)
            }
            let entry = try makeChild(of: node, route: route)
            append(entry, to: node, &change)
            return (entry, true)
        }
        if let last = children.last, nodes[last]!.route == route { return (last, false) }
        let child = try makeChild(of: node, route: route)
        for old in children.reversed() { remove(old, from: node, &change) }
        append(child, to: node, &change)
        return (child, true)
    }

    func buildOffline(_ node: FuzzID, along routes: [Int]) throws {
        var current = node
        for route in routes {
            var scratch = Change(kind: .navigate, domain: current)
            let (next, _) = try planStep(current, toward: route, &scratch)
            applyOffline(scratch)
            current = next
        }
    }

    func prospectivePath(_ node: FuzzID, root: FuzzID, container: FuzzID?) -> String {
        var names: [String] = []
        var current: FuzzID? = node
        while let candidate = current {
            names.append(nodes[candidate]!.name)
            if candidate == root { break }
            current = nodes[candidate]!.parent
        }
        let relative = names.reversed().joined(separator: "/")
        guard let container else { return relative }
        return livePath(container) + "/" + relative
    }

    func prospectivePath(_ node: FuzzID, in change: Change) -> String {
        for insertion in change.insertions where isAncestorOrSelf(insertion.node, of: node) {
            return prospectivePath(node, root: insertion.node, container: insertion.container)
        }
        return livePath(node)
    }

    /// Navigates from `id` (asked by the app unless `redirect`) and returns the node reached.
    @discardableResult
    func navigate(
        _ id: FuzzID, _ routes: [Int], reentering: Bool, context: Context, redirect: Bool = false
    ) throws -> FuzzID {
        let node = nodes[id]!
        if node.state == .exited { throw refusal(id) { .containerExited(container: $0) } }
        guard node.state == .entered, let r = runtimeOf(id), runtimes[r]!.running else {
            throw refusal(id) { .notInTree(node: $0) }
        }
        var reached = id
        try outermost(r) {
            var change = Change(kind: .navigate, domain: id)
            if !redirect { change.replacesIntentFrom = id }
            try whileChecking(r) {
                if reentering { removeContent(of: id, &change) }
                var current = id
                var isNew = false
                var visited: [FuzzID] = []
                for route in routes {
                    if isNew {
                        var scratch = Change(kind: .navigate, domain: current)
                        do {
                            let (next, _) = try planStep(current, toward: route, &scratch)
                            applyOffline(scratch)
                            current = next
                        } catch let refusal as FuzzRefusal {
                            let insertion = change.insertions.last!
                            let path = prospectivePath(
                                current, root: insertion.node, container: insertion.container)
                            throw FuzzRefusal(
                                candidates: refusal.candidates + [
                                    .unknownRoute(route: "r\(route)", node: path)
                                ] + (factoryError.map { [$0(path)] } ?? []))
                        }
                    } else {
                        (current, isNew) = try planStep(current, toward: route, &change)
                    }
                    visited.append(current)
                }
                popAbove(visited, &change)
                if !isNew && reentering && current == id { change.fills.append(id) }
                reached = current
            }
            if isEmpty(change) { return }
            try commit(change, in: r)
        }
        return reached
    }

    // MARK: Transactions

    func outermost(_ r: Int, _ body: () throws -> Void) throws {
        if runtimes[r]!.depth > 0 {
            try body()
            return
        }
        runtimes[r]!.depth = 1
        var failure: Error?
        do { try body() } catch { failure = error }
        drain(r)
        runtimes[r]!.depth = 0
        if let failure { throw failure }
    }

    func drain(_ r: Int) {
        while runtimes[r]!.held, !runtimes[r]!.queue.isEmpty {
            let item = runtimes[r]!.queue.removeFirst()
            switch item {
            case .event(let kind, let seq, let origin):
                deliver(kind, seq: seq, origin: origin, in: r)
            case .change(let op, _):
                do {
                    try perform(op, context: .queued)
                } catch {
                    trace.append(FuzzExpect(prefix: "rt\(r): failed"))
                    journal.append(FuzzExpect(prefix: "onError "))
                }
            case .redirect(let id, let routes):
                performRedirect(id, routes, in: r)
            }
        }
    }

    func exitOrder(_ root: FuzzID) -> [FuzzID] { entryOrder(root).reversed() }

    /// `removals` (roots of disjoint subtrees of runtime `r`'s tree) sorted by the reverse of
    /// the tree's entry order: what is top-most on screen first.
    func inTreeExitOrder(_ removals: [FuzzID], in r: Int) -> [FuzzID] {
        guard removals.count > 1, let root = runtimes[r]!.root else { return removals }
        var position: [FuzzID: Int] = [:]
        for (index, node) in entryOrder(root).enumerated() { position[node] = index }
        return removals.sorted { (position[$0] ?? -1) > (position[$1] ?? -1) }
    }

    func entryOrder(_ root: FuzzID) -> [FuzzID] {
        var result: [FuzzID] = []
        var stack = [root]
        while let node = stack.popLast() {
            result.append(node)
            if let presented = nodes[node]!.presented { stack.append(presented) }
            stack.append(contentsOf: nodes[node]!.children.reversed())
        }
        return result
    }

    func commit(_ planned: Change, in r: Int) throws {
        var change = planned
        if runtimes[r]!.applying {
            let domain = change.domain.map(livePath) ?? runtimes[r]!.root.map(livePath) ?? ""
            throw FuzzRefusal(candidates: [.changeInProgress(node: domain)])
        }
        runtimes[r]!.applying = true
        applyingRuntimes.append(r)
        defer {
            runtimes[r]!.applying = false
            applyingRuntimes.removeLast()
        }
        // One exit order for every change (Architecture.md, Lifecycle): the removed subtrees
        // in the reverse of the whole tree's entry order, each innermost first, whatever
        // order the operation planned them in.
        change.removals = inTreeExitOrder(change.removals, in: r)
        let exitSet = change.removals.flatMap(exitOrder)
        var expanded: [FuzzID] = []
        var entrySet: [FuzzID] = []
        do {
            for fill in change.fills {
                if let route = nodes[fill]!.initialRoute {
                    _ = try planStep(fill, toward: route, &change)
                }
            }
            for insertion in change.insertions {
                try expandDefaults(insertion.node, container: insertion.container, &expanded)
            }
            entrySet = change.insertions.flatMap { entryOrder($0.node) }
            if !change.platform && change.kind != .stop {
                for node in exitSet {
                    if let spec = nodes[node]!.exitGuard,
                        !consult(spec, node, exit: true, paths: [livePath(node)])
                    {
                        if let routes = spec.redirect {
                            throw Redirect(node: livePath(node), routes: routes)
                        }
                        throw refusal(node) { .exitRefused(node: $0, reason: "no") }
                    }
                }
            }
            for node in entrySet {
                if let spec = nodes[node]!.entryGuard,
                    !consult(
                        spec, node, exit: false,
                        paths: [livePath(node), prospectivePath(node, in: change)])
                {
                    if let routes = spec.redirect {
                        throw Redirect(node: prospectivePath(node, in: change), routes: routes)
                    }
                    throw FuzzRefusal(candidates: [
                        .entryRefused(node: prospectivePath(node, in: change), reason: "no")
                    ])
                }
            }
        } catch {
            for node in expanded {
                for child in nodes[node]!.children { nodes[child]!.parent = nil }
                nodes[node]!.children = []
            }
            if let redirect = error as? Redirect {
                throw redirected(redirect, change: change, in: r)
            }
            throw error
        }

        if let from = change.replacesIntentFrom { replaceIntent(in: r, by: from) }
        if change.kind == .start { runtimes[r]!.running = true }
        let exitedPaths = change.removals.map(livePath)
        let moved = movedSelections(change)
        if change.kind == .stop, runtimes[r]!.intent != nil {
            dropIntent(in: r, "the runtime stopped")
        }
        for node in exitSet {
            if let intent = runtimes[r]!.intent, intent.flow == node {
                dropIntent(in: r, "\(livePath(node)) left without finishing")
            }
            hook(.willExit, node)
            trace.append(FuzzExpect("rt\(r): exit \(livePath(node))"))
            nodes[node]!.lastPath = livePath(node)
            nodes[node]!.state = .exited
            nodes[node]!.isActive = false
            nodes[node]!.tasksAtExit = nodes[node]!.runningTasks
            nodes[node]!.runningTasks = 0
            nodes[node]!.pendingTasks = 0
            nodes[node]!.handlers = [:]
            nodes[node]!.values = [:]
            nodes[node]!.factories = [:]
            nodes[node]!.exitGuard = nil
            nodes[node]!.entryGuard = nil
        }
        for layout in change.layouts {
            nodes[layout.container]!.children = layout.children
            nodes[layout.container]!.presented = layout.presented
        }
        applySelections(change)
        for node in exitSet {
            nodes[node]!.parent = nil
            nodes[node]!.children = []
            nodes[node]!.presented = nil
        }
        for insertion in change.insertions {
            nodes[insertion.node]!.parent = insertion.container
            for node in entryOrder(insertion.node) { nodes[node]!.runtime = r }
        }
        for node in entrySet {
            nodes[node]!.state = .entered
            hook(.didEnter, node)
            trace.append(FuzzExpect("rt\(r): enter \(livePath(node))"))
            nodes[node]!.runningTasks += nodes[node]!.pendingTasks
            nodes[node]!.pendingTasks = 0
        }
        if change.kind == .stop {
            runtimes[r]!.running = false
            if let root = runtimes[r]!.root { nodes[root]?.rootOf = nil }
            runtimes[r]!.root = nil
        }
        // A navigation is reported in the deepest node containing every container it touched
        // (reshaped, or a tab container whose selection moved).
        var reported = change.domain
        var touched = change.layouts.map(\.container)
        touched += moved.filter { !touched.contains($0) }
        if change.kind == .navigate || change.kind == .unwind, let first = touched.first {
            var domain = first
            for container in touched.dropFirst() where !isAncestorOrSelf(domain, of: container) {
                var candidate = nodes[domain]!.parent
                while let current = candidate, !isAncestorOrSelf(current, of: container) {
                    candidate = nodes[current]!.parent
                }
                domain = candidate ?? change.domain!
            }
            reported = domain
        }
        // Paths and identities (the tester's ids; see FuzzWorld.describe).
        var record = change.kind.rawValue
        if let reported { record += " \(livePath(reported))#\(reported)" }
        for (removal, path) in zip(change.removals, exitedPaths) {
            record += " -\(path)#\(removal)"
        }
        for insertion in change.insertions {
            record += " +\(livePath(insertion.node))#\(insertion.node)"
        }
        let actor = runtimes[r]!.root
        if !change.platform {
            host.append(FuzzExpect("rt\(r): \(record)"))
            if let action = runtimes[r]!.armedHost {
                runtimes[r]!.armedHost = nil
                perform(action, actor: actor, context: .deferred("host"))
            }
        }
        trace.append(FuzzExpect("rt\(r): change \(record)"))
        if let action = runtimes[r]!.armedTrace {
            runtimes[r]!.armedTrace = nil
            perform(action, actor: actor, context: .deferred("trace"))
        }
        updateFocus(r)
    }

    /// Consults a guard. An entering node may report its path offline or where it will be.
    func consult(_ spec: FuzzGuard, _ node: FuzzID, exit: Bool, paths: [String]) -> Bool {
        let label = exit ? "exitGuard" : "entryGuard"
        journal.append(FuzzExpect(options: paths.map { "\(label) \($0)" }))
        if let effect = spec.effect, !quiet {
            perform(effect, actor: node, context: .checking("guard"))
        }
        return !spec.refuses && spec.redirect == nil
    }

    func expandDefaults(_ root: FuzzID, container: FuzzID?, _ expanded: inout [FuzzID]) throws {
        var pending = [root]
        while let node = pending.popLast() {
            if nodes[node]!.children.isEmpty && nodes[node]!.presented == nil,
                let route = nodes[node]!.initialRoute
            {
                expanded.append(node)
                do {
                    try buildOffline(node, along: [route])
                } catch let refusal as FuzzRefusal {
                    let path = prospectivePath(node, root: root, container: container)
                    throw FuzzRefusal(
                        candidates: refusal.candidates + [
                            .unknownRoute(route: "r\(route)", node: path)
                        ] + (factoryError.map { [$0(path)] } ?? []))
                }
            }
            pending.append(contentsOf: nodes[node]!.children)
            if let presented = nodes[node]!.presented { pending.append(presented) }
        }
    }

    func updateFocus(_ r: Int) {
        var path: [FuzzID] = []
        var current = runtimes[r]!.running ? runtimes[r]!.root : nil
        while let node = current {
            path.append(node)
            current = focusedChild(node)
        }
        let old = runtimes[r]!.focused
        var common = 0
        while common < old.count, common < path.count, old[common] == path[common] { common += 1 }
        runtimes[r]!.focused = path
        for node in old[common...].reversed() where nodes[node]?.state == .entered {
            nodes[node]!.isActive = false
            trace.append(FuzzExpect("rt\(r): deactivate \(livePath(node))"))
            hook(.didResignActive, node)
        }
        for node in path[common...] {
            nodes[node]!.isActive = true
            trace.append(FuzzExpect("rt\(r): activate \(livePath(node))"))
            hook(.didBecomeActive, node)
        }
    }

    func hook(_ hook: FuzzHook, _ node: FuzzID) {
        journal.append(FuzzExpect("\(hook.label) \(livePath(node))"))
        guard !quiet, let action = nodes[node]!.hooks.removeValue(forKey: hook) else { return }
        perform(action, actor: node, context: .deferred("hook"))
    }

    // MARK: Actions and events

    func perform(_ action: FuzzAction, actor: FuzzID?, context: Context) {
        guard actionBudget > 0 else { return }
        actionBudget -= 1
        switch action {
        case .send(let kind):
            let seq = newEvent(kind)
            guard let actor, let r = runtimeOf(actor) else { return }
            send(kind, seq: seq, origin: actor, in: r)
        case .runtimeSend(let kind):
            let seq = newEvent(kind)
            guard let actor, let r = runtimeOf(actor), runtimes[r]!.running else { return }
            send(kind, seq: seq, origin: nil, in: r)
        case .setValue(let id, let key, let token):
            guard nodes[id] != nil else { return }
            tokens.insert(token)
            if nodes[id]!.state != .exited { nodes[id]!.values[key] = token }
        case .composeFresh:
            let stack = create(freshID(), .stack, route: nil)
            let entry = create(freshID(), .plain, route: nil)
            let root = create(freshID(), .plain, route: nil)
            nodes[entry]!.parent = stack
            nodes[stack]!.children = [entry]
            nodes[stack]!.parent = root
            nodes[root]!.children = [stack]
        case .adoptCarried:
            guard let carried = carrying.last ?? nil, let actor else { return }
            let op = FuzzOp.present(actor, carried)
            do {
                try perform(op, context: context)
            } catch let refusal as FuzzRefusal {
                journal.append(
                    FuzzExpect(
                        options: refusal.candidates.map { "\(context.name) \(op) threw \($0)" }))
            } catch {
                preconditionFailure("unexpected \(error)")
            }
        case .op(let op):
            // An exited node nothing holds is already freed on the real side: nothing to call.
            if case .handler = context {
                let live = reachable()
                if let domain = changeDomain(op), isGone(domain, actor: actor, live) { return }
                if namedNodes(op).contains(where: { isGone($0, actor: actor, live) }) { return }
            }
            if case .deferred(let name) = context, op.isChange, !removesNothing(op),
                let r = applyingRuntimes.last
            {
                // Resolve fresh nodes now, as the real side creates them in the hook.
                ensureFresh(op)
                runtimes[r]!.queue.append(.change(op, context: name))
                return
            }
            ensureFresh(op)
            do {
                try perform(op, context: context)
            } catch let refusal as FuzzRefusal {
                var candidates = refusal.candidates
                if case .checking = context, let domain = changeDomain(op),
                    let r = runtimeOf(domain), runtimes[r]!.applying,
                    nodes[domain]!.state == .entered
                {
                    candidates.append(.changeInProgress(node: livePath(domain)))
                }
                journal.append(
                    FuzzExpect(options: candidates.map { "\(context.name) \(op) threw \($0)" }))
            } catch {
                preconditionFailure("unexpected \(error)")
            }
        }
    }

    /// Whether `op` must return a node it removes but has none to remove now: `pop()` on a
    /// stack without entries, `dismiss()` with nothing presented. Asked for from a hook, such
    /// a call throws at once instead of being queued (it has nothing to return).
    func removesNothing(_ op: FuzzOp) -> Bool {
        switch op {
        case .pop(let stack), .platformPop(let stack):
            return nodes[stack]?.children.isEmpty ?? true
        case .dismiss(let node), .platformDismiss(let node):
            return nodes[node]?.presented == nil
        default:
            return false
        }
    }

    /// Creates the nodes an action's operation names that do not exist yet, in the order the
    /// real side resolves them (container first).
    func ensureFresh(_ op: FuzzOp) {
        func ensure(_ id: FuzzID) {
            if nodes[id] == nil { create(id, .plain, route: nil) }
        }
        switch op {
        case .push(let c, let x), .popTo(let c, let x), .platformPopTo(let c, let x):
            guard nodes[c]?.kind == .stack else { return }
            ensure(x)
        case .embed(let c, let x), .present(let c, let x):
            guard nodes[c] != nil else { return }
            ensure(x)
        case .switchTo(let c, let x):
            guard nodes[c]?.kind == .switcher else { return }
            ensure(x)
        case .setStack(let c, let list):
            guard nodes[c]?.kind == .stack else { return }
            list.forEach(ensure)
        case .setTabs(let c, let list, _):
            guard nodes[c]?.kind == .tabs else { return }
            list.forEach(ensure)
        default:
            break
        }
    }

    func changeDomain(_ op: FuzzOp) -> FuzzID? {
        switch op {
        case .push(let c, _), .pop(let c), .popTo(let c, _), .popToRoot(let c),
            .setStack(let c, _), .platformPop(let c), .platformPopTo(let c, _), .embed(let c, _),
            .switchTo(let c, _), .switchRoute(let c, _), .present(let c, _), .dismiss(let c),
            .platformDismiss(let c), .navigate(let c, _, _), .select(let c, _), .selectAt(let c, _),
            .platformSelect(let c, _), .setTabs(let c, _, _), .writeSelection(let c, _),
            .writePath(let c, _), .writePresented(let c, _), .unwind(let c, _):
            return nodes[c] == nil ? nil : c
        default:
            return nil
        }
    }

    func send(_ kind: FuzzEventKind, seq: Int, origin: FuzzID?, in r: Int) {
        if runtimes[r]!.depth > 0 {
            runtimes[r]!.queue.append(.event(kind, seq: seq, origin: origin))
            return
        }
        runtimes[r]!.depth = 1
        deliver(kind, seq: seq, origin: origin, in: r)
        drain(r)
        runtimes[r]!.depth = 0
    }

    func deliver(_ kind: FuzzEventKind, seq: Int, origin: FuzzID?, in r: Int) {
        let name = "\(kind.letter)#\(seq)"
        let carried = carriedBySeq.removeValue(forKey: seq)
        guard let sender = origin ?? runtimes[r]!.focused.last else {
            trace.append(FuzzExpect(prefix: "rt\(r): dropped \(name)"))
            return
        }
        guard nodes[sender]!.state == .entered, nodes[sender]!.runtime == r else {
            trace.append(
                FuzzExpect(
                    options: paths(sender).map {
                        "rt\(r): dropped \(name) from \($0) (sender left the tree)"
                    }))
            return
        }
        trace.append(FuzzExpect("rt\(r): send \(name) from \(livePath(sender))"))
        // The real dispatch holds the sender for the whole delivery: a handler can still
        // reach it after it exits (and gets containerExited when it asks it for a change).
        delivering.append(sender)
        carrying.append(carried)
        defer {
            delivering.removeLast()
            carrying.removeLast()
        }
        var current: FuzzID? = sender
        while let node = current {
            if let handler = nodes[node]!.handlers[kind] {
                journal.append(FuzzExpect("handle \(name) at \(livePath(node))"))
                for action in handler.actions {
                    perform(action, actor: node, context: .handler)
                }
                if handler.handles {
                    trace.append(
                        FuzzExpect(options: paths(node).map { "rt\(r): handled \(name) at \($0)" }))
                    return
                }
                if nodes[sender]!.state != .entered {
                    trace.append(
                        FuzzExpect(
                            options: paths(sender).map {
                                "rt\(r): dropped \(name) from \($0) (sender left the tree)"
                            }))
                    return
                }
            }
            current = nodes[node]!.parent
        }
        trace.append(FuzzExpect("rt\(r): unhandled \(name) from \(livePath(sender))"))
        journal.append(FuzzExpect("unhandled \(name) from \(livePath(sender))"))
    }

    // MARK: Runtimes and memory

    func releaseRuntime(_ r: Int) {
        runtimes[r]!.held = false
        lenient = true
        if runtimes[r]!.running, let root = runtimes[r]!.root {
            for node in exitOrder(root) {
                journal.append(FuzzExpect("willExit \(livePath(node))"))
                nodes[node]!.lastPath = livePath(node)
                nodes[node]!.state = .exited
                nodes[node]!.isActive = false
                nodes[node]!.runningTasks = 0
                nodes[node]!.pendingTasks = 0
                nodes[node]!.handlers = [:]
                nodes[node]!.values = [:]
                nodes[node]!.factories = [:]
                nodes[node]!.exitGuard = nil
                nodes[node]!.entryGuard = nil
            }
            for node in exitOrder(root) {
                nodes[node]!.parent = nil
                nodes[node]!.children = []
                nodes[node]!.presented = nil
            }
        }
        if let root = runtimes[r]!.root { nodes[root]?.rootOf = nil }
        for (id, node) in nodes where node.runtime == r && node.state == .created {
            nodes[id]!.runtime = nil
        }
        runtimes[r]!.running = false
        runtimes[r]!.root = nil
        runtimes[r]!.queue = []
        runtimes[r]!.focused = []
        runtimes[r]!.intent = nil
    }

    /// The nodes that must still be allocated: held by the test, owned by a held runtime,
    /// kept by their own closures (not yet in a tree), or owned by such a node.
    func reachable() -> Set<FuzzID> {
        var marked = Set<FuzzID>()
        var pending: [FuzzID] = []
        for (id, node) in nodes where node.held || (node.state == .created && node.capturesItself) {
            pending.append(id)
        }
        for runtime in runtimes.values where runtime.held {
            if let root = runtime.root { pending.append(root) }
            // A pending intent keeps what asking for its change again needs.
            if let intent = runtime.intent { pending.append(contentsOf: intent.holds) }
        }
        while let id = pending.popLast() {
            guard marked.insert(id).inserted, let node = nodes[id] else { continue }
            pending.append(contentsOf: node.children)
            if let presented = node.presented { pending.append(presented) }
        }
        return marked
    }

    /// Forgets the nodes that must have been freed, unlinking the children they held; returns
    /// their ids.
    func collect() -> [FuzzID] {
        let alive = reachable()
        let freed = nodes.keys.filter { !alive.contains($0) }
        for id in freed {
            for child in nodes[id]!.children where alive.contains(child) {
                nodes[child]!.parent = nil
            }
            if let presented = nodes[id]!.presented, alive.contains(presented) {
                nodes[presented]!.parent = nil
            }
        }
        for id in freed { nodes[id] = nil }
        return freed
    }

    /// The tokens some live node can see: every other token must have been freed.
    func visibleTokens() -> Set<Int> {
        frozen { visibleTokensNow() }
    }

    private func visibleTokensNow() -> Set<Int> {
        var result = Set<Int>()
        for (id, node) in nodes {
            for token in lookupAll(id, state: node.state) {
                if let token { result.insert(token) }
            }
        }
        return result
    }
}

extension FuzzModel {
    /// Whether node `id` is already freed on the real side: exited, and held by nothing (not
    /// the test, not a task that has yet to return, not the closure's own call, not the
    /// delivery of an event it sent).
    func isGone(_ id: FuzzID, actor: FuzzID?, _ live: Set<FuzzID>) -> Bool {
        guard let node = nodes[id] else { return false }
        return !live.contains(id) && node.tasksAtExit == 0 && id != actor
            && !delivering.contains(id) && !carrying.contains(id)
    }

    /// The nodes an operation names besides its container (attached, selected, written to
    /// a binding), which the real side must still find.
    func namedNodes(_ op: FuzzOp) -> [FuzzID] {
        switch op {
        case .push(_, let x), .embed(_, let x), .switchTo(_, let x), .present(_, let x),
            .select(_, let x), .platformSelect(_, let x):
            return [x]
        case .setStack(_, let list), .setTabs(_, let list, _), .writePath(_, let list):
            return list.filter { $0 != fuzzBogusID }
        case .writeSelection(_, let x), .writePresented(_, let x):
            return x.map { $0 == fuzzBogusID ? [] : [$0] } ?? []
        case .unwind(_, let t), .runtimeUnwind(_, let t):
            return [t]
        default:
            return []
        }
    }
}

extension FuzzModel {
    /// After a navigation is planned, each entered stack on the way pops what lies above the
    /// entry the path goes through, deepest stack first.
    func popAbove(_ visited: [FuzzID], _ change: inout Change) {
        var handled: Set<FuzzID> = []
        for node in visited.reversed() {
            let parent =
                nodes[node]!.parent ?? change.insertions.first { $0.node == node }?.container
            guard let stack = parent, nodes[stack]!.kind == .stack,
                nodes[stack]!.state == .entered, handled.insert(stack).inserted
            else { continue }
            let entries = plannedChildren(stack, change)
            guard let index = entries.firstIndex(of: node) else { continue }
            for entry in entries[(index + 1)...].reversed() { remove(entry, from: stack, &change) }
        }
    }
}

extension FuzzModel {
    /// The nodes the closure asking for a container's operation again captures.
    func intentHolds(_ op: FuzzOp) -> [FuzzID] {
        var holds = namedNodes(op)
        if let domain = changeDomain(op) { holds.append(domain) }
        switch op {
        case .popTo(_, let x), .platformPopTo(_, let x): holds.append(x)
        default: break
        }
        return holds
    }

    /// A guard redirected `change`: the intent is kept (replacing an older one) and the
    /// redirect queued, or, with nothing to keep (start, a redirect's own change), a plain
    /// refusal.
    func redirected(_ redirect: Redirect, change: Change, in r: Int) -> FuzzRefusal {
        let target = redirect.routes.map { "r\($0)" }.joined(separator: " / ")
        guard let spec = currentIntent, !redirecting.contains(r), runtimes[r]!.root != nil else {
            return FuzzRefusal(candidates: [
                .entryRefused(node: redirect.node, reason: "redirected to \(target)")
            ])
        }
        let description: String
        let holds: [FuzzID]
        switch spec {
        case .composition(let kept):
            description = "\(change.kind.rawValue) \(change.domain.map(livePath) ?? "")"
            holds = kept
        case .navigate(let node, let routes):
            description =
                "navigate \(livePath(node)) to "
                + routes.map { "r\($0)" }.joined(separator: " / ")
            holds = [node]
        case .unwind(let node, let target):
            description = "unwind from \(livePath(node)) to '\(livePath(target))'"
            holds = [node, target]
        }
        if let old = runtimes[r]!.intent {
            trace.append(
                FuzzExpect(
                    "rt\(r): intent replaced \(old.description) (a newer change was redirected)"))
        }
        intentCount += 1
        runtimes[r]!.intent = PendingIntent(
            id: intentCount, description: description, holds: holds, flow: nil)
        trace.append(
            FuzzExpect(
                "rt\(r): intent kept \(description) (\(redirect.node) redirected to \(target))"))
        runtimes[r]!.queue.append(.redirect(id: intentCount, routes: redirect.routes))
        return FuzzRefusal(candidates: [.redirected(node: redirect.node, to: target)])
    }

    /// The queued redirect: a navigation from the root; the node it reaches is the flow
    /// whose leaving decides the intent.
    func performRedirect(_ id: Int, _ routes: [Int], in r: Int) {
        guard runtimes[r]!.running, let root = runtimes[r]!.root else {
            if runtimes[r]!.intent?.id == id {
                dropIntent(in: r, "the redirect was skipped: the runtime stopped")
            }
            return
        }
        let saved = currentIntent
        currentIntent = nil
        redirecting.insert(r)
        defer {
            redirecting.remove(r)
            currentIntent = saved
        }
        do {
            let reached = try navigate(
                root, routes, reentering: false, context: .queued, redirect: true)
            if runtimes[r]!.intent?.id == id { runtimes[r]!.intent!.flow = reached }
        } catch {
            if let intent = runtimes[r]!.intent {
                runtimes[r]!.intent = nil
                trace.append(
                    FuzzExpect(
                        prefix:
                            "rt\(r): intent dropped \(intent.description) (the redirect failed: "
                    ))
            }
            trace.append(FuzzExpect(prefix: "rt\(r): failed"))
            journal.append(FuzzExpect(prefix: "onError "))
        }
    }

    /// A navigation from `node` that passed every check replaces the pending intent, unless
    /// it is asked within the redirect's flow (or the redirect has not run yet).
    func replaceIntent(in r: Int, by node: FuzzID) {
        guard let intent = runtimes[r]!.intent, !redirecting.contains(r),
            let flow = intent.flow, !isAncestorOrSelf(flow, of: node)
        else { return }
        runtimes[r]!.intent = nil
        trace.append(
            FuzzExpect(
                "rt\(r): intent replaced \(intent.description) "
                    + "(a newer navigation from \(livePath(node)))"))
    }

    func dropIntent(in r: Int, _ reason: String) {
        guard let intent = runtimes[r]!.intent else { return }
        runtimes[r]!.intent = nil
        trace.append(FuzzExpect("rt\(r): intent dropped \(intent.description) (\(reason))"))
    }

    /// `x.unwind(to: t)`: dismisses and pops what covers `t` on the way up, in one
    /// transaction reported in the deepest node containing what it touched.
    func unwind(from x: FuzzID, to t: FuzzID) throws {
        let node = nodes[x]!
        if node.state == .exited { throw refusal(x) { .containerExited(container: $0) } }
        guard node.state == .entered, let r = runtimeOf(x), runtimes[r]!.running else {
            throw refusal(x) { .notInTree(node: $0) }
        }
        if runtimes[r]!.applying {
            throw FuzzRefusal(candidates: [.changeInProgress(node: livePath(x))])
        }
        // The target: a node from `x` up, or a stack entry below the one the way passes.
        var found = false
        var current: FuzzID? = x
        var passed: FuzzID?
        while let id = current, !found {
            if id == t {
                found = true
            } else if nodes[id]!.kind == .stack, let passed,
                let index = nodes[id]!.children.firstIndex(of: passed),
                nodes[id]!.children[..<index].contains(t)
            {
                found = true
            }
            passed = id
            current = nodes[id]!.parent
        }
        guard found else {
            throw FuzzRefusal(
                candidates: paths(t).map {
                    .unwindTargetNotFound(target: "'\($0)'", node: livePath(x))
                })
        }
        var change = Change(kind: .unwind, domain: t)
        change.replacesIntentFrom = x
        var covering: [(node: FuzzID, container: FuzzID)] = []
        if let presented = nodes[t]!.presented { covering.append((presented, t)) }
        var child = t
        while let parent = nodes[child]!.parent {
            if nodes[parent]!.kind == .stack,
                let index = nodes[parent]!.children.firstIndex(of: child)
            {
                for entry in nodes[parent]!.children[(index + 1)...].reversed() {
                    covering.append((entry, parent))
                }
            }
            if let presented = nodes[parent]!.presented, presented != child {
                covering.append((presented, parent))
            }
            child = parent
        }
        for (node, container) in covering.reversed() { remove(node, from: container, &change) }
        if isEmpty(change) { return }
        try outermost(r) { try commit(change, in: r) }
    }
}
