import Testing

@testable import FlowKitTesting

@Suite("Line diff and durations")
struct LineDiffTests {
    @Test("Shared lines stay, missing lines get -, unexpected lines get +, removals first")
    func diff() {
        #expect(
            _LineDiff.render(expected: ["a", "b", "c", "d"], actual: ["a", "x", "c", "d", "e"])
                == """
                  a
                - b
                + x
                  c
                  d
                + e
                """)
        #expect(_LineDiff.render(expected: [], actual: []) == "  (nothing)")
        #expect(_LineDiff.render(expected: ["a"], actual: []) == "- a")
    }

    @Test("Elapsed times read as microseconds, milliseconds or seconds")
    func durations() {
        #expect(_formatDuration(.nanoseconds(41_600)) == "42 µs")
        #expect(_formatDuration(.microseconds(3_450)) == "3.5 ms")
        #expect(_formatDuration(.milliseconds(1_250)) == "1.25 s")
    }
}
