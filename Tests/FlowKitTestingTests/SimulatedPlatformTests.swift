import FlowKitTesting
import Testing

@testable import FlowKit

/// A tree on a ``SimulatedPlatform`` driven by hand: the runtime has no host, so the tree
/// changes at once and nothing plans; the test hands the platform its steps. With
/// `pipeline: true` the runtime's host is a `FlowTransitions` over the platform instead (for
/// the user's gestures, which FlowKit must allow), and the test adds its own steps.
@MainActor
private final class Bench {
    let platform: SimulatedPlatform
    let runtime: FlowRuntime
    let transitions: FlowTransitions
    private var token = 1_000_000

    init(
        _ root: FlowController, rules: FlowTransitionRules = .uiKit, pipeline: Bool = false
    ) throws {
        platform = SimulatedPlatform(rules: rules, duration: 100)
        transitions = FlowTransitions(host: platform)
        runtime = try FlowRuntime(root: root, host: pipeline ? transitions : nil)
        try runtime.start()
        if !pipeline { perform(.start, in: root) }
        platform.runUntilIdle()
    }

    /// Hands the platform a step in `node`; returns its description.
    @discardableResult
    func perform(_ kind: FlowTransitionStep.Kind, in node: FlowController) -> String {
        let step = FlowTransitionStep(kind: kind, container: node.id, containerPath: node.path)
        token += 1
        // The pipeline has no step with this token: the completion only ends the step here.
        platform.perform(
            step, in: runtime,
            completion: FlowTransitionCompletion(transitions: transitions, token: token))
        return step.description
    }

    /// Hands the platform a step and returns the illegal calls it recorded.
    func illegal(_ kind: FlowTransitionStep.Kind, in node: FlowController) -> [String] {
        let before = platform.illegalCalls.count
        perform(kind, in: node)
        return Array(platform.illegalCalls[before...])
    }

    /// `stack`'s entries changed in the tree: the platform shows them, to the end.
    func showEntries(of stack: FlowStack, from: [FlowController]) {
        perform(.setEntries(from: from.map(\.id), to: stack.entries.map(\.id)), in: stack)
        platform.runUntilIdle()
    }

    /// `presenter` presented its node in the tree: the platform shows it, to the end.
    func showPresentation(of presenter: FlowController) {
        perform(.present(presenter.presentedChild!.id), in: presenter)
        platform.runUntilIdle()
    }
}

/// `app/a0`#7: how the platform names a node in its messages.
@MainActor
private func n(_ node: FlowController) -> String { "\(node.path)\(node.id)" }

@MainActor
private func screen(_ name: String) -> FlowController { FlowController(name: name) }

/// A stack `a [a0, a1]` shown by a bench.
@MainActor
private func stackOfTwo(
    rules: FlowTransitionRules = .uiKit, pipeline: Bool = false
) throws -> (Bench, FlowStack, FlowController, FlowController) {
    let a0 = screen("a0")
    let a = FlowStack(name: "a", root: a0)
    let a1 = screen("a1")
    try a.push(a1)
    return (try Bench(a, rules: rules, pipeline: pipeline), a, a0, a1)
}

@MainActor
@Suite("Simulated platform: as strict as UIKit")
struct SimulatedPlatformTests {
    // MARK: R1: one transition per container

    @Test("A step in a stack whose step still runs is illegal; once it ended, it is legal")
    func oneTransitionPerStack() throws {
        let (bench, a, a0, a1) = try stackOfTwo()
        let a2 = screen("a2")
        try a.push(a2)
        bench.perform(.setEntries(from: [a0.id, a1.id], to: [a0.id, a1.id, a2.id]), in: a)
        let pop = FlowTransitionStep.Kind.setEntries(
            from: [a0.id, a1.id, a2.id], to: [a0.id, a1.id])
        #expect(
            bench.illegal(pop, in: a) == [
                "setEntries a [\(a0.id) \(a1.id) \(a2.id)] -> [\(a0.id) \(a1.id)]: a "
                    + "transition of this container is still running",
                "setEntries a [\(a0.id) \(a1.id) \(a2.id)] -> [\(a0.id) \(a1.id)]: the stack "
                    + "shows [\(a0.id) \(a1.id)], not [\(a0.id) \(a1.id) \(a2.id)]",
            ])

