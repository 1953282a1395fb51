/// Writes JSON text straight into a ``RecorderSink``'s bytes: no string, array or dictionary
/// per record, a capacity check per piece and a copy of its bytes. Its position is the sink's
/// (so a writer is a constant that closures capture without a box).
struct ByteWriter {
    let sink: RecorderSink

    init(sink: RecorderSink, at offset: Int) {
        self.sink = sink
        sink.position = sink.base + offset
        sink.end = sink.base + sink.capacity
    }

    private var position: UnsafeMutablePointer<UInt8> {
        get { sink.position }
        nonmutating set { sink.position = newValue }
    }

    /// How many bytes of the sink are written, this line's included.
    var offset: Int { sink.position - sink.base }

    @inline(__always)
    private func reserve(_ count: Int) {
        if sink.end - sink.position < count { grow(count) }
    }

    @inline(never)
    private func grow(_ count: Int) {
        let used = offset
        sink.grow(used: used, extra: count)
        sink.position = sink.base + used
        sink.end = sink.base + sink.capacity
    }

    /// A comma, unless the last byte opens an array or an object (the first item).
    @inline(__always)
    func separate() {
        let last = position[-1]
        if last != 0x5B && last != 0x7B { byte(0x2C) }
    }

    @inline(__always)
    func byte(_ value: UInt8) {
        reserve(1)
        position.pointee = value
        position += 1
    }

    /// The bytes written since `start` (an earlier ``offset``), as an array to write again.
    func written(since start: Int) -> [UInt8] {
        // Within the sink's block: from an earlier offset of this line to the current one.
        assert(start >= 0 && start <= offset, "not an offset written already")
        return Array(UnsafeBufferPointer(start: sink.base + start, count: offset - start))
    }

    /// Appends `bytes` as they are (JSON text made once, like a record's first fields).
    func bytes(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { self.bytes($0) }
    }

    /// Appends `text` as it is (ASCII JSON syntax).
    @inline(__always)
    func raw(_ text: StaticString) {
        bytes(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    func bytes(_ buffer: UnsafeBufferPointer<UInt8>) {
        guard let start = buffer.baseAddress else { return }
        let count = buffer.count
        reserve(count)
        let to = position
        if count <= 16 {
            // Most pieces are a few bytes: a loop beats a call to memmove.
            for index in 0..<count { to[index] = start[index] }
        } else {
            to.update(from: start, count: count)
        }
        position = to + count
    }

    /// Appends `value` in decimal: its digits counted, then written two at a time from the
    /// last (a division by a constant is a multiplication).
    func unsigned(_ value: UInt64) {
        reserve(20)
        let start = position
        if value < 10 {
            start.pointee = 0x30 &+ UInt8(truncatingIfNeeded: value)
            position = start + 1
            return
        }
        let digits: Int
        if value < 1_000_000 {
            digits =
                value < 100 ? 2 : value < 1_000 ? 3 : value < 10_000 ? 4 : value < 100_000 ? 5 : 6
        } else {
            var count = 7
            var bound: UInt64 = 10_000_000
            while count < 20 && value >= bound {
                count &+= 1
                if count < 20 { bound &*= 10 }
            }
            digits = count
        }
        var remaining = value
        var index = digits
        while remaining >= 100 {
            let pair = UInt8(truncatingIfNeeded: remaining % 100)
            remaining /= 100
            index &-= 2
            start[index] = 0x30 &+ pair / 10
            start[index &+ 1] = 0x30 &+ pair % 10
        }
        if remaining >= 10 {
            let pair = UInt8(truncatingIfNeeded: remaining)
            start[0] = 0x30 &+ pair / 10
            start[1] = 0x30 &+ pair % 10
        } else {
            start[0] = 0x30 &+ UInt8(truncatingIfNeeded: remaining)
        }
        position = start + digits
    }

    func integer(_ value: Int) {
        if value < 0 { byte(0x2D) }
        unsigned(UInt64(value.magnitude))
    }

    /// A time in seconds, to the microsecond (no trailing zeros).
    func seconds(_ value: Double) {
        let micros = Int((value * 1_000_000).rounded())
        if micros < 0 { byte(0x2D) }
        let magnitude = UInt64(micros.magnitude)
        unsigned(magnitude / 1_000_000)
        let fraction = Int(truncatingIfNeeded: magnitude % 1_000_000)
        guard fraction != 0 else { return }
        // A point and six digits (three pairs), then the trailing zeros taken back.
        reserve(7)
        let start = position
        let high = UInt8(truncatingIfNeeded: fraction / 10_000)
        let middle = UInt8(truncatingIfNeeded: fraction / 100 % 100)
        let low = UInt8(truncatingIfNeeded: fraction % 100)
        start[0] = 0x2E
        start[1] = 0x30 &+ high / 10
        start[2] = 0x30 &+ high % 10
        start[3] = 0x30 &+ middle / 10
        start[4] = 0x30 &+ middle % 10
        start[5] = 0x30 &+ low / 10
        start[6] = 0x30 &+ low % 10
        var length = 7
        while start[length &- 1] == 0x30 { length &-= 1 }
        position = start + length
    }

    /// Appends `value` as a JSON string literal.
    func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            reserve(utf8.count + 2)
            for unit in utf8 where unit < 0x20 || unit == 0x22 || unit == 0x5C {
                return escaped(utf8)
            }
            position.pointee = 0x22
            position += 1
            bytes(utf8)
            position.pointee = 0x22
            position += 1
        }
    }

    private func escaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        byte(0x22)
        for unit in utf8 {
            switch unit {
            case 0x22: raw("\\\"")
            case 0x5C: raw("\\\\")
            case 0x0A: raw("\\n")
            case 0x0D: raw("\\r")
            case 0x09: raw("\\t")
            case 0..<0x20:
                raw("\\u00")
                let hex: StaticString = "0123456789abcdef"
                byte(hex.utf8Start[Int(unit >> 4)])
                byte(hex.utf8Start[Int(unit & 0xF)])
            default: byte(unit)
            }
        }
        byte(0x22)
    }
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
        var json = json
        let out = out
        json.withUTF8 { out.bytes($0) }
    }

    /// The finished object's writer (its closing brace written).
    consuming func close() -> ByteWriter {
        out.byte(0x7D)
        return out
    }
}
