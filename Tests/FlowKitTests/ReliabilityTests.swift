import Testing

@testable import FlowKit

/// One regression test per bug the model-based random tester found (issue "Reliability"):
/// each failed before the fix.
@MainActor
@Suite("Reliability: app code in hooks, guards, factories and deinit cannot break the tree")
struct ReliabilityTests {
    // MARK: 1. Factories run inside the change

    @Test("A route factory that pushes during navigate gets changeInProgress; nothing dangles")
    func factoryThatPushesIsRefused() throws {
        let app = FlowSwitch(name: "app")
        let runtime = try FlowRuntime(root: app)
        var pushed: FlowController?
        var factoryError: (any Error)?
        weak var weakStack: FlowStack?
        do {
            let stack = FlowStack(name: "stack", root: FlowController(name: "list"))
            weakStack = stack
            try stack.present(FlowController(name: "sheet"))
            try app.embed(stack)
            try runtime.start()
            stack.register("x") { [unowned stack] in
                let node = FlowController(name: "pushed")
                pushed = node
                do { try stack.push(node) } catch { factoryError = error }
                return FlowController(name: "x", route: "x")
            }
            try stack.navigate(to: ["x"])
            #expect(factoryError as? FlowError == .changeInProgress(node: "app/stack"))
            #expect(stack.entries.map(\.name) == ["list", "x"])
            #expect(pushed?.parent == nil && pushed?.state == .created && pushed?.runtime == nil)
        }
        try app.switch(to: FlowController(name: "other"))
        #expect(weakStack == nil)
        pushed?.send(Ping())  // used to reach the freed stack (heap-use-after-free)
        #expect(runtime.trace.lines.last?.hasPrefix("activate app/other") == true)
    }

    @Test("A route factory that pops gets changeInProgress; the popped entry is not put back")
    func factoryThatPopsIsRefused() throws {
        let (runtime, _, _, _, stack, _) = try makeApp()
        let top = FlowController(name: "top")
        try stack.push(top)
        var factoryError: (any Error)?
        stack.register("x") { [unowned stack] in
            do { try stack.pop() } catch { factoryError = error }
            return FlowController(name: "x", route: "x")
        }
        try stack.navigate(to: ["x"])
        #expect(factoryError as? FlowError == .changeInProgress(node: "app/main/stack"))
        #expect(stack.entries.map(\.name) == ["list", "top", "x"])
        #expect(stack.entries.allSatisfy { $0.state == .entered })
        _ = runtime
    }

    @Test("switch(to: route) runs its factory inside the change too")
    func switchFactoryIsInsideTheChange() throws {
        let (runtime, _, app, _, stack, _) = try makeApp()
        var factoryError: (any Error)?
        app.register("other") { [unowned stack] in
            do { try stack.push(FlowController(name: "sneaky")) } catch { factoryError = error }
            return FlowController(name: "other", route: "other")
        }
        try app.switch(to: "other")
        #expect(factoryError as? FlowError == .changeInProgress(node: "app/main/stack"))
        #expect(app.current?.name == "other")
        _ = runtime
    }

    @Test("A factory may compose its own new subtree (a flow with its stack and first screen)")
    func factoriesComposeFreely() throws {
        let (runtime, _, app, _, _, _) = try makeApp()
        app.register("flow") {
            let flow = FlowController(name: "flow", route: "flow")
            let stack = FlowStack(name: "stack")
            try? stack.push(FlowController(name: "first"))
            try? flow.embed(stack)
            return flow
        }
        try app.switch(to: "flow")
        #expect(runtime.focusedPath.map(\.path).last == "app/flow/stack/first")
    }

    // MARK: 2. Parent links are memory-safe

    /// Embeds `child` in a new parent named `parentName` that provides `greeting`, then lets
    /// the parent's last reference die on another thread. Returns whether the parent was freed.
    private func orphanOffMainActor(
        _ child: FlowController, parentName: String, greeting: String
    ) async throws -> Bool {
        weak var weakParent: FlowController?
        do {
            let parent = FlowController(name: parentName)
            parent.dependencies[Greeting.self] = greeting
            try parent.embed(child)
            weakParent = parent
            let box = [parent]
            let release = Task.detached {
                await Task.yield()
                _ = box.count  // the last reference dies on this thread
            }
            _ = consume box
            await release.value
        }
        return weakParent == nil
    }

