import FlowKit
import Foundation

/// Records what one or several runtimes do as a session: versioned JSON lines that
/// `flowinspect` turns into one self-contained HTML page (see Docs/Inspector.md).
///
///     let recorder = try FlowRecorder(writingTo: "session.jsonl")
///     recorder.attach(runtime)            // before or after start()
///     …
///     recorder.finish()                   // at quit: the last line, then the file is closed
///
/// The first line says what the file is and its format version; then each line is one record:
/// a step per change (its kind, container, what entered and exited by identity, the nodes that
/// entered and the container's children afterwards, or the whole tree every
/// ``Options/keyframeInterval`` steps; the focused path and the active nodes), the events (from
/// where, the bubbling path, who handled them, the result), guard refusals and redirects,
/// pending intents, results, errors, restoration skips, and the presentation pipeline (steps
/// begun, done or failed on the clock, coalesced changes, gestures with their progress and
/// end). A session cut off mid-line (the app crashed) is readable up to its last complete line.
/// Each record is written straight into one block of bytes, without a string per record; a
/// file recorder writes that block out in batches (see `flush()` for when, and what a crash
/// can lose).
///
/// Events appear by their trace name only, unless ``Options/eventPayloads`` is set. Several
/// runtimes (an app's scenes) may write to one recorder: each record carries its runtime's
/// label. Recording costs nothing while no recorder is attached.
@MainActor
public final class FlowRecorder {
    /// What a recorder writes besides the records every session has.
    public struct Options: Sendable, Equatable {
        /// Whether an event's value is written (its `String(describing:)`) beside its trace
        /// name. Off by default: events may carry what should not leave the device. Only
        /// events whose value holds no references have one (see `FlowSessionObserver`).
        public var eventPayloads: Bool
        /// Whether each step carries the runtime's snapshot (the JSON
        /// `FlowRuntime.start(restoring:)` accepts), for the page's "copy snapshot". Costs a
        /// snapshot per change.
        public var snapshots: Bool
        /// Whether each step carries `FlowRuntime.treeDescription()` as text (for checking a
        /// page against the runtime; the page draws the tree from the step's nodes).
        public var treeText: Bool
        /// Every how many steps of a runtime a step records its whole tree rather than what
        /// the change made (a bounded buffer keeps whole segments from one such step on; the
        /// page replays at most this many steps from one).
        public var keyframeInterval: Int

        /// Creates options; the defaults record no payload, no snapshot and no tree text.
        public init(
            eventPayloads: Bool = false, snapshots: Bool = false, treeText: Bool = false,
            keyframeInterval: Int = 64
        ) {
            self.eventPayloads = eventPayloads
            self.snapshots = snapshots
            self.treeText = treeText
            self.keyframeInterval = max(1, keyframeInterval)
        }
    }

    /// The session format this recorder writes (the header's `version`).
    public static let formatVersion = 3
    /// The header's `format`: what the file is.
    public static let formatName = "flowkit-session"

    /// What this recorder writes.
    public let options: Options
    let sink: RecorderSink
    /// The app's clock, if it gave one.
    private let clock: (@MainActor () -> Double)?
    /// When the recording began, on the system's monotonic clock.
    private let start: timespec
    /// The runtimes' taps, weakly: a runtime's trace keeps its tap (and the tap this
    /// recorder) until the tap is removed, so nothing is kept in a cycle.
    private var weakTaps: [WeakTap] = []
    var taps: [RecorderTap] { weakTaps.compactMap(\.tap) }
    private(set) var isFinished = false

    /// Creates a recorder that keeps the most recent `bufferLimit` lines in memory (whole
    /// segments from a keyframe step on; see `lines`).
    ///
    /// - Parameters:
    ///   - bufferLimit: How many lines to keep at most (at least 2).
    ///   - options: What to record besides the default (payloads, snapshots, tree text).
    ///   - clock: Seconds since the recording began (the records' `t`); the default reads the
    ///     system's monotonic clock.
    public init(
        bufferLimit: Int = 10_000, options: Options = Options(),
        clock: (@MainActor () -> Double)? = nil
    ) {
        self.options = options
        sink = RecorderSink(limit: max(2, bufferLimit))
        self.clock = clock
        start = Self.monotonic()
        writeHeader()
    }

    /// Creates a recorder that streams to the file at `path`.
    ///
    /// The session is a new file: a regular file already at `path` that could be written is
    /// replaced (a reader that has it open keeps the old session whole). Anything else there,
    /// such as a symbolic link or a pipe, is opened and written to as it is (a file it names
    /// is emptied first).
    ///
    /// - Throws: ``FlowRecorderError/cannotOpen(path:reason:)`` if the file cannot be
    ///   written.
    public init(
        writingTo path: String, options: Options = Options(),
        clock: (@MainActor () -> Double)? = nil
    ) throws {
        self.options = options
        sink = try RecorderSink(path: path)
        self.clock = clock
        start = Self.monotonic()
        writeHeader()
    }

