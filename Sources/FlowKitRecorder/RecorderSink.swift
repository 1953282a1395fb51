import Foundation

/// Where a recorder's lines go: a file (written out after each change, so a crash loses at
/// most the change in progress), or a bounded buffer of lines.
final class RecorderSink {
    private var file: UnsafeMutablePointer<FILE>?
    private let limit: Int
    private var kept: [String] = []
    /// Whether each kept line is a keyframe step (a place a buffer may start).
    private var keyframes: [Bool] = []
    private var start = 0

    init(limit: Int) {
        self.limit = limit
    }

    deinit {
        if let file { fclose(file) }
    }

    init(path: String) throws {
        limit = 0
        guard let file = fopen(path, "w") else {
            throw FlowRecorderError.cannotOpen(
                path: path, reason: String(cString: strerror(errno)))
        }
        self.file = file
    }

    /// The header and the kept lines.
    var lines: [String] {
        guard file == nil, !kept.isEmpty else { return [] }
        return [kept[0]] + kept[(start + 1)...]
    }

    func write(_ line: String, keyframe: Bool) {
        if let file {
            fputs(line, file)
            fputc(0x0A, file)
            return
        }
        kept.append(line)
        keyframes.append(keyframe)
        if kept.count - start - 1 > limit { trim() }
    }

    /// Drops the oldest lines (never the header) so that about half the limit stays, starting
    /// at a keyframe step when one is near.
    private func trim() {
        var cut = kept.count - limit / 2
        if let keyframe = keyframes[(start + 2)..<cut].lastIndex(of: true) { cut = keyframe }
        start = max(start, cut - 1)
        if start > limit {
            kept = [kept[0]] + kept[(start + 1)...]
            keyframes = [false] + keyframes[(start + 1)...]
            start = 0
        }
    }

    func flush() {
        if let file { fflush(file) }
    }

    func close() {
        if let file {
            fclose(file)
            self.file = nil
        }
    }
}
