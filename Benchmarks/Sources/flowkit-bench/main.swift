import Foundation

// flowkit-bench: FlowKit beside its alternatives, in one run, with ratios and targets.
//
//     swift run -c release --package-path Benchmarks flowkit-bench [--quick] [--filter Area]

#if DEBUG
FileHandle.standardError.write(
    Data(
        """
        flowkit-bench: refusing to run a debug build; its numbers mean nothing.
        Run: swift run -c release --package-path Benchmarks flowkit-bench

        """.utf8))
exit(2)
#else

let arguments = CommandLine.arguments.dropFirst()
let quick = arguments.contains("--quick")
let filter = arguments.firstIndex(of: "--filter").flatMap { index in
    arguments.index(after: index) < arguments.endIndex ? arguments[index + 1] : nil
}

let harness = Harness(
    repetitions: quick ? 5 : 15, warmups: quick ? 1 : 3, filter: filter)
let clock = ContinuousClock()
let started = clock.now

print(
    "flowkit-bench: median of \(harness.repetitions) repetitions after \(harness.warmups) warm-ups")
print(pad("case", 44) + leftPad("median", 12) + "      " + leftPad("fastest", 12))
do {
    try runDispatchBenchmarks(harness)
    try runDependencyBenchmarks(harness)
    try runTeardownBenchmarks(harness)
    try runStackBenchmarks(harness)
    try runRoutingBenchmarks(harness)
    let memory = try runMemoryBenchmarks(harness, cycles: quick ? 100_000 : 1_000_000)
    let missed = reportTargets(harness, memory: memory)
    let elapsed = started.duration(to: clock.now)
    print(
        "\n\(missed) target(s) missed; run took \(elapsed.components.seconds) s (checksum \(blackHoleChecksum))"
    )
} catch {
    FileHandle.standardError.write(Data("flowkit-bench: \(error)\n".utf8))
    exit(1)
}

#endif
