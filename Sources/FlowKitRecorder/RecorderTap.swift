import FlowKit
import Foundation

/// One runtime's connection to a ``FlowRecorder``: turns what the runtime tells a session
/// observer into the session's lines, each tagged with the runtime's label.
@MainActor
final class RecorderTap: FlowSessionObserver {
    let recorder: FlowRecorder
    weak var runtime: FlowRuntime?
    let label: String
    var observation: FlowTraceObservation?
    /// Steps recorded so far (the `n` of the last step).
    var steps = 0
    /// `,"rt":"LABEL"`, as JSON bytes (written into every record).
    let labelField: [UInt8]
    /// `{"k":"step","rt":"LABEL","t":`, as JSON bytes (how every step begins).
    let stepPrefix: [UInt8]
    /// The container's row as the reader has it after the step just written, when that step
    /// was a delta (else `nil`): the next delta in the same container (the usual case) leaves
    /// the row out when it is the same. The row is known by its fields but the name (a node's
    /// name never changes), as plain values.
    var deltaRow: RowKey?
    /// What the recorder holds weakly for this tap (see ``WeakTap``).
    private(set) lazy var handle = TapHandle(self)
    /// The event sent and not yet handled (events never nest: one at a time).
    private var event: (name: String, from: String, payload: String?, step: Int)?

    init(recorder: FlowRecorder, runtime: FlowRuntime, label: String) {
        self.recorder = recorder
        self.runtime = runtime
        self.label = label
        // `{"rt":"LABEL"}` written once, kept without its braces.
        let line = SessionLine(into: ByteWriter(buffer: RecorderBuffer(capacity: 64)))
        line.field("rt", label)
        let writer = line.close()
        labelField = [0x2C] + writer.buffer.bytes(in: 1..<writer.offset - 1)
        stepPrefix = Array("{\"k\":\"step\"".utf8) + labelField + Array(",\"t\":".utf8)
    }

    /// A record of `kind`, its runtime's label, time and step count written.
    func line(_ kind: StaticString) -> SessionLine {
        let line = SessionLine(kind, into: recorder.sink.beginLine())
        line.out.bytes(labelField)
        line.raw(",\"t\":")
        recorder.writeNow(to: line.out)
        line.raw(",\"n\":")
        line.out.unsigned(UInt64(steps))
        return line
    }

    /// A step record, its runtime's label, time and step count written (its first fields
    /// copied at once: they are the same in every step of this runtime). Forgets
    /// ``deltaRow``: a delta that follows a step of another form writes its container's row.
    func stepLine() -> ByteWriter {
        deltaRow = nil
        let out = recorder.sink.beginLine()
        out.bytes(stepPrefix)
        recorder.writeNow(to: out)
        out.raw(",\"n\":")
        out.unsigned(UInt64(steps))
        return out
    }

    func attached() {
        let line = line("attach")
        recorder.commit(line.close())
        if let runtime, runtime.isRunning { writeAttachStep() }
    }

    func detached() {
        if let observation { runtime?.trace.removeObserver(observation) }
        observation = nil
        let line = line("detach")
        recorder.commit(line.close())
    }

    // MARK: Trace records

    func traceDidRecord(_ record: FlowTraceRecord, event value: (any FlowEvent)?) {
        switch record {
        case .enter, .exit, .activate, .deactivate, .change:
            return  // a step records the change, and the tree and the focus it left
        case .send(let name, let from):
            let payload = recorder.options.eventPayloads ? value.map { "\($0)" } : nil
            event = (name, from, payload, steps)
        case .handled(let name, let at):
            writeEvent(name, result: "handled", from: nil, handler: at)
        case .unhandled(let name, let from):
            writeEvent(name, result: "unhandled", from: from, handler: nil)
        case .dropped(let name, let from):
            writeEvent(name, result: "dropped", from: from, handler: nil)
        case .failed(let operation, let at, let error):
            if let pending = event, operation == "handler \(pending.name)" {
                writeEvent(pending.name, result: "failed", from: nil, handler: at, error: error)
                return
            }
            let line = line("failure")
            line.field("operation", operation)
            line.field("at", at)
            line.field("error", error)
            recorder.commit(line.close())
        case .intent(let action, let change, let note):
            let line = line("intent")
            line.field("action", action.rawValue)
            line.field("change", change)
            line.field("note", note)
            recorder.commit(line.close())
        case .finished(let flow, let awaitedAt):
            let line = line("result")
            line.field("outcome", "finished")
            line.field("flow", flow)
            line.field("awaitedAt", awaitedAt)
            recorder.commit(line.close())
        case .cancelled(let flow, let awaitedAt, let reason):
            let line = line("result")
            line.field("outcome", "cancelled")
            line.field("flow", flow)
            line.field("awaitedAt", awaitedAt)
            line.field("reason", reason)
            recorder.commit(line.close())
        case .notRestored(let node, let reason):
            let line = line("notRestored")
            line.field("node", node)
            line.field("reason", reason)
            recorder.commit(line.close())
        case .gesture(let phase, let kind, let at):
            let line = line("gesture")
            line.field("phase", phase.rawValue)
            line.field("kind", kind.rawValue)
            line.field("at", at)
            recorder.commit(line.close())
        case .app(let record):
            // A record of the app above the scenes (its own trace, not a runtime's).
            let line = line("app")
            line.field("record", record.description)
            recorder.commit(line.close())
        }
    }

