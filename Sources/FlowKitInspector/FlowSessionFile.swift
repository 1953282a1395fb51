import Foundation

/// A recorded session read back: the header, every record that could be read, and what could
/// not, each problem naming its line (see Docs/Inspector.md).
///
///     let session = try FlowSessionFile(text: text)   // throws only if nothing can be read
///     for problem in session.problems { print(problem) }   // "line 7: not valid JSON …"
///
/// A file is read as far as it can be: a line that is not JSON, or not a record this reader
/// knows, is skipped and reported; a last line cut off mid-way (the app crashed while writing)
/// is reported as such; a file from a newer format version is read for the records this
/// version knows.
public struct FlowSessionFile: Sendable {
    /// The newest format version this reader knows. It reads every older one too; they differ
    /// only in their steps: version 1's always carry their container's subtree and paths, and
    /// version 2's always say whether they are `full`, list both `exitedIDs` and `enteredIDs`
    /// (even empty), and begin a delta's `nodes` with its container's row.
    public static let readableVersion = 3

    /// A line that could not be read, and why.
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        /// The line's number, from 1.
        public let line: Int
        /// What is wrong with it.
        public let message: String

        /// `line 7: not valid JSON (…)`.
        public var description: String { "line \(line): \(message)" }
    }

    /// The header's format version.
    public let version: Int
    /// Whether the recorder wrote event payloads.
    public let hasPayloads: Bool
    /// Each record that was read, as its JSON text (one object), in file order.
    public let records: [String]
    /// The line number of each record.
    public let lineNumbers: [Int]
    /// What could not be read.
    public let problems: [Problem]
    /// How many records are steps (transactions).
    public let stepCount: Int

    /// The record kinds a session has, with the fields each must have (a step of versions 1
    /// and 2 must also have `full`, which version 3 leaves out when it is false).
    static let requiredFields: [String: [String]] = [
        "attach": ["rt", "t", "n"], "detach": ["rt", "t", "n"], "end": ["t"],
        "step": ["rt", "t", "n", "change", "nodes", "focus"],
        "event": ["rt", "t", "n", "event", "from", "result", "path"],
        "decision": ["rt", "t", "n", "change", "at", "decision", "reason"],
        "intent": ["rt", "t", "n", "action", "change", "note"],
        "result": ["rt", "t", "n", "outcome", "flow", "awaitedAt"],
        "failure": ["rt", "t", "n", "operation", "at", "error"],
        "notRestored": ["rt", "t", "n", "node", "reason"],
        "gesture": ["rt", "t", "n", "phase", "kind", "at"],
        "transition": ["rt", "t", "n", "phase", "token", "step", "kind", "container"],
        "coalesced": ["rt", "t", "n", "change", "container"],
    ]

    /// Reads a session from the text of its file.
    ///
    /// - Throws: ``FlowSessionError`` if nothing can be read: the file is empty, or its first
    ///   line is not a FlowKit session's header.
    public init(text: String) throws {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let endsWithNewline = text.hasSuffix("\n")
        if endsWithNewline { lines.removeLast() }
        guard let first = lines.first, !first.isEmpty else { throw FlowSessionError.empty }
        guard let header = Self.object(first),
            header["format"] as? String == "flowkit-session",
            let version = header["version"] as? Int
        else {
            throw FlowSessionError.notASession(
                line: 1,
                reason: Self.object(first) == nil
                    ? (lines.count == 1 && !endsWithNewline
                        ? "the file ends mid-line" : "not valid JSON")
                    : "no \"format\":\"flowkit-session\" header with a version")
        }
        var problems: [Problem] = []
        if version > Self.readableVersion {
            problems.append(
                Problem(
                    line: 1,
                    message:
                        "session format version \(version) is newer than this reader's "
                        + "(\(Self.readableVersion)): showing the records it knows"))
        }
        self.version = version
        hasPayloads = header["payloads"] as? Bool ?? false
        var records: [String] = []
        var numbers: [Int] = []
        var steps = 0
        for (index, text) in lines.enumerated().dropFirst() {
            let number = index + 1
            if text.isEmpty { continue }
            guard let object = Self.object(text) else {
                let isLast = index == lines.count - 1 && !endsWithNewline
                problems.append(
                    Problem(
                        line: number,
                        message: isLast
                            ? "the session ends mid-line (cut off, as by a crash): read up to line \(number - 1)"
                            : "not valid JSON (skipped)"))
                continue
            }
            guard let kind = object["k"] as? String else {
                problems.append(
                    Problem(line: number, message: "a record without a kind \"k\" (skipped)"))
                continue
            }
            guard let required = Self.requiredFields[kind] else {
                problems.append(
                    Problem(line: number, message: "unknown record kind '\(kind)' (skipped)"))
                continue
            }
            let missing =
                required.first { object[$0] == nil }
                ?? (kind == "step" && version < 3 && object["full"] == nil ? "full" : nil)
            if let missing {
                problems.append(
                    Problem(
                        line: number,
                        message: "a '\(kind)' record without its field '\(missing)' (skipped)"))
                continue
            }
            if kind == "step" { steps += 1 }
            records.append(String(text))
            numbers.append(number)
        }
        self.records = records
        lineNumbers = numbers
        self.problems = problems
        stepCount = steps
    }

    /// Reads the session file at `path`.
    ///
    /// - Throws: ``FlowSessionError``.
    public init(contentsOf path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FlowSessionError.cannotRead(path: path)
        }
        try self.init(text: String(decoding: data, as: UTF8.self))
    }

    static func object(_ text: Substring) -> [String: Any]? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) else {
            return nil
        }
        return object as? [String: Any]
    }
}

/// A session file that could not be read at all.
public enum FlowSessionError: Error, Equatable, CustomStringConvertible {
    /// The file could not be opened.
    case cannotRead(path: String)
    /// The file is empty.
    case empty
    /// The file does not start with a FlowKit session's header.
    case notASession(line: Int, reason: String)

    /// What is wrong, naming the line.
    public var description: String {
        switch self {
        case .cannotRead(let path): return "cannot read \(path)"
        case .empty: return "line 1: the file is empty: no session to show"
        case .notASession(let line, let reason):
            return "line \(line): not a FlowKit session (\(reason)): no session to show"
        }
    }
}
