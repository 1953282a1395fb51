import Foundation

/// A built executable of this package (`flowinspect`, `flowdemo`, `flowchart`), found next to
/// the test bundle or in `.build/debug`.
func findBinary(_ name: String) throws -> URL {
    var directories: [URL] = []
    let starts =
        [Bundle.main.executableURL, URL(fileURLWithPath: CommandLine.arguments[0])]
        + Bundle.allBundles.map(\.bundleURL)
    for start in starts.compactMap({ $0 }) {
        var directory = start.deletingLastPathComponent()
        for _ in 0..<4 {
            directories.append(directory)
            directory = directory.deletingLastPathComponent()
        }
    }
    directories.append(packageRoot.appendingPathComponent(".build/debug"))
    for directory in directories {
        let candidate = directory.appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    throw MissingBinary(name: name)
}

struct MissingBinary: Error, CustomStringConvertible {
    let name: String
    var description: String { "\(name) is not built: run swift build first" }
}

/// The package's root folder.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// What a finished process printed, and its status.
struct Finished {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs `executable` with `arguments` (and `stdin`), and waits for it.
func run(_ executable: URL, _ arguments: [String], stdin: String = "") throws -> Finished {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let input = Pipe()
    let output = Pipe()
    // Standard error goes to a file, read once the process ended (no second pipe to drain).
    let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent(
        "stderr-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: errorFile) }
    let errors = try FileHandle(forWritingTo: errorFile)
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    input.fileHandleForWriting.write(Data(stdin.utf8))
    try input.fileHandleForWriting.close()
    let out = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try errors.close()
    let err = FileManager.default.contents(atPath: errorFile.path) ?? Data()
    return Finished(
        status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
        stderr: String(decoding: err, as: UTF8.self))
}

/// ``run(_:_:stdin:)`` on a thread of its own, so that a test on the main actor does not
/// block it (other suites' tests need it meanwhile).
func runOffMainActor(_ executable: URL, _ arguments: [String]) async throws -> Finished {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(with: Result { try run(executable, arguments) })
        }
    }
}

/// A new empty temporary folder.
func temporaryFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "flowinspect-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}
