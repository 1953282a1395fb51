import Foundation

// flowkit-bench: FlowKit beside its alternatives, in one run, with ratios and targets.
//
//     swift run -c release --package-path Benchmarks flowkit-bench [--quick] [--filter Area] [--check]
//     swift run -c release --package-path Benchmarks flowkit-bench --instructions CASE ITERATIONS
//
// `--check` exits with status 1 if a target failed (otherwise the status is 0 whatever the
// targets say). `--instructions` runs one case's operation a fixed number of times, with no
// harness, for `scripts/callgrind.sh` (see InstructionCases.swift).

#if DEBUG
FileHandle.standardError.write(
    Data(
        """
        flowkit-bench: refusing to run a debug build; its numbers mean nothing.
        Run: swift run -c release --package-path Benchmarks flowkit-bench

        """.utf8))
exit(2)
#else

/// Writes `message` to standard error and exits with `status`.
func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("flowkit-bench: \(message)\n".utf8))
    exit(status)
}

let arguments = Array(CommandLine.arguments.dropFirst())
let known: Set<String> = ["--quick", "--check", "--filter", "--instructions"]

/// The value after `option`, if the option is given.
func value(after option: String) -> String? {
    guard let index = arguments.firstIndex(of: option) else { return nil }
    guard index + 1 < arguments.count else { fail("\(option) needs a value", status: 2) }
    return arguments[index + 1]
}

if let name = value(after: "--instructions") {
    let index = arguments.firstIndex(of: "--instructions")!
    guard index + 2 < arguments.count, let iterations = Int(arguments[index + 2]), iterations > 0
    else { fail("usage: --instructions CASE ITERATIONS", status: 2) }
    guard try runInstructionCase(name, iterations: iterations) else {
        let cases = instructionCaseDescriptions.map { "  \($0.key): \($0.value)" }
        fail("no case '\(name)'; cases:\n" + cases.joined(separator: "\n"), status: 2)
    }
    print("flowkit-bench: \(name) x \(iterations) (checksum \(blackHoleChecksum))")
    exit(0)
}

for argument in arguments where argument.hasPrefix("--") && !known.contains(argument) {
    fail("unknown option \(argument)", status: 2)
}
let quick = arguments.contains("--quick")
let check = arguments.contains("--check")
let filter = value(after: "--filter")

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
    try runLifecycleBenchmarks(harness)
    try runStackBenchmarks(harness)
    try runRoutingBenchmarks(harness)
    try await runResultBenchmarks(harness)
    try runTabBenchmarks(harness)
    try runSplitBenchmarks(harness)
    try runRestorationBenchmarks(harness)
    try runTransitionBenchmarks(harness)
    try runSceneBenchmarks(harness)
    let memory = try runMemoryBenchmarks(harness, cycles: quick ? 100_000 : 1_000_000)
    let failed = reportTargets(harness, memory: memory)
    let elapsed = started.duration(to: clock.now)
    print(
        "\n\(failed) target(s) failed; run took \(elapsed.components.seconds) s (checksum \(blackHoleChecksum))"
    )
    if check && failed > 0 { exit(1) }
} catch {
    fail("\(error)", status: 1)
}

#endif