    @Test("A parent released on another thread leaves its child a nil parent, never a dangling one")
    func parentReleasedOffMainActor() async throws {
        for round in 0..<20 {
            let child = FlowController(name: "child")
            let parentFreed = try await orphanOffMainActor(
                child, parentName: "p\(round)", greeting: "from parent")
            #expect(parentFreed)
            #expect(child.parent == nil)
            #expect(child.path == "child")
            #expect(child.dependencies[Greeting.self] == Greeting.defaultValue)
            let stack = FlowStack(name: "stack")
            try stack.push(child)  // the child is free again
            #expect(child.parent === stack)
        }
    }

    @Test(
        "An orphan whose parent was freed off the main actor enters elsewhere with that tree's values"
    )
    func orphanEntersAfterOffMainRelease() async throws {
        // Entering computes each node's scope from its parent along the unretained chain link
        // (`_next`). The freed parent must never be reached through it: attaching sets the link
        // afresh. Under AddressSanitizer (CI) a stale link would be a use after free.
        let (runtime, _, app, _, stack, _) = try makeApp()
        app.dependencies[Greeting.self] = "from the running tree"
        for round in 0..<20 {
            let child = FlowController(name: "child\(round)")
            let grandchild = FlowController(name: "grandchild")
            try child.embed(grandchild)
            let parentFreed = try await orphanOffMainActor(
                child, parentName: "p\(round)", greeting: "from the freed parent")
            #expect(parentFreed)
            try stack.push(child)  // enters: child and grandchild compute their scopes
            #expect(child.state == .entered && grandchild.state == .entered)
            #expect(grandchild.dependencies[Greeting.self] == "from the running tree")
            try stack.pop()
        }
        _ = runtime
    }

    // MARK: 3. Self-attachment