        let (legal, b, b0, b1) = try stackOfTwo()
        let b2 = screen("b2")
        try b.push(b2)
        legal.perform(.setEntries(from: [b0.id, b1.id], to: [b0.id, b1.id, b2.id]), in: b)
        legal.platform.runUntilIdle()
        #expect(legal.illegal(.setEntries(from: [b0.id, b1.id, b2.id], to: [b0.id]), in: b) == [])
    }

    @Test("A step in a stack the user swipes back is illegal; once released, the stack is free")
    func noStepDuringASwipe() throws {
        let (bench, a, a0, a1) = try stackOfTwo(pipeline: true)
        _ = try bench.platform.swipeBack(on: a, in: bench.transitions)
        let pop = FlowTransitionStep.Kind.setEntries(from: [a0.id, a1.id], to: [a0.id])
        #expect(
            bench.illegal(pop, in: a) == [
                "setEntries a [\(a0.id) \(a1.id)] -> [\(a0.id)]: the user is swiping this "
                    + "stack back"
            ])

        let (legal, b, b0, b1) = try stackOfTwo(pipeline: true)
        let swipe = try legal.platform.swipeBack(on: b, in: legal.transitions)
        legal.platform.cancel(swipe)
        #expect(legal.illegal(.setEntries(from: [b0.id, b1.id], to: [b0.id]), in: b) == [])
    }

    @Test("A modal step while the user drags a sheet down is illegal (one modal transition)")
    func noModalStepDuringASheetDrag() throws {
        func make() throws -> (Bench, FlowController, FlowController) {
            let a = screen("a")
            let b = screen("b")
            try a.present(screen("sheet"))
            return (try Bench(FlowParallel(name: "app", regions: [a, b]), pipeline: true), a, b)
        }
        let (bench, a, b) = try make()
        _ = try bench.platform.dragDown(sheetOf: a, in: bench.transitions)
        let other = screen("other")
        #expect(
            bench.illegal(.present(other.id), in: b) == [
                "present app/b \(other.id): the sheet of \(n(a)) is being dragged down"
            ])

        let (legal, c, d) = try make()
        let drag = try legal.platform.dragDown(sheetOf: c, in: legal.transitions)
        legal.platform.release(drag, on: c)
        #expect(legal.illegal(.present(other.id), in: d) == [])
    }

    // MARK: R2: present only from a node on screen

    @Test("Presenting from a stack entry below the top is illegal; from the top it is legal")
    func presentingFromACoveredEntry() throws {
        let (bench, _, a0, a1) = try stackOfTwo()
        let sheet = screen("sheet")
        #expect(!bench.platform.isOnScreen(a0) && bench.platform.isOnScreen(a1))
        #expect(
            bench.illegal(.present(sheet.id), in: a0) == [
                "present a/a0 \(sheet.id): presenting from a node not on screen "
                    + "(\(n(a0)) is below the top of its stack)"
            ])

        let (legal, _, _, b1) = try stackOfTwo()
        #expect(legal.illegal(.present(sheet.id), in: b1) == [])
    }

    @Test("Presenting from an entry of a stack in a transition is illegal; after it, legal")
    func presentingDuringAPush() throws {
        func make() throws -> (Bench, FlowStack, FlowController) {
            let (bench, a, a0, a1) = try stackOfTwo()
            let a2 = screen("a2")
            try a.push(a2)
            bench.perform(.setEntries(from: [a0.id, a1.id], to: [a0.id, a1.id, a2.id]), in: a)
            return (bench, a, a2)
        }
        let (bench, a, a2) = try make()
        let sheet = screen("sheet")
        #expect(
            bench.illegal(.present(sheet.id), in: a2) == [
                "present a/a2 \(sheet.id): presenting from a node not on screen "
                    + "(\(n(a)) is in a transition)"
            ])

        let (legal, _, b2) = try make()
        legal.platform.runUntilIdle()
        #expect(legal.illegal(.present(sheet.id), in: b2) == [])
    }

    @Test("Presenting from a stack the user swipes back is illegal; after a cancel, legal")
    func presentingDuringASwipe() throws {
        let (bench, a, _, a1) = try stackOfTwo(pipeline: true)
        _ = try bench.platform.swipeBack(on: a, in: bench.transitions)
        let sheet = screen("sheet")
        #expect(
            bench.illegal(.present(sheet.id), in: a1) == [
                "present a/a1 \(sheet.id): presenting from a node not on screen "
                    + "(\(n(a)) is being swiped back)"
            ])

        let (legal, b, _, b1) = try stackOfTwo(pipeline: true)
        let swipe = try legal.platform.swipeBack(on: b, in: legal.transitions)
        legal.platform.cancel(swipe)
        #expect(legal.illegal(.present(sheet.id), in: b1) == [])
    }

    @Test("Presenting from a tab that is not selected is illegal; from the selected one, legal")
    func presentingFromAnUnselectedTab() throws {
        let a0 = screen("a0")
        let b0 = screen("b0")
        let b = FlowStack(name: "b", root: b0)
        let tabs = FlowTabs(name: "tabs", tabs: [FlowStack(name: "a", root: a0), b])
        let bench = try Bench(tabs)
        let sheet = screen("sheet")
        #expect(!bench.platform.isOnScreen(b0) && bench.platform.isOnScreen(a0))
        #expect(
            bench.illegal(.present(sheet.id), in: b0) == [
                "present tabs/b/b0 \(sheet.id): presenting from a node not on screen "
                    + "(\(n(b)) is not the selected tab: the tab bar shows tab 0)"
            ])
        bench.platform.runUntilIdle()
        #expect(bench.illegal(.present(screen("other").id), in: a0) == [])
    }

    @Test("Presenting from a tab while its tab container changes tabs is illegal; after, legal")
    func presentingDuringATabSelection() throws {
        func make() throws -> (Bench, FlowTabs, FlowController) {
            let b = screen("b")
            let tabs = FlowTabs(name: "tabs", tabs: [screen("a"), b])
            let bench = try Bench(tabs)
            try tabs.select(at: 1)
            bench.perform(.select(from: 0, to: 1), in: tabs)
            return (bench, tabs, b)
        }
        let (bench, tabs, b) = try make()
        let sheet = screen("sheet")
        #expect(
            bench.illegal(.present(sheet.id), in: b) == [
                "present tabs/b \(sheet.id): presenting from a node not on screen "
                    + "(\(n(b)) is not the selected tab: the tab bar shows tab 0)"
            ])
        bench.platform.runUntilIdle()
        #expect(bench.platform.shownSelection(of: tabs) == 1)

        let (legal, _, c) = try make()
        legal.platform.runUntilIdle()
        #expect(legal.illegal(.present(sheet.id), in: c) == [])
    }

    @Test("Presenting from under a presentation is illegal: it covers the presenter's subtree")
    func presentingFromUnderAPresentation() throws {
        let list = screen("list")
        let stack = FlowStack(name: "stack", root: list)
        let main = FlowController(name: "main")
        try main.embed(stack)
        let bench = try Bench(main)
        let modal = screen("modal")
        try main.present(modal)
        bench.showPresentation(of: main)
        let sheet = screen("sheet")
        #expect(!bench.platform.isOnScreen(list) && bench.platform.isOnScreen(modal))
        #expect(
            bench.illegal(.present(sheet.id), in: list) == [
                "present main/stack/list \(sheet.id): presenting from a node not on screen "
                    + "(\(n(main)) presents \(n(modal)) over \(n(stack)))"
            ])
        bench.platform.runUntilIdle()
        #expect(bench.illegal(.present(screen("other").id), in: modal) == [])
    }

    @Test("Presenting from a node that presents, or that is still being presented, is illegal")
    func presentingTwiceOrTooEarly() throws {
        let root = screen("root")
        let bench = try Bench(root)
        let first = screen("first")
        try root.present(first)
        bench.perform(.present(first.id), in: root)
        let second = screen("second")
        #expect(
            bench.illegal(.present(second.id), in: root) == [
                "present root \(second.id): a transition of this container is still running",
                "present root \(second.id): another modal transition is running",
                "present root \(second.id): presenting from a node that presents already",
            ])
        #expect(
            bench.illegal(.present(second.id), in: first) == [
                "present root/first \(second.id): another modal transition is running",
                "present root/first \(second.id): presenting from a node not on screen "
                    + "(\(n(first)) is still being presented)",
            ])

        let other = screen("other")
        let legal = try Bench(other)
        let shown = screen("shown")
        try other.present(shown)
        legal.showPresentation(of: other)
        #expect(legal.illegal(.present(screen("third").id), in: shown) == [])
        legal.platform.runUntilIdle()
        #expect(
            legal.illegal(.present(second.id), in: other) == [
                "present other \(second.id): presenting from a node that presents already"
            ])
    }

    @Test("A collapsed split shows only its top column; an expanded one shows every column")
    func presentingFromASplitColumn() throws {
        func make(collapsed: Bool) throws -> (Bench, FlowSplit, FlowController, FlowController) {
            let s0 = screen("s0")
            let d0 = screen("d0")
            let split = FlowSplit(
                name: "split", sidebar: FlowStack(name: "sidebar", root: s0),
                detail: FlowStack(name: "detail", root: d0), collapsed: collapsed)
            return (try Bench(split), split, s0, d0)
        }
        let (bench, split, s0, d0) = try make(collapsed: true)
        let sheet = screen("sheet")
        #expect(bench.platform.isOnScreen(d0))
        #expect(
            bench.illegal(.present(sheet.id), in: s0) == [
                "present split/sidebar/s0 \(sheet.id): presenting from a node not on screen "
                    + "(\(n(split.node(for: .sidebar)!)) is not the top column of the "
                    + "collapsed split)"
            ])

        let (legal, _, t0, e0) = try make(collapsed: false)
        #expect(legal.platform.isOnScreen(t0) && legal.platform.isOnScreen(e0))
        #expect(legal.illegal(.present(sheet.id), in: t0) == [])
    }

    @Test(
        "Every region of a parallel container is on screen; a switch's child is not while it changes"
    )
    func regionsAndSwitches() throws {
        func make() throws -> (Bench, FlowSwitch, FlowController) {
            let parallel = FlowParallel(name: "parallel", regions: [screen("r0"), screen("r1")])
            let app = FlowSwitch(name: "app", initial: parallel)
            let bench = try Bench(app)
            #expect(parallel.regions.allSatisfy(bench.platform.isOnScreen))
            let other = screen("other")
            try app.switch(to: other)
            bench.perform(.setChildren(from: [parallel.id], to: [other.id]), in: app)
            return (bench, app, other)
        }
        let (bench, app, other) = try make()
        let sheet = screen("sheet")
        #expect(
            bench.illegal(.present(sheet.id), in: other) == [
                "present app/other \(sheet.id): presenting from a node not on screen "
                    + "(\(n(app)) is in a transition)"
            ])

        let (legal, _, shown) = try make()
        legal.platform.runUntilIdle()
        #expect(legal.illegal(.present(sheet.id), in: shown) == [])
    }

    // MARK: R3: a node that presents is not removed

    @Test("Popping an entry that presents is illegal; dismissed first, the pop is legal")
    func poppingAPresentingEntry() throws {
        func make() throws -> (Bench, FlowStack, FlowController, FlowController, FlowController) {
            let (bench, a, a0, a1) = try stackOfTwo()
            let sheet = screen("sheet")
            try a1.present(sheet)
            bench.showPresentation(of: a1)
            return (bench, a, a0, a1, sheet)
        }
        let (bench, a, a0, a1, sheet) = try make()
        #expect(
            bench.illegal(.setEntries(from: [a0.id, a1.id], to: [a0.id]), in: a) == [
                "setEntries a [\(a0.id) \(a1.id)] -> [\(a0.id)]: removes \(n(a1)), which "
                    + "presents \(n(sheet))"
            ])

        let (legal, b, b0, b1, bSheet) = try make()
        #expect(legal.illegal(.dismiss(bSheet.id), in: b1) == [])
        legal.platform.runUntilIdle()
        #expect(legal.illegal(.setEntries(from: [b0.id, b1.id], to: [b0.id]), in: b) == [])
    }

    @Test("Popping an entry while its sheet's presentation runs is illegal")
    func poppingDuringThePresentation() throws {
        let (bench, a, a0, a1) = try stackOfTwo()
        let sheet = screen("sheet")
        try a1.present(sheet)
        bench.perform(.present(sheet.id), in: a1)
        #expect(
            bench.illegal(.setEntries(from: [a0.id, a1.id], to: [a0.id]), in: a) == [
                "setEntries a [\(a0.id) \(a1.id)] -> [\(a0.id)]: removes \(n(a1)), which "
                    + "is presenting \(n(sheet))"
            ])
    }

    @Test("Removing a tab inside which a node presents is illegal; another tab, legal")
    func removingATabThatPresentsInside() throws {
        let a = screen("a")
        let b0 = screen("b0")
        let b = FlowStack(name: "b", root: b0)
        let c = screen("c")
        let tabs = FlowTabs(name: "tabs", tabs: [a, b, c], selected: 1)
        let bench = try Bench(tabs)
        let sheet = screen("sheet")
        try b0.present(sheet)
        bench.showPresentation(of: b0)
        #expect(
            bench.illegal(.setChildren(from: [a.id, b.id, c.id], to: [a.id, c.id]), in: tabs)
                == [
                    "setChildren tabs [\(a.id) \(b.id) \(c.id)] -> [\(a.id) \(c.id)]: removes "
                        + "\(n(b)), inside which \(n(b0)) presents \(n(sheet))"
                ])
        bench.platform.runUntilIdle()
        #expect(bench.illegal(.setChildren(from: [a.id, c.id], to: [a.id]), in: tabs) == [])
    }

    @Test(
        "Without dismissesLayersAbove, dismissing a layer inside which a node presents is illegal")
    func layersGoOneAtATime() throws {
        for rules in [FlowTransitionRules.oneAtATime, .uiKit] {
            let root = screen("root")
            let bench = try Bench(root, rules: rules)
            let e0 = screen("e0")
            let s2 = FlowStack(name: "s2", root: e0)
            try root.present(s2)
            bench.showPresentation(of: root)
            let c3 = screen("c3")
            try e0.present(c3)
            bench.showPresentation(of: e0)
            let calls = bench.illegal(.dismiss(s2.id), in: root)
            if rules.dismissesLayersAbove {
                #expect(calls == [])
            } else {
                #expect(
                    calls == [
                        "dismiss root \(s2.id): \(n(e0)) presents \(n(c3)) above it (this "
                            + "platform dismisses one layer at a time)"
                    ])
            }
        }
    }

    // MARK: R4: the tab bar reselects by object

    @Test("Reordered tabs: the tab bar reselects the object it showed, at its new index")
    func tabsReselectByObject() throws {
        let a = screen("a")
        let b = screen("b")
        let c = screen("c")
        let tabs = FlowTabs(name: "tabs", tabs: [a, b, c], selected: 0)
        let bench = try Bench(tabs)
        #expect(bench.platform.shownSelection(of: tabs) == 0)
        try tabs.setTabs([c, b, a], selecting: 0)
        let reorder = FlowTransitionStep.Kind.setChildren(
            from: [a.id, b.id, c.id], to: [c.id, b.id, a.id])
        #expect(bench.illegal(reorder, in: tabs) == [])
        bench.platform.runUntilIdle()
        #expect(bench.platform.shownSelection(of: tabs) == 2)
        #expect(
            bench.platform.differences(from: bench.runtime) == [
                "tabs\(tabs.id): shows tab 2, the tree selects 0"
            ])
        #expect(
            bench.illegal(.select(from: 0, to: 0), in: tabs) == [
                "select tabs 0 -> 0: the tab bar shows tab 2, not 0"
            ])

        let d = screen("d")
        let e = screen("e")
        let legalTabs = FlowTabs(name: "tabs", tabs: [d, e], selected: 0)
        let legal = try Bench(legalTabs)
        try legalTabs.setTabs([e, d], selecting: 0)
        legal.perform(.setChildren(from: [d.id, e.id], to: [e.id, d.id]), in: legalTabs)
        legal.platform.runUntilIdle()
        #expect(legal.illegal(.select(from: 1, to: 0), in: legalTabs) == [])
        legal.platform.runUntilIdle()
        #expect(legal.platform.differences(from: legal.runtime) == [])
    }

    @Test(
        "Without the selected object, the tab bar keeps its index if valid, else selects tab 0",
        arguments: [
            (selected: 1, kept: [0, 2], shown: 1),  // b left: index 1 (c)
            (selected: 2, kept: [0, 1], shown: 0),  // c left, index 2 is invalid: a
            (selected: 0, kept: [1, 0], shown: 1),  // a moved: a, at its new index
        ])
    func tabsReselectByIndex(selected: Int, kept: [Int], shown: Int) throws {
        let nodes = [screen("a"), screen("b"), screen("c")]
        let tabs = FlowTabs(name: "tabs", tabs: nodes, selected: selected)
        let bench = try Bench(tabs)
        let to = kept.map { nodes[$0].id }
        #expect(bench.illegal(.setChildren(from: nodes.map(\.id), to: to), in: tabs) == [])
        bench.platform.runUntilIdle()
        #expect(bench.platform.shownSelection(of: tabs) == shown)
    }

    @Test("A tapped tab is shown at once and told to FlowKit; a select step starts from it")
    func tappedTab() throws {
        let tabs = FlowTabs(name: "tabs", tabs: [screen("a"), screen("b")])
        let bench = try Bench(tabs)
        try bench.platform.tapTab(at: 1, of: tabs, in: bench.transitions)
        #expect(tabs.selectedIndex == 1 && bench.platform.shownSelection(of: tabs) == 1)
        #expect(bench.platform.illegalCalls == [])
        #expect(
            bench.illegal(.select(from: 0, to: 1), in: tabs) == [
                "select tabs 0 -> 1: the tab bar shows tab 1, not 0"
            ])
        bench.platform.runUntilIdle()
        try bench.platform.tapTab(at: 2, of: tabs, in: bench.transitions)
        #expect(bench.platform.illegalCalls.last == "tab 2 tapped on tabs, which shows 2 tabs")
    }

    @Test("Tapping the selected tab pops its stack to the first entry, on screen and in the tree")
    func reselectedTabPopsToRoot() throws {
        let a0 = screen("a0")
        let a = FlowStack(name: "a", root: a0)
        let tabs = FlowTabs(name: "tabs", tabs: [a, screen("b")])  // reselectionPopsToRoot off
        let bench = try Bench(tabs, pipeline: true)
        try a.push(screen("a1"))
        try a.push(screen("a2"))
        bench.platform.runUntilIdle()
        try bench.platform.tapTab(at: 0, of: tabs, in: bench.transitions)
        #expect(a.entries.map(\.id) == [a0.id])
        #expect(bench.platform.shownChildren(of: a) == [a0.id])
        bench.platform.runUntilIdle()
        #expect(bench.platform.illegalCalls == [])
        #expect(bench.platform.differences(from: bench.runtime) == [])
        #expect(bench.transitions.isShowingTree)
    }

    // MARK: R5: dismiss only what is presented, once presented

    @Test("Dismissing what is not presented there, or is still being presented, is illegal")
    func dismissingTooEarlyOrWrongly() throws {
        let root = screen("root")
        let bench = try Bench(root)
        let sheet = screen("sheet")
        #expect(
            bench.illegal(.dismiss(sheet.id), in: root) == [
                "dismiss root \(sheet.id): \(sheet.id) is not presented there"
            ])
        bench.platform.runUntilIdle()
        try root.present(sheet)
        bench.perform(.present(sheet.id), in: root)
        #expect(
            bench.illegal(.dismiss(sheet.id), in: root) == [
                "dismiss root \(sheet.id): a transition of this container is still running",
                "dismiss root \(sheet.id): another modal transition is running",
                "dismiss root \(sheet.id): \(sheet.id) is still being presented",
            ])

        let other = screen("other")
        let legal = try Bench(other)
        let modal = screen("modal")
        try other.present(modal)
        legal.showPresentation(of: other)
        #expect(legal.illegal(.dismiss(modal.id), in: other) == [])
    }

    // MARK: The record

    @Test("What the platform shows is compared with the tree, node by node")
    func differencesFromTheTree() throws {
        let (bench, a, a0, a1) = try stackOfTwo()
        #expect(bench.platform.differences(from: bench.runtime) == [])
        let a2 = screen("a2")
        try a.push(a2)
        let sheet = screen("sheet")
        try a2.present(sheet)
        #expect(
            bench.platform.differences(from: bench.runtime) == [
                "a\(a.id): shows [\(a0.id) \(a1.id)], the tree has [\(a0.id) \(a1.id) \(a2.id)]",
                "a/a2\(a2.id): presents nothing, the tree a/a2/sheet\(sheet.id)",
            ])
        bench.showEntries(of: a, from: [a0, a1])
        bench.showPresentation(of: a2)
        #expect(bench.platform.differences(from: bench.runtime) == [])
    }
}