    /// Released with lines pending (its runtimes gone, no `finish()`), a file recorder writes
    /// them out: the file ends with its last complete line.
    isolated deinit {
        sink.writeOut()
    }

    private static func monotonic() -> timespec {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return time
    }

    /// Writes the time since the recording began (a record's `t`), in seconds to the
    /// microsecond. The system's clock is read as whole microseconds, without a `Double` (the
    /// app's clock gives one).
    func writeNow(to out: ByteWriter) {
        if let clock { return out.seconds(clock()) }
        let time = Self.monotonic()
        let nanoseconds =
            Int64(time.tv_sec - start.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec - start.tv_nsec)
        out.microseconds(UInt64(max(0, nanoseconds + 500) / 1_000))
    }

    private func writeHeader() {
        let line = SessionLine(into: sink.beginLine())
        line.field("format", Self.formatName)
        line.field("version", Self.formatVersion)
        line.field("payloads", options.eventPayloads)
        sink.endLine(line.close(), keyframe: false)
        sink.keepAsHeader()
    }

    /// Starts recording `runtime` under `label` (records carry it as `rt`; give each scene's
    /// runtime its own). If it runs already, its tree is recorded first, as a step of kind
    /// `attach`. Attaching a runtime twice, or after `finish()`, does nothing.
    public func attach(_ runtime: FlowRuntime, label: String = "main") {
        guard !isFinished, !taps.contains(where: { $0.runtime === runtime }) else { return }
        let tap = RecorderTap(recorder: self, runtime: runtime, label: label)
        weakTaps.removeAll { $0.tap == nil }
        weakTaps.append(WeakTap(tap: tap))
        tap.observation = runtime.trace.addSessionObserver(tap)
        tap.attached()
    }

    /// Stops recording `runtime` (its records so far stay).
    public func detach(_ runtime: FlowRuntime) {
        guard let index = weakTaps.firstIndex(where: { $0.tap?.runtime === runtime }) else {
            return
        }
        weakTaps[index].tap?.detached()
        weakTaps.remove(at: index)
        flush()
    }

    /// The header and the kept lines, oldest first, without newlines (a file recorder keeps
    /// none: they are in the file).
    public var lines: [String] { sink.lines }

    /// `lines` as the text of a session file.
    public var text: String { sink.text }

    /// Writes the pending lines out to the file now (a buffer recorder has nothing to write).
    ///
    /// A file recorder keeps the lines of the current burst of changes in memory and writes
    /// them out together: once the main actor is idle again (a task scheduled by the burst's
    /// first line), whenever 64 KiB are pending, at `flush()`, `detach(_:)` and
    /// `finish()`, and when the recorder is released. The file is always whole lines up to
    /// the last batch written: a crash loses the records made since the main actor was last
    /// idle (at most 64 KiB of them), never a line half-written before them.
    public func flush() {
        sink.writeOut()
    }

    /// Ends the session: detaches every runtime, writes the `end` record and closes the file.
    /// Later calls do nothing.
    public func finish() {
        guard !isFinished else { return }
        for tap in taps { tap.detached() }
        weakTaps.removeAll()
        let line = SessionLine("end", into: sink.beginLine())
        line.raw(",\"t\":")
        writeNow(to: line.out)
        sink.endLine(line.close(), keyframe: false)
        isFinished = true
        sink.close()
    }

    /// Keeps the line `writer` wrote (nothing once finished); a file recorder writes it out
    /// with its batch (see `flush()`).
    func commit(_ writer: ByteWriter, keyframe: Bool = false) {
        guard !isFinished else { return sink.dropLine(writer) }
        sink.endLine(writer, keyframe: keyframe)
        guard sink.isFile else { return }
        if sink.count >= RecorderSink.batchBytes {
            sink.writeOut()
        } else if !sink.writeScheduled {
            // The task holds the sink, not the recorder (which it would keep, or weakly: a
            // weak reference costs every later retain of the recorder a side-table access).
            sink.writeScheduled = true
            let sink = sink
            Task { @MainActor in
                sink.writeScheduled = false
                sink.writeOut()
            }
        }
    }
}

/// A tap, weakly: through its handle, so that the tap itself (called on every change) has no
/// weak reference to it, and its reference counting stays on the fast path.
struct WeakTap {
    weak var handle: TapHandle?
    var tap: RecorderTap? { handle?.tap }

    @MainActor init(tap: RecorderTap) { handle = tap.handle }
}

/// What a recorder holds weakly for a tap: owned by the tap alone, so it lives exactly as long.
final class TapHandle {
    unowned let tap: RecorderTap

    init(_ tap: RecorderTap) { self.tap = tap }
}

/// A recorder that could not start.
public enum FlowRecorderError: Error, Equatable, CustomStringConvertible {
    /// The session file could not be opened for writing.
    case cannotOpen(path: String, reason: String)

    /// What went wrong, with the path.
    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            return "cannot write the session file \(path): \(reason)"
        }
    }
}
