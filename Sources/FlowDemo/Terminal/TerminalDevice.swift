import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The few system calls the binary needs for its terminal: is a descriptor a terminal, how
/// wide it is, and writing without buffering.
public enum TerminalDevice {
    /// Whether `descriptor` is a terminal.
    public static func isTerminal(_ descriptor: Int32) -> Bool {
        isatty(descriptor) != 0
    }

    /// The width the terminal on `descriptor` reports, if it is one and says.
    public static func columns(of descriptor: Int32) -> Int? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else {
            return nil
        }
        return Int(size.ws_col)
    }

    /// Writes all of `text` to `descriptor`, retrying after interruptions; gives up quietly
    /// if the descriptor is gone (a closed terminal).
    public static func write(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { buffer in
                systemWrite(descriptor, buffer.baseAddress, buffer.count)
            }
            if written > 0 {
                bytes = bytes.dropFirst(written)
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return
            }
        }
    }
}

private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}

private func systemRead(
    _ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int
)
    -> Int
{
    read(descriptor, buffer, count)
}

/// Ignores signal `number` as a signal and writes `byte` to `descriptor` whenever it arrives.
///
/// Nonisolated on purpose: the handler runs on a Dispatch queue, not the main actor.
private func catchSignal(
    _ number: Int32, writing byte: UInt8, to descriptor: Int32
)
    -> any DispatchSourceSignal
{
    signal(number, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
    source.setEventHandler {
        var value = byte
        _ = systemWrite(descriptor, &value, 1)
    }
    // `resume()` registers the source asynchronously; a signal that arrived before the
    // registration took effect would be ignored (SIG_IGN) and lost. Wait until it is in
    // place, so that once the demo draws its first prompt every signal reaches the pipe.
    let registered = DispatchSemaphore(value: 0)
    source.setRegistrationHandler { registered.signal() }
    source.resume()
    registered.wait()
    return source
}

/// A terminal switched to raw mode (no line buffering, no echo, Ctrl-C and Ctrl-Z as bytes)
/// until ``restore()``. Output processing stays on, so `\n` still starts a new line.
public final class RawTerminalMode {
    private let descriptor: Int32
    private var saved: termios
    private var isRestored = false

    /// Switches the terminal on `descriptor` to raw mode; `nil` if it is not a terminal.
    public init?(descriptor: Int32) {
        var original = termios()
        guard tcgetattr(descriptor, &original) == 0 else { return nil }
        var raw = original
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL | INLCR | IGNCR)
        withUnsafeMutableBytes(of: &raw.c_cc) { controls in
            controls[Int(VMIN)] = 1
            controls[Int(VTIME)] = 0
        }
        // TCSANOW, not TCSAFLUSH: keys typed before the demo started are kept.
        guard tcsetattr(descriptor, TCSANOW, &raw) == 0 else { return nil }
        self.descriptor = descriptor
        saved = original
    }

    /// Puts the terminal back as it was. Safe to call more than once.
    public func restore() {
        guard !isRestored else { return }
        isRestored = true
        _ = tcsetattr(descriptor, TCSANOW, &saved)
    }

    deinit { restore() }
}

/// What the demo's input produced next.
public enum DemoInputEvent: Equatable, Sendable {
    /// Bytes read from standard input.
    case bytes([UInt8])
    /// Standard input ended (or the terminal hung up).
    case endOfInput
    /// SIGINT, SIGTERM or SIGHUP arrived: quit as `quit` does.
    case interrupt
    /// The terminal changed size (SIGWINCH): redraw.
    case resize
}

/// Where the demo's runner gets input from: ``StandardInput`` in the binary, a script in the
/// tests.
@MainActor
public protocol DemoInputSource: AnyObject {
    /// Waits for and returns the next event.
    func next() -> DemoInputEvent
    /// Waits at most `milliseconds` for the next event; `nil` if none came (the runner draws
    /// a transition meanwhile).
    func next(waitingAtMost milliseconds: Int) -> DemoInputEvent?
}

extension DemoInputSource {
    /// Waits for the next event as ``next()`` does: a script's next event is always ready.
    public func next(waitingAtMost milliseconds: Int) -> DemoInputEvent? { next() }
}

/// Standard input, read so that a signal interrupts a blocked read.
///
/// The signals (SIGINT, SIGTERM, SIGHUP; SIGWINCH when asked) are ignored as signals and
/// delivered through Dispatch signal sources, whose handlers write a byte to a pipe. ``next()``
/// waits with `poll` on standard input and that pipe, so Ctrl-C reaches the quit path while a
/// read is pending instead of killing the process.
@MainActor
public final class StandardInput: DemoInputSource {
    private let descriptor: Int32
    private let wake: (read: Int32, write: Int32)
    private var sources: [any DispatchSourceSignal] = []
    private var buffer = [UInt8](repeating: 0, count: 4096)

    private static let interruptByte: UInt8 = 1
    private static let resizeByte: UInt8 = 2

    /// Starts catching the signals; standard input is read by ``next()``.
    ///
    /// - Parameters:
    ///   - descriptor: The descriptor to read (0).
    ///   - watchesResize: Whether to report SIGWINCH as ``DemoInputEvent/resize``.
    public init(descriptor: Int32 = 0, watchesResize: Bool) {
        self.descriptor = descriptor
        var ends: [Int32] = [0, 0]
        precondition(pipe(&ends) == 0, "StandardInput: pipe() failed with errno \(errno)")
        wake = (ends[0], ends[1])
        var signals = [(SIGINT, Self.interruptByte), (SIGTERM, Self.interruptByte)]
        signals.append((SIGHUP, Self.interruptByte))
        if watchesResize { signals.append((SIGWINCH, Self.resizeByte)) }
        let writeEnd = ends[1]
        for (number, byte) in signals {
            sources.append(catchSignal(number, writing: byte, to: writeEnd))
        }
    }

    public func next() -> DemoInputEvent {
        // Without a time limit `poll` never returns 0, so there is always an event.
        next(waitingAtMost: -1) ?? .endOfInput
    }

    /// Waits at most `milliseconds` (-1: without limit) for the next event.
    public func next(waitingAtMost milliseconds: Int) -> DemoInputEvent? {
        while true {
            var descriptors = [
                pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
                pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&descriptors, 2, Int32(clamping: milliseconds))
            if ready == 0 { return nil }
            if ready < 0 {
                if errno == EINTR { continue }
                return .endOfInput
            }
            if descriptors[0].revents != 0 {
                var byte: UInt8 = 0
                _ = systemRead(wake.read, &byte, 1)
                return byte == Self.resizeByte ? .resize : .interrupt
            }
            guard descriptors[1].revents != 0 else { continue }
            let count = buffer.withUnsafeMutableBytes {
                systemRead(descriptor, $0.baseAddress, $0.count)
            }
            if count > 0 { return .bytes(Array(buffer[..<count])) }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            return .endOfInput  // 0: end of file; EIO: the terminal hung up
        }
    }
}
