import FlowKit
import Testing

extension FlowTestHarness {
    /// Sends `event` from `node`, as a screen would (see ``FlowController/send(_:)``).
    ///
    ///     harness.send(ItemSelected(id: 3), from: harness.node("app/main/stack/list"))
    public func send<Event: FlowEvent>(
        _ event: Event, from node: FlowController,
        sourceLocation: SourceLocation = #_sourceLocation, filePath: StaticString = #filePath
    ) {
        beginAction("send(\(event.traceName), from: \(node.path))", sourceLocation, filePath)
        node.send(event)
    }

    /// Sends `event` from the focused leaf (see ``FlowRuntime/send(_:)``).
    public func send<Event: FlowEvent>(
        _ event: Event, sourceLocation: SourceLocation = #_sourceLocation,
        filePath: StaticString = #filePath
    ) {
        beginAction("send(\(event.traceName))", sourceLocation, filePath)
        runtime.send(event)
    }

    /// Plays the platform's back button on `stack`: its top entry is popped as by
    /// ``FlowStack/platformDidPop()`` (no guards, the host is not told).
    ///
    /// - Returns: The popped entry (exited).
    /// - Throws: What ``FlowStack/platformDidPop()`` throws.
    @discardableResult
    public func platformBack(
        in stack: FlowStack, sourceLocation: SourceLocation = #_sourceLocation,
        filePath: StaticString = #filePath
    ) throws -> FlowController {
        beginAction("platformBack(in: \(stack.path))", sourceLocation, filePath)
        return try stack.platformDidPop()
    }

    /// Plays a platform pop of every entry of `stack` above `entry` (a long-press on back).
    ///
    /// - Returns: The popped entries, topmost first.
    /// - Throws: What ``FlowStack/platformDidPop(to:)`` throws.
    @discardableResult
    public func platformBack(
        in stack: FlowStack, to entry: FlowController,
        sourceLocation: SourceLocation = #_sourceLocation, filePath: StaticString = #filePath
    ) throws -> [FlowController] {
        beginAction("platformBack(in: \(stack.path), to: \(entry.path))", sourceLocation, filePath)
        return try stack.platformDidPop(to: entry)
    }

    /// Plays the platform's dismissal (a swipe-down) of what `presenter` presents, as by
    /// ``FlowController/platformDidDismiss()``.
    ///
    /// - Returns: The dismissed node (exited).
    /// - Throws: What ``FlowController/platformDidDismiss()`` throws.
    @discardableResult
    public func platformDismiss(
        presentedBy presenter: FlowController, sourceLocation: SourceLocation = #_sourceLocation,
        filePath: StaticString = #filePath
    ) throws -> FlowController {
        beginAction("platformDismiss(presentedBy: \(presenter.path))", sourceLocation, filePath)
        return try presenter.platformDidDismiss()
    }

    /// Moves the focus to `path`, a list of routes from a child of the root (a deep link); see
    /// ``FlowRuntime/navigate(to:history:historyDefault:)``.
    ///
    /// - Throws: What the navigation throws; the tree is then unchanged.
    public func navigate(
        to path: [FlowRoute], history: FlowHistoryDepth? = nil,
        historyDefault: FlowRoute? = nil, sourceLocation: SourceLocation = #_sourceLocation,
        filePath: StaticString = #filePath
    ) throws {
        beginAction(
            "navigate(to: \(path.map(\.description)))", sourceLocation, filePath)
        try runtime.navigate(to: path, history: history, historyDefault: historyDefault)
    }

    /// Runs `body` as one action, for anything without its own method (a push, a present, a
    /// direct call on a node).
    ///
    ///     try harness.perform { try stack.push(SettingsScreen()) }
    public func perform<Result>(
        sourceLocation: SourceLocation = #_sourceLocation, filePath: StaticString = #filePath,
        _ body: () throws -> Result
    ) rethrows -> Result {
        beginAction("perform", sourceLocation, filePath)
        return try body()
    }

    /// Stops the runtime: the whole tree exits, innermost first.
    ///
    /// - Throws: ``FlowError/runtimeNotStarted`` if the runtime is not running.
    public func stop(
        sourceLocation: SourceLocation = #_sourceLocation, filePath: StaticString = #filePath
    ) throws {
        beginAction("stop()", sourceLocation, filePath)
        try runtime.stop()
    }

    /// In exhaustive mode, fails if records from before this action were never checked, and
    /// drops them so the failure is reported once.
    private func beginAction(
        _ action: String, _ sourceLocation: SourceLocation, _ filePath: StaticString
    ) {
        guard exhaustivity == .on, !isFinished, !received.isEmpty else { return }
        let unchecked = received
        skipReceived()
        _recordFailure(
            "\(unchecked.count) record\(unchecked.count == 1 ? " was" : "s were") not checked "
                + "before \(action) (check them with expect, or call skipReceived()):\n"
                + _LineDiff.render(
                    expected: [], actual: unchecked, equal: ==, text: \.description),
            at: _FailureLocation(sourceLocation, filePath))
    }
}
