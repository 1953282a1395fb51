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

    /// A change kind's name as a JSON string (its `rawValue`, quoted; no string made).
    static func kindLiteral(_ kind: FlowChange.Kind) -> StaticString {
        switch kind {
        case .start: return "\"start\""
        case .stop: return "\"stop\""
        case .embed: return "\"embed\""
        case .push: return "\"push\""
        case .pop: return "\"pop\""
        case .popTo: return "\"popTo\""
        case .setStack: return "\"setStack\""
        case .switch: return "\"switch\""
        case .present: return "\"present\""
        case .dismiss: return "\"dismiss\""
        case .navigate: return "\"navigate\""
        case .unwind: return "\"unwind\""
        case .open: return "\"open\""
        case .platformPop: return "\"platformPop\""
        case .platformDismiss: return "\"platformDismiss\""
        case .select: return "\"select\""
        case .platformSelect: return "\"platformSelect\""
        case .restoreBranch: return "\"restoreBranch\""
        case .focus: return "\"focus\""
        case .platformFocus: return "\"platformFocus\""
        case .show: return "\"show\""
        case .platformCollapse: return "\"platformCollapse\""
        case .platformExpand: return "\"platformExpand\""
        }
    }

    /// Writes the step of a runtime attached while running: its whole tree.
    func writeAttachStep() {
        guard let runtime else { return }
        steps += 1
        let out = stepLine()
        out.raw(",\"change\":{\"kind\":\"attach\"},\"full\":true,\"nodes\":[")
        if runtime.isRunning, let root = runtime.root {
            root.visitSessionOutline { node in
                out.separate()
                Self.appendNode(node, to: out)
            }
        }
        out.byte(0x5D)
        finishStep(out, of: runtime, full: true)
    }

    /// Writes the step of `change`. A delta (the usual step) is written without a closure, a
    /// copy of the change or a node retained besides its container: identities are read by
    /// index.
    func writeStep(_ change: FlowSessionChange) {
        guard let runtime else { return }
        steps += 1
        let kind = change.kind
        var full =
            kind == .start || kind == .stop
            || (steps - 1) % recorder.options.keyframeInterval == 0
        var delta = false
        if !full {
            if let container = change.container, container.state == .entered {
                // A delta when every subtree that entered hangs right under the container
                // (else: its subtree).
                delta = Self.changesOnlyItsChildren(kind)
                var index = 0
                while delta && index < change.enteredCount {
                    delta = container.hasSessionChild(change.enteredID(at: index))
                    index += 1
                }
            } else {
                full = true
            }
        }
        let out = stepLine()
        out.raw(",\"change\":{\"kind\":")
        out.raw(Self.kindLiteral(kind))
        if let id = change.containerID {
            out.raw(",\"containerID\":")
            out.unsigned(id.rawValue)
        }
        if !delta && !full { Self.appendPaths(of: change.record, to: out) }
        out.raw(",\"exitedIDs\":[")
        for index in 0..<change.exitedCount {
            if index > 0 { out.byte(0x2C) }
            out.unsigned(change.exitedID(at: index).rawValue)
        }
        out.raw("],\"enteredIDs\":[")
        for index in 0..<change.enteredCount {
            if index > 0 { out.byte(0x2C) }
            out.unsigned(change.enteredID(at: index).rawValue)
        }
        out.raw(full ? "]},\"full\":true,\"nodes\":[" : "]},\"full\":false,\"nodes\":[")
        if full {
            if runtime.isRunning, let root = runtime.root {
                root.visitSessionOutline { node in
                    out.separate()
                    Self.appendNode(node, to: out)
                }
            }
            out.byte(0x5D)
        } else if delta, let container = change.container {
            Self.appendNode(container.sessionNode, to: out)
            for index in 0..<change.enteredCount {
                container.visitSessionChild(change.enteredID(at: index)) { node in
                    out.byte(0x2C)
                    Self.appendNode(node, to: out)
                }
            }
            out.raw("],\"order\":[")
            for index in 0..<container.sessionChildCount {
                if index > 0 { out.byte(0x2C) }
                out.unsigned(container.sessionChildID(at: index).rawValue)
            }
            out.byte(0x5D)
        } else {
            change.container?.visitSessionOutline { node in
                out.separate()
                Self.appendNode(node, to: out)
            }
            out.byte(0x5D)
        }
        finishStep(out, of: runtime, full: full, running: full ? nil : true)
    }

    /// Writes the rest of a step from its focus on, and commits it.
    private func finishStep(
        _ out: ByteWriter, of runtime: FlowRuntime, full: Bool, running: Bool? = nil
    ) {
        appendFocus(of: runtime, running: running, to: out)
        let options = recorder.options
        if options.treeText {
            SessionLine(continuing: out).field("tree", runtime.treeDescription())
        }
        if options.snapshots, runtime.isRunning, let snapshot = try? runtime.snapshot() {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            if let data = try? encoder.encode(snapshot) {
                SessionLine(continuing: out).field(
                    "snapshot", json: String(decoding: data, as: UTF8.self))
            }
        }
        out.byte(0x7D)
        recorder.commit(out, keyframe: full)
    }

    /// `,"focus":[…],"active":[…]`: the identities of the focused path and the active nodes
    /// (`active` left out when they are the focused path).
    /// `running` is whether the runtime runs, when known (a step whose container is entered).
    private func appendFocus(of runtime: FlowRuntime, running: Bool?, to out: ByteWriter) {
        out.raw(",\"focus\":[")
        guard running ?? runtime.isRunning else { return out.raw("]") }
        for index in 0..<runtime.sessionFocusedCount {
            if index > 0 { out.byte(0x2C) }
            out.unsigned(runtime.sessionFocusedID(at: index).rawValue)
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
