import Foundation

/// Prints the ratios between FlowKit and its baselines, then each target with PASS or FAIL.
/// Returns how many targets failed (targets whose cases did not run are skipped).
@MainActor
func reportTargets(_ harness: Harness, memory: MemoryReport?) -> Int {
    func perUnit(_ name: String) -> Double? { harness.result(name)?.perUnit?.nanoseconds }
    func perOperation(_ name: String) -> Double? { harness.result(name)?.nanosecondsPerOperation }
    func ratio(_ label: String, _ numerator: Double?, _ denominator: Double?) {
        guard let numerator, let denominator else { return }
        print(pad(label, 64) + leftPad(String(format: "%.2fx", numerator / denominator), 10))
    }

    print("\nRatios (per hop; > 1 means FlowKit is faster)")
    for depth in dispatchDepths {
        let flow = perUnit("Dispatch.flowkit/depth=\(depth)")
        ratio(
            "  responder-style weak chain / FlowKit, depth \(depth)",
            perUnit("Dispatch.responderWeak/depth=\(depth)"), flow)
        ratio(
            "  closure forwarding / FlowKit, depth \(depth)",
            perUnit("Dispatch.closureWeak/depth=\(depth)"), flow)
        ratio(
            "  NotificationCenter (one post) / FlowKit, depth \(depth)",
            perUnit("Dispatch.notificationCenter/depth=\(depth)"), flow)
        ratio(
            "  hand-written limit / FlowKit, depth \(depth)",
            perUnit("Dispatch.rawChain/depth=\(depth)"), flow)
    }
    print("Ratios (per lookup; > 1 means FlowKit is faster)")
    for provider in ["root", "leaf"] {
        for depth in lookupDepths {
            ratio(
                "  Swinject / FlowKit, provided at \(provider), depth \(depth)",
                perOperation("Dependencies.swinject/\(provider),depth=\(depth)"),
                perOperation("Dependencies.flowkit/\(provider),depth=\(depth)"))
        }
    }
    print("Ratios (per node or child; > 1 means FlowKit is faster)")
    for size in teardownSizes {
        ratio(
            "  coordinator add+remove / FlowKit pop with exit hooks, \(size)",
            perUnit("Teardown.coordinators/children=\(size)"),
            perUnit("Teardown.flowkitPop/nodes=\(size)"))
    }

    for size in stackSizes {
        ratio(
            "  coordinator add+remove / FlowKit push+pop, per child, \(size)",
            perUnit("Stack.coordinators/children=\(size)"),
            perUnit("Stack.pushPopN/children=\(size)"))
    }

    print("Costs against a plain baseline or a cheaper variant (< 1 would be cheaper)")
    ratio(
        "  push + pop at depth 3 / plain node allocated and freed",
        perOperation("Stack.pushPop/depth=3"), perOperation("Lifecycle.plainNode/allocFree"))
    for size in lifecycleTreeSizes {
        ratio(
            "  FlowKit tree lifecycle / plain tree, per node, \(size) nodes",
            perUnit("Lifecycle.flowkitTree/nodes=\(size)"),
            perUnit("Lifecycle.plainTree/nodes=\(size)"))
    }
    ratio(
        "  event at depth 1 / weak responder chain at depth 1",
        perOperation("Dispatch.flowkit/depth=1"), perOperation("Dispatch.responderWeak/depth=1"))
    ratio(
        "  event at depth 10, default trace / trace off",
        perOperation("Dispatch.flowkitDefaultTrace/depth=10"),
        perOperation("Dispatch.flowkit/depth=10"))
    ratio(
        "  push + pop at depth 3, default trace / trace off",
        perOperation("Stack.pushPop/depth=3,defaultTrace"), perOperation("Stack.pushPop/depth=3"))
    ratio(
        "  awaiting a result, finished from a task / from didEnter",
        perOperation("Results.run/finishInTask,depth=1"),
        perOperation("Results.run/finishOnEnter,depth=1"))

    print("Growth with size (per unit; 1.00x is linear, or flat per operation)")
    ratio(
        "  push/pop-N per child, 1000 / 10",
        perUnit("Stack.pushPopN/children=1000"), perUnit("Stack.pushPopN/children=10"))
    ratio(
        "  coordinator add+remove per child, 1000 / 10",
        perUnit("Stack.coordinators/children=1000"), perUnit("Stack.coordinators/children=10"))
    ratio(
        "  FlowKit tree lifecycle per node, 5461 / 1365",
        perUnit("Lifecycle.flowkitTree/nodes=5461"), perUnit("Lifecycle.flowkitTree/nodes=1365"))
    ratio(
        "  route-path navigation per step, depth 20 / depth 5",
        perUnit("Routing.navigate/depth=20"), perUnit("Routing.navigate/depth=5"))
    ratio(
        "  route-path navigation per step, depth 10 / depth 5",
        perUnit("Routing.navigate/depth=10"), perUnit("Routing.navigate/depth=5"))
    ratio(
        "  awaiting a result per run, depth 100 / depth 1",
        perOperation("Results.run/finishOnEnter,depth=100"),
        perOperation("Results.run/finishOnEnter,depth=1"))
    ratio(
        "  awaiting a result per run, depth 10 / depth 1",
        perOperation("Results.run/finishOnEnter,depth=10"),
        perOperation("Results.run/finishOnEnter,depth=1"))
    print("Restoration (linear in the tree: flat per node)")
    ratio(
        "  snapshot per node, 10,000 nodes / 100 nodes",
        perUnit("Restoration.snapshot/nodes=10000"), perUnit("Restoration.snapshot/nodes=100"))
    ratio(
        "  restore per node, 10,000 nodes / 100 nodes",
        perUnit("Restoration.restore/nodes=10000"), perUnit("Restoration.restore/nodes=100"))
    print("Launch (JSON to a running tree with its first frame complete; < 1 is cheaper)")
    for size in launchSizes {
        ratio(
            "  own JSON, lazy / eager, format 1 (before), \(size) nodes",
            perOperation("Launch.jsonToTree/nodes=\(size),ownJSON,lazy"),
            perOperation("Launch.jsonToTree/nodes=\(size),format1,eager"))
        ratio(
            "  own JSON, eager / eager, format 1 (before), \(size) nodes",
            perOperation("Launch.jsonToTree/nodes=\(size),ownJSON,eager"),
            perOperation("Launch.jsonToTree/nodes=\(size),format1,eager"))
        ratio(
            "  JSONDecoder, lazy / eager, format 1 (before), \(size) nodes",
            perOperation("Launch.jsonToTree/nodes=\(size),lazy"),
            perOperation("Launch.jsonToTree/nodes=\(size),format1,eager"))
        ratio(
            "  eager, format 2 / eager, format 1 (before), \(size) nodes",
            perOperation("Launch.jsonToTree/nodes=\(size),eager"),
            perOperation("Launch.jsonToTree/nodes=\(size),format1,eager"))
    }
    print("Tabs (selection moves activation only: about flat in the tab count and the stack depth)")
    ratio(
        "  tab switch, 300 tabs / 3 tabs",
        perOperation("Tabs.select/tabs=300,depth=4"), perOperation("Tabs.select/tabs=3,depth=4"))
    ratio(
        "  tab switch, stacks of 100 / stacks of 10",
        perOperation("Tabs.select/tabs=3,depth=100"), perOperation("Tabs.select/tabs=3,depth=10"))

    print("Splits (a selection is one change; collapse and expand only move activation)")
    ratio(
        "  selection in a split / push + pop on a stack, depth 3",
        perOperation("Splits.selection/depth=3"), perOperation("Stack.pushPop/depth=3"))
    for others in splitOtherEntries {
        ratio(
            "  collapse + expand per entry, 1000 entries / 10 entries, \(others) nodes beside",
            perUnit("Splits.collapseExpand/entries=1000,others=\(others)"),
            perUnit("Splits.collapseExpand/entries=10,others=\(others)"))
    }
    for entries in splitColumnEntries {
        ratio(
            "  collapse + expand, 10,000 nodes beside / none, \(entries) entries",
            perOperation("Splits.collapseExpand/entries=\(entries),others=10000"),
            perOperation("Splits.collapseExpand/entries=\(entries),others=0"))
    }

    print("Routing (URL matching: flat in the pattern count, linear in the segment count)")
    ratio(
        "  URL match, 100 patterns / 10 patterns",
        perOperation("Routing.urlMatch/patterns=100"), perOperation("Routing.urlMatch/patterns=10"))
    ratio(
        "  URL match, 1000 patterns / 10 patterns",
        perOperation("Routing.urlMatch/patterns=1000"), perOperation("Routing.urlMatch/patterns=10")
    )
    ratio(
        "  URL match per segment, 32 segments / 2 segments",
        perUnit("Routing.urlMatch/segments=32"), perUnit("Routing.urlMatch/segments=2"))
    for count in coalescingCounts.dropFirst() {
        ratio(
            "  changes during one transition, per change, \(count) / 10",
            perOperation("Transitions.coalesce/requests=\(count)"),
            perOperation("Transitions.coalesce/requests=10"))
    }

    print("\nTargets")
    var failed = 0
    func target(_ label: String, _ detail: String, _ passed: Bool?) {
        guard let passed else { return }
        if !passed { failed += 1 }
        print((passed ? "PASS  " : "FAIL  ") + label + ": " + detail)
    }
    /// A target on `numerator / denominator <= limit`, if both cases ran.
    func atMost(_ label: String, _ numerator: Double?, _ denominator: Double?, _ limit: Double) {
        guard let numerator, let denominator else { return }
        let value = numerator / denominator
        target(label, String(format: "%.2fx", value), value <= limit)
    }
    func all(_ values: [Double?]) -> [Double]? {
        let present = values.compactMap { $0 }
        return present.count == values.count ? present : nil
    }

    for (size, limit) in [(500, 2.0), (10_000, 16.7)] {
        if let nanoseconds = perOperation("Launch.jsonToTree/nodes=\(size),ownJSON,lazy") {
            target(
                "JSON to a running tree (first frame complete), \(size) nodes in 4 tabs <= "
                    + "\(limit) ms", String(format: "%.2f ms", nanoseconds / 1e6),
                nanoseconds / 1e6 <= limit)
        }
    }
    if let snapshot = perUnit("Launch.snapshot/nodes=10000"),
        let restore = perUnit("Launch.restore/nodes=10000,eager")
    {
        target(
            "snapshot and restore (eager, JSON excluded) <= 1 us per node each, 10,000 nodes",
            String(format: "%.0f and %.0f ns per node", snapshot, restore),
            snapshot <= 1_000 && restore <= 1_000)
    }
    if let snapshot = perUnit("Launch.snapshot/nodes=10000,codableRoutes"),
        let restore = perUnit("Launch.restore/nodes=10000,eager,codableRoutes")
    {
        print(
            "info  the same with the screens' synthesized Codable alone (no conversion): "
                + String(format: "%.0f and %.0f ns per node", snapshot, restore))
    }
    if let snapshot = perUnit("Launch.snapshot/nodes=10000,intRoutes"),
        let restore = perUnit("Launch.restore/nodes=10000,eager,intRoutes")
    {
        print(
            "info  the same with Int routes (no Codable container per route): "
                + String(format: "%.0f and %.0f ns per node", snapshot, restore))
    }
    if let bytes = launchBytesPerNode[500] {
        target(
            "snapshot JSON <= 40 bytes per node (launch app)",
            String(format: "%.1f bytes per node", bytes.compact), bytes.compact <= 40)
    }

    let hop100 = perUnit("Dispatch.flowkit/depth=100")
    let weakHop100 = perUnit("Dispatch.responderWeak/depth=100")
    if let hop100 {
        target(
            "dispatch <= 5 ns per hop at depth 100",
            "\(format(hop100)) ns per hop", hop100 <= 5)
    }
    if let hop100, let weakHop100 {
        target(
            "dispatch >= 10x faster per hop than the weak responder chain (depth 100)",
            String(format: "%.1fx", weakHop100 / hop100), weakHop100 / hop100 >= 10)
    }

    let lookups = all(
        ["root", "leaf"].flatMap { provider in
            lookupDepths.map { perOperation("Dependencies.flowkit/\(provider),depth=\($0)") }
        })
    if let lookups, let worst = lookups.max() {
        target("lookup <= 20 ns at any depth", "worst \(format(worst)) ns", worst <= 20)
    }
    for provider in ["root", "leaf"] {
        if let shallow = perOperation("Dependencies.flowkit/\(provider),depth=1"),
            let deep = perOperation("Dependencies.flowkit/\(provider),depth=100")
        {
            target(
                "lookup flat, provided at \(provider): depth 100 <= 1.5x depth 1",
                String(format: "%.2fx", deep / shallow), deep / shallow <= 1.5)
        }
    }

    atMost(
        "a selection in a split <= 1.5x a push + pop on a stack of the same depth",
        perOperation("Splits.selection/depth=3"), perOperation("Stack.pushPop/depth=3"), 1.5)
    atMost(
        "collapse + expand linear in the columns' entries: per entry at 1,000 <= 1.5x at 100",
        perUnit("Splits.collapseExpand/entries=1000,others=0"),
        perUnit("Splits.collapseExpand/entries=100,others=0"), 1.5)
    for entries in splitColumnEntries {
        atMost(
            "collapse + expand independent of the rest of the tree (\(entries) entries): "
                + "10,000 nodes beside <= 1.5x none",
            perOperation("Splits.collapseExpand/entries=\(entries),others=10000"),
            perOperation("Splits.collapseExpand/entries=\(entries),others=0"), 1.5)
    }

    let teardown = all(teardownSizes.map { perUnit("Teardown.flowkitPop/nodes=\($0)") })
    if let teardown {
        let linear = teardown[3] / teardown[1]
        target(
            "teardown linear: ns per node at 10,000 <= 1.5x at 100",
            String(format: "%.2fx", linear), linear <= 1.5)
        let worst = teardown.max()!
        target(
            "teardown <= 300 ns per node with exit hooks",
            "worst \(format(worst)) ns per node", worst <= 300)
    }

    if let memory {
        target(
            "\(memory.cycles) push/pop cycles grow resident memory by < 1 MiB",
            "\(kibibytes(memory.residentGrowth)) (heap \(kibibytes(memory.heapGrowth)))",
            memory.residentGrowth < 1 << 20)
        target(
            "live plain node <= 160 bytes",
            "\(format(memory.bytesPerNode)) bytes per node", memory.bytesPerNode <= 160)
    }

    // Linear, not flat: the one catch-up pass after the transition walks every node, and at
    // 10,000 nodes its tables no longer fit the caches; quadratic growth would read 1,000x.
    atMost(
        "changes during one transition linear: per change at 10,000 <= 3x at 10",
        perOperation("Transitions.coalesce/requests=10000"),
        perOperation("Transitions.coalesce/requests=10"), 3)

    // Issue 13 (performance, round 2; its history: Docs/Notes/PerformanceHistory.md).
    atMost(
        "stack push/pop-N linear: ns/child at N=1000 <= 1.3x N=10",
        perUnit("Stack.pushPopN/children=1000"), perUnit("Stack.pushPopN/children=10"), 1.3)
    if let flow = perUnit("Stack.pushPopN/children=1000"),
        let coordinator = perUnit("Stack.coordinators/children=1000")
    {
        target(
            "stack push/pop at N=1000 >= 5x cheaper per child than coordinator add/remove",
            String(format: "%.2fx", coordinator / flow), coordinator / flow >= 5)
    }
    atMost(
        "push + pop cycle at depth 3 <= 4x allocating and freeing one plain tree node",
        perOperation("Stack.pushPop/depth=3"), perOperation("Lifecycle.plainNode/allocFree"), 4)
    atMost(
        "event at depth 10 with the default trace <= 2x trace off",
        perOperation("Dispatch.flowkitDefaultTrace/depth=10"),
        perOperation("Dispatch.flowkit/depth=10"), 2)
    atMost(
        "push + pop with the default trace <= 1.5x trace off",
        perOperation("Stack.pushPop/depth=3,defaultTrace"), perOperation("Stack.pushPop/depth=3"),
        1.5)
    atMost(
        "untraced event at depth 1 <= 1.5x the weak responder chain at depth 1",
        perOperation("Dispatch.flowkit/depth=1"), perOperation("Dispatch.responderWeak/depth=1"),
        1.5)
    for size in lifecycleTreeSizes {
        atMost(
            "tree lifecycle (build, enter, tear down) <= 3x plain allocation, per node, \(size) nodes",
            perUnit("Lifecycle.flowkitTree/nodes=\(size)"),
            perUnit("Lifecycle.plainTree/nodes=\(size)"), 3)
    }
    if let many = perOperation("Routing.urlMatch/patterns=1000"),
        let few = perOperation("Routing.urlMatch/patterns=10")
    {
        target(
            "URL match independent of the pattern count: 1000 patterns <= 1.5x 10 patterns",
            String(format: "%.2fx", many / few), many / few <= 1.5)
    }
    if let long = perUnit("Routing.urlMatch/segments=32"),
        let short = perUnit("Routing.urlMatch/segments=2")
    {
        target(
            "URL match linear in its length: per segment at 32 segments <= 1.5x at 2",
            String(format: "%.2fx", long / short), long / short <= 1.5)
    }
    return failed
}
