import FlowKit

/// What the memory cases found.
struct MemoryReport {
    /// Push/pop cycles run between the two readings.
    let cycles: Int
    /// Resident memory growth over the cycles, in bytes.
    let residentGrowth: Int
    /// Allocator growth (bytes in use) over the cycles.
    let heapGrowth: Int
    /// Bytes in use per live pushed screen.
    let bytesPerNode: Double
    /// Bytes in use per live pushed screen with one handler and one dependency value.
    let bytesPerRichNode: Double
    /// Bytes in use per live ``PlainNode`` child of one parent (the baseline).
    let bytesPerPlainNode: Double
}

/// A screen as apps write them: one handler, one dependency value.
@MainActor
func makeRichScreen() -> FlowController {
    let screen = FlowController(name: "screen")
    screen.on(Ping.self) { _ in .handled }
    screen.dependencies[BenchNumberKey.self] = 7
    return screen
}

/// Resident memory over a million push/pop cycles (each creating its screen), and the bytes a
/// live node costs, from the allocator's statistics.
@MainActor
func runMemoryBenchmarks(_ harness: Harness, cycles: Int) throws -> MemoryReport? {
    guard harness.selects("Memory") else { return nil }
    let tree = try PushPopTree()

    // Warm up: the recorder reaches its bound, the allocator its working set.
    for _ in 0..<20_000 { try tree.cycle(FlowController(name: "screen")) }

    let before = ProcessMemory.current()
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<cycles { try tree.cycle(FlowController(name: "screen")) }
    let elapsed = start.duration(to: clock.now)
    let after = ProcessMemory.current()
    precondition(tree.stack.entries.count == 1 && tree.host!.changes.count <= 2_000)
    blackHole(tree.host!.changes.count)

    let residentGrowth = after.residentBytes - before.residentBytes
    let heapGrowth = after.allocatedBytes - before.allocatedBytes
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    harness.note(
        "Memory.pushPop/cycles=\(cycles)",
        value: "RSS \(kibibytes(residentGrowth)), heap \(kibibytes(heapGrowth)), "
            + "\(format(seconds * 1e9 / Double(cycles))) ns/cycle")

    // Live nodes are counted in a tree without a recorder, so only the nodes are counted.
    let quiet = try PushPopTree(recording: false)
    let perNode = try liveBytesPerNode(quiet, count: 1_000) { FlowController(name: "screen") }
    harness.note("Memory.liveNode/plain", value: "\(format(perNode)) bytes/node")
    let perRichNode = try liveBytesPerNode(quiet, count: 1_000, make: makeRichScreen)
    harness.note("Memory.liveNode/handler+dependency", value: "\(format(perRichNode)) bytes/node")
    let perPlainNode = livePlainBytesPerNode(count: 1_000)
    harness.note("Memory.liveNode/plainBaseline", value: "\(format(perPlainNode)) bytes/node")

    return MemoryReport(
        cycles: cycles, residentGrowth: residentGrowth, heapGrowth: heapGrowth,
        bytesPerNode: perNode, bytesPerRichNode: perRichNode, bytesPerPlainNode: perPlainNode)
}

/// Bytes in use per ``PlainNode`` while `count` of them are children of one parent, including
/// the parent's array storage for them and the parent's weak-reference side table.
@MainActor
private func livePlainBytesPerNode(count: Int) -> Double {
    let before = ProcessMemory.current()
    let parent = makePlainNode(name: "parent")
    for _ in 0..<count {
        let child = makePlainNode(name: "node")
        child.parent = parent
        parent.children.append(child)
    }
    let after = ProcessMemory.current()
    precondition(parent.children.count == count)
    blackHole(parent)
    return Double(after.allocatedBytes - before.allocatedBytes) / Double(count)
}

/// Bytes in use per node while `count` nodes from `make` are pushed (entered) on the tree's
/// stack, including the stack's own storage for them.
@MainActor
private func liveBytesPerNode(
    _ tree: PushPopTree, count: Int, make: () -> FlowController
) throws -> Double {
    let before = ProcessMemory.current()
    for _ in 0..<count { try tree.stack.push(make()) }
    let after = ProcessMemory.current()
    precondition(tree.stack.entries.count == count + 1)
    try tree.stack.popToRoot()
    return Double(after.allocatedBytes - before.allocatedBytes) / Double(count)
}