    /// The nodes an event passed, from its sender up to where it stopped (the handler, or the
    /// root): each an ancestor's path, since a node's path runs through its parent (a presented
    /// node's through its presenter).
    static func bubblingPath(from sender: String, to handler: String?) -> [String] {
        var path: [String] = []
        var current = Substring(sender)
        while true {
            path.append(String(current))
            if let handler, current == handler { break }
            guard let slash = current.lastIndex(of: "/") else { break }
            current = current[..<slash]
        }
        return path
    }

    private func writeEvent(
        _ name: String, result: String, from: String?, handler: String?, error: String? = nil
    ) {
        let pending = event.flatMap { $0.name == name ? $0 : nil }
        event = nil
        let sender = pending?.from ?? from ?? ""
        let line = line("event")
        line.field("event", name)
        line.field("from", sender)
        line.field("result", result)
        if let handler { line.field("handler", handler) }
        let path =
            result == "dropped" || sender.isEmpty
            ? [] : Self.bubblingPath(from: sender, to: handler)
        line.field("path", strings: path)
        if let error { line.field("error", error) }
        if let payload = pending?.payload { line.field("payload", payload) }
        if let pending, pending.step != steps { line.field("sentAt", pending.step) }
        recorder.commit(line.close())
    }

    // MARK: Decisions and the pipeline

    func changeDidFail(_ kind: FlowChange.Kind, at path: String, error: any Error) {
        let line = line("decision")
        line.field("change", kind.rawValue)
        line.field("at", path)
        let decision: String
        switch error as? FlowError {
        case .exitRefused, .entryRefused: decision = "refused"
        case .redirected: decision = "redirected"
        default: decision = "failed"
        }
        line.field("decision", decision)
        line.field("reason", "\(error)")
        recorder.commit(line.close())
    }

    func transitionDidBegin(_ step: FlowTransitionStep, token: Int) {
        let line = transitionLine("begin", step, token)
        switch step.kind {
        case .setEntries(let from, let to), .setChildren(let from, let to):
            line.field("from", ids: from.map(\.rawValue))
            line.field("to", ids: to.map(\.rawValue))
        case .select(let from, let to):
            line.field("from", ids: [UInt64(max(0, from))])
            line.field("to", ids: [UInt64(max(0, to))])
        case .present(let node), .dismiss(let node):
            line.field("node", node.rawValue)
        case .start, .stop:
            break
        }
        recorder.commit(line.close())
    }

    func transitionDidEnd(_ step: FlowTransitionStep, token: Int, error: (any Error)?) {
        let line = transitionLine(error == nil ? "done" : "failed", step, token)
        if let error { line.field("error", "\(error)") }
        recorder.commit(line.close())
    }

    private func transitionLine(
        _ phase: String, _ step: FlowTransitionStep, _ token: Int
    ) -> SessionLine {
        let line = line("transition")
        line.field("phase", phase)
        line.field("token", token)
        line.field("step", step.description)
        line.field("kind", Self.kindName(step.kind))
        line.field("container", step.containerPath)
        line.field("containerID", step.container.rawValue)
        return line
    }

    static func kindName(_ kind: FlowTransitionStep.Kind) -> String {
        switch kind {
        case .start: return "start"
        case .setEntries: return "setEntries"
        case .setChildren: return "setChildren"
        case .select: return "select"
        case .present: return "present"
        case .dismiss: return "dismiss"
        case .stop: return "stop"
        }
    }

    func transitionDidCoalesce(_ change: FlowChange) {
        let line = line("coalesced")
        line.field("change", change.kind.rawValue)
        line.field("container", change.container)
        recorder.commit(line.close())
    }

    func gestureDidProgress(
        _ kind: FlowInteractiveTransition.Kind, at path: String, progress: Double
    ) {
        let line = line("gesture")
        line.field("phase", "progress")
        line.field("kind", kind.rawValue)
        line.field("at", path)
        line.field("progress", seconds: progress)
        recorder.commit(line.close())
    }
}

/// A node's row in a session, as plain values, but its name (which a node keeps for life):
/// two rows of one node with equal keys are written alike.
struct RowKey: Equatable {
    var id: UInt64
    var parent: UInt64?
    var kind: FlowSessionNode.Kind
    var isPresented: Bool
    var selection: Int?
    var isCollapsed: Bool?

    init(_ node: FlowSessionNode) {
        id = node.id.rawValue
        parent = node.parent?.rawValue
        kind = node.kind
        isPresented = node.isPresented
        selection = node.selection
        isCollapsed = node.isCollapsed
    }
}
