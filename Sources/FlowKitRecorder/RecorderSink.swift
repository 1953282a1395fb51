import Foundation

/// Where a recorder's lines go: one block of bytes (a ``RecorderBuffer``) that each record is
/// written into, in place (no string, no array per record), then either kept as a bounded
/// buffer of lines or written out to a file in batches (see ``FlowRecorder/flush()`` for
/// when).
///
/// It works in offsets only: the block's pointer stays inside ``RecorderBuffer``.
final class RecorderSink {
    /// The session file (a file recorder), until it is closed.
    private var file: FileHandle?
    /// The most lines a buffer keeps (besides the header); 0 for a file.
    private let limit: Int
    /// The bytes: a buffer's header line first (with its newline, never dropped), then the
    /// kept lines; a file's pending lines. Each line ends in a newline.
    let buffer: RecorderBuffer
    /// How many bytes of `buffer` are whole lines (the header's included).
    private(set) var count = 0
    /// How many bytes at the start of a buffer's block are the header line.
    private var headerLength = 0
    /// How many lines a buffer keeps now (besides the header): they are found by their
    /// newlines when needed (a trim, ``lines``), not noted one by one as they are written.
    private var lineCount = 0
    /// Where each kept keyframe step (a place a buffer may start) starts in the block, in
    /// order: one every ``FlowRecorder/Options/keyframeInterval`` steps.
    private var keyframeStarts: [Int] = []
    /// Where the line being written starts.
    private var lineStart = 0
    /// Whether a line is being written into `buffer`. App code may run meanwhile (the clock,
    /// an error's description, a route's encoding for a snapshot) and make another record:
    /// that line is written aside and kept after this one (see ``beginLine()``).
    private var isWriting = false
    /// The lines made while another was being written (without their newlines), with whether
    /// each is a keyframe step.
    private var linesMadeMeanwhile: [(bytes: [UInt8], keyframe: Bool)] = []
    /// Whether the file was closed while a line was being written: it is closed once that
    /// line and the lines made meanwhile are kept.
    private var closesAfterLine = false
    /// Whether `linesMadeMeanwhile` has lines or `closesAfterLine` is set: what a line's end
    /// checks before anything else.
    private var hasLinesAside = false
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
        buffer = RecorderBuffer(capacity: min(max(16 * 1_024, limit * 160), 4 * 1_024 * 1_024))
    }

    init(path: String) throws {
        limit = 0
        Self.removeWritableFile(at: path)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw FlowRecorderError.cannotOpen(
                path: path, reason: String(cString: strerror(errno)))
        }
        file = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        buffer = RecorderBuffer(capacity: Self.batchBytes + 16 * 1_024)
    }

    deinit {
        close()
    }

    /// Removes a regular file at `path` that could be written, so that the session is a new
    /// file rather than the old one emptied: a reader that has the old file open keeps it
    /// whole, and the system does not flush the emptied file's replacement at `close` as it
    /// does for a file truncated and written again (ext4's `auto_da_alloc`; about 60 ns a
    /// change in `Recorder.pushPop/recordingFile`). Anything else at `path` (a link, a pipe, a
    /// device, a file that is read-only) is left for `open` as it is.
    private static func removeWritableFile(at path: String) {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
            access(path, W_OK) == 0
        else { return }
        unlink(path)
    }

    var isFile: Bool { limit == 0 }

    /// A writer for the next line, from the end of the whole lines; or, while a line is
    /// being written, a writer of its own (its line is kept after the one being written).
    func beginLine() -> ByteWriter {
        guard !isWriting else { return ByteWriter(buffer: RecorderBuffer(capacity: 256)) }
        isWriting = true
        lineStart = count
        buffer.move(to: count)
        return ByteWriter(buffer: buffer)
    }

    /// Ends the line `writer` wrote (adding its newline).
    func endLine(_ writer: consuming ByteWriter, keyframe: Bool) {
        writer.byte(0x0A)
        guard writer.buffer === buffer else {
            linesMadeMeanwhile.append((writer.buffer.bytes(in: 0..<writer.offset - 1), keyframe))
            hasLinesAside = true
            return
        }
        assert(isWriting, "a line ended that was not begun")
        count = writer.offset
        isWriting = false
        if isFile {
            if file == nil { count = lineStart }
        } else {
            lineCount &+= 1
            if keyframe { keyframeStarts.append(lineStart) }
            if lineCount > limit { trim() }
        }
        // Checked here, inline: the array's dynamic exclusivity check alone cost about 100
        // instructions a line when the call made it.
        if hasLinesAside { keepLinesMadeMeanwhile() }
    }

    /// Forgets the line `writer` wrote.
    func dropLine(_ writer: consuming ByteWriter) {
        guard writer.buffer === buffer else { return }
        count = lineStart
        isWriting = false
        keepLinesMadeMeanwhile()
    }

    /// Keeps the lines made while a line was being written, in order, then closes the file
    /// if it was closed meanwhile.
    private func keepLinesMadeMeanwhile() {
        hasLinesAside = false
        guard !linesMadeMeanwhile.isEmpty || closesAfterLine else { return }
        while !linesMadeMeanwhile.isEmpty {
            let line = linesMadeMeanwhile.removeFirst()
            let out = beginLine()
            out.bytes(line.bytes)
            endLine(out, keyframe: line.keyframe)
        }
        if closesAfterLine {
            closesAfterLine = false
            close()
        }
    }

    /// Keeps the line just ended as the header (at the start of a buffer's block, out of its
    /// count, never dropped), and writes it out to a file at once.
    func keepAsHeader() {
        if isFile {
            writeOut()
            return
        }
        precondition(lineStart == 0 && keyframeStarts.isEmpty, "the header is not the first line")
        headerLength = count
        lineCount -= 1
    }

    /// Drops the oldest lines so that about half the limit stays, starting at a keyframe step
    /// when one is near.
    private func trim() {
        var cut = lineCount - limit / 2
        var offset = lineEnd(after: headerLength, lines: cut)
        // The last keyframe step before that line, if it is not the first line.
        if let keyframe = keyframeStarts.last(where: { $0 > headerLength && $0 < offset }) {
            cut = newlines(in: headerLength..<keyframe)
            offset = keyframe
        }
        assert(count == buffer.offset, "a trim while a line is being written")
        buffer.remove(headerLength..<offset)
        let removed = offset - headerLength
        count -= removed
        lineCount -= cut
        keyframeStarts = keyframeStarts.compactMap { $0 >= offset ? $0 - removed : nil }
    }

    /// Where the line after the `lines`th newline from `start` on begins (`count` if there
    /// are fewer).
    private func lineEnd(after start: Int, lines: Int) -> Int {
        var offset = start
        var seen = 0
        while seen < lines, let newline = buffer.firstIndex(of: 0x0A, in: offset..<count) {
            offset = newline + 1
            seen += 1
        }
        return seen < lines ? count : offset
    }

    /// How many newlines the bytes in `range` hold.
    private func newlines(in range: Range<Int>) -> Int {
        var offset = range.lowerBound
        var seen = 0
        while let newline = buffer.firstIndex(of: 0x0A, in: offset..<range.upperBound) {
            offset = newline + 1
            seen += 1
        }
        return seen
    }

    /// The header and the kept lines, without newlines.
    var lines: [String] {
        guard !isFile, headerLength > 0 else { return [] }
        var result: [String] = []
        result.reserveCapacity(lineCount + 1)
        var start = 0
        while start < count {
            let end = lineEnd(after: start, lines: 1) - 1
            result.append(buffer.string(in: start..<end))
            start = end + 1
        }
        return result
    }

    /// The header and the kept lines, as the text of a session file.
    var text: String {
        guard !isFile, headerLength > 0 else { return "" }
        return buffer.string(in: 0..<count)
    }

    /// Writes the pending lines to the file, in one call.
    func writeOut() {
        // While a line is being written, the lines before it go with the next batch.
        guard let file, count > 0, !isWriting else { return }
        // Written from the block by Foundation's file handle, which writes on after a partial
        // write or an interruption. A failed write drops the batch, as a full disk would.
        try? buffer.write(0..<count, to: file)
        count = 0
    }

    func close() {
        guard !isWriting else {
            closesAfterLine = true
            hasLinesAside = true
            return
        }
        writeOut()
        if let file {
            try? file.close()
            self.file = nil
        }
    }
}
