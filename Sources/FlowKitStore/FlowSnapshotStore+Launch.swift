import FlowKit
import Foundation

// The crash-loop guard: a launch restores a saved snapshot only after marking the
// restoration as in progress (a file, flushed to the disk), and the app clears the mark once
// the restored tree is settled on screen. A launch that finds the mark still set knows the
// last one crashed (or was killed) while restoring or before it settled: it sets the snapshot
// aside (kept for a bug report, never restored again) and starts fresh. Restoring is never
// retried blindly.

/// How ``FlowSnapshotStore/start(_:for:routeTypes:)`` started the runtime.
public enum FlowStoreLaunch: Sendable, Equatable {
    /// Nothing was saved under the key: a fresh start (`FlowRuntime.start()`).
    case fresh
    /// The saved snapshot was restored, with this report. The restoration stays marked as
    /// in progress until ``FlowSnapshotStore/markSettled(for:)``.
    case restored(FlowRestoreReport)
    /// The saved snapshot was set aside and the runtime started fresh.
    case quarantined(FlowStoreQuarantine)
}

/// A snapshot a launch set aside instead of restoring it, and why.
public struct FlowStoreQuarantine: Sendable, Equatable, CustomStringConvertible {
    /// Where the snapshot is kept (in the store's `quarantine/` folder); `REASON` is in the
    /// `.reason.txt` file beside it.
    public let file: URL
    /// Why it was set aside: the last launch did not settle after restoring it, it does not
    /// decode, or it does not restore (the error).
    public let reason: String

    /// Creates a record.
    public init(file: URL, reason: String) {
        self.file = file
        self.reason = reason
    }

    /// `set aside as FILE: REASON`.
    public var description: String { "set aside as \(file.path): \(reason)" }
}

extension FlowSnapshotStore {
    /// The reason given for a snapshot whose restoration did not settle.
    public static let unsettledReason =
        "the last launch restored it and did not settle (it crashed or was stopped while "
        + "restoring, or before markSettled)"

    /// Starts `runtime` from what is saved under `key`, guarding against crash loops.
    ///
    /// - If the restoration of the last launch is still marked as in progress (it never
    ///   settled: the app crashed or was killed while restoring, or right after), the
    ///   snapshot is set aside and the runtime starts fresh: ``FlowStoreLaunch/quarantined(_:)``.
    /// - Else, if a snapshot is saved, the restoration is marked as in progress (the mark is
    ///   on the disk before anything is built) and the runtime starts from it
    ///   (`FlowRuntime.start(restoring:routeTypes:)`): ``FlowStoreLaunch/restored(_:)``.
    ///   Call `markSettled(for:)` once the restored tree is on screen. A snapshot that
    ///   does not decode or restore is set aside too, and the runtime starts fresh.
    /// - Else the runtime starts fresh: ``FlowStoreLaunch/fresh``.
    ///
    /// Leftovers of a save that was killed (temporary files) are removed first.
    ///
    /// - Throws: ``FlowSnapshotStoreError/invalidKey(_:)``; the file system's error when the
    ///   mark cannot be written (nothing was started); `FlowError.runtimeAlreadyStarted`
    ///   and `FlowError.changeInProgress(node:)` (the snapshot stays, unmarked); what
    ///   `FlowRuntime.start()` throws for the fresh start.
    @MainActor
    public func start(
        _ runtime: FlowRuntime, for key: String,
        routeTypes: [any (Codable & Hashable & Sendable).Type] = []
    ) throws -> FlowStoreLaunch {
        let snapshotURL = try snapshotURL(for: key)
        let markURL = try markURL(for: key)
        _AtomicFile.removeLeftovers(of: snapshotURL)
        let files = FileManager.default
        if files.fileExists(atPath: markURL.path) {
            let quarantine = try setAside(key, reason: Self.unsettledReason)
            try clearMark(markURL)
            try runtime.start()
            return quarantine.map(FlowStoreLaunch.quarantined) ?? .fresh
        }
        guard files.fileExists(atPath: snapshotURL.path) else {
            try runtime.start()
            return .fresh
        }
        let snapshot: FlowSnapshot
        do {
            snapshot = try JSONDecoder().decode(
                FlowSnapshot.self, from: try Data(contentsOf: snapshotURL))
        } catch {
            return try startFresh(
                runtime, settingAside: key, reason: "it does not decode: \(error)")
        }
        try _AtomicFile.write(Data("restoring\n".utf8), to: markURL)
        do {
            return .restored(try runtime.start(restoring: snapshot, routeTypes: routeTypes))
        } catch let error as FlowError
            where error == .runtimeAlreadyStarted || error.isChangeInProgress
        {
            try clearMark(markURL)
            throw error
        } catch {
            try clearMark(markURL)
            return try startFresh(
                runtime, settingAside: key, reason: "it does not restore: \(error)")
        }
    }

    /// Says the restoration of `key` is settled: the restored tree is on screen and working
    /// (for example after the first frame, or `FlowTransitions.settled()`). The next launch
    /// restores what is saved again. Does nothing if no restoration is marked.
    ///
    /// - Throws: ``FlowSnapshotStoreError/invalidKey(_:)``; the file system's error.
    public func markSettled(for key: String) throws {
        try clearMark(try markURL(for: key))
    }

    /// Whether a restoration of `key` is marked as in progress (started, not yet settled).
    public func isRestoring(_ key: String) -> Bool {
        guard let url = try? markURL(for: key) else { return false }
        return FileManager.default.fileExists(atPath: url.path)
    }

    // MARK: Quarantine

    @MainActor
    private func startFresh(
        _ runtime: FlowRuntime, settingAside key: String, reason: String
    ) throws -> FlowStoreLaunch {
        let quarantine = try setAside(key, reason: reason)
        try runtime.start()
        return quarantine.map(FlowStoreLaunch.quarantined) ?? .fresh
    }

    /// Moves `key`'s snapshot into `quarantine/` with a file saying `reason`; `nil` if there
    /// is no snapshot.
    func setAside(_ key: String, reason: String) throws -> FlowStoreQuarantine? {
        let source = try snapshotURL(for: key)
        guard FileManager.default.fileExists(atPath: source.path) else { return nil }
        let name = try Self.fileName(for: key)
        try FileManager.default.createDirectory(
            at: quarantineURL, withIntermediateDirectories: true)
        let number =
            (quarantined(for: key).last.flatMap {
                Int($0.lastPathComponent.dropFirst(name.count + 1).prefix { $0 != "." })
            } ?? 0) + 1
        let target = quarantineURL.appendingPathComponent("\(name).\(number).snapshot.json")
        try _AtomicFile.write(
            Data((reason + "\n").utf8),
            to: quarantineURL.appendingPathComponent("\(name).\(number).reason.txt"))
        guard rename(source.path, target.path) == 0 else {
            throw _SystemCallError(operation: "renaming", path: source.path, code: errno)
        }
        _AtomicFile.flushFolder(quarantineURL)
        _AtomicFile.flushFolder(directory)
        return FlowStoreQuarantine(file: target, reason: reason)
    }

    func clearMark(_ url: URL) throws {
        guard unlink(url.path) == 0 || errno == ENOENT else {
            throw _SystemCallError(operation: "removing", path: url.path, code: errno)
        }
        _AtomicFile.flushFolder(directory)
    }
}

extension FlowError {
    /// Whether this is `FlowError.changeInProgress(node:)`.
    fileprivate var isChangeInProgress: Bool {
        if case .changeInProgress = self { return true }
        return false
    }
}
