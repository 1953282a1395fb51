import FlowKit
import FlowKitInspector
import FlowKitRecorder
import FlowKitTesting
import Foundation
import Testing

struct Refusal: Error, CustomStringConvertible {
    var description: String { "the platform refused" }
}

@MainActor
@Suite("Recorder: a line per record, for every record kind")
struct RecorderTests {
    private func recorder(_ options: FlowRecorder.Options = .init()) -> FlowRecorder {
        let clock = TickingClock()
        return FlowRecorder(options: options, clock: { clock.read() })
    }

    @Test("The header, then per change a step: its change, the nodes it made, the focus")
    func stepsOfChanges() throws {
        let (runtime, _, stack, _) = try makeSmallApp()
        let recorder = recorder()
        recorder.attach(runtime)
        try runtime.start()
        let detail = FlowController(name: "detail")
        try stack.push(detail)
        try stack.pop()
        let lines = recorder.lines
        #expect(lines[0] == #"{"format":"flowkit-session","version":3,"payloads":false}"#)
        #expect(lines[1] == #"{"k":"attach","rt":"main","t":0.001,"n":0}"#)
        let steps = records(lines, "step")
        #expect(
            steps.map { ($0["change"] as? [String: Any])?["kind"] as? String } == [
                "start", "push", "pop",
            ])
        #expect(steps.map { $0["n"] as? Int } == [1, 2, 3])
        // The start records the whole tree; the push its stack's node, the node that entered
        // and the stack's children in order; the pop only the stack's children (the push
        // wrote the stack's node as it still is). `"full": false` is left out.
        #expect(steps.map { $0["full"] as? Bool } == [true, nil, nil])
        let id = Int(detail.id.rawValue)
        let stackID = Int(stack.id.rawValue)
        let listID = Int(stack.entries[0].id.rawValue)
        let pushed = try #require(steps[1]["nodes"] as? [[Any]])
        #expect(pushed.map { $0[1] as? String } == ["stack", "detail"])
        #expect(pushed[1][0] as? Int == id && pushed[1][2] as? Int == stackID)
        #expect(pushed[0][3] as? String == "stack" && pushed[1][4] as? Int == 0)
        #expect(steps[1]["order"] as? [Int] == [listID, id])
        #expect(steps[2]["order"] as? [Int] == [listID])
        #expect((steps[2]["nodes"] as? [[Any]])?.isEmpty == true)
        let change = try #require(steps[1]["change"] as? [String: Any])
        #expect(change["enteredIDs"] as? [Int] == [id])
        // Empty ID lists are left out.
        #expect(change["exitedIDs"] == nil)
        #expect((steps[2]["change"] as? [String: Any])?["enteredIDs"] == nil)
        #expect(change["containerID"] as? Int == stackID)
        // Paths are left to the reader, which has the trees.
        #expect(change["entered"] == nil && change["container"] == nil)
        #expect((steps[1]["focus"] as? [Int])?.last == id)
        // The active nodes are the focused path: left out.
        #expect(steps.allSatisfy { $0["active"] == nil })
        #expect((steps[2]["focus"] as? [Int])?.last == listID)
        #expect((steps[2]["change"] as? [String: Any])?["exitedIDs"] as? [Int] == [id])
    }

    @Test(
        "Each step's tree, replayed from the session, is treeDescription() once the change is over")
    func replayedTreesAreTheRuntimes() async throws {
        let (recorder, idle, _) = try await recordDemo()
        let session = try FlowSessionFile(text: recorder.text)
        #expect(session.problems.isEmpty)
        let trees = session.treeTexts()
        let recorded = records(recorder.lines, "step").map { $0["tree"] as? String }
        #expect(trees.count == recorded.count && trees.count > 12)
        // Every step: the tree the step's nodes and focus draw is the runtime's own text, read
        // when the change was over.
        for (index, tree) in trees.enumerated() {
            #expect(tree.text == recorded[index], "step \(index + 1)")
        }
        // And after each command, the last step is the runtime as the app left it.
        for (steps, text) in idle where steps > 0 {
            #expect(trees[steps - 1].text == text)
        }
    }

    @Test("An event: its sender, bubbling path, handler and result; its value only if asked")
    func events() throws {
        for payloads in [false, true] {
            let (runtime, app, _, list) = try makeSmallApp()
            app.on(Ping.self) { _ in .handled }
            let recorder = recorder(FlowRecorder.Options(eventPayloads: payloads))
            recorder.attach(runtime)
            try runtime.start()
            list.send(Ping(value: 7))
            list.send(SignOut())
            list.send(Carrying(node: list))
            let events = records(recorder.lines, "event")
            #expect(events.map { $0["event"] as? String } == ["Ping", "SignOut", "Carrying"])
            #expect(
                events.map { $0["result"] as? String } == ["handled", "unhandled", "unhandled"])
            #expect(events[0]["handler"] as? String == "app")
            #expect(
                events[0]["path"] as? [String] == [
                    "app/main/stack/list", "app/main/stack", "app/main", "app",
                ])
            #expect(events[1]["path"] as? [String] == (events[0]["path"] as? [String]))
            #expect(events[0]["payload"] as? String == (payloads ? "Ping(value: 7)" : nil))
            // An event that holds references never has its value written.
            #expect(events[2]["payload"] == nil)
            #expect(records(recorder.lines, "event").count == 3)
        }
    }

    @Test("A dropped event and a handler that throws are events with those results")
    func droppedAndFailedEvents() throws {
        struct Broken: Error {}
        let (runtime, app, stack, _) = try makeSmallApp()
        app.on(Ping.self) { _ in throw Broken() }
        let recorder = recorder()
        recorder.attach(runtime)
        try runtime.start()
        let detail = FlowController(name: "detail")
        try stack.push(detail)
        detail.send(Ping())
        try stack.pop()
        detail.send(SignOut())
        let events = records(recorder.lines, "event")
        #expect(events.map { $0["result"] as? String } == ["failed", "dropped"])
        #expect(events[0]["handler"] as? String == "app")
        #expect((events[0]["error"] as? String)?.contains("Broken") == true)
        #expect(events[1]["path"] as? [String] == [])
        #expect(records(recorder.lines, "failure").isEmpty)
    }

    @Test("A guard's refusal is a decision: nothing else is recorded, the tree did not change")
    func refusal() throws {
        let (runtime, _, stack, _) = try makeSmallApp()
        let recorder = recorder()
        recorder.attach(runtime)
        try runtime.start()
        let locked = FlowController(name: "locked")
        locked.entryGuard = { .refuse("locked") }
        #expect(throws: FlowError.self) { try stack.push(locked) }
        let decisions = records(recorder.lines, "decision")
        #expect(decisions.count == 1)
        #expect(decisions.first?["decision"] as? String == "refused")
        #expect(decisions.first?["change"] as? String == "push")
        #expect(decisions.first?["at"] as? String == "app/main/stack")
        #expect((decisions.first?["reason"] as? String)?.contains("locked") == true)
        #expect(records(recorder.lines, "step").count == 1)
    }

    @Test("A deep link redirected to sign-in and replayed: the decision, then the intent's lineage")
    func redirectAndReplay() async throws {
        let (recorder, _, _) = try await recordDemo([
            "open flowdemo://books/12", "login alice wonderland",
        ])
        let lines = recorder.lines
        let decision = try #require(records(lines, "decision").first)
        #expect(decision["decision"] as? String == "redirected")
        #expect(decision["change"] as? String == "navigate")
        let intents = records(lines, "intent")
        #expect(intents.map { $0["action"] as? String } == ["kept", "replayed"])
        #expect(intents[0]["note"] as? String == "app/main redirected to login")
        #expect(intents[1]["note"] as? String == "app/login finished")
        #expect(intents[0]["change"] as? String == intents[1]["change"] as? String)
        // The login flow's result went to the run awaiting it.
        let result = try #require(records(lines, "result").first)
        #expect(
            result["outcome"] as? String == "finished" && result["flow"] as? String == "app/login")
    }

    /// A stack app on a simulated platform whose transitions take 100 ms.
    private func platformApp() throws -> (
        FlowRuntime, SimulatedPlatform, FlowTransitions, FlowStack, FlowRecorder
    ) {
        let platform = SimulatedPlatform(rules: .uiKit, duration: 100)
        let transitions = FlowTransitions(host: platform)
        let (runtime, _, stack, _) = try makeSmallApp(host: transitions)
        let recorder = FlowRecorder(clock: { Double(platform.now) / 1_000 })
        recorder.attach(runtime)
        try runtime.start()
        platform.runUntilIdle()
        return (runtime, platform, transitions, stack, recorder)
    }

    @Test("A gesture cancelled and one committed, each with its progress")
    func gestures() throws {
        let (runtime, platform, transitions, stack, recorder) = try platformApp()
        defer { withExtendedLifetime(runtime) {} }
        try stack.push(FlowController(name: "detail"))
        platform.runUntilIdle()
        let first = try transitions.beginInteractivePop(on: stack)
        first.update(progress: 0.3)
        first.cancel()
        let second = try transitions.beginInteractivePop(on: stack)
        second.update(progress: 0.5)
        second.update(progress: 0.9)
        second.commit()
        platform.runUntilIdle()
        let gestures = records(recorder.lines, "gesture")
        #expect(
            gestures.map { "\($0["phase"]!) \(($0["progress"] as? Double).map { "\($0)" } ?? "")" }
                == [
                    "began ", "progress 0.3", "cancelled ", "began ", "progress 0.5",
                    "progress 0.9", "committed ",
                ])
        #expect(
            gestures.allSatisfy {
                $0["kind"] as? String == "pop" && $0["at"] as? String == "app/main/stack"
            })
        // The committed gesture is a platform pop; the cancelled one changed nothing.
        let kinds = records(recorder.lines, "step").map {
            ($0["change"] as? [String: Any])?["kind"] as? String
        }
        #expect(kinds == ["start", "push", "platformPop"])
    }

    @Test("Transitions on the clock: each step begun, then done or failed; a change coalesced")
    func transitions() throws {
        let (runtime, platform, _, stack, recorder) = try platformApp()
        defer { withExtendedLifetime(runtime) {} }
        try stack.push(FlowController(name: "a"))
        platform.advance(by: 50)
        try stack.push(FlowController(name: "b"))  // during the first push: coalesced
        platform.runUntilIdle()
        platform.refuses = { _ in Refusal() }
        try stack.pop()
        platform.runUntilIdle()
        let transitions = records(recorder.lines, "transition")
        #expect(
            transitions.map { "\($0["phase"]!) \($0["kind"]!) \($0["t"]!)" } == [
                "begin start 0", "done start 0.1", "begin setEntries 0.1", "done setEntries 0.2",
                "begin setEntries 0.2", "done setEntries 0.3", "begin setEntries 0.3",
                "failed setEntries 0.3",
            ])
        #expect((transitions.last?["error"] as? String) == "the platform refused")
        let coalesced = records(recorder.lines, "coalesced")
        #expect(coalesced.map { $0["change"] as? String } == ["push"])
        #expect(coalesced.first?["container"] as? String == "app/main/stack")
        // The failure also went to the runtime's error sink, and the trace's failed record.
        #expect(records(recorder.lines, "failure").count == 1)
    }

    @Test("Several runtimes write one session, each record tagged with its runtime's label")
    func severalRuntimes() throws {
        let recorder = recorder()
        let (first, _, firstStack, _) = try makeSmallApp()
        let (second, _, _, secondList) = try makeSmallApp()
        recorder.attach(first, label: "scene-1")
        recorder.attach(second, label: "scene-2")
        try first.start()
        try second.start()
        try firstStack.push(FlowController(name: "detail"))
        secondList.send(Ping())
        recorder.finish()
        let tagged = objects(recorder.lines).dropFirst().compactMap { $0["rt"] as? String }
        #expect(
            tagged == [
                "scene-1", "scene-2", "scene-1", "scene-2", "scene-1", "scene-2", "scene-1",
                "scene-2",
            ])
        let session = try FlowSessionFile(text: recorder.text)
        #expect(session.treeTexts().map(\.runtime) == ["scene-1", "scene-2", "scene-1"])
        #expect(session.treeTexts().last?.text?.hasSuffix("* detail") == true)
    }

    @Test("A bounded buffer keeps the latest lines, from a step with the whole tree on")
    func boundedBuffer() throws {
        let (runtime, _, stack, _) = try makeSmallApp()
        let recorder = FlowRecorder(
            bufferLimit: 40, options: FlowRecorder.Options(treeText: true, keyframeInterval: 8))
        recorder.attach(runtime)
        try runtime.start()
        for _ in 0..<100 {
            try stack.push(FlowController(name: "detail"))
            try stack.pop()
        }
        let lines = recorder.lines
        #expect(lines.count <= 41 && lines.count >= 20)
        #expect(lines[0].hasPrefix(#"{"format":"flowkit-session""#))
        let steps = records(lines, "step")
        #expect(steps.first?["full"] as? Bool == true)
        #expect(steps.last?["n"] as? Int == 201)
        let session = try FlowSessionFile(text: recorder.text)
        #expect(session.treeTexts().map(\.text) == steps.map { $0["tree"] as? String })
    }

    @Test(
        "A file recorder writes its lines out in batches: when the main actor is idle, at flush(), at finish"
    )
    func fileIsWrittenInBatches() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "recorder-\(UInt64.random(in: 0...UInt64.max)).jsonl"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (runtime, _, stack, _) = try makeSmallApp()
        let recorder = try FlowRecorder(writingTo: path)
        recorder.attach(runtime)
        // The header is in the file at once.
        let header = try String(contentsOfFile: path, encoding: .utf8)
        #expect(try FlowSessionFile(text: header).stepCount == 0)
        try runtime.start()
        try stack.push(FlowController(name: "detail"))
        // Within a burst of changes, nothing more has reached the file yet.
        #expect(try String(contentsOfFile: path, encoding: .utf8) == header)
        // Once the main actor is idle, the burst is written out: read now (as after a crash),
        // every change so far is there, in whole lines.
        var midway = header
        var waits = 0
        while try FlowSessionFile(text: midway).stepCount < 2, waits < 200 {
            try await Task.sleep(for: .milliseconds(5))
            midway = try String(contentsOfFile: path, encoding: .utf8)
            waits += 1
        }
        #expect(try FlowSessionFile(text: midway).stepCount == 2)
        #expect(midway.hasSuffix("\n"))
        // flush() writes out what is pending at once.
        try stack.pop()
        recorder.flush()
        let flushed = try String(contentsOfFile: path, encoding: .utf8)
        #expect(try FlowSessionFile(text: flushed).stepCount == 3)
        // A burst larger than a batch is written out as it goes, in whole lines.
        for _ in 0..<400 {
            try stack.push(FlowController(name: "detail"))
            try stack.pop()
        }
        let during = try String(contentsOfFile: path, encoding: .utf8)
        let read = try FlowSessionFile(text: during)
        #expect(read.problems.isEmpty && read.stepCount > 3 && read.stepCount < 803)
        recorder.finish()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(
            text.hasSuffix("\n")
                && objects(text.split(separator: "\n").map(String.init)).last?["k"] as? String
                    == "end"
        )
        #expect(try FlowSessionFile(text: text).stepCount == 803)
        #expect(recorder.lines.isEmpty)
        #expect(throws: FlowRecorderError.self) {
            try FlowRecorder(writingTo: "/nonexistent/dir/x.jsonl")
        }
    }

    @Test(
        "A session file replaces a regular file at its path (a reader of the old one keeps it); through a symbolic link, the file it names is written"
    )
    func fileReplacedNotEmptied() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "flowkit-recorder-replace-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("session.jsonl").path
        let old = "an earlier session\n"
        try old.write(toFile: path, atomically: false, encoding: .utf8)
        let reader = try #require(FileHandle(forReadingAtPath: path))
        defer { try? reader.close() }
        let (runtime, _, _, _) = try makeSmallApp()
        let recorder = try FlowRecorder(writingTo: path)
        recorder.attach(runtime)
        try runtime.start()
        recorder.finish()
        // The reader still has the old session, whole; the path holds the new one.
        #expect(String(decoding: try reader.readToEnd() ?? Data(), as: UTF8.self) == old)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(try FlowSessionFile(text: text).stepCount == 1)
        // A link is not replaced: the session goes to the file it names.
        let target = directory.appendingPathComponent("target.jsonl").path
        try old.write(toFile: target, atomically: false, encoding: .utf8)
        let link = directory.appendingPathComponent("link.jsonl").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let linked = try FlowRecorder(writingTo: link)
        linked.finish()
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        let written = try String(contentsOfFile: target, encoding: .utf8)
        #expect(written.hasPrefix("{\"format\":\"flowkit-session\""))
        #expect(!written.contains(old))
    }

    @Test("A recorder keeps no node alive, and records nothing once detached")
    func noNodeKeptAndDetach() throws {
        let (runtime, _, stack, _) = try makeSmallApp()
        let recorder = recorder(FlowRecorder.Options(eventPayloads: true, snapshots: true))
        recorder.attach(runtime)
        try runtime.start()
        weak var gone: FlowController?
        do {
            let detail = FlowController(name: "detail")
            gone = detail
            try stack.push(detail)
            detail.send(Carrying(node: detail))
            try stack.pop()
        }
        #expect(gone == nil)
        recorder.detach(runtime)
        let count = recorder.lines.count
        try stack.push(FlowController(name: "later"))
        #expect(recorder.lines.count == count)
        #expect(records(recorder.lines, "detach").count == 1)
    }

    @Test("A recorder is kept only while it is used: by the app, or by an attached runtime")
    func recorderLifetime() throws {
        weak var finishedRecorder: FlowRecorder?
        weak var forgottenRecorder: FlowRecorder?
        weak var gone: FlowRuntime?
        do {
            let (runtime, _, _, _) = try makeSmallApp()
            let recorder = FlowRecorder()
            recorder.attach(runtime)
            try runtime.start()
            recorder.finish()
            finishedRecorder = recorder
        }
        #expect(finishedRecorder == nil)
        do {
            let (runtime, _, stack, _) = try makeSmallApp()
            gone = runtime
            do {
                let recorder = FlowRecorder()
                forgottenRecorder = recorder
                recorder.attach(runtime)
            }
            // Not finished, let go of by the app: the runtime's trace keeps it recording.
            try runtime.start()
            try stack.push(FlowController(name: "detail"))
            #expect(records(forgottenRecorder?.lines ?? [], "step").count == 2)
            try runtime.stop()
        }
        // The runtime gone, nothing keeps the recorder (no cycle through its taps).
        #expect(gone == nil)
        #expect(forgottenRecorder == nil)
    }

    @Test("Snapshots: each step carries the JSON start(restoring:) accepts")
    func snapshots() throws {
        let (runtime, _, stack, _) = try makeSmallApp()
        let recorder = recorder(FlowRecorder.Options(snapshots: true))
        recorder.attach(runtime)
        try runtime.start()
        try stack.push(FlowController(name: "detail"))
        let step = try #require(records(recorder.lines, "step").last)
        let snapshot = try #require(step["snapshot"] as? [String: Any])
        let data = try JSONSerialization.data(withJSONObject: snapshot)
        let decoded = try JSONDecoder().decode(FlowSnapshot.self, from: data)
        #expect(decoded == (try runtime.snapshot()))
    }

    @Test("A runtime attached while running starts with its whole tree")
    func attachWhileRunning() throws {
        let (runtime, _, _, _) = try makeSmallApp()
        try runtime.start()
        let recorder = recorder(FlowRecorder.Options(treeText: true))
        recorder.attach(runtime)
        recorder.attach(runtime)  // twice: once
        let steps = records(recorder.lines, "step")
        #expect(steps.count == 1)
        #expect((steps[0]["change"] as? [String: Any])?["kind"] as? String == "attach")
        #expect(steps[0]["tree"] as? String == runtime.treeDescription())
        #expect(
            try FlowSessionFile(text: recorder.text).treeTexts().first?.text
                == runtime.treeDescription())
    }
}
