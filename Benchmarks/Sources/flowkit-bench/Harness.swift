import Foundation

/// Where benchmark results go so the optimizer cannot drop the work that produced them: a
/// global the program writes and finally prints, which no compiler may elide.
@MainActor private var blackHoleSink: UInt = 0

/// Consumes `value` so the computation producing it must happen.
@MainActor @inline(never)
func blackHole(_ value: UInt) {
    blackHoleSink &+= value
}

/// Consumes `value` so the computation producing it must happen.
@MainActor @inline(never)
func blackHole(_ value: Int) {
    blackHoleSink &+= UInt(bitPattern: value)
}

/// Consumes an object reference.
@MainActor @inline(never)
func blackHole(_ object: AnyObject) {
    blackHoleSink &+= UInt(bitPattern: ObjectIdentifier(object))
}

/// The value every black-holed result has been folded into (printed at the end of a run).
@MainActor var blackHoleChecksum: UInt { blackHoleSink }

/// A mutable counter shared by a benchmark and the handler it measures.
final class Counter {
    var value = 0
}

/// One measured case: the median of its timed repetitions, divided by the operations each
/// repetition ran.
struct Measurement {
    /// The case's name, `Area.operation/size`.
    let name: String
    /// Nanoseconds per operation (median over the repetitions).
    let nanosecondsPerOperation: Double
    /// The fastest repetition, per operation.
    let minimumNanoseconds: Double
    /// A second unit derived from the first (per hop, per node), if the case has one.
    let perUnit: (label: String, nanoseconds: Double)?
}

/// Times benchmark cases with `ContinuousClock`: warm-up runs first, then `repetitions`
/// timed runs, each building its input outside the timed region; the median is reported.
@MainActor
final class Harness {
    /// How many timed repetitions each case gets (the median is reported).
    let repetitions: Int
    /// How many untimed runs precede them.
    let warmups: Int
    /// Only cases whose name contains this string run (all when `nil`).
    let filter: String?
    /// Every measurement so far, in order.
    private(set) var measurements: [Measurement] = []

    private let clock = ContinuousClock()

    init(repetitions: Int, warmups: Int, filter: String?) {
        self.repetitions = repetitions
        self.warmups = warmups
        self.filter = filter
    }

    /// Whether the case `name` is selected by the filter.
    func selects(_ name: String) -> Bool {
        filter.map { name.contains($0) } ?? true
    }

    /// Whether any case of the area whose names start with `prefix` may be selected: the
    /// filter names the area, or a case in it (`--filter "Launch.restore/nodes=500"`).
    func selectsArea(_ prefix: String) -> Bool {
        filter.map { prefix.contains($0) || $0.hasPrefix(prefix) } ?? true
    }

    /// Measures a case whose repetitions need a fresh input each (teardown, push/pop).
    ///
    /// `setup` builds the input outside the timed region; `run` is timed, performs
    /// `operations` operations on it and returns a checksum that goes to ``blackHole(_:)``.
    /// The input stays alive until the clock has stopped, so its own release is not timed.
    ///
    /// - Parameters:
    ///   - perUnit: A second unit to report, with how many of them one operation covers (for
    ///     example `("hop", depth)`).
    ///   - repetitions: Fewer repetitions (and one warm-up) for cases too slow for the usual
    ///     count.
    @discardableResult
    func measure<Input>(
        _ name: String, operations: Int, perUnit: (label: String, count: Int)? = nil,
        repetitions slowRepetitions: Int? = nil,
        setup: () throws -> Input, run: (Input) throws -> UInt
    ) rethrows -> Measurement? {
        guard selects(name) else { return nil }
        let repetitions = min(slowRepetitions ?? self.repetitions, self.repetitions)
        let warmups = slowRepetitions == nil ? self.warmups : 1
        var samples: [Duration] = []
        samples.reserveCapacity(repetitions)
        for round in 0..<(warmups + repetitions) {
            let input = try setup()
            try withExtendedLifetime(input) {
                let start = clock.now
                let checksum = try run(input)
                let elapsed = start.duration(to: clock.now)
                blackHole(checksum)
                if round >= warmups { samples.append(elapsed) }
            }
        }
        return record(name, samples: samples, operations: operations, perUnit: perUnit)
    }

    /// Reports and keeps the median and the fastest of `samples`, per operation.
    private func record(
        _ name: String, samples unsorted: [Duration], operations: Int,
        perUnit: (label: String, count: Int)?
    ) -> Measurement {
        let samples = unsorted.sorted()
        let median = samples[samples.count / 2]
        let perOperation = nanoseconds(median) / Double(operations)
        let minimum = nanoseconds(samples[0]) / Double(operations)
        let measurement = Measurement(
            name: name, nanosecondsPerOperation: perOperation, minimumNanoseconds: minimum,
            perUnit: perUnit.map { ($0.label, perOperation / Double($0.count)) })
        measurements.append(measurement)
        report(measurement)
        return measurement
    }

    /// Measures an `async` case on the main actor (awaiting a flow's result): as
    /// ``measure(_:operations:perUnit:repetitions:setup:run:)``, with `run` awaited.
    @discardableResult
    func measureAsync<Input>(
        _ name: String, operations: Int, perUnit: (label: String, count: Int)? = nil,
        setup: () throws -> Input, run: @MainActor (Input) async throws -> UInt
    ) async throws -> Measurement? {
        guard selects(name) else { return nil }
        var samples: [Duration] = []
        samples.reserveCapacity(repetitions)
        for round in 0..<(warmups + repetitions) {
            let input = try setup()
            let start = clock.now
            let checksum = try await run(input)
            let elapsed = start.duration(to: clock.now)
            // The input is released only once the clock has stopped.
            withExtendedLifetime(input) { blackHole(checksum) }
            if round >= warmups { samples.append(elapsed) }
        }
        return record(name, samples: samples, operations: operations, perUnit: perUnit)
    }

    /// Measures a case whose input can be reused across repetitions (dispatch, lookup).
    @discardableResult
    func measure(
        _ name: String, operations: Int, perUnit: (label: String, count: Int)? = nil,
        run: () throws -> UInt
    ) rethrows -> Measurement? {
        try measure(name, operations: operations, perUnit: perUnit, setup: {}, run: run)
    }

    /// Records a figure that is not a timing (memory), for the summary table.
    func note(_ name: String, value: String) {
        guard selects(name) else { return }
        print(pad(name, 44) + " " + value)
        fflush(nil)
    }

    /// The measurement named `name`, if it ran.
    func result(_ name: String) -> Measurement? {
        measurements.first { $0.name == name }
    }

    private func report(_ measurement: Measurement) {
        var line = pad(measurement.name, 44)
        line += leftPad(format(measurement.nanosecondsPerOperation), 12) + " ns/op"
        line += leftPad(format(measurement.minimumNanoseconds), 12) + " min"
        if let unit = measurement.perUnit {
            line += leftPad(format(unit.nanoseconds), 12) + " ns/\(unit.label)"
        }
        print(line)
        // Each line goes out at once, even into a file or a pipe, so that a run stopped by a
        // failed check still shows the cases before it.
        fflush(nil)
    }

    private func nanoseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    }
}

/// A number with three significant decimals for small values, no decimals for large ones.
func format(_ value: Double) -> String {
    if value >= 1000 { return String(format: "%.0f", value) }
    if value >= 100 { return String(format: "%.1f", value) }
    return String(format: "%.2f", value)
}

/// `text` padded with spaces on the right to `width` columns.
func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}

/// `text` padded with spaces on the left to `width` columns.
func leftPad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
}
