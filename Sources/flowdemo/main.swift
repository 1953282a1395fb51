// The flowdemo binary: parses the options, describes the terminal and hands standard input
// to DemoRunner. Everything else is in FlowDemo, where the tests run the same code.
import FlowDemo
import FlowKitRecorder
import Foundation

let options: DemoOptions
do {
    options = try DemoOptions(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(2)
}
if options.showHelp {
    TerminalDevice.write(DemoOptions.helpText + "\n", to: STDOUT_FILENO)
    exit(0)
}

let stdoutIsTerminal = TerminalDevice.isTerminal(STDOUT_FILENO)
var terminal = DemoTerminal.detect(
    stdinIsTerminal: TerminalDevice.isTerminal(STDIN_FILENO),
    stdoutIsTerminal: stdoutIsTerminal,
    columns: TerminalDevice.columns(of: STDOUT_FILENO),
    environment: ProcessInfo.processInfo.environment)
// Transitions take time on an interactive terminal (or with --animate); the walkthrough and
// piped input show each at once, so their transcripts stay the same.
let milliseconds =
    options.forceWalkthrough
    ? 0 : options.animationMilliseconds(interactive: terminal.input == .editor)
// The screen's width decides whether the catalog's split shows its columns side by side:
// --width fixes it; otherwise it is the terminal's, followed on SIGWINCH (80 when output is
// not a terminal, so transcripts stay the same). The walkthrough always uses 80.
let columnsNow = { stdoutIsTerminal ? TerminalDevice.columns(of: STDOUT_FILENO) : nil }
let followsTerminal = options.width == nil && stdoutIsTerminal && !options.forceWalkthrough
let width =
    options.forceWalkthrough
    ? DemoTerminal.fallbackColumns : options.width(terminalColumns: columnsNow())

let app: DemoApp
do {
    app = try DemoApp.shipped(
        stateFile: options.stateFile.map { DemoStateFile(path: $0) },
        transitionTime: .milliseconds(milliseconds), width: width)
} catch {
    FileHandle.standardError.write(Data("flowdemo: \(error)\n".utf8))
    exit(1)
}

// --record: the session goes to a file as it happens (written out whenever the demo waits for
// input: see FlowRecorder.flush()).
var recorder: FlowRecorder?
if let path = options.recordFile {
    do {
        recorder = try FlowRecorder(
            writingTo: path, options: FlowRecorder.Options(snapshots: true))
        recorder?.attach(app.windows)
    } catch {
        FileHandle.standardError.write(Data("flowdemo: \(error)\n".utf8))
        exit(1)
    }
}

if options.forceWalkthrough {
    TerminalDevice.write(await app.walkthrough().map { $0 + "\n" }.joined(), to: STDOUT_FILENO)
} else {
    let input = StandardInput(watchesResize: terminal.input == .editor || followsTerminal)
    let rawMode = terminal.input == .editor ? RawTerminalMode(descriptor: STDIN_FILENO) : nil
    if terminal.input == .editor && rawMode == nil {
        terminal.input = .lines  // raw mode refused: let the terminal driver edit lines
        terminal.clearsScreen = false
    }
    let runner = DemoRunner(
        app: app, terminal: terminal, columns: { TerminalDevice.columns(of: STDOUT_FILENO) },
        layoutWidth: followsTerminal ? columnsNow : nil,
        write: { TerminalDevice.write($0, to: STDOUT_FILENO) })
    await runner.run(input)
    rawMode?.restore()
}
recorder?.finish()
exit(app.liveNodes.alive == 0 ? 0 : 1)
