import FlowKit
import FlowKitInspector
import FlowKitTesting
import Foundation
import Testing

@testable import FlowKitRecorder

/// The recorder's block of bytes at its boundaries: these tests run under AddressSanitizer
/// (Docs/Reliability.md, "Unsafe constructs and why each is safe"), so a byte written or read
/// outside the block, or after it moved, stops them.
@MainActor
@Suite("Recorder buffer: growth, escapes, trims, batches and release at the block's edges")
struct RecorderBufferTests {
    /// `value` as a JSON string literal, escaped as the recorder does (written independently).
    private func literal(_ value: String) -> String {
        var result = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case let control where control.value < 0x20:
                result +=
                    "\\u00" + (control.value < 0x10 ? "0" : "")
                    + String(control.value, radix: 16)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// Strings with every kind of escape and UTF-8 of every length.
    private let samples = [
        "plain", "", "ñandú", "日本語のノード", "😀👩‍👩‍👧", "quote \" and \\ back",
        "tab\tnew\nline\rcarriage", "\u{1}\u{1F}\u{7}x", "é\"😀\\\n\u{0}日",
    ]

    @Test(
        "A piece longer than the block grows it in the middle of a line, keeping what came before")
    func growthMidLine() {
        let long = String(repeating: "abcdefghij", count: 30)
        let bytes = (0..<40).map { UInt8(0x41 + $0 % 26) }
        for capacity in [1, 2, 7, 16, 64] {
            let buffer = RecorderBuffer(capacity: capacity)
            let out = ByteWriter(buffer: buffer)
            out.byte(0x7B)
            out.raw("\"k\":")
            out.string(long)
            out.separate()
            out.unsigned(.max)
            out.byte(0x2C)
            out.integer(-42)
            out.byte(0x2C)
            out.seconds(12.000_250)
            out.byte(0x2C)
            out.bytes(bytes)
            out.json("[1,2]")
            out.byte(0x7D)
            let expected =
                "{\"k\":\"\(long)\",18446744073709551615,-42,12.00025,"
                + String(decoding: bytes, as: UTF8.self) + "[1,2]}"
            #expect(buffer.string(in: 0..<out.offset) == expected, "capacity \(capacity)")
            #expect(out.offset == expected.utf8.count && buffer.capacity >= out.offset)
        }
    }

    @Test("Numbers of every length and times to the microsecond are written as Swift prints them")
    func numbersAndTimes() {
        // Each power of ten, its neighbours and a value of each length with every digit pair,
        // up to the largest: the digit count and the pairs table at each boundary.
        var values: [UInt64] = [0, 1, 9, 10, 11, 99, 100, 101, .max - 1, .max]
        var power: UInt64 = 10
        while true {
            values += [power - 1, power, power + 1, power / 10 * 7 + power / 100 * 3]
            let (next, overflow) = power.multipliedReportingOverflow(by: 10)
            if overflow { break }
            power = next
        }
        values += (0..<100).map { UInt64($0) * 1_010_101 + 12 }
        let buffer = RecorderBuffer(capacity: 8)
        let out = ByteWriter(buffer: buffer)
        for value in values {
            let start = out.offset
            out.unsigned(value)
            #expect(buffer.string(in: start..<out.offset) == String(value))
        }
        let times: [(UInt64, String)] = [
            (0, "0"), (1, "0.000001"), (10, "0.00001"), (250, "0.00025"), (999_999, "0.999999"),
            (1_000_000, "1"), (1_000_001, "1.000001"), (12_345_678, "12.345678"),
            (3_600_500_000, "3600.5"),
        ]
        for (micros, text) in times {
            var start = out.offset
            out.microseconds(micros)
            #expect(buffer.string(in: start..<out.offset) == text, "\(micros) µs")
            // The app's clock, in seconds, gives the same text.
            start = out.offset
            out.seconds(Double(micros) / 1_000_000)
            #expect(buffer.string(in: start..<out.offset) == text, "\(micros) µs as seconds")
        }
    }

    @Test("Escaped and multi-byte strings are written exactly, wherever the block grows")
    func escapesAtTheGrowthBoundary() throws {
        for capacity in 1...24 {
            for prefix in 0...capacity {
                for sample in samples {
                    let buffer = RecorderBuffer(capacity: capacity)
                    let out = ByteWriter(buffer: buffer)
                    for _ in 0..<prefix { out.byte(0x78) }
                    out.string(sample)
                    let written = buffer.string(in: 0..<out.offset)
                    let expected = String(repeating: "x", count: prefix) + literal(sample)
                    #expect(written == expected, "capacity \(capacity), prefix \(prefix)")
                }
            }
        }
        // The literals read back as the strings.
        let buffer = RecorderBuffer(capacity: 1)
        let out = ByteWriter(buffer: buffer)
        out.byte(0x5B)
        for sample in samples {
            out.separate()
            out.string(sample)
        }
        out.byte(0x5D)
        let data = Data(buffer.bytes(in: 0..<out.offset))
        #expect(try JSONSerialization.jsonObject(with: data) as? [String] == samples)
    }

    /// Writes `text` as a line of `sink`.
    private func line(_ text: String, to sink: RecorderSink, keyframe: Bool = false) {
        let out = sink.beginLine()
        out.json(text)
        sink.endLine(out, keyframe: keyframe)
    }

    @Test(
        "A bounded buffer trimmed many times keeps its newest whole lines, from a keyframe when one is near"
    )
    func trimmedManyTimes() {
        let limit = 6
        let sink = RecorderSink(limit: limit)
        line("header", to: sink)
        sink.keepAsHeader()
        // The lines a buffer keeps, by the rule (independently of where their bytes are).
        var model: [(text: String, keyframe: Bool)] = []
        var filledExactly = 0
        for index in 0..<400 {
            var text = "line \(index) " + literal(samples[index % samples.count])
            text += String(repeating: "é", count: index % 37)
            if index % 50 == 25 {
                // A line that fills the block to its last byte (its newline included), or,
                // when it is too full already, one longer than the block.
                let room = sink.buffer.capacity - sink.count - text.utf8.count - 1
                text += String(repeating: "z", count: room > 0 ? room : sink.buffer.capacity)
                if room > 0 { filledExactly += 1 }
            }
            let keyframe = index % 5 == 0
            line(text, to: sink, keyframe: keyframe)
            model.append((text, keyframe))
            if model.count > limit {
                var cut = model.count - limit / 2
                if let keyframe = model.indices.last(where: { $0 > 0 && $0 < cut && model[$0].1 }) {
                    cut = keyframe
                }
                model.removeFirst(cut)
            }
            let expected = ["header"] + model.map(\.text)
            #expect(sink.lines == expected, "after line \(index)")
            #expect(sink.text == expected.joined(separator: "\n") + "\n")
        }
        #expect(filledExactly > 0)
    }

    @Test("Lines read back from a small bounded buffer after many trims are whole JSON records")
    func recorderLinesAfterTrims() throws {
        let (runtime, _, stack, _) = try makeSmallApp()
        let clock = TickingClock()
        let recorder = FlowRecorder(
            bufferLimit: 10, options: FlowRecorder.Options(keyframeInterval: 4),
            clock: { clock.read() })
        recorder.attach(runtime)
        try runtime.start()
        for index in 0..<150 {
            try stack.push(FlowController(name: samples[index % samples.count] + "\(index)"))
            try stack.pop()
        }
        let lines = recorder.lines
        #expect(lines[0] == #"{"format":"flowkit-session","version":3,"payloads":false}"#)
        #expect(lines.count <= 11)
        let steps = try lines.dropFirst().map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        // Whole steps, the newest ones, from one with the whole tree on.
        #expect(steps.map { $0["n"] as? Int } == Array(302 - steps.count...301).map { $0 })
        #expect(steps.first?["full"] as? Bool == true)
        #expect(try FlowSessionFile(text: recorder.text).problems.isEmpty)
    }

    private func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent(
            "recorder-buffer-\(UInt64.random(in: 0...UInt64.max)).jsonl"
        ).path
    }

