import Foundation

/// The recorder's block of bytes: the one place in the recorder that holds a pointer (listed
/// in Docs/Reliability.md, "Unsafe constructs and why each is safe").
///
/// Everything else reaches the bytes through offsets checked here; only the per-byte write
/// path (a record's pieces, digits and strings) writes through the pointer, for speed. The
/// only other pointer read is the digit-pair table's (`digitPairs.utf8Start`: a literal's
/// static bytes, read at indices below 200).
///
/// - Invariant: `base` is an allocation of `capacity` bytes that this buffer alone owns
///   (allocated in `init` and `grow`, freed in `grow` and `deinit`, never handed out: only
///   lent, as the bytes of a file's batch, to `FileHandle.write(contentsOf:)` for that call);
///   `base <= position <= end == base + capacity`; the first `initialized` bytes (and all
///   bytes before `position`) have been written.
/// - Enforced by: the pointers are private; every write reserves its room first (`reserve`
///   grows the block before a piece is written, and each piece writes at most what it
///   reserved); reads and moves take offsets that are checked against `initialized` and the
///   position; a `RecorderBuffer` is not `Sendable`, so only its owner's actor uses it.
/// - Tested by: `RecorderBufferTests` under AddressSanitizer (growth in the middle of a line,
///   escapes and multi-byte UTF-8 across the growth boundary, trims, reading back, batches,
///   a recorder released with bytes pending, records made while a line is being written).
/// - Debug check: each method asserts its bounds (`checkBounds()` and the offsets it takes).
final class RecorderBuffer {
    private var base: UnsafeMutablePointer<UInt8>
    /// Where the next byte goes.
    private var position: UnsafeMutablePointer<UInt8>
    /// Where the room ends (`base + capacity`).
    private var end: UnsafeMutablePointer<UInt8>
    /// How many bytes `base` holds.
    private(set) var capacity: Int
    /// How many bytes from `base` on were written at least once, as of the last move back
    /// (bytes before `position` were written too).
    private var initialized = 0

    init(capacity: Int) {
        precondition(capacity > 0, "RecorderBuffer: capacity \(capacity) is not positive")
        self.capacity = capacity
        base = .allocate(capacity: capacity)
        position = base
        end = base + capacity
    }

    deinit {
        base.deallocate()
    }

    /// How many bytes are written up to the position.
    var offset: Int { position - base }

    /// How many bytes can be read: the written ones.
    private var readable: Int { max(initialized, offset) }

    @inline(__always)
    private func checkBounds() {
        assert(base <= position && position <= end, "RecorderBuffer: position out of its block")
        assert(end == base + capacity, "RecorderBuffer: end is not base + capacity")
    }

    /// Moves the position to `offset` (a written byte's offset, or the end of the written
    /// ones): the next line is written from there.
    func move(to offset: Int) {
        assert(
            offset >= 0 && offset <= readable, "RecorderBuffer: move to \(offset) past \(readable)")
        initialized = readable
        position = base + offset
        checkBounds()
    }

    /// Makes room for `count` more bytes at the position (the block may move).
    @inline(__always)
    func reserve(_ count: Int) {
        assert(count >= 0, "RecorderBuffer: reserving \(count) bytes")
        if end - position < count { grow(count) }
        checkBounds()
    }

    /// Doubles the block until `count` more bytes fit, keeping the bytes before the position
    /// (the kept lines and the line being written).
    @inline(never)
    private func grow(_ count: Int) {
        let used = offset
        var newCapacity = capacity * 2
        while newCapacity < used + count { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: used)
        base.deallocate()
        base = newBase
        capacity = newCapacity
        position = newBase + used
        end = newBase + newCapacity
        initialized = used
        checkBounds()
    }

    // MARK: The write path

    /// The byte before the position (a line has one: its opening brace).
    @inline(__always)
    var lastByte: UInt8 {
        assert(position > base, "RecorderBuffer: no byte written before the position")
        return position[-1]
    }

    @inline(__always)
    func byte(_ value: UInt8) {
        reserve(1)
        position.pointee = value
        position += 1
    }

    /// Appends `bytes` as they are.
    func bytes(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { self.bytes($0) }
    }

