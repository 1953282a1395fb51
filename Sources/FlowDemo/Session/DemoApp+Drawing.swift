import FlowKit

extension DemoApp {
    /// The focused screen's panel now; while a swipe is in progress, its content ends with
    /// how far the swipe has gone.
    func currentPanel() -> DemoPanel? {
        guard !hasQuit, let screen = focusedScreen else { return nil }
        return DemoPanel(
            title: screen.title,
            path: runtime.focusedNode?.path ?? "",
            tabBar: visibleTabs?.barText,
            content: screen.content() + (swipeLine.map { ["", $0] } ?? []),
            localCommands: localCommands.map(\.usage),
            globalCommands: Self.globalCommands)
    }

    /// The output of a step: what the nodes wrote, and the panel, new if it changed since it
    /// was last drawn (or always, with `forcePanel`).
    func finish(command: String?, forcePanel: Bool = false) -> DemoOutput {
        let panel = currentPanel()
        let isNew = panel != nil && (forcePanel || panel != lastPanel)
        if isNew { lastPanel = panel }
        return DemoOutput(command: command, lines: console.take(), panel: panel, isPanelNew: isNew)
    }
}
