import FlowKit
import FlowKitInspector
import FlowKitRecorder
import FlowKitTesting
import Foundation
import Testing

/// A session observer that keeps what each change told it, read both by index and through
/// the visiting closures.
@MainActor
private final class ChangeListener: FlowSessionObserver {
    struct Told: Equatable {
        var runtime: ObjectIdentifier
        var entered: [FlowNodeID]
        var exited: [FlowNodeID]
        var focus: [FlowNodeID]
        var children: [FlowNodeID]
    }
    var byIndex: [Told] = []
    var byClosure: [Told] = []

    func traceDidRecord(_ record: FlowTraceRecord, event: (any FlowEvent)?) {}

    func changeDidFinish(_ change: FlowSessionChange, in runtime: FlowRuntime) {
        var indexed = Told(
            runtime: ObjectIdentifier(runtime),
            entered: (0..<change.enteredCount).map { change.enteredID(at: $0) },
            exited: (0..<change.exitedCount).map { change.exitedID(at: $0) },
            focus: (0..<runtime.sessionFocusedCount).map { runtime.sessionFocusedID(at: $0) },
            children: [])
        var visited = Told(
            runtime: ObjectIdentifier(runtime), entered: [], exited: [], focus: [], children: [])
        change.forEachEnteredID { visited.entered.append($0) }
        change.forEachExitedID { visited.exited.append($0) }
        runtime.visitSessionFocusedPath { visited.focus.append($0) }
        if let container = change.container {
            indexed.children = (0..<container.sessionChildCount).map {
                container.sessionChildID(at: $0)
            }
            container.visitSessionChildren { visited.children.append($0) }
        }
        byIndex.append(indexed)
        byClosure.append(visited)
    }
}

/// A clock a test sets.
@MainActor
private final class ManualClock {
    var now = 0.0
}

@MainActor
@Suite("Recorder: what a step is written from")
struct RecorderStepTests {
    @Test(
        "A session observer is told each change with the runtime it happened in, its identities by index as the closures give them"
    )
    func observerIsHandedTheRuntime() throws {
        let (first, _, firstStack, list) = try makeSmallApp()
        let (second, _, secondStack, _) = try makeSmallApp()
        let listener = ChangeListener()
        first.trace.addSessionObserver(listener)
        second.trace.addSessionObserver(listener)
        try first.start()
        try second.start()
        try firstStack.push(FlowController(name: "detail"))
        try secondStack.push(FlowController(name: "detail"))
        try firstStack.pop()
        let sheet = FlowController(name: "sheet")
        try list.present(sheet)
        let runtimes = listener.byIndex.map(\.runtime)
        let (a, b) = (ObjectIdentifier(first), ObjectIdentifier(second))
        #expect(runtimes == [a, b, a, b, a, a])
        // A presented node is its presenter's last child.
        #expect(listener.byIndex.last?.children == [sheet.id])
        #expect(listener.byIndex == listener.byClosure)
        // The push: one subtree entered, the stack's two entries, the focus down to it.
        let push = listener.byIndex[2]
        #expect(push.entered.count == 1 && push.exited.isEmpty)
        #expect(push.children.count == 2 && push.children.last == push.entered.first)
        #expect(push.focus.count == 4 && push.focus.last == push.entered.first)
        #expect(listener.byIndex[4].exited == push.entered)
    }

    @Test("A step in a container whose row changed (another tab selected) writes the new row")
    func changedContainerRowIsWrittenAgain() throws {
        let tabs = FlowTabs(
            name: "tabs",
            tabs: [FlowController(name: "home"), FlowController(name: "inbox")])
        let runtime = try FlowRuntime(root: tabs)
        let recorder = FlowRecorder(bufferLimit: 1_000)
        recorder.attach(runtime)
        try runtime.start()
        let selections = [1, 0, 0, 1, 0]
        for index in selections where index != tabs.selectedIndex {
            try tabs.select(at: index)
        }
        try tabs.select(at: 1)
        let steps = records(recorder.lines, "step").filter { $0["full"] == nil }
        // Each delta step's first row is the container's, with the selection it then had.
        let written = steps.compactMap { ($0["nodes"] as? [[Any]])?.first?[5] as? Int }
        #expect(written == [1, 0, 1, 0, 1])
        let session = try FlowSessionFile(text: recorder.text)
        #expect(session.problems.isEmpty)
    }

