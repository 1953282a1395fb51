import Foundation

/// Where a recorder's lines go: one block of bytes that each record is written into, in
/// place (no string, no array per record), then either kept as a bounded buffer of lines or
/// written out to a file in batches (see ``FlowRecorder/flush()`` for when).
final class RecorderSink {
    private var file: UnsafeMutablePointer<FILE>?
    /// The most lines a buffer keeps (besides the header); 0 for a file.
    private let limit: Int
    /// The header line, with its newline.
    private var header: [UInt8] = []
    /// The bytes of the kept (buffer) or pending (file) lines, each ending in a newline.
    private(set) var base: UnsafeMutablePointer<UInt8>
    /// How many bytes of `base` are used.
    var count = 0
    /// How many bytes `base` holds.
    private(set) var capacity: Int
    /// How many lines a buffer keeps now (besides the header): they are found by their
    /// newlines when needed (a trim, ``lines``), not noted one by one as they are written.
    private var lineCount = 0
    /// Where each kept keyframe step (a place a buffer may start) starts in `base`, in order:
    /// one every ``FlowRecorder/Options/keyframeInterval`` steps.
    private var keyframeStarts: [Int] = []
    /// Where the next byte goes, and where the room ends (see ``ByteWriter``).
    var position: UnsafeMutablePointer<UInt8>
    var end: UnsafeMutablePointer<UInt8>
    /// Where the line being written starts.
    private var lineStart = 0
    /// Whether a task that writes the pending lines out once the main actor is idle is
    /// scheduled (a file).
    var writeScheduled = false
    /// How many bytes of pending lines make a file recorder write them out at once.
    static let batchBytes = 64 * 1_024

    init(limit: Int) {
        self.limit = limit
        // Room for the lines kept (about 160 bytes a line at most depths), up to 4 MiB at first:
        // the system gives the pages as they are written, and the block is not copied as the
        // buffer fills.
        capacity = min(max(16 * 1_024, limit * 160), 4 * 1_024 * 1_024)
        base = .allocate(capacity: capacity)
        position = base
        end = base + capacity
    }

    init(path: String) throws {
        limit = 0
        guard let file = fopen(path, "w") else {
            throw FlowRecorderError.cannotOpen(
                path: path, reason: String(cString: strerror(errno)))
        }
        self.file = file
        capacity = Self.batchBytes + 16 * 1_024
        base = .allocate(capacity: capacity)
        position = base
        end = base + capacity
    }

    deinit {
        close()
        base.deallocate()
    }

    var isFile: Bool { limit == 0 }

    /// Makes room for `extra` more bytes after the first `used` (the line being written is
    /// kept): `base` may move.
    func grow(used: Int, extra: Int) {
        var newCapacity = capacity * 2
        while newCapacity < used + extra { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: used)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// A writer for the next line, from the end of what is there.
    func beginLine() -> ByteWriter {
        lineStart = count
        return ByteWriter(sink: self, at: count)
    }

    /// Ends the line `writer` wrote (adding its newline).
    func endLine(_ writer: consuming ByteWriter, keyframe: Bool) {
        writer.byte(0x0A)
        count = writer.offset
        if isFile {
            if file == nil { count = lineStart }
            return
        }
        lineCount &+= 1
        if keyframe { keyframeStarts.append(lineStart) }
        if lineCount > limit { trim() }
    }

    /// Forgets the line `writer` wrote.
    func dropLine(_ writer: consuming ByteWriter) {
        _ = writer
        count = lineStart
    }

    /// Keeps the line just ended as the header (out of the buffer's count, never dropped),
    /// and writes it out to a file at once.
    func keepAsHeader() {
        if isFile {
            writeOut()
            return
        }
        precondition(!keyframeStarts.contains(lineStart), "a keyframe step kept as the header")
        header = Array(UnsafeBufferPointer(start: base + lineStart, count: count - lineStart))
        count = lineStart
        lineCount -= 1
    }

    /// Drops the oldest lines so that about half the limit stays, starting at a keyframe step
    /// when one is near.
    private func trim() {
        var cut = lineCount - limit / 2
        var offset = lineEnd(after: 0, lines: cut)
        // The last keyframe step before that line, if it is not the first line.
        if let keyframe = keyframeStarts.last(where: { $0 > 0 && $0 < offset }) {
            cut = newlines(before: keyframe)
            offset = keyframe
        }
        (base).update(from: base + offset, count: count - offset)
        count -= offset
        lineCount -= cut
        keyframeStarts = keyframeStarts.compactMap { $0 >= offset ? $0 - offset : nil }
    }

    /// Where the line after the `lines`th newline from `start` on begins (`count` if there
    /// are fewer).
    private func lineEnd(after start: Int, lines: Int) -> Int {
        var offset = start
        var seen = 0
        while seen < lines, offset < count,
            let newline = memchr(base + offset, 0x0A, count - offset)
        {
            offset = UnsafeMutableRawPointer(base).distance(to: newline) + 1
            seen += 1
        }
        return seen < lines ? count : offset
    }

    /// How many newlines the first `end` bytes hold.
    private func newlines(before end: Int) -> Int {
        var offset = 0
        var seen = 0
        while offset < end, let newline = memchr(base + offset, 0x0A, end - offset) {
            offset = UnsafeMutableRawPointer(base).distance(to: newline) + 1
            seen += 1
        }
        return seen
    }

    /// The header and the kept lines, without newlines.
    var lines: [String] {
        guard !isFile, !header.isEmpty else { return [] }
        var result = [String(decoding: header.dropLast(), as: UTF8.self)]
        result.reserveCapacity(lineCount + 1)
        var start = 0
        while start < count {
            let end = lineEnd(after: start, lines: 1) - 1
            result.append(
                String(
                    decoding: UnsafeBufferPointer(start: base + start, count: end - start),
                    as: UTF8.self))
            start = end + 1
        }
        return result
    }

    /// The header and the kept lines, as the text of a session file.
    var text: String {
        guard !isFile, !header.isEmpty else { return "" }
        return String(decoding: header, as: UTF8.self)
            + String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self)
    }

    /// Writes the pending lines to the file, and the file out to the system.
    func writeOut() {
        guard let file else { return }
        // Straight to the file's descriptor, in one call (the stream has nothing buffered:
        // it is only written here): no copy into the stream's buffer, no call per 4 KiB.
        let descriptor = fileno(file)
        var written = 0
        while written < count {
            let result = write(descriptor, base + written, count - written)
            if result > 0 {
                written += result
            } else if result < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        count = 0
    }

    func close() {
        writeOut()
        if let file {
            fclose(file)
            self.file = nil
        }
    }
}
