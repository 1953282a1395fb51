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
        /// A split's arrangement: shown collapsed into one stack, and the column shown on top then
        /// (``FuzzColumn``); its focused column is `selected` (an index of `children`).
        var collapsed = false
        var preferred: FuzzColumn = 2
        /// A split's number of columns (2 or 3; its `columns` stay when it exits).
        var columnCount = 0

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
        /// Every active node, in entry order (the focused path unless a split branches it).
        var active: [FuzzID] = []
        var armedHost: FuzzAction?
        var armedTrace: FuzzAction?
        /// The change a guard redirected, kept as the runtime's pending intent.
        var intent: PendingIntent?
        /// The runtime's platform (see ``FuzzPlatformSpec``), if it has one.
        var platform: FuzzPlatformSpec?
        /// The interactive gesture in progress on its platform.
        var gesture: Gesture?
    }

    /// An interactive gesture in progress: where, what it removes once committed (the entry
    /// the platform shows below its top, or the node it shows presented), and its path when
    /// it began (its trace records name it; both forms for an exited container).
    struct Gesture {
        var container: FuzzID
        var isDismissal: Bool
        var target: FuzzID
        var paths: [String]
    }

    /// A pending intent: its description (as `runtime.redirectedIntent` and the trace give it),
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
        /// A navigation from a node, and its paths as FlowKit describes them (one per path of
        /// `navigate(toEach:)`).
        case navigate(FuzzID, [String])
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

    struct SplitArrangement: Equatable {
        var collapsed: Bool
        var preferred: FuzzColumn
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
        /// Splits and the arrangement the change gives them (see ``FuzzModel/setSplitArrangement``).
        var splitArrangements: [FuzzID: SplitArrangement] = [:]

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
    /// What the generator knows of the scenes beside the model (FuzzScenes.swift).
    var sceneView = FuzzSceneView()
    var runtimes: [Int: Runtime] = [:]
    var journal: [FuzzExpect] = []
    /// The senders of the events being delivered, innermost last.
    var delivering: [FuzzID] = []
    /// The container each new subtree root of a change being committed joins, until the
    /// change links it (FlowKit's prospective link: see ``commit(_:in:)``).
    var prospective: [FuzzID: FuzzID] = [:]
    /// The nodes the transactions being committed remove (each holds them until it ends),
    /// outermost first.
    var removing: [FuzzID] = []
    /// The receivers of the operations in progress and the nodes they name, outermost first:
    /// each call holds them until it returns (see ``heldByCall(_:)``).
    var operating: [FuzzID] = []
    var trace: [FuzzExpect] = []
    var host: [FuzzExpect] = []
    var tokens: Set<Int> = []
    var nextFresh = 1_000_000
    var eventSeq = 0
    var quiet = false
    var actionBudget = 64
    /// Set by a step whose logs are compared loosely (a runtime released without stop).
    var lenient = false
    var applyingRuntimes: [Int] = []
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
    /// How many changes were committed (in any runtime) so far.
    var commits = 0
    /// A gesture the model let begin although an exit guard's effect committed a change in its
    /// runtime meanwhile: FlowKit then refuses it if that change started a transition in the
    /// gesture's container (`gestureNotPossible`, "a transition runs"), which the model, not
    /// planning transitions, cannot tell. The runner settles it from FlowKit (see
    /// ``FuzzRun/settleGestureBegin(_:)``).
    var uncertainGesture: (runtime: Int, container: FuzzID, paths: [String])?

    /// FlowKit bugs the random test found and that are not fixed yet, each with a known-issue
    /// regression test. While a name is listed, the model expects what FlowKit does now, or
    /// the generator steers clear of the trigger (so the random test keeps covering the
    /// rest), reading `tolerated` where it differs; with `FLOWKIT_FUZZ_STRICT=1` the list is
    /// empty and the model expects the documented behaviour. Remove a name (and the branch
    /// that reads it) once its bug is fixed. Empty: every bug found so far is fixed, with its
    /// regression test (`FlowTabsTests`, `TransitionTests`' "Found by the model-based random
    /// test", the issue 29 findings 29.a-29.e in `TransitionTests+Issue29.swift`, and 29.f to
    /// 29.h in `ModelBasedTests`).
    static let knownIssues: Set<String> = []
    static var tolerated = knownIssues
    /// The identity FlowKit gave the node the tester calls `id`, as `#<raw>` (for the text of
    /// refused binding writes); set by the runner.
    var identity: (FuzzID) -> String = { _ in "#?" }
    /// What a runtime's platform shows, read from FlowTransitions before a platform operation
    /// (the model does not plan transitions; the runner checks the platform separately): set
    /// by the runner.
    var shown: (FuzzOp) -> FuzzShownAnswer = { _ in .absent }
    /// While a tab tap is told to FlowKit: whether the tab bar showed the tapped tab selected
    /// before the tap (see ``select(_:in:platform:context:)``).
    var tapReselects: Bool?

    /// Paths and dependency values remembered while nothing changes (the runner's checks
    /// after a step ask for every node's, each walking up the tree): see ``frozen(_:)``.
    var snapshot: (paths: [FuzzID: String], values: [FuzzID: [Int?]])?
}
