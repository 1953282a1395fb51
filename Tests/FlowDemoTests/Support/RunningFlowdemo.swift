import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The built `flowdemo` running in the background, its input written and its output read a
/// piece at a time: through pipes, or on a pseudo-terminal (``inTerminal(columns:environment:)``)
/// so it sees a TTY. Every wait has a deadline; nothing sleeps.
final class RunningFlowdemo {
    let process = Process()
    private let input: Int32
    private let output: Int32
    private var retained: [AnyObject] = []
    private var closeOnFinish: [Int32] = []
    /// Everything read so far.
    private(set) var bytes: [UInt8] = []

    /// Everything read so far, as text.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    private init(input: Int32, output: Int32) {
        self.input = input
        self.output = output
    }

    deinit {
        if process.isRunning { process.terminate() }
        for descriptor in closeOnFinish { close(descriptor) }
    }

    /// Starts `flowdemo` with pipes for standard input and output (standard error is read
    /// with the output).
    static func piped(environment: [String: String] = [:]) throws -> RunningFlowdemo {
        let stdin = Pipe()
        let stdout = Pipe()
        let running = RunningFlowdemo(
            input: stdin.fileHandleForWriting.fileDescriptor,
            output: stdout.fileHandleForReading.fileDescriptor)
        running.retained = [stdin, stdout]
        running.process.executableURL = try flowdemoBinary()
        running.process.environment = environment
        running.process.standardInput = stdin
        running.process.standardOutput = stdout
        running.process.standardError = stdout
        try running.process.run()
        return running
    }

    /// Whether this system can make pseudo-terminals (`openpty`).
    static let canOpenTerminal: Bool = {
        var master: Int32 = -1
        var slave: Int32 = -1
        guard openpty(&master, &slave, nil, nil, nil) == 0 else { return false }
        close(master)
        close(slave)
        return true
    }()

    /// Starts `flowdemo` on a new pseudo-terminal `columns` wide: standard input, output and
    /// error are the terminal, as in a person's shell.
    static func inTerminal(columns: Int, environment: [String: String]) throws -> RunningFlowdemo {
        var master: Int32 = -1
        var slave: Int32 = -1
        var size = winsize(ws_row: 40, ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&master, &slave, nil, nil, &size) == 0 else {
            throw TerminalUnavailable(errno: errno)
        }
        let running = RunningFlowdemo(input: master, output: master)
        running.closeOnFinish = [master]
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        running.process.executableURL = try flowdemoBinary()
        running.process.environment = environment
        running.process.standardInput = terminal
        running.process.standardOutput = terminal
        running.process.standardError = terminal
        defer { close(slave) }  // the child has its own copies; keeping one would hide its exit
        try running.process.run()
        return running
    }

    /// Writes `text` to the demo's input.
    func send(_ text: String) {
        var data = Array(text.utf8)[...]
        while !data.isEmpty {
            let written = data.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
            if written <= 0 { return }
            data = data.dropFirst(written)
        }
    }

    /// Reads until the output contains `marker`, the output ends, or `timeout` passes.
    /// Returns whether `marker` arrived.
    @discardableResult
    func read(until marker: String, timeout: Duration = .seconds(20)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !text.contains(marker) {
            guard readSome(before: deadline) == .data else { return text.contains(marker) }
        }
        return true
    }

    /// Waits for the demo to exit and reads the rest of its output; `nil` if it is still
    /// running after `timeout` (it is then killed).
    func waitForExit(timeout: Duration = .seconds(20)) -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            guard ContinuousClock.now < deadline else {
                process.terminate()
                process.waitUntilExit()
                return nil
            }
            _ = readSome(before: min(deadline, ContinuousClock.now + .milliseconds(20)))
        }
        while readSome(before: min(deadline, ContinuousClock.now + .seconds(2))) == .data {}
        process.waitUntilExit()
        return process.terminationStatus
    }

    private enum ReadResult { case data, timedOut, ended }

    /// Reads what arrives before `deadline`.
    private func readSome(before deadline: ContinuousClock.Instant) -> ReadResult {
        let left = deadline - ContinuousClock.now
        let milliseconds = Int32(clamping: Int(max(0, (left / .milliseconds(1)).rounded(.up))))
        var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, milliseconds) > 0 else { return .timedOut }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { readBytes(output, $0.baseAddress, $0.count) }
        guard count > 0 else { return .ended }  // end of file, or EIO: the terminal closed
        bytes += buffer[..<count]
        return .data
    }
}

/// `read(2)`, under a name the type's `read(until:)` does not hide.
private func readBytes(
    _ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int
)
    -> Int
{
    read(descriptor, buffer, count)
}

struct TerminalUnavailable: Error, CustomStringConvertible {
    var errno: Int32
    var description: String { "openpty failed (errno \(errno))" }
}
