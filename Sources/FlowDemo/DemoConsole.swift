/// Where the demo's nodes write what the user should read; the session hands the lines to
/// the binary (or a test) after each command.
///
/// Set on the app root under ``ConsoleKey``, so every node reaches it.
@MainActor
public final class DemoConsole {
    private var pending: [String] = []

    /// Creates an empty console.
    public init() {}

    /// Adds `line` to the output of the current command.
    public func write(_ line: String) {
        pending.append(line)
    }

    /// Adds `lines` to the output of the current command.
    public func write(_ lines: [String]) {
        pending.append(contentsOf: lines)
    }

    /// Returns the lines written since the last call and forgets them.
    public func take() -> [String] {
        defer { pending.removeAll() }
        return pending
    }
}
