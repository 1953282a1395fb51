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
    private var steps = 0
    /// The change the last change record reported, waiting for its end.
    private var change: FlowChange?
    /// The event sent and not yet handled (events never nest: one at a time).
    private var event: (name: String, from: String, payload: String?, step: Int)?

    init(recorder: FlowRecorder, runtime: FlowRuntime, label: String) {
        self.recorder = recorder
        self.runtime = runtime
        self.label = label
    }

    private func line(_ kind: String) -> SessionLine {
        var line = SessionLine(kind)
        line.field("rt", label)
        line.field("t", seconds: recorder.now())
        line.field("n", steps)
        return line
    }

    func attached() {
        var line = line("attach")
        recorder.write(line.close())
        if let runtime, runtime.isRunning { writeStep(kind: "attach", change: nil, in: nil) }
    }

    func detached() {
        if let observation { runtime?.trace.removeObserver(observation) }
        observation = nil
        var line = line("detach")
        recorder.write(line.close())
    }

    // MARK: Trace records

    func traceDidRecord(_ record: FlowTraceRecord, event value: (any FlowEvent)?) {
        switch record {
        case .enter, .exit, .activate, .deactivate:
            return  // a step records the tree and the focus the change left
        case .change(let change):
            self.change = change
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
            var line = line("failure")
            line.field("operation", operation)
            line.field("at", at)
            line.field("error", error)
            recorder.write(line.close())
        case .intent(let action, let change, let note):
            var line = line("intent")
            line.field("action", action.rawValue)
            line.field("change", change)
            line.field("note", note)
            recorder.write(line.close())
        case .finished(let flow, let awaitedAt):
            var line = line("result")
            line.field("outcome", "finished")
            line.field("flow", flow)
            line.field("awaitedAt", awaitedAt)
            recorder.write(line.close())
        case .cancelled(let flow, let awaitedAt, let reason):
            var line = line("result")
            line.field("outcome", "cancelled")
            line.field("flow", flow)
            line.field("awaitedAt", awaitedAt)
            line.field("reason", reason)
            recorder.write(line.close())
        case .notRestored(let node, let reason):
            var line = line("notRestored")
            line.field("node", node)
            line.field("reason", reason)
            recorder.write(line.close())
        case .gesture(let phase, let kind, let at):
            var line = line("gesture")
            line.field("phase", phase.rawValue)
            line.field("kind", kind.rawValue)
            line.field("at", at)
            recorder.write(line.close())
            recorder.flush()
        case .app(let record):
            // A record of the app above the scenes (its own trace, not a runtime's).
            var line = line("app")
            line.field("record", record.description)
            recorder.write(line.close())
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
        var line = line("event")
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
        recorder.write(line.close())
    }

    // MARK: Changes

    func changeDidFinish(in container: FlowController?) {
        guard let change else { return }
        self.change = nil
        writeStep(kind: change.kind.rawValue, change: change, in: container)
    }

    private func writeStep(kind: String, change: FlowChange?, in container: FlowController?) {
        guard let runtime else { return }
        steps += 1
        var line = line("step")
        line.open("change")
        line.raw("{\"kind\":")
        line.string(kind)
        if let change {
            line.raw(",\"container\":")
            line.string(change.container)
            if let id = change.containerID {
                line.raw(",\"containerID\":")
                line.unsigned(id.rawValue)
            }
            line.raw(",")
            var first = true
            func list(_ name: StaticString, _ values: [String]) {
                line.raw(first ? "\"" : ",\"")
                first = false
                line.raw(name)
                line.raw("\":[")
                for (index, value) in values.enumerated() {
                    if index > 0 { line.raw(",") }
                    line.string(value)
                }
                line.raw("]")
            }
            func ids(_ name: StaticString, _ values: [FlowNodeID]) {
                line.raw(",\"")
                line.raw(name)
                line.raw("\":[")
                for (index, value) in values.enumerated() {
                    if index > 0 { line.raw(",") }
                    line.unsigned(value.rawValue)
                }
                line.raw("]")
            }
            list("exited", change.exited)
            ids("exitedIDs", change.exitedIDs)
            list("entered", change.entered)
            ids("enteredIDs", change.enteredIDs)
        }
        line.raw("}")
        var top = container
        let keyframe =
            change == nil || change?.kind == .start || change?.kind == .stop
            || steps % recorder.options.keyframeInterval == 1
            || container.map { $0.state != .entered || $0.runtime !== runtime } ?? true
        if keyframe { top = runtime.isRunning ? runtime.root : nil }
        line.field("full", keyframe)
        line.open("nodes")
        line.raw("[")
        if let top {
            var first = true
            top.visitSessionOutline { node in
                if !first { line.raw(",") }
                first = false
                Self.appendNode(node, to: &line)
            }
        }
        line.raw("]")
        let focus: (focused: [FlowNodeID], active: [FlowNodeID]) =
            runtime.isRunning ? runtime.sessionFocus : ([], [])
        for (name, ids) in [("focus", focus.focused), ("active", focus.active)] {
            line.raw(name == "focus" ? ",\"focus\":[" : ",\"active\":[")
            for (index, id) in ids.enumerated() {
                if index > 0 { line.raw(",") }
                line.unsigned(id.rawValue)
            }
            line.raw("]")
        }
        if recorder.options.treeText { line.field("tree", runtime.treeDescription()) }
        if recorder.options.snapshots, runtime.isRunning, let snapshot = try? runtime.snapshot() {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            if let data = try? encoder.encode(snapshot) {
                line.field("snapshot", json: String(decoding: data, as: UTF8.self))
            }
        }
        recorder.write(line.close(), keyframe: keyframe)
        recorder.flush()
    }

    /// `[id,"name",parent,"kind",presented]`, then the selection and the collapse when the
    /// node has them.
    private static func appendNode(_ node: FlowSessionNode, to line: inout SessionLine) {
        line.raw("[")
        line.unsigned(node.id.rawValue)
        line.raw(",")
        line.string(node.name)
        line.raw(",")
        if let parent = node.parent { line.unsigned(parent.rawValue) } else { line.raw("null") }
        line.raw(",\"")
        line.json(node.kind.rawValue)
        line.raw(node.isPresented ? "\",1" : "\",0")
        if node.selection != nil || node.isCollapsed != nil {
            line.raw(",")
            if let selection = node.selection { line.integer(selection) } else { line.raw("null") }
        }
        if let collapsed = node.isCollapsed { line.raw(collapsed ? ",1" : ",0") }
        line.raw("]")
    }

    // MARK: Decisions and the pipeline

    func changeDidFail(_ kind: FlowChange.Kind, at path: String, error: any Error) {
        var line = line("decision")
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
        recorder.write(line.close())
    }

    func transitionDidBegin(_ step: FlowTransitionStep, token: Int) {
        var line = transitionLine("begin", step, token)
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
        recorder.write(line.close())
    }

    func transitionDidEnd(_ step: FlowTransitionStep, token: Int, error: (any Error)?) {
        var line = transitionLine(error == nil ? "done" : "failed", step, token)
        if let error { line.field("error", "\(error)") }
        recorder.write(line.close())
        recorder.flush()
    }

    private func transitionLine(
        _ phase: String, _ step: FlowTransitionStep, _ token: Int
    ) -> SessionLine {
        var line = line("transition")
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
        var line = line("coalesced")
        line.field("change", change.kind.rawValue)
        line.field("container", change.container)
        recorder.write(line.close())
    }

    func gestureDidProgress(
        _ kind: FlowInteractiveTransition.Kind, at path: String, progress: Double
    ) {
        var line = line("gesture")
        line.field("phase", "progress")
        line.field("kind", kind.rawValue)
        line.field("at", path)
        line.field("progress", seconds: progress)
        recorder.write(line.close())
    }
}
