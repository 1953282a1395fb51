import FlowKit

extension DemoApp {
    /// The focused screen's panel now; while a swipe is in progress, its content ends with
    /// how far the swipe has gone.
    func currentPanel() -> DemoPanel? {
        guard !hasQuit, let node = runtime.focusedNode else { return nil }
        var global = Self.globalCommands
        if windows.scenes.count > 1 { global.insert(contentsOf: DemoCommand.windowNames, at: 2) }
        var panel = panel(for: node, tabBar: visibleTabs?.barText, globalCommands: global)
        panel?.windowBar = windowBar
        return panel
    }

    /// The panel of the screen `node`, if it is one; the focused one ends with the swipe's
    /// progress while a swipe is in progress.
    func panel(
        for node: FlowController, tabBar: String?, globalCommands: [String]
    ) -> DemoPanel? {
        guard let screen = node as? any DemoScreen else { return nil }
        let swipe = node === runtime.focusedNode ? swipeLine.map { ["", $0] } ?? [] : []
        return DemoPanel(
            title: screen.title, path: node.path, tabBar: tabBar,
            content: screen.content() + swipe,
            localCommands: localCommands(at: node).map(\.usage),
            globalCommands: globalCommands)
    }

    /// The output of a step: what the nodes wrote, and the panel (with the split's other
    /// columns when it is expanded), new if it changed since it was last drawn (or always,
    /// with `forcePanel`).
    func finish(command: String?, forcePanel: Bool = false) -> DemoOutput {
        let panel = currentPanel()
        let split = panel == nil ? nil : currentSplitView()
        let isNew = panel != nil && (forcePanel || panel != lastPanel || split != lastSplit)
        if isNew {
            lastPanel = panel
            lastSplit = split
        }
        return DemoOutput(
            command: command, lines: console.take(), panel: panel, split: split,
            isPanelNew: isNew)
    }
}
