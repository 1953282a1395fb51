import FlowKit

/// A leaf node the terminal can draw and send commands to.
///
/// The session draws the focused screen as a panel (``title``, the focused path, ``content()``
/// and the usages of ``commandNames``) and hands it every command of ``commandNames``, after
/// checking the number of words against ``DemoCommand/maxArguments``.
@MainActor
protocol DemoScreen: FlowController {
    /// The panel's title.
    var title: String { get }
    /// The panel's body lines.
    func content() -> [String]
    /// The screen's own commands (names from ``DemoCommand/all``), in panel order.
    var commandNames: [String] { get }
    /// Commands the screen also takes that its panel does not list (`help` does, under
    /// "Also here"); none by default.
    var unlistedCommandNames: [String] { get }
    /// Runs `command` (one of ``commandNames``) with `arguments`.
    func perform(_ command: String, arguments: [String])
    /// Why `command`, a command of another screen, does not apply here, e.g. `already at
    /// the list.`: the session prints it after the command's name.
    func whyNot(_ command: String) -> String
}

extension DemoScreen {
    var unlistedCommandNames: [String] { [] }
}
