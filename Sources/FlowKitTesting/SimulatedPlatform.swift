import FlowKit

/// A platform with real timing on a virtual clock, for testing flows as a UIKit or SwiftUI
/// app would run them, on Linux: navigation stacks, tab bars and modal presentation that take
/// time, refuse what UIKit refuses, and can be swiped and tapped.
///
///     let platform = SimulatedPlatform(rules: .uiKit, duration: 350)
///     let transitions = FlowTransitions(host: platform)
///     let runtime = try FlowRuntime(root: app, host: transitions)
///     try runtime.start()
///     try stack.push(detail)           // the tree changes; the platform starts a push
///     try stack.push(more)             // during the push: waits its turn
///     platform.advance(by: 350)        // the first push ends; the second starts
///     platform.runUntilIdle()
///     #expect(platform.illegalCalls.isEmpty)
///     #expect(platform.differences(from: runtime).isEmpty)
///
/// It keeps its own record of what it shows, built only from the steps it was asked to
/// perform, the kind of each node it shows (a stack, a tab container, a split, another
/// parallel container, any other node: what a UIKit host knows from the view controller it
/// made) and the facts the platform itself reported (a split's collapsed layout). It never
/// reads what `FlowTransitions` believes is shown, so it is an independent check of it.
///
/// Every step that UIKit would refuse or get wrong is recorded as an *illegal call*
/// (``illegalCalls``, `"<step>: <why>"`); tests fail on them with
/// `#expect(platform.illegalCalls.isEmpty)`. The rules, each with the UIKit behaviour it
/// mirrors (the same table is in the Testing guide):
///
/// - **One transition per container.** A step in a container whose step is still running, or
///   that the user is swiping back (`UINavigationController` runs one transition at a time;
///   a second one garbles it: "Finishing up a navigation transition in an unexpected
///   state"). With `FlowTransitionRules.oneModalTransitionAtATime`, a `present` or
///   `dismiss` while another runs or a sheet is being dragged ("Attempt to present … while a
///   presentation is in progress", "Attempt to dismiss from view controller … while a
///   presentation or dismiss is in progress"); without
///   `FlowTransitionRules.containersAnimateTogether`, any step while another runs; a
///   `present` while a dismissal runs.
/// - **Stack steps start from what the stack shows** and, with `.oneEntry` stack steps, move
///   it by one push or one pop.
/// - **Present only from a view controller on screen** (`present(_:animated:completion:)`:
///   "Attempt to present … on … whose view is not in the window hierarchy"). A node is on
///   screen when it is the root, or a presented node whose presentation has completed and
///   is not being dismissed (by a step or a drag), or an embedded child of a node on screen
///   that shows it: a stack shows only its top entry
///   (`UINavigationController.topViewController`), and none while a step of it runs or the
///   user swipes it back; a tab container only its selected tab
///   (`UITabBarController.selectedViewController`: "the one whose custom view is currently
///   displayed"), and none while a step of it runs; an expanded split every column, a
///   collapsed one only the column on top of its compact stack (read from the live
///   `FlowSplit`, which the platform told); any other container every child, and none
///   while a step of it runs. A node is also not on screen when a node between it and its
///   layer (the root, or the nearest presented node) presents something, shown or
///   being presented: `presentedViewController` is "the view controller that is presented
///   by this view controller, or one of its ancestors", so UIKit answers "Attempt to
///   present … which is already presenting …". Presenting from a node that presents
///   already (shown, or its `present` running) is illegal for the same reason.
/// - **A view controller that presents stays where it is.** A `setEntries` or `setChildren`
///   step may not remove a node that presents (shown, or its `present` or `dismiss`
///   running), nor one inside whose embedded subtree a node does: UIKit would leave the
///   presentation behind, orphaned. Without `FlowTransitionRules.dismissesLayersAbove`,
///   a `dismiss` may not take away a layer inside which a node presents (the layers go one
///   at a time, top-most first).
/// - **The tab bar reselects by object.** After a `setChildren` step on a tab container, the
///   platform shows what `UITabBarController.viewControllers` documents: "the tab bar
///   controller remembers the view controller object that was previously selected and
///   attempts to reselect it. If the selected view controller is no longer present, it
///   attempts to select the view controller at the same index in the array as the previous
///   selection. If that index is invalid, it selects the view controller at index 0." A
///   `select(from:to:)` step must start from the tab the tab bar shows.
/// - **Dismiss only what is presented there**, and not while its presentation still runs.
///
/// What the platform shows can be read (``shownChildren(of:)``, ``shownPresented(by:)``,
/// ``shownSelection(of:)``, ``isOnScreen(_:)``) and compared with the tree
/// (``differences(from:)``); the user's own changes go through it (``swipeBack(on:in:)``,
/// ``tapBack(on:in:)``, ``dragDown(sheetOf:in:)``, ``tapTab(at:of:in:)``), so its record
/// follows them.
@MainActor
public final class SimulatedPlatform: FlowTransitionHost {
    /// The rules this platform follows (and checks).
    public let transitionRules: FlowTransitionRules
    /// How long a transition takes, in virtual milliseconds (0: at once, inside `perform`).
    public var duration: Int
    /// The virtual time, in milliseconds.
    public private(set) var now = 0
    /// What a real platform would have refused, in order (empty in a correct run).
    public internal(set) var illegalCalls: [String] = []
    /// Every step performed, in order.
    public private(set) var performedSteps: [FlowTransitionStep] = []
    /// Decides, for each step, whether the platform refuses it (the error its completion
    /// fails with) or performs it (`nil`). Defaults to performing everything.
    public var refuses: (FlowTransitionStep) -> (any Error)? = { _ in nil }

