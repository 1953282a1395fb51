import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Replacing a file atomically: the new contents go to a temporary file in the same folder,
// which is flushed to the disk (fsync) and then renamed over the old file (rename(2) replaces
// it in one step), and the folder is flushed so that the rename itself survives a power
// loss. A process killed at any point leaves either the old file or the new one, never a
// mix; at worst a temporary file is left behind, which the store removes later.

/// Where a save can be interrupted, for the crash tests (`FlowSnapshotStore._crashPoint`).
enum _SaveCrashPoint: String, Sendable, Codable {
    /// Half the new contents are in the temporary file.
    case midWrite
    /// The temporary file is complete and flushed, not yet renamed.
    case beforeRename
}

/// An error of a system call, with what it was doing.
struct _SystemCallError: Error, CustomStringConvertible {
    let operation: String
    let path: String
    let code: Int32

    var description: String {
        "\(operation) '\(path)' failed: \(String(cString: strerror(code)))"
    }
}

/// write(2) (a file-scope name: `_AtomicFile.write` hides it inside the type).
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

enum _AtomicFile {
    /// The prefix of the temporary files of `url` (`.NAME.`), so they can be found later.
    static func temporaryPrefix(of url: URL) -> String { ".\(url.lastPathComponent)." }

    /// Replaces the file at `url` with `data`, atomically (see the comment above).
    static func write(_ data: Data, to url: URL, crashingAt crash: _SaveCrashPoint? = nil) throws {
        let folder = url.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(
            temporaryPrefix(of: url) + "\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw _SystemCallError(operation: "creating", path: temporary.path, code: errno)
        }
        var closed = false
        defer {
            if !closed { close(descriptor) }
        }
        do {
            try data.withUnsafeBytes { buffer in
                // A crash mid-write stops after half the bytes.
                let end = crash == .midWrite ? buffer.count / 2 : buffer.count
                var offset = 0
                while offset < end {
                    let written = systemWrite(
                        descriptor, buffer.baseAddress! + offset, end - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        throw _SystemCallError(
                            operation: "writing", path: temporary.path, code: errno)
                    }
                    offset += written
                }
            }
            if crash == .midWrite {
                _ = fsync(descriptor)
                _crash()
            }
            guard fsync(descriptor) == 0 else {
                throw _SystemCallError(operation: "flushing", path: temporary.path, code: errno)
            }
            closed = true
            guard close(descriptor) == 0 else {
                throw _SystemCallError(operation: "closing", path: temporary.path, code: errno)
            }
            if crash == .beforeRename { _crash() }
            guard rename(temporary.path, url.path) == 0 else {
                throw _SystemCallError(operation: "renaming", path: temporary.path, code: errno)
            }
        } catch {
            unlink(temporary.path)
            throw error
        }
        flushFolder(folder)
    }

    /// Flushes `folder` (its entries: a rename in it) to the disk; best effort (some file
    /// systems refuse to flush a folder, and the rename has happened either way).
    static func flushFolder(_ folder: URL) {
        let descriptor = open(folder.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    /// Removes the temporary files `write` left behind for `url` (a save that was killed).
    static func removeLeftovers(of url: URL) {
        let folder = url.deletingLastPathComponent()
        let prefix = temporaryPrefix(of: url)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            unlink(folder.appendingPathComponent(name).path)
        }
    }

    /// Kills the process at once, as the system does (no cleanup, no buffers flushed).
    static func _crash() -> Never {
        kill(getpid(), SIGKILL)
        abort()
    }
}
