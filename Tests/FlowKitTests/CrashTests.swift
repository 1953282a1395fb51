import FlowKit
import Testing

/// The documented traps (Docs/Reliability.md, "What still traps, and why"): each is a
/// programming error that the first run of the code shows. Each exit test runs the call in a
/// child process and expects it to end in a failure (a trap); it fails if the trap is
/// removed. The closures capture nothing: every value is built inside them. Beside each
/// trap, its control: the non-trapping alternative throws a typed error instead.
@MainActor
@Suite("Crashes: the documented traps, and the typed errors of their alternatives")
struct CrashTests {
    // MARK: Node names

    @Test("FlowController(name:) traps on an empty name")
    func emptyName() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run { _ = FlowController(name: "") }
        }
    }

    @Test("FlowController(name:) traps on a name containing '/'")
    func nameWithSlash() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run { _ = FlowController(name: "a/b") }
        }
    }

    @Test("Control: a valid name, however unusual, does not trap")
    func validNameDoesNotTrap() async {
        await #expect(processExitsWith: .success) {
            await MainActor.run { _ = FlowController(name: "a b-c.é") }
        }
    }

    // MARK: Containers' initializers

    @Test("FlowStack(name:root:) traps on a root already in use")
    func stackRootInUse() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                let holder = FlowController(name: "holder")
                let root = FlowController(name: "root")
                try? holder.embed(root)
                _ = FlowStack(name: "stack", root: root)
            }
        }
    }

    @Test("Control: FlowStack(name:) then push(root) throws alreadyAttached instead")
    func stackPushInUseThrows() throws {
        let holder = FlowController(name: "holder")
        let root = FlowController(name: "root")
        try holder.embed(root)
        let stack = FlowStack(name: "stack")
        #expect(throws: FlowError.alreadyAttached(node: "holder/root", parent: "holder")) {
            try stack.push(root)
        }
        #expect(stack.entries.isEmpty && root.parent === holder)
    }

    @Test("FlowSwitch(name:initial:) traps on an initial child already in use")
    func switchInitialInUse() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                let holder = FlowController(name: "holder")
                let initial = FlowController(name: "initial")
                try? holder.embed(initial)
                _ = FlowSwitch(name: "switch", initial: initial)
            }
        }
    }

    @Test("Control: FlowSwitch(name:) then embed(initial) throws alreadyAttached instead")
    func switchEmbedInUseThrows() throws {
        let holder = FlowController(name: "holder")
        let initial = FlowController(name: "initial")
        try holder.embed(initial)
        let container = FlowSwitch(name: "switch")
        #expect(throws: FlowError.alreadyAttached(node: "holder/initial", parent: "holder")) {
            try container.embed(initial)
        }
        #expect(container.current == nil && initial.parent === holder)
    }

    @Test("FlowTabs(name:tabs:selected:) traps on a tab already in use")
    func tabInUse() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                let holder = FlowController(name: "holder")
                let tab = FlowController(name: "tab")
                try? holder.embed(tab)
                _ = FlowTabs(name: "tabs", tabs: [FlowController(name: "a"), tab])
            }
        }
    }

    @Test("FlowTabs(name:tabs:selected:) traps on a tab listed twice")
    func tabListedTwice() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                let tab = FlowController(name: "tab")
                _ = FlowTabs(name: "tabs", tabs: [tab, tab])
            }
        }
    }

    @Test("FlowTabs(name:tabs:selected:) traps on a selected index out of range")
    func selectedOutOfRange() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                _ = FlowTabs(
                    name: "tabs", tabs: [FlowController(name: "a"), FlowController(name: "b")],
                    selected: 2)
            }
        }
    }

    @Test("Control: FlowTabs(name:) then setTabs(_:selecting:) throws typed errors instead")
    func setTabsThrows() throws {
        let holder = FlowController(name: "holder")
        let inUse = FlowController(name: "tab")
        try holder.embed(inUse)
        let a = FlowController(name: "a")
        let b = FlowController(name: "b")
        let tabs = FlowTabs(name: "tabs")
        #expect(throws: FlowError.alreadyAttached(node: "holder/tab", parent: "holder")) {
            try tabs.setTabs([a, inUse])
        }
        #expect(throws: FlowError.duplicateNode(node: "a")) { try tabs.setTabs([a, a]) }
        #expect(throws: FlowError.notATab(tabs: "tabs", node: "tab index 2")) {
            try tabs.setTabs([a, b], selecting: 2)
        }
        #expect(tabs.tabs.isEmpty && a.parent == nil && inUse.parent === holder)
    }

    // MARK: Parallel regions and splits (their regions are fixed when they are made)

    @Test("FlowParallel(name:regions:focused:) traps on no region")
    func parallelWithoutRegions() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run { _ = FlowParallel(name: "parallel", regions: []) }
        }
    }

    @Test("FlowParallel(name:regions:focused:) traps on a focused index out of range")
    func parallelFocusOutOfRange() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                _ = FlowParallel(
                    name: "parallel",
                    regions: [FlowController(name: "a"), FlowController(name: "b")], focused: 2)
            }
        }
    }

    @Test("FlowParallel(name:regions:focused:) traps on a region already in use")
    func parallelRegionInUse() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                let holder = FlowController(name: "holder")
                let region = FlowController(name: "region")
                try? holder.embed(region)
                _ = FlowParallel(name: "parallel", regions: [FlowController(name: "a"), region])
            }
        }
    }

    @Test("FlowParallel(name:regions:focused:) traps on a region listed twice")
    func parallelRegionListedTwice() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                let region = FlowController(name: "region")
                _ = FlowParallel(name: "parallel", regions: [region, region])
            }
        }
    }

    @Test("FlowSplit(name:sidebar:content:detail:...) traps on a column already in use")
    func splitColumnInUse() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                let holder = FlowController(name: "holder")
                let detail = FlowStack(name: "detail")
                try? holder.embed(detail)
                _ = FlowSplit(name: "split", sidebar: FlowStack(name: "sidebar"), detail: detail)
            }
        }
    }

    @Test("FlowSplit(name:sidebar:content:detail:...) traps on a column given twice")
    func splitColumnGivenTwice() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                let column = FlowStack(name: "column")
                _ = FlowSplit(name: "split", sidebar: column, detail: column)
            }
        }
    }

    @Test("FlowSplit(name:sidebar:content:detail:...) traps on focus .content with two columns")
    func splitFocusOnMissingContent() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                _ = FlowSplit(
                    name: "split", sidebar: FlowStack(name: "sidebar"),
                    detail: FlowStack(name: "detail"), focus: .content)
            }
        }
    }

    @Test("FlowSplit(name:sidebar:content:detail:...) traps on a compact .content with two columns")
    func splitCompactOnMissingContent() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                _ = FlowSplit(
                    name: "split", sidebar: FlowStack(name: "sidebar"),
                    detail: FlowStack(name: "detail"), preferredCompactColumn: .content)
            }
        }
    }

    @Test("Control: fresh regions and columns, every focus and compact column valid, do not trap")
    func freshRegionsDoNotTrap() async throws {
        await #expect(processExitsWith: .success) {
            await MainActor.run {
                _ = FlowParallel(
                    name: "parallel",
                    regions: [FlowController(name: "a"), FlowController(name: "b")], focused: 1)
                for column in FlowSplit.Column.allCases {
                    _ = FlowSplit(
                        name: "split", sidebar: FlowStack(name: "sidebar"),
                        content: FlowStack(name: "content"), detail: FlowStack(name: "detail"),
                        focus: column, preferredCompactColumn: column)
                }
            }
        }
        // The regions are fixed: the only way to give a split a node in use is its
        // initializer; afterwards a column's content changes through typed errors.
        let holder = FlowController(name: "holder")
        let inUse = FlowController(name: "inUse")
        try holder.embed(inUse)
        let split = FlowSplit(
            name: "split", sidebar: FlowStack(name: "sidebar"), detail: FlowStack(name: "detail"))
        #expect(throws: FlowError.alreadyAttached(node: "holder/inUse", parent: "holder")) {
            try split.show(inUse, in: .detail)
        }
        #expect(throws: FlowError.regionsAreFixed(container: "split")) {
            try split.embed(FlowController(name: "column"))
        }
        #expect(inUse.parent === holder && split.node(for: .detail)?.children.isEmpty == true)
    }

    // MARK: The trace's limit

    @Test("FlowTrace(limit: 0) traps")
    func traceLimitZero() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run { _ = FlowTrace(limit: 0) }
        }
    }

    @Test("Setting FlowTrace.limit to 0 traps")
    func settingTraceLimitZero() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                let trace = FlowTrace(limit: 10)
                trace.limit = 0
            }
        }
    }

    @Test("Control: a limit of 1 is valid, in the initializer and the setter")
    func traceLimitOne() async {
        await #expect(processExitsWith: .success) {
            await MainActor.run {
                let trace = FlowTrace(limit: 1)
                trace.limit = 1
            }
        }
        let trace = FlowTrace(limit: 1)
        trace.limit = 1
        #expect(trace.limit == 1)
    }

    // MARK: Snapshot schemas

    @Test("FlowSnapshotSchema.renameRoute( traps on a name already renamed to another type")
    func schemaRenameTwice() async {
        await #expect(processExitsWith: .failure) {
            var schema = FlowSnapshotSchema(version: 1)
            schema.renameRoute("Old.Screen", to: String.self)
            schema.renameRoute("Old.Screen", to: Int.self)
        }
    }

    @Test("FlowSnapshotSchema.migrateRoutes( traps on a version above the schema's")
    func schemaRouteMigrationAboveVersion() async {
        await #expect(processExitsWith: .failure) {
            var schema = FlowSnapshotSchema(version: 1)
            schema.migrateRoutes(of: String.self, to: 2, from: Int.self) { String($0) }
        }
    }

    @Test("FlowSnapshotSchema.migrateStates( traps on a second migration to one version")
    func schemaStateMigrationTwice() async {
        await #expect(processExitsWith: .failure) {
            var schema = FlowSnapshotSchema(version: 2)
            schema.migrateStates(of: CrashRestorable.self, to: 2, from: Int.self) { $0 }
            schema.migrateStates(of: CrashRestorable.self, to: 2, from: Int.self) { $0 }
        }
    }

    @Test("Control: one rename per name and one migration per type and version do not trap")
    func schemaWithoutContradiction() async {
        await #expect(processExitsWith: .success) {
            var schema = FlowSnapshotSchema(version: 2)
            schema.renameRoute("Old.Screen", to: String.self)
            schema.renameRoute("Older.Screen", to: String.self)
            schema.migrateRoutes(of: String.self, to: 1, from: Int.self) { String($0) }
            schema.migrateRoutes(of: String.self, to: 2, from: String.self) { $0 }
            schema.migrateStates(of: CrashRestorable.self, to: 2, from: Int.self) { $0 }
        }
    }
}

/// A restorable node for the schema's exit tests.
final class CrashRestorable: FlowController, FlowRestorable {
    func saveState() -> Int? { nil }
    func restoreState(_ state: Int) throws {}
}
