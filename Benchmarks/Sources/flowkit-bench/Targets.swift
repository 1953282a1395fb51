import Foundation

/// Prints the ratios between FlowKit and its baselines, then each target with PASS or MISS.
/// Returns how many targets were missed (targets whose cases did not run are skipped).
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

    print("Routing (URL matching: flat in the pattern count, linear in the segment count)")
    ratio(
        "  URL match, 1000 patterns / 10 patterns",
        perOperation("Routing.urlMatch/patterns=1000"), perOperation("Routing.urlMatch/patterns=10")
    )
    ratio(
        "  URL match per segment, 32 segments / 2 segments",
        perUnit("Routing.urlMatch/segments=32"), perUnit("Routing.urlMatch/segments=2"))

    print("\nTargets")
    var missed = 0
    func target(_ label: String, _ detail: String, _ passed: Bool?) {
        guard let passed else { return }
        if !passed { missed += 1 }
        print((passed ? "PASS  " : "MISS  ") + label + ": " + detail)
    }
    func all(_ values: [Double?]) -> [Double]? {
        let present = values.compactMap { $0 }
        return present.count == values.count ? present : nil
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
    return missed
}