    @Test(
        "A delta leaves its container's row out only when the step right before was a delta that wrote it as it is"
    )
    func containerRowLeftOutOnlyWhenTheReaderHasIt() throws {
        let (runtime, _, stack, _) = try makeSmallApp()
        let recorder = FlowRecorder(
            bufferLimit: 1_000, options: FlowRecorder.Options(treeText: true, keyframeInterval: 6))
        recorder.attach(runtime)
        try runtime.start()  // step 1: the whole tree
        let a = FlowController(name: "a")
        try stack.push(a)  // 2: row written (a whole tree before)
        try stack.push(FlowController(name: "b"))  // 3: left out
        try stack.pop()  // 4: left out
        try a.present(FlowController(name: "sheet"))  // 5: another container's delta: its row
        try stack.pop()  // 6: the stack's row again (the step before was another container's)
        try stack.push(FlowController(name: "c"))  // 7: the whole tree (every 6th step)
        try stack.push(FlowController(name: "d"))  // 8: written (a whole tree before)
        try stack.push(FlowController(name: "e"))  // 9: left out
        let steps = records(recorder.lines, "step")
        let stackID = stack.id.rawValue
        let containerRowWritten = steps.map { step -> Bool? in
            guard step["full"] == nil else { return nil }
            let first = (step["nodes"] as? [[Any]])?.first?[0] as? NSNumber
            let container = ((step["change"] as? [String: Any])?["containerID"] as? NSNumber)
            return first != nil && first == container
        }
        #expect(
            containerRowWritten == [nil, true, false, false, true, true, nil, true, false])
        #expect(
            ((steps[5]["change"] as? [String: Any])?["containerID"] as? NSNumber)?.uint64Value
                == stackID)
        // Replayed, every step's tree is the recorded one, rows left out or not.
        let session = try FlowSessionFile(text: recorder.text)
        #expect(session.problems.isEmpty)
        let recorded = steps.map { $0["tree"] as? String }
        #expect(session.treeTexts().map(\.text) == recorded)
    }

    @Test(
        "Times and step counts are written as the shortest decimal text: no trailing zeros, every digit count"
    )
    func numbersAreWrittenExactly() throws {
        let times: [Double] = [0, 1.5, 0.000001, 12.34, 100, 123_456.789012, 9.99, 0.1]
        let clock = ManualClock()
        let (runtime, _, stack, _) = try makeSmallApp()
        let recorder = FlowRecorder(bufferLimit: 1_000, clock: { clock.now })
        recorder.attach(runtime)
        try runtime.start()
        for time in times {
            clock.now = time
            try stack.push(FlowController(name: "detail"))
        }
        for _ in 0..<96 {
            try stack.pop()
            try stack.push(FlowController(name: "detail"))
        }
        let steps = recorder.lines.filter { $0.hasPrefix(#"{"k":"step""#) }
        let written = steps.dropFirst().prefix(times.count).map { line in
            line.split(separator: ",").first { $0.hasPrefix(#""t":"#) }.map { $0.dropFirst(4) }
        }
        #expect(
            written == ["0", "1.5", "0.000001", "12.34", "100", "123456.789012", "9.99", "0.1"])
        let counts = steps.map { line in
            line.split(separator: ",").first { $0.hasPrefix(#""n":"#) }.map {
                String($0.dropFirst(4))
            }
        }
        #expect(counts == (1...steps.count).map { String($0) })
        #expect(steps.count > 200)
    }
}
