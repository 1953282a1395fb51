import FlowKit
import Foundation

/// A step per change, in one of three forms (see Docs/Inspector.md, "What is recorded"): the
/// whole tree (`"full": true`: the first step, `start`, `stop`, and every
/// ``FlowRecorder/Options/keyframeInterval`` steps), what the change made (a delta: the
/// container's node, the subtrees that entered, and the container's children in order, as
/// `order`), or, for the kinds whose changes may reach deeper than the container's children
/// (`navigate`, `unwind`, `open`, `show`), the container's whole subtree.
extension RecorderTap {
    func changeDidFinish(_ change: FlowSessionChange) {
        writeStep(change)
    }

    /// Whether a change of `kind` only replaces, reorders, adds or removes the children (or the
    /// presented node) of its container, or moves its selection or arrangement: its step is a
    /// delta.
    static func changesOnlyItsChildren(_ kind: FlowChange.Kind) -> Bool {
        switch kind {
        case .push, .pop, .popTo, .setStack, .switch, .embed, .present, .dismiss, .platformPop,
            .platformDismiss, .select, .platformSelect, .focus, .platformFocus,
            .platformCollapse, .platformExpand:
            return true
        default:
            return false
        }
    }

    /// Writes the step of a runtime attached while running: its whole tree.
    func writeAttachStep() {
        guard let runtime else { return }
        steps += 1
        let line = line("step")
        line.raw(",\"change\":{\"kind\":\"attach\"")
        finishStep(line, of: runtime, container: nil, change: nil, full: true, delta: false)
    }

    /// Writes the step of `change`.
    func writeStep(_ change: FlowSessionChange) {
        guard let runtime else { return }
        steps += 1
        let kind = change.kind
        let container = change.container
        let full =
            kind == .start || kind == .stop
            || (steps - 1) % recorder.options.keyframeInterval == 0
            || container.map { $0.state != .entered } ?? true
        var delta = false
        if !full, let container, Self.changesOnlyItsChildren(kind) {
            // Every subtree that entered hangs right under the container (else: its subtree).
            delta = true
            change.forEachEnteredID { id in
                if !container.hasSessionChild(id) { delta = false }
            }
        }
        let line = line("step")
        line.raw(",\"change\":{\"kind\":")
        line.out.string(kind.rawValue)
        if let id = change.containerID {
            line.raw(",\"containerID\":")
            line.out.unsigned(id.rawValue)
        }
        if !delta && !full { Self.appendPaths(of: change.record, to: line.out) }
        let out = line.out
        line.raw(",\"exitedIDs\":[")
        change.forEachExitedID { id in
            out.separate()
            out.unsigned(id.rawValue)
        }
        line.raw("],\"enteredIDs\":[")
        change.forEachEnteredID { id in
            out.separate()
            out.unsigned(id.rawValue)
        }
        line.out.byte(0x5D)
        finishStep(
            line, of: runtime, container: container, change: change, full: full, delta: delta)
    }

    /// Writes the rest of a step from its `nodes` on, and commits it.
    private func finishStep(
        _ start: SessionLine, of runtime: FlowRuntime, container: FlowController?,
        change: FlowSessionChange?, full: Bool, delta: Bool
    ) {
        let line = start
        let out = line.out
        line.raw(full ? "},\"full\":true,\"nodes\":[" : "},\"full\":false,\"nodes\":[")
        let row: @MainActor (FlowSessionNode) -> Void = { node in
            out.separate()
            Self.appendNode(node, to: out)
        }
        if full {
            if runtime.isRunning, let root = runtime.root { root.visitSessionOutline(row) }
            line.out.byte(0x5D)
        } else if let container, let change, delta {
            row(container.sessionNode)
            change.forEachEnteredID { id in
                container.visitSessionChild(id, row)
            }
            line.raw("],\"order\":[")
            container.visitSessionChildren { id in
                out.separate()
                out.unsigned(id.rawValue)
            }
            line.out.byte(0x5D)
        } else {
            container?.visitSessionOutline(row)
            line.out.byte(0x5D)
        }
        appendFocus(of: runtime, to: line.out)
        if recorder.options.treeText { line.field("tree", runtime.treeDescription()) }
        if recorder.options.snapshots, runtime.isRunning, let snapshot = try? runtime.snapshot() {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            if let data = try? encoder.encode(snapshot) {
                line.field("snapshot", json: String(decoding: data, as: UTF8.self))
            }
        }
        recorder.commit(line.close(), keyframe: full)
    }

    /// `,"focus":[…],"active":[…]`: the identities of the focused path and the active nodes
    /// (`active` left out when they are the focused path).
    private func appendFocus(of runtime: FlowRuntime, to out: ByteWriter) {
        out.raw(",\"focus\":[")
        guard runtime.isRunning else { return out.raw("]") }
        runtime.visitSessionFocusedPath { id in
            out.separate()
            out.unsigned(id.rawValue)
        }
        out.byte(0x5D)
        guard !runtime.sessionActiveIsFocusedPath else { return }
        out.raw(",\"active\":[")
        runtime.visitSessionActiveNodes { id in
            out.separate()
            out.unsigned(id.rawValue)
        }
        out.byte(0x5D)
    }

    /// `,"container":…,"exited":[…],"entered":[…]`: the paths of a change whose step does not
    /// let the reader find them.
    private static func appendPaths(of change: FlowChange, to out: ByteWriter) {
        out.raw(",\"container\":")
        out.string(change.container)
        for (name, paths) in [("exited", change.exited), ("entered", change.entered)] {
            out.raw(",\"")
            out.raw(name == "exited" ? "exited" : "entered")
            out.raw("\":[")
            for (index, path) in paths.enumerated() {
                if index > 0 { out.byte(0x2C) }
                out.string(path)
            }
            out.byte(0x5D)
        }
    }

    /// `[id,"name",parent,"kind",presented]`, then the selection and the collapse when the
    /// node has them.
    static func appendNode(_ node: FlowSessionNode, to out: ByteWriter) {
        out.byte(0x5B)
        out.unsigned(node.id.rawValue)
        out.byte(0x2C)
        out.string(node.name)
        out.byte(0x2C)
        if let parent = node.parent { out.unsigned(parent.rawValue) } else { out.raw("null") }
        switch node.kind {
        case .node: out.raw(",\"node\"")
        case .stack: out.raw(",\"stack\"")
        case .switch: out.raw(",\"switch\"")
        case .tabs: out.raw(",\"tabs\"")
        case .parallel: out.raw(",\"parallel\"")
        case .split: out.raw(",\"split\"")
        }
        out.raw(node.isPresented ? ",1" : ",0")
        if node.selection != nil || node.isCollapsed != nil {
            out.byte(0x2C)
            if let selection = node.selection { out.integer(selection) } else { out.raw("null") }
        }
        if let collapsed = node.isCollapsed { out.raw(collapsed ? ",1" : ",0") }
        out.byte(0x5D)
    }
}