    /// Appends `text` as it is (ASCII JSON syntax).
    @inline(__always)
    func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes($0) }
    }

    /// Appends `text`'s UTF-8 as it is (JSON made elsewhere).
    func text(_ text: String) {
        var text = text
        text.withUTF8 { bytes($0) }
    }

    /// Inlined into each caller: a literal's length and bytes are then constants, and its
    /// copy a few moves rather than a loop or a call (about 400 instructions fewer per step
    /// in the benchmark's buffer case, counted with callgrind).
    @inline(__always)
    private func bytes(_ buffer: UnsafeBufferPointer<UInt8>) {
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
        checkBounds()
    }

    /// The decimal digits of 0 to 99, two bytes each: `"00"` to `"99"`.
    private static let digitPairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """

    /// Appends `value` in decimal: its digits counted (a few comparisons), then written two at
    /// a time from the last, each pair copied from ``digitPairs`` (a division by a constant is
    /// a multiplication).
    func unsigned(_ value: UInt64) {
        reserve(20)
        let start = position
        if value < 10 {
            start.pointee = 0x30 &+ UInt8(truncatingIfNeeded: value)
            position = start + 1
            return
        }
        let digits: Int
        if value < 100_000_000 {
            digits =
                value < 10_000
                ? (value < 100 ? 2 : value < 1_000 ? 3 : 4)
                : (value < 1_000_000
                    ? (value < 100_000 ? 5 : 6) : value < 10_000_000 ? 7 : 8)
        } else {
            var count = 9
            var bound: UInt64 = 1_000_000_000
            while count < 20 && value >= bound {
                count &+= 1
                if count < 20 { bound &*= 10 }
            }
            digits = count
        }
        assert(digits <= 20, "RecorderBuffer: \(digits) digits, 20 reserved")
        let pairs = Self.digitPairs.utf8Start
        assert(Self.digitPairs.utf8CodeUnitCount == 200, "RecorderBuffer: digit pairs")
        var remaining = value
        var index = digits
        while remaining >= 100 {
            let pair = Int(truncatingIfNeeded: remaining % 100) &* 2
            assert(pair < 200, "RecorderBuffer: digit pair \(pair) past the table")
            remaining /= 100
            index &-= 2
            start[index] = pairs[pair]
            start[index &+ 1] = pairs[pair &+ 1]
        }
        if remaining >= 10 {
            let pair = Int(truncatingIfNeeded: remaining) &* 2
            start[0] = pairs[pair]
            start[1] = pairs[pair &+ 1]
        } else {
            start[0] = 0x30 &+ UInt8(truncatingIfNeeded: remaining)
        }
        position = start + digits
        checkBounds()
    }

    /// Appends `fraction` (below a million) as a point and six digits, without the trailing
    /// zeros.
    func micros(_ fraction: Int) {
        assert(fraction > 0 && fraction < 1_000_000, "RecorderBuffer: \(fraction) is no fraction")
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
        // The last digit is not a zero (the fraction is not), so the point stays.
        var length = 7
        while start[length &- 1] == 0x30 { length &-= 1 }
        position = start + length
        checkBounds()
    }

    /// Appends `value` as a JSON string literal.
    func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            for unit in utf8 where unit < 0x20 || unit == 0x22 || unit == 0x5C {
                return escaped(utf8)
            }
            reserve(utf8.count + 2)
            position.pointee = 0x22
            position += 1
            bytes(utf8)
            position.pointee = 0x22
            position += 1
            checkBounds()
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
                byte(Self.hexDigit(unit >> 4))
                byte(Self.hexDigit(unit & 0xF))
            default: byte(unit)
            }
        }
        byte(0x22)
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? 0x30 &+ value : 0x57 &+ value
    }

    // MARK: Reading and moving what is written

    private func checkRange(_ range: Range<Int>) {
        assert(
            range.lowerBound >= 0 && range.upperBound <= readable,
            "RecorderBuffer: bytes \(range) read past the \(readable) written")
    }

    /// A copy of the bytes in `range` (written ones).
    func bytes(in range: Range<Int>) -> [UInt8] {
        checkRange(range)
        return Array(UnsafeBufferPointer(start: base + range.lowerBound, count: range.count))
    }

    /// Writes the bytes in `range` (written ones) to `file`, from the block itself: the
    /// pointer is lent to `FileHandle.write(contentsOf:)` for that call only (it writes on
    /// after a partial write or an interruption, and keeps nothing). A copy would cost a
    /// batch's allocation, and the system's pages for it, on every batch.
    func write(_ range: Range<Int>, to file: FileHandle) throws {
        checkRange(range)
        try file.write(
            contentsOf: UnsafeRawBufferPointer(start: base + range.lowerBound, count: range.count))
    }

    /// The bytes in `range` (written ones), decoded as UTF-8.
    func string(in range: Range<Int>) -> String {
        String(decoding: bytes(in: range), as: UTF8.self)
    }

    /// The offset of the first `byte` in `range` (written bytes), if there is one.
    func firstIndex(of byte: UInt8, in range: Range<Int>) -> Int? {
        checkRange(range)
        guard !range.isEmpty,
            let found = memchr(base + range.lowerBound, Int32(byte), range.count)
        else { return nil }
        let index = UnsafeMutableRawPointer(base).distance(to: found)
        assert(range.contains(index), "RecorderBuffer: memchr found \(index) outside \(range)")
        return index
    }

    /// Removes the bytes in `range` (written ones, before the position): the bytes after it,
    /// up to the position, move down, and the position with them.
    func remove(_ range: Range<Int>) {
        assert(
            range.lowerBound >= 0 && range.upperBound <= offset,
            "RecorderBuffer: removing \(range) past the position \(offset)")
        let moved = offset - range.upperBound
        (base + range.lowerBound).update(from: base + range.upperBound, count: moved)
        initialized = readable
        position -= range.count
        checkBounds()
    }
}
