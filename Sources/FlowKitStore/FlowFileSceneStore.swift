import FlowKit
import Foundation

/// A `FlowSceneStore` in files: a `FlowApp`'s scene snapshots and its own
/// snapshot, each saved by a ``FlowSnapshotStore`` (replaced atomically), with the crash-loop
/// guard per scene.
///
///     let store = FlowFileSceneStore(directory: restorationFolder)
///     let app = FlowApp(store: store)
///     // ... connect scenes; once a restored scene is on screen:
///     try store.markSettled(sceneID)
///
/// Handing a scene its snapshot (`snapshot(of:)`, when `FlowApp` connects or
/// reconnects it) marks that scene's restoration as in progress, on the disk, before its tree
/// is built. `markSettled(_:)` clears the mark once the restored tree is on screen. A
/// later read that finds the mark still set (the process crashed or was killed while
/// restoring, or before it settled) sets the snapshot aside in the directory's `quarantine/`
/// folder with its reason, lists it in `quarantined`, and answers `nil`: the scene starts
/// fresh instead of crashing again. A snapshot that does not decode is set aside the same
/// way. Only that scene's snapshot is set aside; the others restore.
///
/// Files: the scene `ID`'s snapshot is the store key `scene-ID`, the app's own is `app` (see
/// ``FlowSnapshotStore`` for how keys become file names).
@MainActor
public final class FlowFileSceneStore: FlowSceneStore {
    /// The files.
    public let files: FlowSnapshotStore
    /// The snapshots set aside by this store since it was made, by scene, with the reason.
    public private(set) var quarantined: [FlowSceneID: FlowStoreQuarantine] = [:]

    /// A store in `directory` (created on the first save).
    public init(directory: URL) {
        files = FlowSnapshotStore(directory: directory)
    }

    /// The store key of `scene`'s snapshot.
    public static func key(of scene: FlowSceneID) -> String { "scene-" + scene.rawValue }

    /// The store key of the app's own snapshot.
    public static let appKey = "app"

    /// The snapshot saved for `scene`, with its restoration marked as in progress; `nil` if
    /// there is none, or if it was set aside (its last restoration never settled, or it does
    /// not decode: see `quarantined`).
    ///
    /// - Throws: the file system's error (then nothing was marked); an invalid key.
    public func snapshot(of scene: FlowSceneID) throws -> FlowSceneSnapshot? {
        let key = Self.key(of: scene)
        let snapshotURL = try files.snapshotURL(for: key)
        let markURL = try files.markURL(for: key)
        _AtomicFile.removeLeftovers(of: snapshotURL)
        if FileManager.default.fileExists(atPath: markURL.path) {
            if let quarantine = try files.setAside(
                key, reason: FlowSnapshotStore.unsettledReason)
            {
                quarantined[scene] = quarantine
            }
            try files.clearMark(markURL)
            return nil
        }
        guard FileManager.default.fileExists(atPath: snapshotURL.path) else { return nil }
        let snapshot: FlowSceneSnapshot
        do {
            snapshot = try JSONDecoder().decode(
                FlowSceneSnapshot.self, from: try Data(contentsOf: snapshotURL))
        } catch {
            if let quarantine = try files.setAside(key, reason: "it does not decode: \(error)") {
                quarantined[scene] = quarantine
            }
            return nil
        }
        try _AtomicFile.write(Data("restoring\n".utf8), to: markURL)
        return snapshot
    }

    /// Saves `snapshot` under its scene's key, replacing the previous one atomically (a save
    /// killed at any point leaves the previous snapshot readable).
    public func save(_ snapshot: FlowSceneSnapshot) throws {
        try write(snapshot, key: Self.key(of: snapshot.scene))
    }

    /// Deletes `scene`'s snapshot and its restoration mark.
    public func deleteSnapshot(of scene: FlowSceneID) throws {
        try files.remove(for: Self.key(of: scene))
    }

    /// The app's own snapshot, or `nil` (also when it does not decode).
    public func appSnapshot() throws -> FlowAppSnapshot? {
        let url = try files.snapshotURL(for: Self.appKey)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try? JSONDecoder().decode(FlowAppSnapshot.self, from: try Data(contentsOf: url))
    }

    /// Saves the app's own snapshot, atomically.
    public func save(_ snapshot: FlowAppSnapshot) throws {
        try write(snapshot, key: Self.appKey)
    }

    /// Says `scene`'s restoration is settled: its restored tree is on screen and working. The
    /// next read of its snapshot hands it over again instead of setting it aside.
    public func markSettled(_ scene: FlowSceneID) throws {
        try files.markSettled(for: Self.key(of: scene))
    }

    /// Whether `scene`'s restoration is marked as in progress.
    public func isRestoring(_ scene: FlowSceneID) -> Bool {
        files.isRestoring(Self.key(of: scene))
    }

    private func write(_ value: some Encodable, key: String) throws {
        let url = try files.snapshotURL(for: key)
        try FileManager.default.createDirectory(
            at: files.directory, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try _AtomicFile.write(try encoder.encode(value), to: url, crashingAt: files._crashPoint)
    }
}