    private func contents(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    @Test(
        "A file's batches reach it byte for byte, a batch exactly full and a line longer than the block included"
    )
    func fileBatches() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let sink = try RecorderSink(path: path)
        line("header", to: sink)
        sink.keepAsHeader()
        var expected = "header\n"
        #expect(try contents(path) == expected)
        // 64 lines of 1 KiB (newline included) fill a batch exactly.
        for index in 0..<64 {
            let text = String(format: "%04d", index) + String(repeating: "ü", count: 509) + "."
            line(text, to: sink)
            expected += text + "\n"
        }
        #expect(sink.count == RecorderSink.batchBytes)
        sink.writeOut()
        #expect(sink.count == 0)
        #expect(try contents(path) == expected)
        // A line longer than the block grows it; the batch is written whole.
        let long = String(repeating: "日本", count: 30_000)
        line(long, to: sink)
        line("after", to: sink)
        expected += long + "\nafter\n"
        sink.writeOut()
        #expect(try contents(path) == expected)
        line("last", to: sink)
        sink.close()
        expected += "last\n"
        #expect(try contents(path) == expected)
        // Closed: later lines are dropped.
        line("dropped", to: sink)
        sink.writeOut()
        #expect(try contents(path) == expected)
    }

    @Test("A file recorder writes byte for byte what a buffer recorder keeps, batch by batch")
    func fileMatchesBuffer() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (runtime, _, stack, _) = try makeSmallApp()
        let bufferClock = TickingClock()
        let fileClock = TickingClock()
        let buffer = FlowRecorder(bufferLimit: 100_000, clock: { bufferClock.read() })
        let file = try FlowRecorder(writingTo: path, clock: { fileClock.read() })
        buffer.attach(runtime)
        file.attach(runtime)
        try runtime.start()
        for index in 0..<600 {
            try stack.push(FlowController(name: samples[index % samples.count] + "\(index)"))
            try stack.pop()
        }
        // Several batches are out, in whole lines, before any flush.
        let midway = try contents(path)
        #expect(midway.utf8.count >= 3 * RecorderSink.batchBytes && midway.hasSuffix("\n"))
        #expect(buffer.text.hasPrefix(midway))
        file.flush()
        #expect(try contents(path) == buffer.text)
        buffer.finish()
        file.finish()
        #expect(try contents(path) == buffer.text)
    }

    @Test(
        "A file recorder released with lines pending is deallocated, and its file has every complete line"
    )
    func releasedWithPendingLines() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let clock = TickingClock()
        let fileClock = TickingClock()
        let twin = FlowRecorder(clock: { clock.read() })
        weak var released: FlowRecorder?
        weak var gone: FlowRuntime?
        do {
            let (runtime, _, stack, _) = try makeSmallApp()
            gone = runtime
            let file = try FlowRecorder(writingTo: path, clock: { fileClock.read() })
            released = file
            twin.attach(runtime)
            file.attach(runtime)
            try runtime.start()
            for index in 0..<20 {
                try stack.push(FlowController(name: samples[index % samples.count] + "\(index)"))
            }
            // Pending: the burst is not out yet (the main actor has not been idle).
            #expect(try contents(path) != twin.text)
        }
        #expect(gone == nil)
        #expect(released == nil)
        let text = try contents(path)
        #expect(text == twin.text)
        // The start, 20 pushes, and the stop of the runtime's teardown.
        #expect(try FlowSessionFile(text: text).stepCount == 22)
        #expect(text.hasSuffix("\n") && text.contains(#""n":22,"change":{"kind":"stop""#))
    }

    @Test(
        "A file recorder whose runtime is released on another thread is deallocated, and its file has every line"
    )
    func releasedOffMainActor() async throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let clock = TickingClock()
        let fileClock = TickingClock()
        let twin = FlowRecorder(clock: { clock.read() })
        weak var released: FlowRecorder?
        do {
            let (runtime, _, stack, _) = try makeSmallApp()
            let file = try FlowRecorder(writingTo: path, clock: { fileClock.read() })
            released = file
            twin.attach(runtime)
            file.attach(runtime)
            try runtime.start()
            for index in 0..<20 {
                try stack.push(FlowController(name: samples[index % samples.count] + "\(index)"))
            }
            let box = [runtime]
            _ = consume runtime
            let release = Task.detached {
                await Task.yield()
                _ = box.count  // the runtime's last reference dies on this thread
            }
            _ = consume box
            await release.value
        }
        // The runtime's and the recorder's deinits run on the main actor.
        var waits = 0
        while released != nil, waits < 200 {
            try await Task.sleep(for: .milliseconds(5))
            waits += 1
        }
        #expect(released == nil)
        let text = try contents(path)
        #expect(text == twin.text)
        #expect(try FlowSessionFile(text: text).stepCount == 22)
    }

    @Test(
        "A record that app code makes while a line is being written is kept whole, after that line")
    func recordMadeWhileWriting() throws {
        let (runtime, _, stack, _) = try makeSmallApp()
        let (second, _, _, _) = try makeSmallApp()
        let clock = ActingClock()
        let recorder = FlowRecorder(clock: { clock.read() })
        // The fourth reading of the clock (in the middle of the second push's step) attaches
        // another runtime: its attach record is made while the step is being written.
        clock.actions[4] = { recorder.attach(second, label: "second") }
        recorder.attach(runtime)
        try runtime.start()
        try stack.push(FlowController(name: "a"))
        try stack.push(FlowController(name: "b"))
        let lines = recorder.lines
        #expect(lines.count == 6)
        #expect(lines[1] == #"{"k":"attach","rt":"main","t":0.001,"n":0}"#)
        #expect(records(lines, "step").map { $0["n"] as? Int } == [1, 2, 3])
        #expect(lines[4].hasPrefix(#"{"k":"step","rt":"main","t":0.004,"n":3,"#))
        #expect(lines[5] == #"{"k":"attach","rt":"second","t":0.005,"n":0}"#)
        #expect(try FlowSessionFile(text: recorder.text).problems.isEmpty)
    }

    @Test(
        "A file flushed and finished by app code while a line is being written has each line once, whole"
    )
    func fileFinishedWhileWriting() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (runtime, _, stack, _) = try makeSmallApp()
        let clock = ActingClock()
        let recorder = try FlowRecorder(writingTo: path, clock: { clock.read() })
        // In the middle of the first push's step, a flush; in the middle of the second's, the
        // end of the session (that step is then dropped: the session ended before it).
        clock.actions[3] = { recorder.flush() }
        clock.actions[4] = { recorder.finish() }
        recorder.attach(runtime)
        try runtime.start()
        try stack.push(FlowController(name: "a"))
        try stack.push(FlowController(name: "b"))
        try stack.push(FlowController(name: "c"))
        let text = try contents(path)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(text.hasSuffix("\n") && lines.count == 6)
        #expect(lines[1] == #"{"k":"attach","rt":"main","t":0.001,"n":0}"#)
        #expect(records(lines, "step").map { $0["n"] as? Int } == [1, 2])
        #expect(lines[4] == #"{"k":"detach","rt":"main","t":0.005,"n":3}"#)
        #expect(lines[5] == #"{"k":"end","t":0.006}"#)
        #expect(try FlowSessionFile(text: text).problems.isEmpty)
    }
}

/// A clock that counts its readings (a millisecond each) and runs app code at some of them.
@MainActor
final class ActingClock {
    private var readings = 0
    var actions: [Int: () -> Void] = [:]

    func read() -> Double {
        readings += 1
        let reading = readings
        actions.removeValue(forKey: reading)?()
        return Double(reading) / 1_000
    }
}