    /// What the platform shows: each shown node's children (embedded) and presented node.
    var shownChildren: [FlowNodeID: [FlowNodeID]] = [:]
    var shownPresented: [FlowNodeID: FlowNodeID] = [:]
    /// Each shown node's parent: its container, or its presenter.
    var shownParent: [FlowNodeID: FlowNodeID] = [:]
    /// What the platform knows of each shown node: its kind and its path when shown.
    var shownNodes: [FlowNodeID: ShownNode] = [:]
    /// The tab each shown tab container shows, by index.
    var shownSelections: [FlowNodeID: Int] = [:]
    var root: FlowNodeID?
    var running: [Running] = []
    /// The gestures the user began through this platform, by stack (a swipe back) or by
    /// presenter (a sheet dragged down); ended ones are ignored.
    var gestures: [FlowNodeID: FlowInteractiveTransition] = [:]
    /// The runtime of the last step, to read the facts the platform reported (a split's
    /// layout).
    weak var runtime: FlowRuntime?

    /// What kind of view controller the platform made for a node.
    enum Kind: Equatable {
        case stack, tabs, split, parallel, other
    }

    /// What the platform knows of a node it shows.
    struct ShownNode {
        let kind: Kind
        /// The node's path when it was shown (for messages).
        let path: String
        /// A split's last known layout: whether collapsed, and the column on top then.
        var collapsed = false
        var topColumn: FlowNodeID?
    }

    struct Running {
        let end: Int
        let step: FlowTransitionStep
        let completion: FlowTransitionCompletion
        /// The embedded subtrees the step shows, read from the tree when it started.
        let shows: [FlowNodeID: Shows]
    }

    /// One node of an embedded subtree a step shows, as it was when the step started.
    struct Shows {
        let node: ShownNode
        let children: [FlowNodeID]
        let selection: Int?
    }

    /// Creates a platform with `rules` whose transitions take `duration` milliseconds.
    public init(rules: FlowTransitionRules = .uiKit, duration: Int = 350) {
        transitionRules = rules
        self.duration = duration
    }

    /// Whether a transition is running.
    public var isAnimating: Bool { !running.isEmpty }

    /// The identities of the children the platform shows for `node`.
    public func shownChildren(of node: FlowController) -> [FlowNodeID] {
        shownChildren[node.id] ?? []
    }

    /// The identity of the node the platform shows presented by `node`, if any.
    public func shownPresented(by node: FlowController) -> FlowNodeID? {
        shownPresented[node.id]
    }

    /// The index of the tab the platform shows selected in `tabs` (`nil` if it does not show
    /// `tabs`). It follows the `select` steps, the user's taps (``tapTab(at:of:in:)``) and the
    /// tab bar's own reselection after a `setChildren` step, never the tree.
    public func shownSelection(of tabs: FlowTabs) -> Int? {
        shownSelections[tabs.id]
    }

    /// Whether `node`'s view would be in the window hierarchy now: the platform shows it,
    /// nothing covers it, and nothing between it and the root moves (see the rules above).
    public func isOnScreen(_ node: FlowController) -> Bool {
        whyNotOnScreen(node.id) == nil
    }

    // MARK: FlowTransitionHost

    /// Starts `step` (checked against the rules and against what the platform shows; a
    /// violation is recorded in ``illegalCalls``), or fails it if ``refuses`` says so. The step
    /// ends after ``duration`` virtual milliseconds (``advance(by:)``), or at once with a
    /// duration of 0; then `completion` is called and what the platform shows changes.
    public func perform(
        _ step: FlowTransitionStep, in runtime: FlowRuntime, completion: FlowTransitionCompletion
    ) {
        self.runtime = runtime
        performedSteps.append(step)
        checkLegality(of: step)
        if let error = refuses(step) {
            completion.fail(error)
            return
        }
        if step.kind == .stop {
            forgetEverything()
            completion.done()
            return
        }
        let transition = Running(
            end: now + duration, step: step, completion: completion,
            shows: subtrees(shownBy: step, in: runtime))
        if duration == 0 {
            finish(transition)
        } else {
            running.append(transition)
        }
    }

    /// Moves the virtual clock on by `milliseconds`, ending the transitions due meanwhile
    /// (their completions run, and with them the next steps start).
    public func advance(by milliseconds: Int) {
        let target = now + milliseconds
        while let next = running.min(by: { $0.end < $1.end }), next.end <= target {
            now = next.end
            running.removeAll { $0.completion === next.completion }
            finish(next)
        }
        now = target
    }

    /// Advances the clock until no transition runs (at most 10,000 transitions).
    public func runUntilIdle() {
        var rounds = 0
        while let next = running.min(by: { $0.end < $1.end }), rounds < 10_000 {
            advance(by: max(0, next.end - now))
            rounds += 1
        }
    }
}
