import FlowKit
import Foundation

/// Snapshots in files, one per key (a runtime, a scene), replaced atomically, with a guard
/// against crash loops: a restoration is marked as in progress until the app says it is
/// settled, and a launch that finds the mark still set sets the snapshot aside and starts
/// fresh.
///
///     let store = FlowSnapshotStore(directory: applicationSupport.appending(path: "navigation"))
///     let runtime = try FlowRuntime(root: AppRoot())
///     switch try store.start(runtime, for: "main") {
///     case .fresh: break
///     case .restored(let report): log(report.skipped)
///     case .quarantined(let quarantine): log("set aside: \(quarantine.reason)")
///     }
///     await transitions.settled()         // the restored screen is shown
///     try store.markSettled(for: "main")
///     // whenever it suits the app (going to the background, after each change):
///     try store.save(runtime, for: "main")
///
/// A save writes the whole snapshot to a temporary file, flushes it to the disk and renames
/// it over the previous one: a save interrupted at any point (the process killed, the power
/// lost) leaves the previous snapshot readable, never a half-written one.
///
/// The files of key `K` in `directory`: `K.snapshot.json` (the snapshot, JSON),
/// `K.restoring` (the mark, while a restoration is not settled) and, in `quarantine/`,
/// `K.N.snapshot.json` with `K.N.reason.txt` (snapshots set aside, kept for a bug report).
/// Keys are written into file names with every byte outside `a-z 0-9 - _` percent-encoded
/// (capitals too, so that keys differing in case stay apart on a case-insensitive file
/// system), so any string is a key (a scene's identifier, a user's id).
///
/// A store is a value: two stores of the same directory are the same store. It is not a
/// lock: one process (one app) uses a directory, and one runtime a key at a time.
public struct FlowSnapshotStore: Sendable {
    /// The folder of the files (made on the first save if it does not exist).
    public let directory: URL

    /// For the crash tests: where a save kills the process.
    var _crashPoint: _SaveCrashPoint?

    /// A store whose files are in `directory`.
    public init(directory: URL) {
        self.directory = directory
    }

    // MARK: Saving and loading

    /// Saves `snapshot` under `key`, replacing the previous one atomically.
    ///
    /// - Throws: ``FlowSnapshotStoreError/invalidKey(_:)`` for an empty key or one too long
    ///   for a file name; an `EncodingError`; the error of the file system (the previous
    ///   snapshot is then still there, unchanged).
    public func save(_ snapshot: FlowSnapshot, for key: String) throws {
        let url = try snapshotURL(for: key)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try _AtomicFile.write(try Self.encode(snapshot), to: url, crashingAt: _crashPoint)
    }

    /// Saves `runtime`'s snapshot (`FlowRuntime.snapshot()`) under `key`.
    ///
    /// - Throws: What `FlowRuntime.snapshot()` and ``save(_:for:)-(FlowSnapshot,_)`` throw.
    @MainActor
    public func save(_ runtime: FlowRuntime, for key: String) throws {
        try save(try runtime.snapshot(), for: key)
    }

    /// The snapshot saved under `key`, or `nil` if there is none.
    ///
    /// - Throws: ``FlowSnapshotStoreError/invalidKey(_:)``; the file system's error for a
    ///   file that exists but cannot be read; a `DecodingError` for one that is not a
    ///   snapshot.
    public func load(for key: String) throws -> FlowSnapshot? {
        let url = try snapshotURL(for: key)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try JSONDecoder().decode(FlowSnapshot.self, from: try Data(contentsOf: url))
    }

    /// Removes what is saved under `key` (the snapshot and the mark; not the quarantined
    /// files): for a scene the user closed, whose place is not to come back.
    ///
    /// - Throws: ``FlowSnapshotStoreError/invalidKey(_:)``.
    public func remove(for key: String) throws {
        unlink(try snapshotURL(for: key).path)
        unlink(try markURL(for: key).path)
    }

    /// The snapshots of `key` set aside (oldest first), each with its reason file beside it.
    public func quarantined(for key: String) -> [URL] {
        guard let name = try? Self.fileName(for: key),
            let names = try? FileManager.default.contentsOfDirectory(atPath: quarantineURL.path)
        else { return [] }
        return names.compactMap { file -> (Int, URL)? in
            guard file.hasPrefix(name + "."), file.hasSuffix(".snapshot.json"),
                let number = Int(file.dropFirst(name.count + 1).dropLast(".snapshot.json".count))
            else { return nil }
            return (number, quarantineURL.appendingPathComponent(file))
        }.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// The bytes of a saved snapshot: JSON with sorted keys.
    static func encode(_ snapshot: FlowSnapshot) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(snapshot)
    }

    // MARK: Files

    /// The folder of the quarantined snapshots.
    var quarantineURL: URL { directory.appendingPathComponent("quarantine") }

    func snapshotURL(for key: String) throws -> URL {
        directory.appendingPathComponent(try Self.fileName(for: key) + ".snapshot.json")
    }

    func markURL(for key: String) throws -> URL {
        directory.appendingPathComponent(try Self.fileName(for: key) + ".restoring")
    }

    /// The longest key, encoded for a file name (file names have 255 bytes; the rest is
    /// for the suffixes).
    static let maximumEncodedKeyLength = 200

    /// `key` as the start of a file name: every byte outside `a-z 0-9 - _` as `%XX`.
    static func fileName(for key: String) throws -> String {
        guard !key.isEmpty else { throw FlowSnapshotStoreError.invalidKey(key) }
        var name = ""
        for byte in key.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"):
                name.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                name += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        guard name.utf8.count <= maximumEncodedKeyLength else {
            throw FlowSnapshotStoreError.invalidKey(key)
        }
        return name
    }
}

/// Why a ``FlowSnapshotStore`` refused a call.
public enum FlowSnapshotStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The key is empty, or longer than a file name allows once encoded (200 bytes).
    case invalidKey(String)

    /// A sentence saying what went wrong.
    public var description: String {
        switch self {
        case .invalidKey(let key):
            return "'\(key)' cannot be a store key: a key is not empty and at most 200 bytes "
                + "once encoded for a file name"
        }
    }
}
