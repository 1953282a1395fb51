// The flowdemo binary: chooses the mode and does the I/O. Everything else is in FlowDemo,
// where the tests run the same code.
import FlowDemo
import Foundation

func emit(_ lines: [String]) {
    for line in lines { print(line) }
}

let options: DemoOptions
do {
    options = try DemoOptions(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(2)
}
if options.showHelp {
    print(DemoOptions.helpText)
    exit(0)
}

let app: DemoApp
do {
    app = try DemoApp.shipped()
} catch {
    FileHandle.standardError.write(Data("flowdemo: \(error)\n".utf8))
    exit(1)
}

if options.forceWalkthrough {
    emit(app.walkthrough())
} else if isatty(STDIN_FILENO) != 0 {
    // Interactive: draw, prompt, run, until quit or end of input (Ctrl-D).
    emit(app.start())
    while !app.hasQuit {
        print(app.prompt, terminator: "")
        fflush(nil)  // every stream: `stdout` is a global var Swift 6 refuses
        guard let line = readLine() else {
            print("")
            emit(app.endOfInput())
            break
        }
        emit(app.run(line))
    }
} else if let first = readLine() {
    // Piped: the same commands, one a line, each echoed before its output.
    emit(app.start())
    var next: String? = first
    while let line = next, !app.hasQuit {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty, !trimmed.hasPrefix("#") {
            emit(app.echoAndRun(trimmed))
        }
        next = app.hasQuit ? nil : readLine()
    }
    emit(app.endOfInput())
} else {
    // No input at all: the built-in walkthrough.
    emit(app.walkthrough())
}
exit(app.liveNodes.alive == 0 ? 0 : 1)
