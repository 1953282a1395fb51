/// Where the demo's nodes write what the user should read; the session hands the lines to
/// the binary (or a test) after each command.
///
/// Set on the app root under ``ConsoleKey``, so every node reaches it.
@MainActor
public final class DemoConsole {
    private var pending: [DemoLine] = []

    /// Creates an empty console.
    public init() {}

    /// Adds `line` to the output of the current command.
    public func write(_ line: String, style: DemoStyle = .plain) {
        pending.append(DemoLine(line, style: style))
    }

    /// Adds `lines` to the output of the current command.
    public func write(_ lines: [String], style: DemoStyle = .plain) {
        pending += lines.map { DemoLine($0, style: style) }
    }

    /// Returns the lines written since the last call and forgets them.
    public func take() -> [DemoLine] {
        defer { pending.removeAll() }
        return pending
    }
}
