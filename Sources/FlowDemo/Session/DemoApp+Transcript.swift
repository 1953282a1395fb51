import FlowKit

extension DemoApp {
    /// Starts the runtime and returns the greeting and the first panel.
    public func start() async -> [String] {
        await startStep().plainLines(echo: false)
    }

    /// Runs one command (see ``step(_:isCutShort:)``) and returns its output lines.
    public func run(_ line: String) async -> [String] {
        await step(line).plainLines(echo: false)
    }

    /// `"> "` and the command, then its output: how piped input and the walkthrough show each
    /// command.
    public func echoAndRun(_ line: String) async -> [String] {
        await step(line).plainLines(echo: true)
    }

    /// What happens when the input ends without `quit`: a note, then `quit`.
    public func endOfInput() async -> [String] {
        await endOfInputStep().plainLines(echo: false)
    }

    /// What Ctrl-C does: a note, then `quit`.
    public func interrupt() async -> [String] {
        await interruptStep().plainLines(echo: false)
    }

    /// Stops the runtime and reports how many demo `FlowController` instances are still alive.
    public func quit() async -> [String] {
        await quitStep().plainLines(echo: false)
    }

    /// The output for `commands` fed as piped input: the greeting, then each command echoed
    /// before its output, stopping at `quit` or quitting at the end.
    public func transcript(of commands: [String]) async -> [String] {
        var lines = await start()
        for command in commands where !hasQuit {
            lines += await echoAndRun(command)
        }
        return lines + (await endOfInput())
    }
}
