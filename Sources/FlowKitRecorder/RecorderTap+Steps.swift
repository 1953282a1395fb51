import FlowKit
import Foundation

/// A step per change, in one of three forms (see Docs/Inspector.md, "What is recorded"): the
/// whole tree (`"full": true`: the first step, `start`, `stop`, and every
/// ``FlowRecorder/Options/keyframeInterval`` steps), what the change made (a delta: the
/// container's node unless the reader has it as it is, the subtrees that entered, and the
/// container's children in order, as `order`), or, for the kinds whose changes may reach
/// deeper than the container's children (`navigate`, `unwind`, `open`, `show`), the
/// container's whole subtree.
extension RecorderTap {
    func changeDidFinish(_ change: FlowSessionChange, in runtime: FlowRuntime) {
        writeStep(change, of: runtime)
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

    /// `,"change":{"kind":"NAME"`: a step's change and its kind's name (its `rawValue`), in one
    /// piece (no string made).
    static func kindField(_ kind: FlowChange.Kind) -> StaticString {
        switch kind {
        case .start: return ",\"change\":{\"kind\":\"start\""
        case .stop: return ",\"change\":{\"kind\":\"stop\""
        case .embed: return ",\"change\":{\"kind\":\"embed\""
        case .push: return ",\"change\":{\"kind\":\"push\""
        case .pop: return ",\"change\":{\"kind\":\"pop\""
        case .popTo: return ",\"change\":{\"kind\":\"popTo\""
        case .setStack: return ",\"change\":{\"kind\":\"setStack\""
        case .switch: return ",\"change\":{\"kind\":\"switch\""
        case .present: return ",\"change\":{\"kind\":\"present\""
        case .dismiss: return ",\"change\":{\"kind\":\"dismiss\""
        case .navigate: return ",\"change\":{\"kind\":\"navigate\""
        case .unwind: return ",\"change\":{\"kind\":\"unwind\""
        case .open: return ",\"change\":{\"kind\":\"open\""
        case .platformPop: return ",\"change\":{\"kind\":\"platformPop\""
        case .platformDismiss: return ",\"change\":{\"kind\":\"platformDismiss\""
        case .select: return ",\"change\":{\"kind\":\"select\""
        case .platformSelect: return ",\"change\":{\"kind\":\"platformSelect\""
        case .restoreBranch: return ",\"change\":{\"kind\":\"restoreBranch\""
        case .focus: return ",\"change\":{\"kind\":\"focus\""
        case .platformFocus: return ",\"change\":{\"kind\":\"platformFocus\""
        case .show: return ",\"change\":{\"kind\":\"show\""
        case .platformCollapse: return ",\"change\":{\"kind\":\"platformCollapse\""
        case .platformExpand: return ",\"change\":{\"kind\":\"platformExpand\""
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

    /// Writes the step of `change` (a change of `runtime`). A delta (the usual step) is
    /// written without a copy of the change: identities are read by index, a closure visits
    /// only each subtree that entered, and the container's row is left out when the step
    /// before was a delta in the same container and the row is unchanged. Empty ID lists and
    /// `"full":false` are left out too (session format 3).
    func writeStep(_ change: FlowSessionChange, of runtime: FlowRuntime) {
        steps += 1
        let kind = change.kind
        var full =
            kind == .start || kind == .stop
            || (steps - 1) % recorder.options.keyframeInterval == 0
        var delta = false
        if !full {
            // `change.container` is read in place each time (the change holds it for this
            // call): a copy bound with `if let` costs a retain and a release of the container
            // per step (a side-table one, since its children refer to it weakly).
            if change.container?.state == .entered {
                // A delta when every subtree that entered hangs right under the container
                // (else: its subtree).
                delta = Self.changesOnlyItsChildren(kind)
                var index = 0
                while delta && index < change.enteredCount {
                    delta = change.container?.hasSessionChild(change.enteredID(at: index)) == true
                    index += 1
                }
            } else {
                full = true
            }
        }
        // What the reader knows of the container's row (`stepLine()` forgets it).
        let knownRow = deltaRow
        let out = stepLine()
        out.raw(Self.kindField(kind))
        if let id = change.containerID {
            out.raw(",\"containerID\":")
            out.unsigned(id.rawValue)
        }
        if !delta && !full { Self.appendPaths(of: change.record, to: out) }
        Self.appendIDs(",\"exitedIDs\":[", count: change.exitedCount, to: out) {
            change.exitedID(at: $0)
        }
        Self.appendIDs(",\"enteredIDs\":[", count: change.enteredCount, to: out) {
            change.enteredID(at: $0)
        }
        out.raw(full ? "},\"full\":true,\"nodes\":[" : "},\"nodes\":[")
        if full {
            if runtime.isRunning, let root = runtime.root {
                root.visitSessionOutline { node in
                    out.separate()
                    Self.appendNode(node, to: out)
                }
            }
            out.byte(0x5D)
        } else if delta, let container = change.container {
            let row = container.sessionNode
            let key = RowKey(row)
            // The container's row is left out when the reader has it as it is.
            if key != knownRow { Self.appendNode(row, to: out) }
            deltaRow = key
            for index in 0..<change.enteredCount {
                container.visitSessionChild(change.enteredID(at: index)) { node in
                    out.separate()
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

    /// `field` (`,"NAME":[`), then `count` identities and `]`; nothing when there are none.
    @inline(__always)
    private static func appendIDs(
        _ field: StaticString, count: Int, to out: ByteWriter, _ id: (Int) -> FlowNodeID
    ) {
        guard count > 0 else { return }
        out.raw(field)
        for index in 0..<count {
            if index > 0 { out.byte(0x2C) }
            out.unsigned(id(index).rawValue)
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
        // The kind and whether it is presented, in one piece.
        switch (node.kind, node.isPresented) {
        case (.node, false): out.raw(",\"node\",0")
        case (.node, true): out.raw(",\"node\",1")
        case (.stack, false): out.raw(",\"stack\",0")
        case (.stack, true): out.raw(",\"stack\",1")
        case (.switch, false): out.raw(",\"switch\",0")
        case (.switch, true): out.raw(",\"switch\",1")
        case (.tabs, false): out.raw(",\"tabs\",0")
        case (.tabs, true): out.raw(",\"tabs\",1")
        case (.parallel, false): out.raw(",\"parallel\",0")
        case (.parallel, true): out.raw(",\"parallel\",1")
        case (.split, false): out.raw(",\"split\",0")
        case (.split, true): out.raw(",\"split\",1")
        }
        if node.selection != nil || node.isCollapsed != nil {
            out.byte(0x2C)
            if let selection = node.selection { out.integer(selection) } else { out.raw("null") }
        }
        if let collapsed = node.isCollapsed { out.raw(collapsed ? ",1" : ",0") }
        out.byte(0x5D)
    }
}
