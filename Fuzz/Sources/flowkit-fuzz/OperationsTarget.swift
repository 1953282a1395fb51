import Foundation

/// The operations door (structure-aware): the input's bytes are the choices of the
/// model-based random test's generator (``FuzzGenerator/init(bytes:exclude:)``, one byte per
/// choice, 0 once they are used up), so an input is a sequence of public FlowKit operations
/// on small trees: building nodes, stacks, switches, tabs and runtimes, navigation, guards,
/// hooks, handlers, events, tasks, dependency values, platforms with gestures and a clock,
/// releases off the main actor.
///
/// Oracle: the random test's own (`ModelBased/FuzzRunner.swift`, shared with the test target
/// through the `ModelBased` link to Tests/FlowKitTests/ModelBased): after every operation the
/// tree, states, errors, hooks, trace, host records, focus, pending intents, dependency
/// values and platform match the model, and the weak census finds freed exactly what the
/// model says is released. A difference stops the process with the shrunk sequence of
/// operations, which reads as Swift.
@MainActor
enum OperationsTarget {
    /// The most operations one input runs (an operation takes 2 to 6 bytes; the script gives
    /// this target `-max_len=512`). An operation costs about a millisecond in the fuzzer's
    /// build (AddressSanitizer, coverage), so an input takes up to about 0.1 s.
    static let maxOperations = 100

    static func run(_ data: Data) {
        let done = Flag()
        Task { @MainActor in
            await runOperations([UInt8](data))
            done.raised = true
        }
        // The operations await (the census yields to cancelled tasks): the main run loop runs
        // the main actor's jobs until the input is done.
        while !done.raised {
            _ = RunLoop.main.run(mode: .default, before: .distantFuture)
        }
    }

    /// Kinds of operations to leave out, as in the random test (`FLOWKIT_FUZZ_EXCLUDE`, see
    /// ``FuzzGenerator``): to look past a known failure.
    static let exclude = Set(
        (ProcessInfo.processInfo.environment["FLOWKIT_FUZZ_EXCLUDE"] ?? "").split(separator: ",")
            .map(String.init))

    static func runOperations(_ bytes: [UInt8]) async {
        let (ops, failure) = await fuzzRun(bytes: bytes, limit: maxOperations, exclude: exclude)
        guard let failure else { return }
        printError("flowkit-fuzz: operations differ from the model: \(failure)")
        // Shrinking replays the sequence from scratch; a few hundred replays stay within
        // libFuzzer's -timeout.
        let (shrunk, last) = await fuzzShrink(
            ops, failure: failure, exclude: exclude, maxReplays: 300)
        oracle(
            false,
            "FlowKit differs from the model (\(ops.count) operations, shrunk to "
                + "\(shrunk.count)):\n  \(last)\n  replay:\n"
                + shrunk.map { "    \($0)" }.joined(separator: "\n"))
    }

    /// Set by the task when the input is done.
    final class Flag: @unchecked Sendable {
        var raised = false
    }
}
