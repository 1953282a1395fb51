import FlowKit
import FlowKitInspector
import FlowKitRecorder
import Foundation

/// How many push + pop cycles a recorder case makes (two changes each).
let recorderCycles = 1_000

/// A running stack at depth 3 (`app` → `main` → `stack` → `list`), with screens to push, and
/// a recorder attached when asked (a bounded buffer, or a file).
///
/// The runtime has made `warmCycles` push + pop cycles before the recorder is attached, so its
/// default trace's ring is full: each case measures changes in the steady state of a running
/// app (each record replacing the oldest), not the ring's growth from empty. That growth
/// would be paid by all three cases, but in pages the system gives each repetition anew or
/// not depending on which blocks the previous repetition freed (glibc's heap trimming): in
/// profiles, a fifth of the file case's time went to page faults in the ring's growth, and
/// almost none of the buffer case's.
@MainActor
struct RecorderInput {
    /// More cycles than the default trace's 10,000 records take to fill (about 4 records a
    /// change).
    static let warmCycles = 2_000

    enum Recording { case none, buffer, file }
    let runtime: FlowRuntime
    let stack: FlowStack
    let screens: [FlowController]
    let recorder: FlowRecorder?

    init(_ recording: Recording) throws {
        let list = FlowController(name: "list")
        stack = FlowStack(name: "stack", root: list)
        let main = FlowController(name: "main")
        try main.embed(stack)
        let app = FlowSwitch(name: "app", initial: main)
        runtime = try FlowRuntime(root: app)
        try runtime.start()
        for _ in 0..<Self.warmCycles {
            try stack.push(FlowController(name: "detail"))
            try stack.pop()
        }
        precondition(runtime.trace.records.count == runtime.trace.limit, "the trace is not full")
        switch recording {
        case .none: recorder = nil
        case .buffer: recorder = FlowRecorder(bufferLimit: 100_000)
        case .file:
            recorder = try FlowRecorder(
                writingTo: FileManager.default.temporaryDirectory.appendingPathComponent(
                    "flowkit-bench-recorder.jsonl"
                ).path)
        }
        recorder?.attach(runtime)
        screens = (0..<recorderCycles).map { _ in FlowController(name: "detail") }
    }
}

/// A recorded session of `count` transactions (push and pop cycles, an event each cycle).
@MainActor
func recordedSession(transactions count: Int) throws -> String {
    let input = try RecorderInput(.none)
    let recorder = FlowRecorder(bufferLimit: 10 * count + 100)
    recorder.attach(input.runtime)
    struct Tap: FlowEvent {}
    for _ in 0..<(count / 2) {
        try input.stack.push(FlowController(name: "detail"))
        input.stack.entries.last?.send(Tap())
        try input.stack.pop()
    }
    recorder.finish()
    return recorder.text
}

/// Recording on against the default trace, per change; and the page's generation time and
/// size per 1,000 transactions. The target: recording costs at most 2x the default trace per
/// change (the recorder's own cost is the difference of the two, FlowKit's change included).
@MainActor
func runRecorderBenchmarks(_ harness: Harness) throws {
    let cases: [(String, RecorderInput.Recording)] = [
        ("Recorder.pushPop/defaultTrace", .none), ("Recorder.pushPop/recordingBuffer", .buffer),
        ("Recorder.pushPop/recordingFile", .file),
    ]
    for (name, recording) in cases where harness.selects(name) {
        try harness.measure(
            name, operations: 2 * recorderCycles, setup: { try RecorderInput(recording) }
        ) { input in
            for screen in input.screens {
                try input.stack.push(screen)
                try input.stack.pop()
            }
            input.recorder?.finish()
            precondition(input.stack.entries.count == 1, "\(name): the stack did not come back")
            return UInt(input.stack.entries.count)
        }
    }
    for count in [1_000, 10_000] {
        let name = "Recorder.page/transactions=\(count)"
        guard harness.selects(name) else { continue }
        let text = try recordedSession(transactions: count)
        var size = 0
        harness.measure(name, operations: count / 1_000) {
            guard let session = try? FlowSessionFile(text: text) else { preconditionFailure() }
            precondition(session.stepCount >= count, "\(name): steps missing")
            let page = FlowInspectorPage(session: session, title: "bench").html
            size = page.utf8.count
            return UInt(size)
        }
        harness.note(
            "Recorder.pageSize/transactions=\(count)",
            value:
                "\(size / 1_024) KiB (\(size / (count / 1_000) / 1_024) KiB per 1,000 transactions)"
        )
    }
    guard let base = harness.result("Recorder.pushPop/defaultTrace") else { return }
    // The medians' ratio is the one judged; the fastest repetitions' ratio beside it shows a
    // run disturbed by the machine (the two then differ).
    print(
        "Ratios (per change, medians, then fastest repetitions; target: recording at most 2x the"
            + " default trace)")
    for name in ["Recorder.pushPop/recordingBuffer", "Recorder.pushPop/recordingFile"] {
        guard let result = harness.result(name) else { continue }
        let ratio = result.nanosecondsPerOperation / base.nanosecondsPerOperation
        let fastest = result.minimumNanoseconds / base.minimumNanoseconds
        print(
            pad("  \(name.dropFirst("Recorder.pushPop/".count)) / default trace", 54)
                + leftPad(String(format: "%.2fx", ratio), 10)
                + leftPad(String(format: "%.2fx", fastest), 10) + (ratio <= 2 ? "  PASS" : "  FAIL")
        )
    }
}
