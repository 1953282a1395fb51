import FlowKit
import Foundation

/// The file `flowdemo --state FILE` restores the navigation from at start and saves it to at
/// quit: a ``FlowSnapshot`` as JSON, pretty-printed with sorted keys so that it reads well.
///
/// It holds the tree (tabs, stacks with their covered entries, the detail, the rating sheet),
/// the list's page and filter, and the main flow's ``SavedSession`` (the username and what
/// they did, never the password).
public struct DemoStateFile: Sendable, Equatable {
    /// The largest file restored from: a saved state is a few kilobytes.
    public static let maximumSize = 1_000_000

    /// The route value types of the demo's snapshots that restoration is told about: the
    /// stacks' factories register ``CatalogRoute`` too, but a type passed here is known
    /// wherever it is stored.
    static let routeTypes: [any (Codable & Hashable & Sendable).Type] = [CatalogRoute.self]

    /// The path as given on the command line (messages show it so).
    public let path: String
    /// The file's URL.
    public let url: URL

    /// The path as messages show it: as given, without control characters.
    public var shownPath: String { DemoInput.sanitized(path) }

    /// The file at `path`, relative to `directory` (by default the current directory) unless
    /// it is absolute. Messages show `path` as given.
    public init(path: String, relativeTo directory: URL? = nil) {
        self.path = path
        if let directory, !path.hasPrefix("/") {
            url = directory.appendingPathComponent(path)
        } else {
            url = URL(fileURLWithPath: path)
        }
    }

    /// What reading the file found.
    public enum Loaded {
        /// No file at the path: a fresh start.
        case missing
        /// A snapshot, decoded (not yet restored): one window's.
        case snapshot(FlowSnapshot)
        /// Several windows' snapshots, decoded (not yet restored).
        case windows(DemoWindowsState)
        /// The file cannot be read or is not a snapshot; the reason is one line.
        case unreadable(String)
    }

    /// Reads and decodes the file.
    public func load() -> Loaded {
        let url = self.url
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            return .missing
        }
        guard !isDirectory.boolValue else {
            return .unreadable(DemoStateFileError.isDirectory.description)
        }
        let data: Data
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            data = try handle.read(upToCount: Self.maximumSize + 1) ?? Data()
        } catch {
            return .unreadable("cannot read it (\(Self.reason(for: error)))")
        }
        guard data.count <= Self.maximumSize else {
            return .unreadable(
                "it is larger than \(Self.maximumSize) bytes; a saved state is a few kilobytes")
        }
        do {
            if let windows = try? JSONDecoder().decode(DemoWindowsState.self, from: data) {
                return .windows(windows)
            }
            return .snapshot(try JSONDecoder().decode(FlowSnapshot.self, from: data))
        } catch {
            return .unreadable(Self.reason(for: error))
        }
    }

    /// Writes `snapshot` to the file, replacing it whole (never half-written).
    ///
    /// - Throws: An error if the file cannot be written.
    public func save(_ snapshot: FlowSnapshot) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory),
            isDirectory.boolValue
        {
            throw DemoStateFileError.isDirectory
        }
        try Self.encode(snapshot).write(to: url, options: .atomic)
    }

    /// Writes several windows' state to the file, replacing it whole.
    ///
    /// - Throws: An error if the file cannot be written.
    public func save(_ state: DemoWindowsState) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory),
            isDirectory.boolValue
        {
            throw DemoStateFileError.isDirectory
        }
        try Self.encode(state).write(to: url, options: .atomic)
    }

    /// The file's text for `snapshot`: JSON, pretty-printed, keys sorted, a newline at the end.
    public static func encode(_ snapshot: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(snapshot) + Data("\n".utf8)
    }

    /// Why restoring or saving failed, as one short line of plain text: decoding errors say
    /// where, FlowKit's errors say what they say. Control characters (the file may hold
    /// anything, and a reason can quote it) are removed, and the line is shortened.
    public static func reason(for error: any Error) -> String {
        let text: String
        switch error {
        case DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty:
            text = "it is not JSON (\(sentence(context.debugDescription)))"
        case DecodingError.dataCorrupted(let context):
            text = "\(sentence(context.debugDescription)) at \(where: context.codingPath)"
        case DecodingError.keyNotFound(let key, let context):
            text =
                "it is not a saved state: '\(key.stringValue)' is missing at "
                + "\(where: context.codingPath)"
        case DecodingError.typeMismatch(_, let context),
            DecodingError.valueNotFound(_, let context):
            text =
                "it is not a saved state: \(sentence(context.debugDescription)) at "
                + "\(where: context.codingPath)"
        case let error as CocoaError:
            text = fileProblem(error)
        default:
            text = String(describing: error)
        }
        return oneLine(text)
    }

    /// `text` without its final full stop (reasons are quoted inside sentences).
    private static func sentence(_ text: String) -> String {
        text.hasSuffix(".") ? String(text.dropLast()) : text
    }

    /// What went wrong with the file, in the words of the system call where there is one
    /// (Foundation's descriptions on Linux are often just a domain and a code).
    private static func fileProblem(_ error: CocoaError) -> String {
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError,
            underlying.domain == NSPOSIXErrorDomain
        {
            return String(cString: strerror(Int32(underlying.code)))
        }
        switch error.code {
        case .fileNoSuchFile, .fileReadNoSuchFile: return "no such file or directory"
        case .fileReadNoPermission, .fileWriteNoPermission: return "permission denied"
        case .fileWriteOutOfSpace: return "no space left on the device"
        case .fileWriteVolumeReadOnly: return "the file system is read-only"
        default: return sentence(error.localizedDescription)
        }
    }

    /// `text` as one short line of plain text: whitespace runs made one space, control
    /// characters and escape sequences removed, at most 300 characters.
    public static func oneLine(_ text: String) -> String {
        let words = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return DemoInput.shortened(String(DemoInput.sanitized(words).trimmingWhitespace), to: 300)
    }
}

extension String.StringInterpolation {
    /// A coding path as `root.children[1].route`, or `the top level` for none.
    fileprivate mutating func appendInterpolation(where path: [any CodingKey]) {
        guard !path.isEmpty else { return appendLiteral("the top level") }
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        appendLiteral(text)
    }
}

/// A state file that is not a file.
enum DemoStateFileError: Error, CustomStringConvertible {
    /// The path names a directory.
    case isDirectory

    var description: String {
        switch self {
        case .isDirectory: return "it is a directory, not a file"
        }
    }
}
