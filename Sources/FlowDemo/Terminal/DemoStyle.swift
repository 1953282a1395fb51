/// What a line of output means, so a terminal can colour it; plain output ignores it.
public enum DemoStyle: Equatable, Sendable {
    /// Ordinary text.
    case plain
    /// Something worked: signed in, signed out, nothing leaked.
    case success
    /// Nothing changed and nothing is wrong: already on the last page, a filter result.
    case notice
    /// A refusal or failure: wrong password, a command that does not apply here.
    case error
    /// FlowKit's trace lines.
    case trace
    /// The echoed command and headings.
    case emphasis

    /// The ANSI SGR parameters for the style; `nil` for none.
    var sgr: String? {
        switch self {
        case .plain: return nil
        case .success: return "32"
        case .notice: return "33"
        case .error: return "31"
        case .trace: return "2"
        case .emphasis: return "1"
        }
    }

    /// `text` wrapped in this style's colour when `colored`, else `text`.
    func apply(to text: String, colored: Bool) -> String {
        guard colored, let sgr, !text.isEmpty else { return text }
        return "\u{1B}[\(sgr)m\(text)\u{1B}[0m"
    }
}

/// One line of a command's output and how it reads.
public struct DemoLine: Equatable, Sendable {
    /// The text, free of control characters.
    public var text: String
    /// What the line means.
    public var style: DemoStyle

    /// Creates a line.
    public init(_ text: String, style: DemoStyle = .plain) {
        self.text = text
        self.style = style
    }
}