    @Test("Attaching a childless node to itself throws wouldCreateCycle (no hang)")
    func selfAttachment() throws {
        let node = FlowController(name: "n")
        #expect(throws: FlowError.wouldCreateCycle(node: "n", parent: "n")) { try node.embed(node) }
        #expect(throws: FlowError.wouldCreateCycle(node: "n", parent: "n")) {
            try node.present(node)
        }
        let stack = FlowStack(name: "s")
        #expect(throws: FlowError.wouldCreateCycle(node: "s", parent: "s")) {
            try stack.push(stack)
        }
        #expect(throws: FlowError.wouldCreateCycle(node: "s", parent: "s")) {
            try stack.setStack([stack])
        }
        #expect(node.children.isEmpty && node.presentedChild == nil && stack.entries.isEmpty)

        let (runtime, host, _, _, live, _) = try makeApp()
        let before = observe(runtime, host)
        #expect(
            throws: FlowError.wouldCreateCycle(node: "app/main/stack", parent: "app/main/stack")
        ) {
            try live.push(live)
        }
        #expect(observe(runtime, host) == before)
    }

    // MARK: 4. Changes from hooks run as the next transaction

    @Test("A coordinator's didEnter that pushes its first screen gets a real, entered screen")
    func coordinatorStartPattern() throws {
        let journal = Journal()
        final class Coordinator: LoggingNode {
            let stack = FlowStack(name: "stack")
            init(journal: Journal) {
                super.init("flow", journal: journal)
                try! embed(stack)
            }
            override func didEnter() {
                super.didEnter()
                do {
                    try stack.push(LoggingNode("welcome", journal: journal))
                } catch {
                    Issue.record("push from didEnter threw \(error)")
                }
            }
        }
        let (runtime, _, app, _, _, _) = try makeApp()
        var received: [String] = []
        let flow = Coordinator(journal: journal)
        flow.on(Ping.self) { _, origin in
            received.append(origin.path)
            return .handled
        }
        try app.switch(to: flow)
        let welcome = try #require(flow.stack.top)
        #expect(welcome.name == "welcome")
        #expect(welcome.state == .entered && welcome.runtime === runtime && welcome.isActive)
        #expect(runtime.focusedNode === welcome)
        welcome.send(Ping())
        #expect(received == ["app/flow/stack/welcome"])
        try flow.stack.setStack([FlowController(name: "replacement")])
        #expect(
            journal.entries.filter { $0.hasSuffix("welcome") } == [
                "enter welcome", "active welcome", "exit welcome",
            ])
    }

    @Test("A pop asked for in a hook exits the entries properly and cancels their tasks")
    func popFromHook() async throws {
        let (runtime, _, _, _, stack, list) = try makeApp()
        let worker = FlowController(name: "worker")
        var cancelled = false
        worker.task {
            while !Task.isCancelled { await Task.yield() }
            cancelled = true
        }
        try stack.push(worker)
        final class Closer: FlowController {
            override func didEnter() {
                let stack = parent as! FlowStack
                _ = try? stack.pop(to: stack.entries[0])
            }
        }
        try stack.push(Closer(name: "closer"))
        #expect(stack.entries.count == 1 && stack.entries[0] === list)
        #expect(worker.state == .exited)
        for _ in 0..<1000 where !cancelled { await Task.yield() }
        #expect(cancelled)
        _ = runtime
    }

    @Test("An entry guard that pushes onto its own node gets changeInProgress")
    func entryGuardThatPushes() throws {
        let (runtime, host, _, _, stack, _) = try makeApp()
        let inner = FlowStack(name: "inner", root: FlowController(name: "a"))
        var guardError: (any Error)?
        inner.entryGuard = { [unowned inner] in
            do { try inner.push(FlowController(name: "b")) } catch { guardError = error }
            return .allow
        }
        try stack.push(inner)
        #expect(guardError as? FlowError == .changeInProgress(node: "app/main/stack/inner"))
        #expect(inner.entries.map(\.name) == ["a"])
        #expect(inner.entries.allSatisfy { $0.state == .entered })
        _ = (runtime, host)
    }

    @Test("A hook's change runs in order with events queued before and after it")
    func hookChangesKeepQueueOrder() throws {
        let (runtime, _, _, main, stack, _) = try makeApp()
        main.on(Ping.self) { _ in .handled }
        main.on(Pong.self) { _ in .handled }
        final class Chatty: FlowController {
            override func didEnter() {
                send(Ping())
                try? (parent as? FlowStack)?.push(FlowController(name: "next"))
                send(Pong())
            }
        }
        runtime.trace.removeAll()
        try stack.push(Chatty(name: "chatty"))
        let lines = runtime.trace.lines.filter {
            !$0.hasPrefix("activate") && !$0.hasPrefix("deactivate")
        }
        #expect(
            lines == [
                "enter app/main/stack/chatty",
                "change push app/main/stack +app/main/stack/chatty",
                "send Ping from app/main/stack/chatty",
                "handled Ping at app/main",
                "enter app/main/stack/next",
                "change push app/main/stack +app/main/stack/next",
                "send Pong from app/main/stack/chatty",
                "handled Pong at app/main",
            ])
    }

    @Test("A hook's change that fails when its turn comes goes to onError and the trace")
    func failedHookChangeReachesErrorSink() throws {
        let (runtime, _, _, _, stack, _) = try makeApp()
        var failures: [String] = []
        runtime.onError = { failures.append($0.description) }
        final class Refusing: FlowController {
            override func didEnter() {
                let blocked = FlowController(name: "blocked")
                blocked.entryGuard = { .refuse("not today") }
                try? (parent as? FlowStack)?.push(blocked)
            }
        }
        try stack.push(Refusing(name: "refusing"))
        #expect(
            failures == [
                "push at app/main/stack failed: 'app/main/stack/blocked' refused to enter: "
                    + "not today"
            ])
        #expect(
            runtime.trace.lines.contains(
                "failed push at app/main/stack: 'app/main/stack/blocked' refused to enter: "
                    + "not today"))
        #expect(stack.entries.map(\.name) == ["list", "refusing"])
    }

    @Test("A stack that pushes onto itself in its own willExit: queued, reported, no crash")
    func pushFromOwnWillExit() throws {
        final class Leaving: FlowStack {
            override func willExit() { try? push(FlowController(name: "x")) }
        }
        let outer = FlowStack(name: "outer", root: FlowController(name: "a"))
        let runtime = try FlowRuntime(root: outer)
        var failures: [String] = []
        runtime.onError = { failures.append($0.description) }
        try runtime.start()
        try outer.push(Leaving(name: "inner", root: FlowController(name: "b")))
        try outer.pop()
        #expect(
            failures == [
                "push at outer/inner failed: 'outer/inner' was exited; it cannot "
                    + "take new children or change"
            ])
        #expect(outer.entries.map(\.name) == ["a"])
    }

    @Test("A change asked for from willExit during stop() reaches onError, not the void")
    func changeFromWillExitDuringStop() throws {
        final class Root: FlowStack {
            override func willExit() { _ = try? popToRoot() }
        }
        let root = Root(name: "root", root: FlowController(name: "a"))
        let runtime = try FlowRuntime(root: root)
        var failures: [String] = []
        runtime.onError = { failures.append($0.description) }
        try runtime.start()
        try root.push(FlowController(name: "b"))
        try runtime.stop()
        #expect(failures.count == 1)
        #expect(failures.first?.hasPrefix("popTo at root failed: 'root' was exited") == true)
        #expect(runtime.trace.lines.last?.hasPrefix("failed popTo at root") == true)
    }

    // MARK: 5. Reordering setStack

    @Test("setStack that only reorders kept entries reorders them and reports it")
    func reorderingSetStack() throws {
        let (runtime, host, _, _, stack, list) = try makeApp()
        let other = FlowController(name: "other")
        try stack.push(other)
        runtime.trace.removeAll()
        try stack.setStack([other, list])
        #expect(stack.entries.map(\.name) == ["other", "list"])
        #expect(host.changes.last?.description == "setStack app/main/stack")
        #expect(
            runtime.trace.lines == [
                "change setStack app/main/stack",
                "deactivate app/main/stack/other",
                "activate app/main/stack/list",
            ])
        #expect(list.isActive && !other.isActive && other.state == .entered)
    }

    // MARK: 6. The queue drains when the outermost operation throws

    @Test("An event sent by a refusing guard is delivered before the refusal reaches the caller")
    func queueDrainsOnRefusal() throws {
        let (runtime, _, _, main, stack, _) = try makeApp()
        var pings = 0
        main.on(Ping.self) { _ in
            pings += 1
            return .handled
        }
        let top = FlowController(name: "top")
        try stack.push(top)
        top.exitGuard = { [unowned top] in
            top.send(Ping())
            return .refuse("busy")
        }
        #expect(throws: FlowError.exitRefused(node: "app/main/stack/top", reason: "busy")) {
            try stack.pop()
        }
        #expect(pings == 1)
        _ = runtime
    }

    // MARK: 7. A runtime released without stop()

    @Test("A runtime released without stop() exits its tree and nothing leaks")
    func runtimeReleasedWithoutStop() async throws {
        let journal = Journal()
        weak var weakRuntime: FlowRuntime?
        weak var weakWorker: FlowController?
        let kept = LoggingNode("kept", journal: journal)
        var cancelled = false
        do {
            let root = LoggingNode("root", journal: journal)
            let worker = LoggingNode("worker", journal: journal)
            worker.task {
                while !Task.isCancelled { await Task.yield() }
                _ = worker  // captured strongly: only cancellation lets it go
                cancelled = true
            }
            try root.embed(worker)
            try worker.embed(kept)
            let runtime = try FlowRuntime(root: root)
            try runtime.start()
            weakRuntime = runtime
            weakWorker = worker
        }
        #expect(weakRuntime == nil)
        #expect(
            journal.entries.filter { $0.hasPrefix("exit") } == [
                "exit kept", "exit worker", "exit root",
            ])
        for _ in 0..<1000 where weakWorker != nil { await Task.yield() }
        #expect(cancelled && weakWorker == nil)
        #expect(kept.state == .exited)
        #expect(throws: FlowError.nodeExited(node: "root/worker/kept")) {
            _ = try FlowRuntime(root: kept)
        }
    }

    @Test("A runtime whose last reference dies on another thread still stops on the main actor")
    func runtimeReleasedOffMainActor() async throws {
        weak var weakRuntime: FlowRuntime?
        weak var weakRoot: FlowController?
        do {
            let root = FlowController(name: "root")
            let runtime = try FlowRuntime(root: root)
            try runtime.start()
            weakRuntime = runtime
            weakRoot = root
            let box = [runtime]
            let release = Task.detached {
                await Task.yield()
                _ = box.count
            }
            _ = consume box
            await release.value
        }
        for _ in 0..<1000 where weakRoot != nil { await Task.yield() }
        #expect(weakRuntime == nil && weakRoot == nil)
    }

    @Test("A node that is entered elsewhere cannot become another runtime's root or child")
    func enteredNodesCannotMove() throws {
        let (runtime, _, _, _, _, list) = try makeApp()
        #expect(
            throws: FlowError.alreadyAttached(node: "app/main/stack/list", parent: "app/main/stack")
        ) {
            _ = try FlowRuntime(root: list)
        }
        _ = runtime
    }

    // MARK: 8. Setters on exited nodes

    @Test("Guards, routes and history set on an exited node are ignored, so nothing is kept")
    func settersOnExitedNodes() throws {
        let (runtime, _, _, _, stack, _) = try makeApp()
        weak var weakNode: FlowController?
        do {
            let node = FlowController(name: "gone")
            weakNode = node
            try stack.push(node)
            try stack.pop()
            node.exitGuard = {
                _ = node; return .allow
            }
            node.entryGuard = {
                _ = node; return .allow
            }
            node.initialRoute = "x"
            node.history = .deep
            node.on(Ping.self) { _ in
                _ = node; return .handled
            }
            node.register("y") {
                _ = node; return FlowController(name: "y", route: "y")
            }
            node.task { _ = node }
            #expect(node.exitGuard == nil && node.entryGuard == nil)
            #expect(node.initialRoute == nil && node.history == .none)
        }
        #expect(weakNode == nil)
        _ = runtime
    }

    // MARK: 9. and 10. Dependency scopes of exited and orphaned nodes

    @Test("A value an ancestor sets in willExit is not seen or kept by already exited descendants")
    func willExitValueNotSeenByExitedDescendants() throws {
        let (runtime, _, app, _, stack, _) = try makeApp()
        final class Leaving: FlowController {
            override func willExit() {
                (parent as? FlowStack)?.dependencies.set(Box(), for: Tracker.self)
            }
        }
        let flow = Leaving(name: "flow")
        let leaf = FlowController(name: "leaf")
        try flow.embed(leaf)
        try stack.push(flow)
        try stack.pop()
        #expect(leaf.dependencies.value(for: Tracker.self) == nil)
        weak let weakBox = stack.dependencies.value(for: Tracker.self)
        #expect(weakBox != nil)
        stack.dependencies.removeValue(for: Tracker.self)
        #expect(weakBox == nil)
        _ = (runtime, app)
    }

    @Test("A node whose parent was freed no longer sees or keeps the parent's values")
    func orphanDoesNotKeepParentScope() throws {
        let child = FlowController(name: "child")
        weak var weakBox: Box?
        do {
            let parent = FlowController(name: "parent")
            let box = Box()
            weakBox = box
            parent.dependencies.set(box, for: Tracker.self)
            try parent.embed(child)
            #expect(child.dependencies.value(for: Tracker.self) === box)
        }
        #expect(child.parent == nil)
        #expect(child.dependencies.value(for: Tracker.self) == nil)
        #expect(weakBox == nil)
    }

    @Test("A subtree composed offline sees the values of the tree it is about to join")
    func prospectiveScopeInEntryGuard() throws {
        let (runtime, _, app, _, stack, _) = try makeApp()
        app.dependencies[Greeting.self] = "signed in"
        let screen = FlowController(name: "screen")
        var seen: String?
        screen.entryGuard = { [unowned screen] in
            seen = screen.dependencies[Greeting.self]
            return .allow
        }
        try stack.push(screen)
        #expect(seen == "signed in")
        _ = runtime
    }

    // MARK: 11. Exited containers

    @Test("Every operation on an exited container throws containerExited")
    func operationsOnExitedContainers() throws {
        let (runtime, _, _, _, stack, _) = try makeApp()
        let inner = FlowStack(name: "inner", root: FlowController(name: "a"))
        let second = FlowController(name: "b")
        try inner.push(second)
        try inner.present(FlowController(name: "modal"))
        let innerSwitch = FlowSwitch(name: "switch", initial: FlowController(name: "c"))
        innerSwitch.register("d") { FlowController(name: "d", route: "d") }
        try stack.push(inner)
        try stack.push(innerSwitch)
        try stack.pop(to: stack.entries[0])
        let exited = FlowError.containerExited(container: "app/main/stack/inner")
        #expect(throws: exited) { try inner.pop() }
        #expect(throws: exited) { try inner.popToRoot() }
        #expect(throws: exited) { try inner.pop(to: second) }
        #expect(throws: exited) { try inner.platformDidPop() }
        #expect(throws: exited) { try inner.platformDidPop(to: second) }
        #expect(throws: exited) { try inner.setStack([]) }
        #expect(throws: exited) { try inner.push(FlowController(name: "x")) }
        #expect(throws: exited) { try inner.dismiss() }
        #expect(throws: exited) { try inner.platformDidDismiss() }
        #expect(throws: exited) { try inner.present(FlowController(name: "x")) }
        #expect(throws: exited) { try inner.embed(FlowController(name: "x")) }
        #expect(throws: exited) { try inner.navigate(to: ["x"]) }
        let switchExited = FlowError.containerExited(container: "app/main/stack/switch")
        #expect(throws: switchExited) { try innerSwitch.switch(to: "d") }
        #expect(throws: switchExited) { try innerSwitch.switch(to: FlowController(name: "e")) }
        _ = runtime
    }

    // MARK: 12. and 13. Events that lose their sender

    @Test("An event queued with runtime.send before stop() is traced as dropped")
    func runtimeSendBeforeStop() throws {
        let (runtime, _, app, _, _, _) = try makeApp()
        var unhandled = 0
        runtime.onUnhandledEvent = { _, _ in unhandled += 1 }
        app.on(Ping.self) { [unowned runtime] _ in
            runtime.send(Pong())
            try? runtime.stop()
            return .handled
        }
        runtime.send(Ping())
        #expect(runtime.trace.lines.last == "dropped Pong (no focused node: the runtime stopped)")
        #expect(unhandled == 0)
    }

    @Test("A handler that removes the sender and forwards ends the event: it is dropped")
    func forwardAfterSenderRemoved() throws {
        let (runtime, _, app, _, stack, _) = try makeApp()
        var appSaw = false
        app.on(Ping.self) { _ in
            appSaw = true
            return .handled
        }
        stack.on(Ping.self) { [unowned stack] _ in
            _ = try? stack.pop()
            return .forward
        }
        let detail = FlowController(name: "detail")
        try stack.push(detail)
        detail.send(Ping())
        #expect(!appSaw)
        #expect(
            runtime.trace.lines.last
                == "dropped Ping from app/main/stack/detail (sender left the tree)")
    }

    // MARK: 14. Shallow history

    @Test(
        "Shallow history restores the child, which then enters its own defaults",
        arguments: [FlowHistoryPolicy.none, .shallow])
    func shallowHistoryEntersChildDefaults(childPolicy: FlowHistoryPolicy) throws {
        func makeFlow() -> FlowController {
            let flow = FlowSwitch(name: "flow", route: "flow")
            flow.history = childPolicy
            flow.initialRoute = "first"
            flow.register("first") { FlowController(name: "first", route: "first") }
            flow.register("second") { FlowController(name: "second", route: "second") }
            return flow
        }
        func makeArea() -> FlowController {
            let area = FlowSwitch(name: "area", route: "area")
            area.history = .shallow
            area.initialRoute = "other"
            area.register("flow", factory: makeFlow)
            area.register("other") { FlowController(name: "other", route: "other") }
            return area
        }
        let root = FlowSwitch(name: "root")
        root.register("area", factory: makeArea)
        root.register("away") { FlowController(name: "away", route: "away") }
        root.initialRoute = "area"
        let runtime = try FlowRuntime(root: root)
        try runtime.start()
        try runtime.navigate(to: ["area", "flow", "second"])
        try runtime.navigate(to: ["away"])
        #expect(runtime.recordedHistory(at: "root/area") == ["flow", "second"])
        try runtime.navigate(to: ["area"])
        // The child the area last had (flow), then flow's own defaults: its initial route,
        // or its own recorded history when its policy restores it.
        let expected = childPolicy == .shallow ? "root/area/flow/second" : "root/area/flow/first"
        #expect(runtime.focusedNode?.path == expected)
    }

    // MARK: 15. Paths

    @Test("Paths follow offline composition; errors from default expansion name real paths")
    func pathsAreNeverStale() throws {
        let leaf = FlowController(name: "leaf")
        let stack = FlowStack(name: "stack", root: leaf)
        #expect(leaf.path == "stack/leaf")
        let flow = FlowController(name: "flow")
        try flow.embed(stack)
        #expect(leaf.path == "flow/stack/leaf")

        let (runtime, host, _, _, live, _) = try makeApp()
        let broken = FlowController(name: "broken")
        broken.initialRoute = "missing"
        let before = observe(runtime, host)
        #expect(
            throws: FlowError.unknownRoute(route: "missing", node: "app/main/stack/broken")
        ) {
            try live.push(broken)
        }
        #expect(observe(runtime, host) == before)
        #expect(broken.path == "broken")
    }

    @Test("start() asked for again from the start's own guard is refused, not a crash")
    func startFromItsOwnGuard() throws {
        let root = FlowController(name: "root")
        let runtime = try FlowRuntime(root: root)
        var nested: (any Error)?
        root.entryGuard = { [unowned runtime] in
            do { try runtime.start() } catch { nested = error }
            return .allow
        }
        try runtime.start()
        #expect(nested as? FlowError == .changeInProgress(node: "root"))
        #expect(root.state == .entered)
    }

    // MARK: 16. Handler tables and deinit

    @Test("Replacing or removing a handler runs its captures' deinit outside the handler table")
    func handlerReleaseReentersTheTable() throws {
        let (runtime, _, _, _, stack, _) = try makeApp()
        let node = FlowController(name: "screen")
        try stack.push(node)
        var log: [String] = []
        // Replacing a handler: the old one's captured object registers another handler as it
        // goes (this trapped with "simultaneous accesses": the release ran inside the write).
        do {
            let token = OnDeinit {
                node.on(Pong.self) { _ in
                    log.append("pong")
                    return .handled
                }
            }
            node.on(Ping.self) { _ in
                _ = token
                return .handled
            }
        }
        node.on(Ping.self) { _ in
            log.append("ping")
            return .handled
        }
        node.send(Ping())
        node.send(Pong())
        #expect(log == ["ping", "pong"])
        // Removing a handler: the removed one's captured object removes another as it goes.
        do {
            let token = OnDeinit { node.removeHandler(for: Pong.self) }
            node.on(SignOut.self) { _ in
                _ = token
                return .handled
            }
        }
        node.removeHandler(for: SignOut.self)
        #expect(!node.handles(SignOut.self) && !node.handles(Pong.self) && node.handles(Ping.self))
        node.send(Ping())
        node.send(Pong())
        #expect(log == ["ping", "pong", "ping"])
        _ = runtime
    }

    // MARK: Preconditions that became typed errors

    @Test("A factory that builds the wrong route or a node in use throws, changing nothing")
    func factoryMistakesAreTypedErrors() throws {
        let (runtime, host, app, _, stack, _) = try makeApp()
        stack.register("wrong") { FlowController(name: "wrong", route: "other") }
        let inUse = FlowController(name: "inUse", route: "reused")
        let holder = FlowController(name: "holder")
        try holder.embed(inUse)
        stack.register("reused") { inUse }
        let before = observe(runtime, host)
        #expect(
            throws: FlowError.factoryRouteMismatch(
                route: "wrong", node: "app/main/stack", built: "wrong", builtRoute: "other")
        ) {
            try stack.navigate(to: ["wrong"])
        }
        #expect(
            throws: FlowError.factoryNodeInUse(
                route: "reused", node: "app/main/stack", built: "holder/inUse")
        ) {
            try stack.navigate(to: ["reused"])
        }
        #expect(observe(runtime, host) == before)
        _ = (app, holder)
    }

    @Test("A root that is attached or another runtime's root is a typed error")
    func runtimeRootErrors() throws {
        let root = FlowController(name: "root")
        let first = try FlowRuntime(root: root)
        #expect(throws: FlowError.alreadyAttached(node: "root", parent: "its runtime (root)")) {
            _ = try FlowRuntime(root: root)
        }
        let parent = FlowController(name: "parent")
        let child = FlowController(name: "child")
        try parent.embed(child)
        #expect(throws: FlowError.alreadyAttached(node: "parent/child", parent: "parent")) {
            _ = try FlowRuntime(root: child)
        }
        _ = first
    }
}

private enum Greeting: DependencyKey {
    static let defaultValue = "hello"
}

private final class Box: Sendable {}

private enum Tracker: RequiredDependencyKey {
    typealias Value = Box
}

/// Runs `action` (on the main actor, where the tests release it) when it is freed.
private final class OnDeinit {
    let action: @MainActor () -> Void

    init(_ action: @escaping @MainActor () -> Void) {
        self.action = action
    }

    deinit {
        let action = action
        MainActor.assumeIsolated { action() }
    }
}
