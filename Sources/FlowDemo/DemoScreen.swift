import FlowKit

/// A leaf node the terminal can draw and send commands to.
///
/// The session draws the focused screen as a panel (``title``, the focused path, ``content()``
/// and ``commandUsages``) and hands it every command that is not global.
@MainActor
protocol DemoScreen: FlowController {
    /// The panel's title.
    var title: String { get }
    /// The panel's body lines.
    func content() -> [String]
    /// The screen's own commands as the user types them, e.g. `select <n>`.
    var commandUsages: [String] { get }
    /// Runs `command` with `arguments`; returns `false` if the screen has no such command
    /// (then it must have changed nothing and written nothing).
    func perform(_ command: String, arguments: [String]) -> Bool
}

extension DemoScreen {
    /// The command words of ``commandUsages``.
    var commandNames: [String] {
        commandUsages.map { String($0.prefix { $0 != " " }) }
    }
}
