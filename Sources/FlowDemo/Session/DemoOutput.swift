/// What one step of the demo produced: the command as echoed, its messages, and the focused
/// screen's panel after it.
///
/// ``plainLines(echo:)`` is the transcript style (the panel only when it changed);
/// ``DemoRenderer`` draws the same output for a terminal.
public struct DemoOutput: Equatable, Sendable {
    /// The command as it is echoed (sanitised, shortened if refused as too long); `nil` for
    /// output no command caused (the greeting, end of input, an interrupt).
    public var command: String?
    /// The messages, in the order they were written.
    public var lines: [DemoLine]
    /// The focused screen's panel after the step; `nil` once the demo has quit.
    public var panel: DemoPanel?
    /// The columns of the split the focused screen is in, side by side, when the split is
    /// expanded; drawn instead of ``panel`` then.
    public var split: DemoSplitView?
    /// Whether the panel differs from the one drawn before (or must be drawn anyway, as at
    /// the start and after `help`): the transcript draws it only then.
    public var isPanelNew: Bool

    /// Creates an output.
    public init(
        command: String? = nil, lines: [DemoLine] = [], panel: DemoPanel? = nil,
        split: DemoSplitView? = nil, isPanelNew: Bool = false
    ) {
        self.command = command
        self.lines = lines
        self.panel = panel
        self.split = split
        self.isPanelNew = isPanelNew
    }

    /// The output as transcript lines: `> command` when `echo`, the messages, then the panel
    /// (or the split's panels side by side) if it is new.
    public func plainLines(echo: Bool) -> [String] {
        var result = echo ? command.map { ["> " + $0] } ?? [] : []
        result += lines.map(\.text)
        if isPanelNew, let panel { result += split?.lines ?? panel.lines }
        return result
    }
}
