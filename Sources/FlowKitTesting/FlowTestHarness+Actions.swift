import FlowKit

extension FlowTestHarness {
    /// Sends `event` from `node`, as a screen would (see `FlowController.send(_:)`).
    ///
    ///     harness.send(ItemSelected(id: 3), from: harness.node("app/main/stack/list"))
    public func send<Event: FlowEvent>(
        _ event: Event, from node: FlowController,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
        column: UInt = #column
    ) {
        beginAction(
            "send(\(event.traceName), from: \(node.path))",
            _FailureLocation(fileID, filePath, line, column))
        node.send(event)
    }

    /// Sends `event` from the focused leaf (see `FlowRuntime.send(_:)`).
    public func send<Event: FlowEvent>(
        _ event: Event, fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        beginAction("send(\(event.traceName))", _FailureLocation(fileID, filePath, line, column))
        runtime.send(event)
    }

    /// Plays the platform's back button on `stack`: its top entry is popped as by
    /// `FlowStack.platformDidPop()` (no guards, the host is not told).
    ///
    /// - Returns: The popped entry (exited).
    /// - Throws: What `FlowStack.platformDidPop()` throws.
    @discardableResult
    public func platformBack(
        in stack: FlowStack, fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) throws -> FlowController {
        beginAction(
            "platformBack(in: \(stack.path))", _FailureLocation(fileID, filePath, line, column))
        return try stack.platformDidPop()
    }

    /// Plays a platform pop of every entry of `stack` above `entry` (a long-press on back).
    ///
    /// - Returns: The popped entries, topmost first.
    /// - Throws: What `FlowStack.platformDidPop(to:)` throws.
    @discardableResult
    public func platformBack(
        in stack: FlowStack, to entry: FlowController,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
        column: UInt = #column
    ) throws -> [FlowController] {
        beginAction(
            "platformBack(in: \(stack.path), to: \(entry.path))",
            _FailureLocation(fileID, filePath, line, column))
        return try stack.platformDidPop(to: entry)
    }

    /// Plays the platform's dismissal (a swipe-down) of what `presenter` presents, as by
    /// `FlowController.platformDidDismiss()`.
    ///
    /// - Returns: The dismissed node (exited).
    /// - Throws: What `FlowController.platformDidDismiss()` throws.
    @discardableResult
    public func platformDismiss(
        presentedBy presenter: FlowController, fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) throws -> FlowController {
        beginAction(
            "platformDismiss(presentedBy: \(presenter.path))",
            _FailureLocation(fileID, filePath, line, column))
        return try presenter.platformDidDismiss()
    }

    /// Moves the focus to `path`, a list of routes from a child of the root (a deep link); see
    /// `FlowRuntime.navigate(to:history:historyDefault:)`.
    ///
    /// - Throws: What the navigation throws; the tree is then unchanged.
    public func navigate(
        to path: [FlowRoute], history: FlowHistoryDepth? = nil,
        historyDefault: FlowRoute? = nil, fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) throws {
        beginAction(
            "navigate(to: \(path.map(\.description)))",
            _FailureLocation(fileID, filePath, line, column))
        try runtime.navigate(to: path, history: history, historyDefault: historyDefault)
    }

    /// Runs `body` as one action, for anything without its own method (a push, a present, a
    /// direct call on a node).
    ///
    ///     try harness.perform { try stack.push(SettingsScreen()) }
    public func perform<Result>(
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
        column: UInt = #column,
        _ body: () throws -> Result
    ) rethrows -> Result {
        beginAction("perform", _FailureLocation(fileID, filePath, line, column))
        return try body()
    }

    /// Runs `body`, which awaits, as one action: for apps whose flows await other flows
    /// (`run(_:_:)`), so that the tasks a step wakes belong to it.
    ///
    ///     await harness.perform { _ = await app.run("login alice wonderland") }
    public func perform<Result>(
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
        column: UInt = #column,
        _ body: () async throws -> Result
    ) async rethrows -> Result {
        beginAction("perform", _FailureLocation(fileID, filePath, line, column))
        return try await body()
    }

    /// Stops the runtime: the whole tree exits, innermost first.
    ///
    /// - Throws: `FlowError.runtimeNotStarted` if the runtime is not running.
    public func stop(
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
        column: UInt = #column
    ) throws {
        beginAction("stop()", _FailureLocation(fileID, filePath, line, column))
        try runtime.stop()
    }

    /// In exhaustive mode, fails if records from before this action were never checked, and
    /// drops them so the failure is reported once.
    private func beginAction(_ action: String, _ location: _FailureLocation) {
        guard exhaustivity == .on, !isFinished, !received.isEmpty else { return }
        let unchecked = received
        skipReceived()
        _recordFailure(
            "\(unchecked.count) record\(unchecked.count == 1 ? " was" : "s were") not checked "
                + "before \(action) (check them with expect, or call skipReceived()):\n"
                + _LineDiff.render(
                    expected: [], actual: unchecked, equal: ==, text: \.description),
            at: location)
    }
}
