/// Writes JSON text straight into a recorder's bytes (its ``RecorderBuffer``): no string,
/// array or dictionary per record, a capacity check per piece and a copy of its bytes. Its
/// position is the buffer's (so a writer is a constant that closures capture without a box).
struct ByteWriter {
    let buffer: RecorderBuffer

    /// How many bytes of the buffer are written, this line's included.
    var offset: Int { buffer.offset }

    /// A comma, unless the last byte opens an array or an object (the first item).
    @inline(__always)
    func separate() {
        let last = buffer.lastByte
        if last != 0x5B && last != 0x7B { byte(0x2C) }
    }

    @inline(__always)
    func byte(_ value: UInt8) { buffer.byte(value) }

    /// Appends `bytes` as they are (JSON text made once, like a record's first fields).
    func bytes(_ bytes: [UInt8]) { buffer.bytes(bytes) }

    /// Appends `text` as it is (ASCII JSON syntax).
    @inline(__always)
    func raw(_ text: StaticString) { buffer.raw(text) }

    /// Appends `value` in decimal.
    func unsigned(_ value: UInt64) { buffer.unsigned(value) }

    func integer(_ value: Int) {
        if value < 0 { byte(0x2D) }
        unsigned(UInt64(value.magnitude))
    }

    /// A time in seconds, to the microsecond (no trailing zeros).
    func seconds(_ value: Double) {
        let micros = Int((value * 1_000_000).rounded())
        if micros < 0 { byte(0x2D) }
        microseconds(UInt64(micros.magnitude))
    }

    /// A time of `value` microseconds, in seconds (no trailing zeros).
    func microseconds(_ value: UInt64) {
        unsigned(value / 1_000_000)
        let fraction = Int(truncatingIfNeeded: value % 1_000_000)
        guard fraction != 0 else { return }
        buffer.micros(fraction)
    }

    /// Appends `value` as a JSON string literal.
    func string(_ value: String) { buffer.string(value) }

    /// Appends `json` as it is (JSON made elsewhere).
    func json(_ json: String) { buffer.text(json) }
}

/// One line of a session file being written: a JSON object whose fields are appended in order
/// straight into the recorder's bytes (see ``ByteWriter``).
struct SessionLine {
    let out: ByteWriter

    /// Starts an object whose first field is `"k"` (the record's kind).
    init(_ kind: StaticString, into out: ByteWriter) {
        self.out = out
        self.out.raw("{\"k\":\"")
        self.out.raw(kind)
        self.out.byte(0x22)
    }

    /// Goes on with an object whose first fields `out` wrote already.
    init(continuing out: ByteWriter) {
        self.out = out
    }

    /// Starts an object with no field yet.
    init(into out: ByteWriter) {
        self.out = out
        self.out.byte(0x7B)
    }

    /// Appends `text` as it is (ASCII JSON syntax).
    func raw(_ text: StaticString) { out.raw(text) }

    private func key(_ name: StaticString) {
        out.separate()
        out.byte(0x22)
        out.raw(name)
        out.raw("\":")
    }

    func field(_ name: StaticString, _ value: String) {
        key(name)
        out.string(value)
    }

    func field(_ name: StaticString, _ value: Int) {
        key(name)
        out.integer(value)
    }

    func field(_ name: StaticString, _ value: UInt64) {
        key(name)
        out.unsigned(value)
    }

    func field(_ name: StaticString, _ value: Bool) {
        key(name)
        out.raw(value ? "true" : "false")
    }

    /// A time in seconds, to the microsecond.
    func field(_ name: StaticString, seconds: Double) {
        key(name)
        out.seconds(seconds)
    }

    func field(_ name: StaticString, strings: [String]) {
        key(name)
        out.byte(0x5B)
        for (index, value) in strings.enumerated() {
            if index > 0 { out.byte(0x2C) }
            out.string(value)
        }
        out.byte(0x5D)
    }

    func field(_ name: StaticString, ids: [UInt64]) {
        key(name)
        out.byte(0x5B)
        for (index, value) in ids.enumerated() {
            if index > 0 { out.byte(0x2C) }
            out.unsigned(value)
        }
        out.byte(0x5D)
    }

    /// A field whose value is JSON already (an object or array made elsewhere).
    func field(_ name: StaticString, json: String) {
        key(name)
        out.json(json)
    }

    /// The finished object's writer (its closing brace written).
    consuming func close() -> ByteWriter {
        out.byte(0x7D)
        return out
    }
}
